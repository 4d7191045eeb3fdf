// Per-user topic settings (muted, unmuted, followed topics), and what muting takes out of a
// user's unread totals. Topic names compare case-insensitively, as message topics do.
import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { Conn, Tx } from '../database.ts';
import type { UserTopic } from '../schema.ts';

type Q = Conn | Tx;

/** The reference's topic visibility policies; INHERIT is stored as the absence of a row. */
export const VISIBILITY = { INHERIT: 0, MUTED: 1, UNMUTED: 2, FOLLOWED: 3 } as const;
export const VISIBILITY_POLICIES: readonly number[] = Object.values(VISIBILITY);

export interface TopicKey {
  streamId: number;
  topic: string;
}

export async function userTopicRow(db: Q, userId: number, streamId: number, topic: string): Promise<UserTopic | undefined> {
  return db
    .selectFrom('user_topics')
    .selectAll()
    .where('user_id', '=', userId)
    .where('stream_id', '=', streamId)
    .where(sql`lower(topic_name)`, '=', topic.toLowerCase())
    .executeTakeFirst();
}

/** Sets (or with INHERIT removes) a user's policy for a topic; false when nothing changed. */
export async function setUserTopicPolicy(tx: Tx, userId: number, streamId: number, topic: string, policy: number, now: number): Promise<boolean> {
  const existing = await userTopicRow(tx, userId, streamId, topic);
  if (policy === VISIBILITY.INHERIT) {
    if (!existing) return false;
    await tx.deleteFrom('user_topics').where('id', '=', existing.id).execute();
    return true;
  }
  if (existing) {
    if (existing.visibility_policy === policy) return false;
    await tx.updateTable('user_topics').set({ topic_name: topic, visibility_policy: policy, last_updated: now }).where('id', '=', existing.id).execute();
    return true;
  }
  await tx.insertInto('user_topics').values({ user_id: userId, stream_id: streamId, topic_name: topic, visibility_policy: policy, last_updated: now }).execute();
  return true;
}

export interface UserTopicWithStream extends UserTopic {
  stream_name: string;
}

/** The user's topic settings in streams that still exist, in the order they were first set. */
export async function userTopicsOfUser(db: Q, userId: number, policy?: number): Promise<UserTopicWithStream[]> {
  let q = db
    .selectFrom('user_topics')
    .innerJoin('streams', 'streams.id', 'user_topics.stream_id')
    .selectAll('user_topics')
    .select('streams.name as stream_name')
    .where('user_topics.user_id', '=', userId)
    .where('streams.deactivated', '=', 0);
  if (policy !== undefined) q = q.where('user_topics.visibility_policy', '=', policy);
  return q.orderBy('user_topics.id').execute();
}

/**
 * What muting takes out of a user's unread totals. A stream message is left out when its topic
 * is muted, or when its stream is muted and the topic is not unmuted or followed there.
 */
export interface UnreadExclusions {
  /** Streams the user is subscribed to and has muted. */
  mutedStreamIds: number[];
  /** Muted topics, in any stream. */
  mutedTopics: TopicKey[];
  /** Topics unmuted or followed inside muted streams: these still count. */
  unmutedTopicsInMutedStreams: TopicKey[];
}

export async function unreadExclusions(db: Q, userId: number): Promise<UnreadExclusions> {
  const muted = await db
    .selectFrom('subscriptions')
    .select('stream_id')
    .where('user_id', '=', userId)
    .where('active', '=', 1)
    .where('is_muted', '=', 1)
    .orderBy('stream_id')
    .execute();
  const mutedStreamIds = muted.map((r) => r.stream_id);
  const mutedSet = new Set(mutedStreamIds);
  const rows = await db
    .selectFrom('user_topics')
    .select(['stream_id', 'topic_name', 'visibility_policy'])
    .where('user_id', '=', userId)
    .orderBy('id')
    .execute();
  const mutedTopics: TopicKey[] = [];
  const unmutedTopicsInMutedStreams: TopicKey[] = [];
  for (const r of rows) {
    const key = { streamId: r.stream_id, topic: r.topic_name };
    if (r.visibility_policy === VISIBILITY.MUTED) mutedTopics.push(key);
    else if (mutedSet.has(r.stream_id)) unmutedTopicsInMutedStreams.push(key);
  }
  return { mutedStreamIds, mutedTopics, unmutedTopicsInMutedStreams };
}

