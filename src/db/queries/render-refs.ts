// What the Markdown renderer needs to know about a realm: users, groups, streams, custom emoji,
// linkifiers and uploaded files referred to by a message.
import { sql, type Selectable } from 'kysely';
import { directReads, type Conn, type Tx } from '../database.ts';
import { keptRead } from '../kept.ts';
import type { RealmLinkifiersTable } from '../schema.ts';

type Q = Conn | Tx;

export async function usersByNamesOrIds(db: Q, realmId: number, names: readonly string[], ids: readonly number[]) {
  if (names.length === 0 && ids.length === 0) return [];
  const lower = names.map((n) => n.toLowerCase());
  return db
    .selectFrom('users')
    .select(['id', 'full_name', 'email', 'is_active'])
    .where('realm_id', '=', realmId)
    .where((eb) => eb.or([...(lower.length ? [eb(sql`lower(full_name)`, 'in', lower)] : []), ...(ids.length ? [eb('id', 'in', [...ids])] : [])]))
    .execute();
}

export async function groupsByNames(db: Q, realmId: number, names: readonly string[]) {
  if (names.length === 0) return [];
  return db
    .selectFrom('user_groups')
    .selectAll()
    .where('realm_id', '=', realmId)
    .where('deactivated', '=', 0)
    .where('name', 'in', [...names])
    .execute();
}

export async function streamsByNames(db: Q, realmId: number, names: readonly string[]) {
  if (names.length === 0) return [];
  return db
    .selectFrom('streams')
    .select(['id', 'name', 'invite_only'])
    .where('realm_id', '=', realmId)
    .where(sql`lower(name)`, 'in', names.map((n) => n.toLowerCase()))
    .execute();
}

export async function realmEmojiByNames(db: Q, realmId: number, names: readonly string[]) {
  if (names.length === 0) return [];
  return db.selectFrom('realm_emoji').selectAll().where('realm_id', '=', realmId).where('name', 'in', [...names]).execute();
}

export async function realmEmojiById(db: Q, realmId: number, id: number) {
  return db.selectFrom('realm_emoji').selectAll().where('realm_id', '=', realmId).where('id', '=', id).executeTakeFirst();
}

/** The realm's linkifiers, in order. Read by every send and every fetch: kept (keptRead). */
export async function realmLinkifiers(db: Q, realmId: number): Promise<readonly Selectable<RealmLinkifiersTable>[]> {
  return keptRead(db, `linkifiers ${realmId}`, async () => {
    const direct = directReads(db);
    if (direct) return direct.all<Selectable<RealmLinkifiersTable>>('select * from realm_linkifiers where realm_id = ? order by "order", id', [realmId]);
    return db.selectFrom('realm_linkifiers').selectAll().where('realm_id', '=', realmId).orderBy('order').orderBy('id').execute();
  });
}

/** Direct members of these groups and, recursively, of their subgroups; system groups by role. */
export async function groupMemberIds(db: Q, realmId: number, groupIds: readonly number[]): Promise<number[]> {
  const members = new Set<number>();
  const seen = new Set<number>();
  let frontier = [...groupIds];
  while (frontier.length > 0) {
    frontier.forEach((g) => seen.add(g));
    const groups = await db.selectFrom('user_groups').selectAll().where('realm_id', '=', realmId).where('id', 'in', frontier).execute();
    for (const g of groups) {
      if (g.is_system_group && g.role_limit !== null && g.name !== 'role:nobody') {
        const rows = await db.selectFrom('users').select('id').where('realm_id', '=', realmId).where('is_active', '=', 1).where('role', '<=', g.role_limit).execute();
        rows.forEach((r) => members.add(r.id));
      }
    }
    const direct = await db.selectFrom('user_group_members').select('user_id').where('group_id', 'in', frontier).execute();
    direct.forEach((r) => members.add(r.user_id));
    const subs = await db.selectFrom('user_group_subgroups').select('subgroup_id').where('group_id', 'in', frontier).execute();
    frontier = [...new Set(subs.map((s) => s.subgroup_id))].filter((id) => !seen.has(id));
  }
  return [...members];
}

/** Users who sent a message to a topic: the audience of a topic wildcard mention. */
export async function topicParticipantIds(db: Q, streamId: number, topic: string): Promise<number[]> {
  const rows = await db
    .selectFrom('messages')
    .select('sender_id')
    .distinct()
    .where('stream_id', '=', streamId)
    .where(sql`lower(topic)`, '=', topic.toLowerCase())
    .execute();
  return rows.map((r) => r.sender_id);
}

/** Drops the message's links to uploads (an edit links them again from its new content). */
export async function unlinkAttachments(tx: Tx, messageId: number): Promise<void> {
  await tx.deleteFrom('attachment_messages').where('message_id', '=', messageId).execute();
}
