// A realm's current settings and the event that announces a change of one; the settings
// themselves are declared in settings-registry.ts.
import type { Conn, Tx } from '../db/database.ts';
import { realmById } from '../db/queries/realms.ts';
import { realmSettings } from './realm.ts';
import { REALM_SETTING_DEFAULTS, realmSetting, type RealmSettings } from './settings-registry.ts';

export async function realmSettingsById(db: Conn | Tx, realmId: number): Promise<RealmSettings> {
  const realm = await realmById(db, realmId);
  return realm ? realmSettings(realm) : { ...REALM_SETTING_DEFAULTS };
}

/** A `realm` event (the payload of src/events/event-types/realm.ts). */
export type RealmSettingUpdate =
  | { type: 'realm'; op: 'update'; property: string; value: unknown }
  | { type: 'realm'; op: 'update_dict'; property: string; data: Record<string, unknown> };

/** The `realm` event for a change of one setting, in the form its declaration names. */
export function realmSettingEvent(name: string, value: unknown): RealmSettingUpdate {
  return realmSetting(name)?.event === 'update_dict'
    ? { type: 'realm', op: 'update_dict', property: 'default', data: { [name]: value } }
    : { type: 'realm', op: 'update', property: name, value };
}