const topicKey = (streamId: number, topic: string): string => `${streamId}\u0000${topic.toLowerCase()}`;

/**
 * A predicate for building unread counts in memory: true when a message of this stream and
 * topic is left out of the totals (direct messages, `streamId` null, never are).
 */
export function unreadFilter(ex: UnreadExclusions): (streamId: number | null, topic: string) => boolean {
  const mutedStreams = new Set(ex.mutedStreamIds);
  const mutedTopics = new Set(ex.mutedTopics.map((t) => topicKey(t.streamId, t.topic)));
  const unmuted = new Set(ex.unmutedTopicsInMutedStreams.map((t) => topicKey(t.streamId, t.topic)));
  return (streamId, topic) => {
    if (streamId === null) return false;
    const key = topicKey(streamId, topic);
    if (mutedTopics.has(key)) return true;
    return mutedStreams.has(streamId) && !unmuted.has(key);
  };
}

/**
 * The same rule as a SQL condition over a message row (default alias `m`), for narrows such as
 * `is:unread`: true when the message is NOT left out by the user's muting.
 */
export function notMutedCondition(userId: number, streamCol = 'm.stream_id', topicCol = 'm.topic'): RawBuilder<SqlBool> {
  const s = sql.ref(streamCol);
  const t = sql.ref(topicCol);
  const policy = (policies: number[]) =>
    sql`exists (select 1 from user_topics ut where ut.user_id = ${userId} and ut.stream_id = ${s} and lower(ut.topic_name) = lower(${t}) and ut.visibility_policy in (${sql.join(policies)}))`;
  return sql<SqlBool>`(${s} is null or not (${policy([VISIBILITY.MUTED])} or (exists (select 1 from subscriptions ms where ms.user_id = ${userId} and ms.stream_id = ${s} and ms.active = 1 and ms.is_muted = 1) and not ${policy([VISIBILITY.UNMUTED, VISIBILITY.FOLLOWED])})))`;
}

/** The user's followed topics (for `is:followed` narrows). */
export async function followedTopics(db: Q, userId: number): Promise<TopicKey[]> {
  const rows = await db
    .selectFrom('user_topics')
    .select(['stream_id', 'topic_name'])
    .where('user_id', '=', userId)
    .where('visibility_policy', '=', VISIBILITY.FOLLOWED)
    .orderBy('id')
    .execute();
  return rows.map((r) => ({ streamId: r.stream_id, topic: r.topic_name }));
}

/** A SQL condition over a message row (default alias `m`): the message is in a topic the user follows. */
export function followedCondition(userId: number, streamCol = 'm.stream_id', topicCol = 'm.topic'): RawBuilder<SqlBool> {
  const s = sql.ref(streamCol);
  const t = sql.ref(topicCol);
  return sql<SqlBool>`exists (select 1 from user_topics ft where ft.user_id = ${userId} and ft.stream_id = ${s} and lower(ft.topic_name) = lower(${t}) and ft.visibility_policy = ${VISIBILITY.FOLLOWED})`;
}

export interface TopicSummary {
  name: string;
  max_id: number;
}

/**
 * A stream's topics with their newest message, newest first. Without public history only the
 * messages the user received count. Case variants are one topic, named as its newest message.
 * Grouping by lower(topic) lets the (stream_id, lower(topic), id) index answer the first query.
 */
export async function streamTopics(db: Q, streamId: number, onlyReceivedBy: number | null): Promise<TopicSummary[]> {
  let q = db
    .selectFrom('messages as m')
    .select((eb) => eb.fn.max('m.id').as('max_id'))
    .where('m.stream_id', '=', streamId);
  if (onlyReceivedBy !== null) {
    q = q.innerJoin('user_messages as um', (j) => j.onRef('um.message_id', '=', 'm.id').on('um.user_id', '=', onlyReceivedBy));
  }
  const maxIds = (await q.groupBy(sql`lower(m.topic)`).execute()).map((r) => Number(r.max_id)).sort((a, b) => b - a);
  const names = new Map<number, string>();
  // Stay well under SQLite's limit on bound parameters per statement.
  for (let i = 0; i < maxIds.length; i += 500) {
    const rows = await db.selectFrom('messages').select(['id', 'topic']).where('id', 'in', maxIds.slice(i, i + 500)).execute();
    for (const r of rows) names.set(r.id, r.topic);
  }
  return maxIds.map((id) => ({ name: names.get(id) ?? '', max_id: id }));
}
