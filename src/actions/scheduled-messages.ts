// Scheduled messages: created, edited and cancelled by their sender; delivered by
// scheduled-delivery.ts at their time.
import type { AppContext } from '../context.ts';
import type { Conn } from '../db/database.ts';
import type { Realm, ScheduledMessage, User } from '../db/schema.ts';
import {
  deleteScheduledMessage,
  insertScheduledMessage,
  pendingScheduledMessageOf,
  updateScheduledMessage,
} from '../db/queries/scheduled-messages.ts';
import { streamById, subscription } from '../db/queries/streams.ts';
import { userById } from '../db/queries/users.ts';
import { canSeeStream } from '../lib/access.ts';
import { ApiError, badRequest, streamIdDoesNotExist } from '../lib/errors.ts';
import { renderMessage } from '../lib/message-render.ts';
import { realmUrl } from '../lib/realm.ts';
import { hasBadCharacters } from '../lib/validate.ts';
import { presentScheduledMessage } from '../presenters/scheduled-message.ts';
import { runAction } from './action.ts';
import { checkCanPost, checkContent, checkStreamTopic } from './messages/send.ts';

export type ScheduledType = 'stream' | 'private';

/** The API's type names: `direct` and `private`, `stream` and `channel`. */
export function scheduledType(t: 'direct' | 'private' | 'stream' | 'channel'): ScheduledType {
  return t === 'stream' || t === 'channel' ? 'stream' : 'private';
}

/** `to`: a stream ID, or a list of user IDs (a single ID is taken as a list of one). */
export function parseScheduledTo(value: unknown, name: string): number[] {
  if (Number.isSafeInteger(value)) return [value as number];
  if (Array.isArray(value) && value.every((v) => Number.isSafeInteger(v))) return value as number[];
  throw badRequest(`${name} is not an integer or a list of integers`);
}

interface Target {
  type: ScheduledType;
  stream_id: number | null;
  to_user_ids: string | null;
  topic: string;
}

async function resolveTarget(app: AppContext, db: Conn, user: User, realm: Realm, type: ScheduledType, to: number[], topic: string | undefined, now: number): Promise<Target> {
  if (type === 'stream') {
    if (to.length !== 1) throw badRequest('Must specify exactly 1 stream ID for stream messages');
    const id = to[0]!;
    const stream = await streamById(db, realm.id, id);
    const sub = stream ? await subscription(db, user.id, stream.id) : undefined;
    if (!stream || stream.deactivated || !canSeeStream(user, stream, sub)) {
      throw streamIdDoesNotExist(id);
    }
    await checkCanPost(app, user, realm, stream, now);
    return { type, stream_id: stream.id, to_user_ids: null, topic: checkStreamTopic(realm, topic) };
  }
  if (to.length === 0) throw badRequest('Message must have recipients');
  const ids = [...new Set(to)].sort((a, b) => a - b);
  for (const id of ids) {
    const u = await userById(db, realm.id, id);
    if (!u) throw badRequest(`Invalid user ID ${id}`);
    if (!u.is_active) throw badRequest(`'${u.email}' is no longer using Parley.`);
  }
  return { type, stream_id: null, to_user_ids: JSON.stringify(ids), topic: '' };
}

async function checkScheduledContent(app: AppContext, user: User, realm: Realm, content: string): Promise<{ content: string; rendered: string }> {
  const c = checkContent(content);
  if (hasBadCharacters(c.replace(/\r/g, ''))) throw badRequest('Message contains invalid characters');
  // Rendered now for display; delivery renders again, as mentions may have changed by then.
  const { result } = await renderMessage(app.db.kysely, realm, realmUrl(app.config, realm), c, user, { imageProxyKey: app.imageProxyKey });
  return { content: c, rendered: result.html };
}

function checkDeliveryTime(ts: number, now: number): number {
  if (ts <= now) throw badRequest('Scheduled delivery time must be in the future.');
  return ts;
}

export interface CreateScheduledInput {
  type: ScheduledType;
  to: number[];
  topic: string | undefined;
  content: string;
  scheduledDeliveryTimestamp: number;
  readBySender: boolean | undefined;
}

