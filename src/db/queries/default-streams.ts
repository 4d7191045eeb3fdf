// Default streams (new users are subscribed to them) and default stream groups.
import type { Conn, Tx } from '../database.ts';
import type { Stream } from '../schema.ts';

type Q = Conn | Tx;

export async function defaultStreams(db: Q, realmId: number): Promise<Stream[]> {
  return db
    .selectFrom('default_streams')
    .innerJoin('streams', 'streams.id', 'default_streams.stream_id')
    .selectAll('streams')
    .where('default_streams.realm_id', '=', realmId)
    .where('streams.deactivated', '=', 0)
    .orderBy('streams.id')
    .execute();
}

export async function isDefaultStream(db: Q, realmId: number, streamId: number): Promise<boolean> {
  const row = await db.selectFrom('default_streams').select('stream_id').where('realm_id', '=', realmId).where('stream_id', '=', streamId).executeTakeFirst();
  return row !== undefined;
}

export async function addDefaultStream(tx: Tx, realmId: number, streamId: number): Promise<void> {
  await tx.insertInto('default_streams').values({ realm_id: realmId, stream_id: streamId }).execute();
}

export async function removeDefaultStream(tx: Tx, realmId: number, streamId: number): Promise<void> {
  await tx.deleteFrom('default_streams').where('realm_id', '=', realmId).where('stream_id', '=', streamId).execute();
}

export interface DefaultStreamGroupRow {
  id: number;
  name: string;
  description: string;
  streams: Stream[];
}

export async function defaultStreamGroups(db: Q, realmId: number): Promise<DefaultStreamGroupRow[]> {
  const groups = await db.selectFrom('default_stream_groups').selectAll().where('realm_id', '=', realmId).orderBy('name').execute();
  if (groups.length === 0) return [];
  const links = await db
    .selectFrom('default_stream_group_streams')
    .innerJoin('streams', 'streams.id', 'default_stream_group_streams.stream_id')
    .selectAll('streams')
    .select('default_stream_group_streams.group_id')
    .where('default_stream_group_streams.group_id', 'in', groups.map((g) => g.id))
    .where('streams.deactivated', '=', 0)
    .orderBy('streams.id')
    .execute();
  return groups.map((g) => ({
    id: g.id,
    name: g.name,
    description: g.description,
    streams: links.filter((l) => l.group_id === g.id).map(({ group_id: _g, ...s }) => s as Stream),
  }));
}

export async function defaultStreamGroupById(db: Q, realmId: number, id: number): Promise<{ id: number; name: string; description: string } | undefined> {
  return db.selectFrom('default_stream_groups').select(['id', 'name', 'description']).where('realm_id', '=', realmId).where('id', '=', id).executeTakeFirst();
}

export async function defaultStreamGroupByName(db: Q, realmId: number, name: string): Promise<{ id: number } | undefined> {
  return db.selectFrom('default_stream_groups').select('id').where('realm_id', '=', realmId).where('name', '=', name).executeTakeFirst();
}

export async function insertDefaultStreamGroup(tx: Tx, realmId: number, name: string, description: string): Promise<number> {
  const row = await tx.insertInto('default_stream_groups').values({ realm_id: realmId, name, description }).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export async function updateDefaultStreamGroup(tx: Tx, id: number, values: { name?: string; description?: string }): Promise<void> {
  await tx.updateTable('default_stream_groups').set(values).where('id', '=', id).execute();
}

export async function deleteDefaultStreamGroup(tx: Tx, id: number): Promise<void> {
  await tx.deleteFrom('default_stream_group_streams').where('group_id', '=', id).execute();
  await tx.deleteFrom('default_stream_groups').where('id', '=', id).execute();
}

export async function setGroupStream(tx: Tx, groupId: number, streamId: number, member: boolean): Promise<void> {
  if (member) await tx.insertInto('default_stream_group_streams').values({ group_id: groupId, stream_id: streamId }).execute();
  else await tx.deleteFrom('default_stream_group_streams').where('group_id', '=', groupId).where('stream_id', '=', streamId).execute();
}

export async function defaultStreamGroupIdsOf(db: Q, streamId: number): Promise<number[]> {
  const rows = await db.selectFrom('default_stream_group_streams').select('group_id').where('stream_id', '=', streamId).orderBy('group_id').execute();
  return rows.map((r) => r.group_id);
}

/** Takes an archived stream out of every default set. */
export async function removeStreamFromDefaults(tx: Tx, realmId: number, streamId: number): Promise<void> {
  await removeDefaultStream(tx, realmId, streamId);
  await tx.deleteFrom('default_stream_group_streams').where('stream_id', '=', streamId).execute();
}

export async function activeNonGuestUserIds(db: Q, realmId: number): Promise<number[]> {
  const rows = await db.selectFrom('users').select('id').where('realm_id', '=', realmId).where('is_active', '=', 1).where('role', '!=', 600).orderBy('id').execute();
  return rows.map((r) => r.id);
}

/** The IDs of the realm's default streams, in ID order. */
export async function defaultStreamIds(db: Q, realmId: number): Promise<number[]> {
  return (await db.selectFrom('default_streams').select('stream_id').where('realm_id', '=', realmId).orderBy('stream_id').execute()).map((r) => r.stream_id);
}
