// Automated notices about moved topics, posted as the realm's notification bot.
import type { AppContext } from '../../context.ts';
import type { Realm, Stream, User } from '../../db/schema.ts';
import { insertUser, userByEmail } from '../../db/queries/users.ts';
import { newApiKey } from '../../lib/apikey.ts';
import { ROLE } from '../../lib/limits.ts';
import { runAction } from '../action.ts';
import { checkSendMessage } from './send.ts';

/** The realm's notification bot, created the first time it is needed. */
export async function notificationBot(app: AppContext, realm: Realm): Promise<User> {
  const email = `notification-bot@${app.config.externalHost.replace(/:\d+$/, '')}`;
  const existing = await userByEmail(app.db.kysely, realm.id, email);
  if (existing) return existing;
  return runAction(app, async (scope) => {
    const again = await userByEmail(scope.tx, realm.id, email);
    if (again) return again;
    const id = await insertUser(scope.tx, {
      realm_id: realm.id,
      email,
      delivery_email: email,
      full_name: 'Notification Bot',
      role: ROLE.MEMBER,
      is_active: 1,
      is_bot: 1,
      bot_type: 1,
      bot_owner_id: null,
      is_billing_admin: 0,
      can_create_users: 0,
      api_key: newApiKey(),
      password_hash: null,
      date_joined: scope.now,
      timezone: '',
      avatar_source: 'G',
      avatar_version: 1,
      settings: '{}',
    });
    return (await scope.tx.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow());
  });
}

export interface MoveNotice {
  oldStream: Stream;
  oldTopic: string;
  newStream: Stream;
  newTopic: string;
  count: number;
  /** The whole topic moved (change_all, or change_later from its first message). */
  wholeTopic: boolean;
  notifyOld: boolean;
  notifyNew: boolean;
}

const topicLink = (stream: Stream, topic: string) => `#**${stream.name}>${topic}**`;

export async function sendMoveNotices(app: AppContext, realm: Realm, mover: User, n: MoveNotice): Promise<void> {
  if (!n.notifyOld && !n.notifyNew) return;
  const bot = await notificationBot(app, realm);
  const who = `@_**${mover.full_name}|${mover.id}**`;
  const what = n.wholeTopic ? 'This topic was' : n.count === 1 ? 'A message was' : `${n.count} messages were`;
  if (n.notifyOld) {
    await checkSendMessage(app, bot, realm, {
      addressee: { type: 'stream', stream: n.oldStream, topic: n.oldTopic },
      content: `${what} moved ${n.wholeTopic ? '' : 'from this topic '}to ${topicLink(n.newStream, n.newTopic)} by ${who}.`.replace('  ', ' '),
      client: 'Internal',
      internal: true,
    });
  }
  if (n.notifyNew) {
    await checkSendMessage(app, bot, realm, {
      addressee: { type: 'stream', stream: n.newStream, topic: n.newTopic },
      content: `${what} moved here from ${topicLink(n.oldStream, n.oldTopic)} by ${who}.`,
      client: 'Internal',
      internal: true,
    });
  }
}
