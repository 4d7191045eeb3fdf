// Automated notices posted as the realm's notification bot: moved topics, and changes to streams.
import type { AppContext } from '../../context.ts';
import type { Realm, Stream, User } from '../../db/schema.ts';
import { insertUser, userByEmail, userByIdOrThrow } from '../../db/queries/users.ts';
import { newApiKey } from '../../lib/apikey.ts';
import { ROLE, STREAM_POST_POLICY } from '../../lib/permissions.ts';
import { runAction } from '../action.ts';
import { emitBotAdded } from '../bots.ts';
import { botSettings } from '../../db/queries/bots.ts';
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
    const bot = await userByIdOrThrow(scope.tx, id);
    // Clients list it like any bot from now on.
    await emitBotAdded(app, scope, realm, bot, await botSettings(scope.tx, id));
    return bot;
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

/** The topic of the notices about a stream's own changes (the reference's name for it). */
export const STREAM_EVENTS_TOPIC = 'channel events';

export interface StreamNotice {
  stream: Stream;
  topic: string;
  content: string;
}

/** `@_**Name|id**`: names the person without notifying them. */
const silentMention = (user: User): string => `@_**${user.full_name}|${user.id}**`;

/** The reference's names of the access policies a stream can have. */
export function accessPolicyName(s: Pick<Stream, 'invite_only' | 'history_public_to_subscribers' | 'is_web_public'>): string {
  if (s.is_web_public) return 'Web-public';
  if (!s.invite_only) return s.history_public_to_subscribers ? 'Public' : 'Public, protected history';
  return s.history_public_to_subscribers ? 'Private, shared history' : 'Private, protected history';
}

const POSTING_POLICY_NAMES: Record<number, string> = {
  [STREAM_POST_POLICY.EVERYONE]: 'All channel members can post',
  [STREAM_POST_POLICY.ADMINS]: 'Only organization administrators can post',
  [STREAM_POST_POLICY.FULL_MEMBERS]: 'Only organization full members can post',
  [STREAM_POST_POLICY.MODERATORS]: 'Only organization administrators and moderators can post',
};

const quoted = (description: string): string => `\n\`\`\`\` quote\n${description === '' ? '*No description.*' : description}\n\`\`\`\``;

/** The notices of the reference's notification bot about a stream's changes, as it words them. */
export const streamNotice = {
  renamed: (by: User, stream: Stream, oldName: string): StreamNotice => ({
    stream,
    topic: STREAM_EVENTS_TOPIC,
    content: `${silentMention(by)} renamed channel **${oldName}** to **${stream.name}**.`,
  }),
  described: (by: User, stream: Stream, oldDescription: string): StreamNotice => ({
    stream,
    topic: STREAM_EVENTS_TOPIC,
    content:
      `${silentMention(by)} changed the description for this channel.\n\n` +
      `* **Old description:**${quoted(oldDescription)}\n* **New description:**${quoted(stream.description)}`,
  }),
  access: (by: User, stream: Stream, oldPolicy: string): StreamNotice => ({
    stream,
    topic: STREAM_EVENTS_TOPIC,
    content: `${silentMention(by)} changed the [access permissions](/help/channel-permissions) for this channel from **${oldPolicy}** to **${accessPolicyName(stream)}**.`,
  }),
  posting: (by: User, stream: Stream, oldPolicy: number): StreamNotice => ({
    stream,
    topic: STREAM_EVENTS_TOPIC,
    content:
      `${silentMention(by)} changed the [posting permissions](/help/channel-posting-policy) for this channel:\n\n` +
      `* **Old permissions**: ${POSTING_POLICY_NAMES[oldPolicy] ?? ''}.\n* **New permissions**: ${POSTING_POLICY_NAMES[stream.stream_post_policy] ?? ''}.`,
  }),
  /** In the realm's new-stream announcements stream, for a subscribe call with `announce`. */
  created: (by: User, announcements: Stream, created: Stream[]): StreamNotice => {
    const links = created.map((s) => `#**${s.name}**`).join(', ');
    return {
      stream: announcements,
      topic: 'new channels',
      content: created.length > 1 ? `${silentMention(by)} created the following channels: ${links}.` : `${silentMention(by)} created a new channel ${links}.`,
    };
  },
};

/** Posts the notices as the notification bot, after the change they describe is committed. */
export async function sendStreamNotices(app: AppContext, realm: Realm, notices: StreamNotice[]): Promise<void> {
  if (notices.length === 0) return;
  const bot = await notificationBot(app, realm);
  for (const n of notices) {
    await checkSendMessage(app, bot, realm, { addressee: { type: 'stream', stream: n.stream, topic: n.topic }, content: n.content, client: 'Internal', internal: true });
  }
}
