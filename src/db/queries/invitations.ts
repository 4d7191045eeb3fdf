// Invitations, reusable invitation links and sign-up confirmations (see the invitations migration).
import type { Insertable } from 'kysely';
import type { Conn, Tx } from '../database.ts';
import type { Invitation, InvitationsTable } from '../schema.ts';

type Q = Conn | Tx;

export const INVITE_STATUS = { PENDING: 0, USED: 1, REVOKED: 2 } as const;

export async function insertInvitation(tx: Tx, row: Insertable<InvitationsTable>): Promise<number> {
  const r = await tx.insertInto('invitations').values(row).returning('id').executeTakeFirstOrThrow();
  return r.id;
}

export async function invitationByKey(db: Q, key: string): Promise<Invitation | undefined> {
  return db.selectFrom('invitations').selectAll().where('key', '=', key).executeTakeFirst();
}

export async function invitationById(db: Q, realmId: number, id: number): Promise<Invitation | undefined> {
  return db.selectFrom('invitations').selectAll().where('realm_id', '=', realmId).where('id', '=', id).executeTakeFirst();
}

/** Pending invitations (not sign-up confirmations) that have not expired, oldest first; of one inviter unless `invitedBy` is null. */
export async function pendingInvitations(db: Q, realmId: number, now: number, invitedBy: number | null): Promise<Invitation[]> {
  let q = db
    .selectFrom('invitations')
    .selectAll()
    .where('realm_id', '=', realmId)
    .where('status', '=', INVITE_STATUS.PENDING)
    .where('kind', '!=', 'signup')
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]));
  if (invitedBy !== null) q = q.where('invited_by', '=', invitedBy);
  return q.orderBy('id').execute();
}

export async function setInvitationStatus(tx: Tx, id: number, status: number): Promise<void> {
  await tx.updateTable('invitations').set({ status }).where('id', '=', id).execute();
}

/** A resent invitation gets a new lifetime of the same length, from now. */
export async function renewInvitation(tx: Tx, id: number, invitedAt: number, expiresAt: number | null): Promise<void> {
  await tx.updateTable('invitations').set({ invited_at: invitedAt, expires_at: expiresAt }).where('id', '=', id).execute();
}

/** Once someone has joined with an address, the other pending invitations of that address are spent. */
export async function markInvitationsOfEmailUsed(tx: Tx, realmId: number, email: string): Promise<void> {
  await tx
    .updateTable('invitations')
    .set({ status: INVITE_STATUS.USED })
    .where('realm_id', '=', realmId)
    .where('status', '=', INVITE_STATUS.PENDING)
    .where('kind', '!=', 'multiuse')
    .where((eb) => eb(eb.fn('lower', ['email']), '=', email.toLowerCase()))
    .execute();
}

/** Marks a single-use link used, if it still is pending; false when another request used it first. */
export async function claimInvitation(tx: Tx, id: number): Promise<boolean> {
  const r = await tx.updateTable('invitations').set({ status: INVITE_STATUS.USED }).where('id', '=', id).where('status', '=', INVITE_STATUS.PENDING).executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}
