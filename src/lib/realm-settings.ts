import type { Conn, Tx } from '../db/database.ts';
import { realmById } from '../db/queries/realms.ts';
import { realmSettings } from './realm.ts';
import type { RealmSettings } from './limits.ts';
import { REALM_SETTING_DEFAULTS } from './limits.ts';

export async function realmSettingsById(db: Conn | Tx, realmId: number): Promise<RealmSettings> {
  const realm = await realmById(db, realmId);
  return realm ? realmSettings(realm) : { ...REALM_SETTING_DEFAULTS };
}
