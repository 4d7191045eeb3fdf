// Sending and fetching messages.
import { route } from '../http/route.ts';
import { alias, optional, p } from '../http/params.ts';
import { isDbId } from '../http/ids.ts';
import type { Db } from '../db/database.ts';
import type { Realm, User } from '../db/schema.ts';
import { accessUserByEmail, accessUserById } from '../lib/access.ts';
import { badRequest, streamDoesNotExist } from '../lib/errors.ts';
import { fetchMessages } from '../actions/messages/fetch.ts';
import { parseNarrow } from '../lib/narrow.ts';
import { keptStream } from '../db/queries/streams.ts';
import { checkSendMessage, checkStreamTopic, type Addressee } from '../actions/messages/send.ts';

/** `to` is a stream name or ID, or a list of user IDs or emails, possibly JSON-encoded. */
function parseTo(raw: string): (string | number)[] {
  const t = raw.trim();
  if (t.startsWith('[') || /^\d+$/.test(t) || t.startsWith('"')) {
    let v: unknown;
    try {
      v = JSON.parse(t);
    } catch {
      throw badRequest('Invalid data type for recipients');
    }
    if (Array.isArray(v)) {
      if (!v.every((x) => typeof x === 'string' || isDbId(x))) throw badRequest('Invalid data type for recipients');
      return v as (string | number)[];
    }
    if (typeof v === 'string' || isDbId(v)) return [v as string | number];
    throw badRequest('Invalid data type for recipients');
  }
  return t.split(',').map((s) => s.trim()).filter(Boolean);
}

async function addressee(db: Db, sender: User, realm: Realm, type: string, to: (string | number)[], topic: string | undefined): Promise<Addressee> {
  if (type === 'stream' || type === 'channel') {
    if (to.length !== 1) throw badRequest('Cannot send to multiple streams');
    const target = to[0]!;
    const stream = await keptStream(db, realm.id, target);
    if (!stream) {
      if (typeof target === 'number') throw badRequest(`Stream with ID '${target}' does not exist`);
      throw streamDoesNotExist(target);
    }
    return { type: 'stream', stream, topic: checkStreamTopic(realm, topic) };
  }
  if (to.length === 0) throw badRequest('Message must have recipients');
  const users: User[] = [];
  for (const r of to) {
    users.push(
      typeof r === 'number'
        ? await accessUserById(db.kysely, sender, r, { allowInactive: true }).catch(() => {
            throw badRequest(`Invalid user ID ${r}`);
          })
        : await accessUserByEmail(db.kysely, sender, r, { allowInactive: true }).catch(() => {
            throw badRequest(`Invalid email '${r}'`);
          }),
    );
  }
  return { type: 'private', users };
}

export const messageRoutes = [
  route({
    method: 'POST',
    path: '/messages',
    auth: 'user',
    incomingWebhookBots: true,
    params: {
      type: p.oneOf(['stream', 'channel', 'private', 'direct']),
      to: p.custom(parseTo),
      topic: optional(alias(p.string(), 'subject')),
      content: p.string(),
      queue_id: optional(p.string()),
      local_id: optional(p.string()),
      read_by_sender: optional(p.bool()),
    },
    async handler({ app, realm, user, params }) {
      const a = await addressee(app.db, user, realm, params.type, params.to, params.topic);
      const id = await checkSendMessage(app, user, realm, {
        addressee: a,
        content: params.content,
        client: 'API',
        senderQueueId: params.queue_id,
        localId: params.local_id,
        readBySender: params.read_by_sender,
      });
      return { id };
    },
  }),
  route({
    method: 'GET',
    path: '/messages',
    auth: 'user',
    params: {
      anchor: optional(p.intOr(['newest', 'oldest', 'first_unread'])),
      num_before: p.int({ min: 0 }),
      num_after: p.int({ min: 0 }),
      include_anchor: optional(p.bool(), true),
      narrow: optional(p.json(parseNarrow), []),
      client_external_avatar: optional(p.bool(), true),
      apply_markdown: optional(p.bool(), true),
      use_first_unread_anchor: optional(p.bool(), false),
    },
    async handler({ app, realm, user, params }) {
      // Clients written for old servers send `anchor` along with the legacy flag; the reference
      // lets the flag win rather than refuse them.
      const anchor = params.use_first_unread_anchor ? 'first_unread' : (params.anchor ?? 'first_unread');
      return {
        ...(await fetchMessages(app, user, realm, {
          anchor,
          numBefore: params.num_before,
          numAfter: params.num_after,
          includeAnchor: params.include_anchor,
          narrow: params.narrow,
          applyMarkdown: params.apply_markdown,
          clientExternalAvatar: params.client_external_avatar,
        })),
      };
    },
  }),
];
