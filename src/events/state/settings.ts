// The `user_settings` and `realm_user_settings_defaults` groups, and the stop words.
import fs from 'node:fs';
import { parseSettings, USER_SETTING_DEFAULTS } from '../../lib/limits.ts';
import type { SnapshotGroup } from './types.ts';

export const userSettingsGroup: SnapshotGroup = async ({ user, clientCapabilities }) => {
  if (!user) return {};
  const settings = { ...parseSettings(USER_SETTING_DEFAULTS, user.settings), timezone: user.timezone };
  // Clients without the capability read the settings as top-level fields, as before it existed.
  return clientCapabilities.user_settings_object ? { user_settings: settings } : { user_settings: settings, ...settings };
};

export const realmUserSettingsDefaultsGroup: SnapshotGroup = async () => {
  const { timezone: _tz, ...defaults } = USER_SETTING_DEFAULTS;
  void _tz;
  return { realm_user_settings_defaults: defaults };
};

let stopWords: string[] | null = null;

export const stopWordsGroup: SnapshotGroup = async () => {
  stopWords ??= fs
    .readFileSync(new URL('./english-stopwords.txt', import.meta.url), 'utf8')
    .split('\n')
    .map((w) => w.trim())
    .filter(Boolean);
  return { stop_words: stopWords };
};
