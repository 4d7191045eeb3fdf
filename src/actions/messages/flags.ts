// Personal message flags: read, starred, collapsed; and the mark-as-read operations.
import type { AppContext } from '../../context.ts';
import type { User } from '../../db/schema.ts';
import { changeFlag, insertHistoricalRows, messageDetails, unreadMessageIds, userMessageIds } from '../../db/queries/flags.ts';
import { dmKeyUsers } from '../../db/queries/recipients.ts';
import { badRequest } from '../../lib/errors.ts';
import { EDITABLE_FLAGS, FLAG_BITS, isFlagName, type FlagName } from '../../db/flags.ts';
import { accessMessage } from '../../lib/message-access.ts';
import { fetchWindow, type WindowParams } from './fetch.ts';
import { LIMITS } from '../../lib/limits.ts';
import type { FlagDetail, UpdateMessageFlagsEvent } from '../../events/event-types/update_message_flags.ts';
import { runAction, type ActionScope } from '../action.ts';

export function checkFlagName(flag: string): FlagName {
  if (!isFlagName(flag)) throw badRequest(`Invalid flag: '${flag}'`);
  if (!EDITABLE_FLAGS.includes(flag)) throw badRequest(`Flag not editable: '${flag}'`);
  return flag;
}

const MENTION_BITS = FLAG_BITS.mentioned | FLAG_BITS.stream_wildcard_mentioned | FLAG_BITS.topic_wildcard_mentioned;

/** Emits update_message_flags for the user; un-reading carries what clients need to count. */
async function emitFlags(scope: ActionScope, user: User, op: 'add' | 'remove', flag: FlagName, ids: number[]): Promise<void> {
  const event: UpdateMessageFlagsEvent = { type: 'update_message_flags', op, operation: op, flag, messages: ids, all: false };
  if (op === 'remove' && flag === 'read') {
    const details: Record<string, FlagDetail> = {};
    for (const d of await messageDetails(scope.tx, user.id, ids)) {
      const mentioned = (d.flags & MENTION_BITS) !== 0;
      if (d.stream_id !== null) {
        details[String(d.id)] = { type: 'stream', mentioned, stream_id: d.stream_id, topic: d.topic, unmuted_stream_msg: true };
      } else {
        const others = dmKeyUsers(d.dm_key ?? '').filter((id) => id !== user.id);
        details[String(d.id)] = { type: 'private', mentioned, user_ids: others };
      }
    }
    event.message_details = details;
  }
  scope.emit(event, [user.id]);
}

/** Changes a flag on messages the user has; starring may add rows for readable stream messages. */
export async function doChangeFlags(scope: ActionScope, user: User, op: 'add' | 'remove', flag: FlagName, ids: readonly number[]): Promise<number[]> {
  const changed = await changeFlag(scope.tx, user.id, ids, FLAG_BITS[flag], op === 'add');
  if (changed.length > 0) await emitFlags(scope, user, op, flag, changed);
  return changed;
}

export async function checkUpdateFlags(app: AppContext, user: User, op: 'add' | 'remove', flagName: string, messageIds: number[]): Promise<number[]> {
  const flag = checkFlagName(flagName);
  const ids = [...new Set(messageIds)].sort((a, b) => a - b);
  const db = app.db.kysely;
  // Starring a message one never received (a stream's history) needs a row to hold the flag.
  const historical: number[] = [];
  if (flag === 'starred' && op === 'add') {
    const have = new Set(await userMessageIds(db, user.id, ids));
    for (const id of ids) {
      if (have.has(id)) continue;
      const a = await accessMessage(db, user, id);
      if (!a.hasRow) historical.push(id);
    }
  } else {
    if ((await userMessageIds(db, user.id, ids)).length < ids.length) throw badRequest('Invalid message(s)');
  }
  return runAction(app, async (scope) => {
    await insertHistoricalRows(scope.tx, user.id, historical, FLAG_BITS.read | FLAG_BITS.historical);
    await doChangeFlags(scope, user, op, flag, ids);
    return ids;
  });
}

/** Marks the user's unread messages (all, or of a stream or topic) read, in batches. */
export async function checkMarkRead(app: AppContext, user: User, where: { streamId?: number; topic?: string }, batch = 1000): Promise<number> {
  let total = 0;
  for (;;) {
    const done = await runAction(app, async (scope) => {
      const ids = await unreadMessageIds(scope.tx, user.id, { ...where, limit: batch });
      if (ids.length === 0) return 0;
      const changed = await doChangeFlags(scope, user, 'add', 'read', ids);
      return Math.max(changed.length, 1);
    });
    total += done;
    if (done < batch) return total;
  }
}

export interface FlagsNarrowResult {
  processed_count: number;
  updated_count: number;
  first_processed_id: number | null;
  last_processed_id: number | null;
  found_oldest: boolean;
  found_newest: boolean;
}

/** POST /messages/flags/narrow: changes a flag on a window of the user's messages in a narrow. */
export async function checkUpdateFlagsForNarrow(app: AppContext, user: User, op: 'add' | 'remove', flagName: string, window: WindowParams): Promise<FlagsNarrowResult> {
  const flag = checkFlagName(flagName);
  const w = await fetchWindow(app, user, window, { ownOnly: true, max: LIMITS.maxFlagsNarrowMessages });
  const ids = w.rows.map((r) => r.message.id);
  const changed = await runAction(app, (scope) => doChangeFlags(scope, user, op, flag, ids));
  return {
    processed_count: ids.length,
    updated_count: changed.length,
    first_processed_id: ids[0] ?? null,
    last_processed_id: ids[ids.length - 1] ?? null,
    found_oldest: w.foundOldest,
    found_newest: w.foundNewest,
  };
}
