import type { Insertable } from 'kysely';
import type { Conn, Tx } from '../database.ts';
import type { Attachment, AttachmentsTable } from '../schema.ts';

type Q = Conn | Tx;

export interface LinkedMessage {
  id: number;
  date_sent: number;
}

export async function insertAttachment(tx: Tx, values: Insertable<AttachmentsTable>): Promise<Attachment> {
  return tx.insertInto('attachments').values(values).returningAll().executeTakeFirstOrThrow();
}

export async function attachmentsOfOwner(db: Q, ownerId: number): Promise<Attachment[]> {
  return db.selectFrom('attachments').selectAll().where('owner_id', '=', ownerId).orderBy('id').execute();
}

export async function attachmentById(db: Q, realmId: number, id: number): Promise<Attachment | undefined> {
  return db.selectFrom('attachments').selectAll().where('realm_id', '=', realmId).where('id', '=', id).executeTakeFirst();
}

export async function attachmentByPath(db: Q, realmId: number, pathId: string): Promise<Attachment | undefined> {
  return db.selectFrom('attachments').selectAll().where('realm_id', '=', realmId).where('path_id', '=', pathId).executeTakeFirst();
}

export async function attachmentsByPaths(db: Q, realmId: number, pathIds: readonly string[]): Promise<Attachment[]> {
  if (pathIds.length === 0) return [];
  return db.selectFrom('attachments').selectAll().where('realm_id', '=', realmId).where('path_id', 'in', [...pathIds]).execute();
}

/** The messages linking each attachment, oldest first. */
export async function linkedMessages(db: Q, attachmentIds: readonly number[]): Promise<Map<number, LinkedMessage[]>> {
  const out = new Map<number, LinkedMessage[]>();
  if (attachmentIds.length === 0) return out;
  const rows = await db
    .selectFrom('attachment_messages')
    .innerJoin('messages', 'messages.id', 'attachment_messages.message_id')
    .select(['attachment_messages.attachment_id', 'messages.id', 'messages.date_sent'])
    .where('attachment_messages.attachment_id', 'in', [...attachmentIds])
    .orderBy('messages.id')
    .execute();
  for (const r of rows) {
    const list = out.get(r.attachment_id) ?? [];
    list.push({ id: r.id, date_sent: r.date_sent });
    out.set(r.attachment_id, list);
  }
  return out;
}

/** Bytes of all files uploaded in the realm. */
export async function uploadSpaceUsed(db: Q, realmId: number): Promise<number> {
  const row = await db
    .selectFrom('attachments')
    .select((eb) => eb.fn.sum<number | string | null>('size').as('total'))
    .where('realm_id', '=', realmId)
    .executeTakeFirst();
  return Number(row?.total ?? 0);
}

export async function deleteAttachment(tx: Tx, id: number): Promise<void> {
  await tx.deleteFrom('attachment_messages').where('attachment_id', '=', id).execute();
  await tx.deleteFrom('attachments').where('id', '=', id).execute();
}

export async function linkAttachment(tx: Tx, attachmentId: number, messageId: number): Promise<void> {
  const existing = await tx
    .selectFrom('attachment_messages')
    .select('attachment_id')
    .where('attachment_id', '=', attachmentId)
    .where('message_id', '=', messageId)
    .executeTakeFirst();
  if (!existing) await tx.insertInto('attachment_messages').values({ attachment_id: attachmentId, message_id: messageId }).execute();
}

/** Whether the user has any of the messages linking the attachment among their own messages. */
export async function userHasLinkingMessage(db: Q, userId: number, attachmentId: number): Promise<boolean> {
  const row = await db
    .selectFrom('attachment_messages')
    .innerJoin('user_messages', 'user_messages.message_id', 'attachment_messages.message_id')
    .select('user_messages.message_id')
    .where('attachment_messages.attachment_id', '=', attachmentId)
    .where('user_messages.user_id', '=', userId)
    .executeTakeFirst();
  return row !== undefined;
}

/** The streams of stream messages that link the attachment. */
export async function linkingStreamIds(db: Q, attachmentId: number): Promise<number[]> {
  const rows = await db
    .selectFrom('attachment_messages')
    .innerJoin('messages', 'messages.id', 'attachment_messages.message_id')
    .select('messages.stream_id')
    .distinct()
    .where('attachment_messages.attachment_id', '=', attachmentId)
    .where('messages.stream_id', 'is not', null)
    .execute();
  return rows.map((r) => r.stream_id!);
}
