// Server secrets: made once, by whichever process gets there first, and shared by all.
import { randomBytes } from 'node:crypto';
import type { Conn } from '../database.ts';

export async function serverSecret(db: Conn, name: string): Promise<string> {
  await db
    .insertInto('server_secrets')
    .values({ name, value: randomBytes(32).toString('hex') })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const row = await db.selectFrom('server_secrets').select('value').where('name', '=', name).executeTakeFirstOrThrow();
  return row.value;
}
