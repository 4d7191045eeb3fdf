// Stream events: streams becoming visible to a user (created, or a private stream joined).
// Snapshot group `stream`: every stream the user can see.
import { allSubscriptionRows, recentMessageCounts, streamsInRealm } from '../../db/queries/streams.ts';
import { canSeeStream } from '../../lib/access.ts';
import { presentStream, weeklyTraffic, type StreamJson } from '../../presenters/stream.ts';
import { defineEventType, type ClientOptions, type SnapshotGroup, type State } from '../event-type.ts';
import type { BaseEvent } from '../types.ts';

export type StreamEvent =
  | { type: 'stream'; op: 'create'; streams: StreamJson[] }
  /** Besides the property, an update may carry fields derived from it (rendered_description, ...). */
  | { type: 'stream'; op: 'update'; stream_id: number; name: string; property: string; value: unknown; [derived: string]: unknown }
  | { type: 'stream'; op: 'delete'; streams: StreamJson[]; stream_ids?: number[] };

const WEEKS = 4 * 7 * 86400;

/** Every copy of a stream's data a snapshot holds. */
function streamCopies(state: State, streamId: number): Record<string, unknown>[] {
  const lists = ['streams', 'subscriptions', 'unsubscribed', 'never_subscribed', 'realm_default_streams'];
  return lists.flatMap((k) => (Array.isArray(state[k]) ? (state[k] as Named[]).filter((s) => s.stream_id === streamId) : []));
}

type Named = { stream_id: number; name: string } & Record<string, unknown>;
const byName = (a: Named, b: Named): number => a.name.localeCompare(b.name);

function apply(state: State, event: BaseEvent, client: ClientOptions): void {
  const e = event as StreamEvent;
  if (e.op === 'update') {
    // Besides the property, an update may carry fields derived from it (rendered_description,
    // history_public_to_subscribers, ...): every copy takes them all.
    const { type: _t, op: _o, id: _i, stream_id: _s, name: _n, property, value, ...derived } = e;
    void [_t, _o, _i, _s, _n];
    for (const copy of streamCopies(state, e.stream_id)) Object.assign(copy, { [property]: value }, structuredClone(derived));
    if (property === 'name') {
      for (const k of ['subscriptions', 'unsubscribed', 'never_subscribed']) if (Array.isArray(state[k])) (state[k] as Named[]).sort(byName);
    }
    return;
  }
  if (e.op === 'delete') {
    // The stream is gone from every list (subscription removals come as their own events).
    const gone = new Set(e.stream_ids ?? e.streams.map((x) => x.stream_id));
    for (const k of ['streams', 'subscriptions', 'unsubscribed', 'never_subscribed', 'realm_default_streams']) {
      if (Array.isArray(state[k])) state[k] = (state[k] as Named[]).filter((x) => !gone.has(x.stream_id));
    }
    return;
  }
  if (e.op !== 'create') return;
  if (Array.isArray(state.streams)) {
    const streams = state.streams as Named[];
    for (const s of e.streams) if (!streams.some((x) => x.stream_id === s.stream_id)) streams.push({ ...s });
    streams.sort((a, b) => a.stream_id - b.stream_id);
  }
  if (Array.isArray(state.never_subscribed)) {
    const never = state.never_subscribed as Named[];
    const known = new Set([...(state.subscriptions as Named[]), ...((state.unsubscribed ?? []) as Named[]), ...never].map((s) => s.stream_id));
    for (const s of e.streams) {
      if (known.has(s.stream_id)) continue;
      never.push(client.includeSubscribers ? { ...s, subscribers: [] } : { ...s });
    }
    never.sort(byName);
  }
}

export const streamGroup: SnapshotGroup = async ({ app, realm, user }) => {
  const db = app.db.kysely;
  const streams = await streamsInRealm(db, realm.id);
  const subs = user ? await allSubscriptionRows(db, user.id) : new Map();
  const now = Math.floor(Date.now() / 1000);
  const counts = await recentMessageCounts(db, streams.map((s) => s.id), now - WEEKS);
  const visible = streams.filter((s) => (user ? canSeeStream(user, s, subs.get(s.id)) : s.is_web_public === 1));
  return { streams: visible.map((s) => presentStream(s, weeklyTraffic(s, counts.get(s.id), now))).sort((a, b) => a.stream_id - b.stream_id) };
};

export const streamEventType = defineEventType<StreamEvent>({ type: 'stream', snapshot: { stream: streamGroup }, apply });