export async function checkCreateScheduledMessage(app: AppContext, user: User, realm: Realm, input: CreateScheduledInput): Promise<number> {
  const now = Math.floor(Date.now() / 1000);
  const ts = checkDeliveryTime(input.scheduledDeliveryTimestamp, now);
  const { content, rendered } = await checkScheduledContent(app, user, realm, input.content);
  const target = await resolveTarget(app, app.db.kysely, user, realm, input.type, input.to, input.topic, now);
  return runAction(app, async (scope) => {
    const row = await insertScheduledMessage(scope.tx, {
      realm_id: realm.id,
      sender_id: user.id,
      ...target,
      content,
      rendered_content: rendered,
      scheduled_timestamp: ts,
      read_by_sender: input.readBySender === undefined ? null : input.readBySender ? 1 : 0,
      delivered: 0,
      delivered_message_id: null,
      failed: 0,
      failure_message: null,
      claim_token: null,
      claimed_until: null,
      date_created: scope.now,
    });
    scope.emit({ type: 'scheduled_messages', op: 'add', scheduled_messages: [presentScheduledMessage(row)] }, [user.id]);
    return row.id;
  });
}

export interface EditScheduledInput {
  type: ScheduledType | undefined;
  to: number[] | undefined;
  topic: string | undefined;
  content: string | undefined;
  scheduledDeliveryTimestamp: number | undefined;
}

const noSuchScheduledMessage = (): ApiError => new ApiError('Scheduled message does not exist', 'BAD_REQUEST', 404);

export async function checkEditScheduledMessage(app: AppContext, user: User, realm: Realm, id: number, input: EditScheduledInput): Promise<void> {
  const now = Math.floor(Date.now() / 1000);
  const existing = await pendingScheduledMessageOf(app.db.kysely, user.id, id);
  if (!existing) throw noSuchScheduledMessage();
  const changes: Partial<ScheduledMessage> = {};
  if (input.type !== undefined) {
    if (input.to === undefined) throw badRequest('Recipient required when updating type of scheduled message.');
    if (input.type === 'stream' && input.topic === undefined) throw badRequest('Topic required when updating scheduled message type to stream.');
  }
  const type = input.type ?? (existing.type as ScheduledType);
  if (input.to !== undefined || (input.topic !== undefined && type === 'stream')) {
    const to = input.to ?? (existing.stream_id !== null ? [existing.stream_id] : (JSON.parse(existing.to_user_ids ?? '[]') as number[]));
    Object.assign(changes, await resolveTarget(app, app.db.kysely, user, realm, type, to, input.topic ?? existing.topic, now));
  }
  if (input.content !== undefined) {
    const { content, rendered } = await checkScheduledContent(app, user, realm, input.content);
    changes.content = content;
    changes.rendered_content = rendered;
  }
  if (input.scheduledDeliveryTimestamp !== undefined) changes.scheduled_timestamp = checkDeliveryTime(input.scheduledDeliveryTimestamp, now);
  // A failed message is retried only at a new time the sender chose.
  else if (existing.failed) throw badRequest('Scheduled delivery time must be in the future.');

  await runAction(app, async (scope) => {
    if (!(await pendingScheduledMessageOf(scope.tx, user.id, id))) throw noSuchScheduledMessage();
    // Dropping the claim makes a delivery already under way roll back; it is resent as edited.
    const row = await updateScheduledMessage(scope.tx, id, { ...changes, failed: 0, failure_message: null, claim_token: null, claimed_until: null });
    scope.emit({ type: 'scheduled_messages', op: 'update', scheduled_message: presentScheduledMessage(row) }, [user.id]);
  });
}

export async function checkDeleteScheduledMessage(app: AppContext, user: User, id: number): Promise<void> {
  await runAction(app, async (scope) => {
    if (!(await pendingScheduledMessageOf(scope.tx, user.id, id))) throw noSuchScheduledMessage();
    await deleteScheduledMessage(scope.tx, id);
    scope.emit({ type: 'scheduled_messages', op: 'remove', scheduled_message_id: id }, [user.id]);
  });
}
