// Realm-level helpers: its public URL and its settings merged with the defaults.
import type { Config } from '../config.ts';
import type { Realm } from '../db/schema.ts';
import { parseSettings, REALM_SETTING_DEFAULTS, type RealmSettings } from './settings-registry.ts';

export function realmUrl(config: Pick<Config, 'externalHost' | 'externalScheme'>, realm: Pick<Realm, 'subdomain'>): string {
  const host = realm.subdomain ? `${realm.subdomain}.${config.externalHost}` : config.externalHost;
  return `${config.externalScheme}://${host}`;
}

/** The domain of bots' email addresses: the realm's host. */
export function realmBotDomain(app: { config: Pick<Config, 'externalHost' | 'externalScheme'> }, realm: Pick<Realm, 'subdomain'>): string {
  return new URL(realmUrl(app.config, realm)).hostname;
}

const cache = new WeakMap<Realm, RealmSettings>();

export function realmSettings(realm: Realm): RealmSettings {
  let s = cache.get(realm);
  if (!s) {
    s = parseSettings(REALM_SETTING_DEFAULTS, realm.settings);
    cache.set(realm, s);
  }
  return s;
}
