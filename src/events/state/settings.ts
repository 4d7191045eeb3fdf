// The `user_settings` and `realm_user_settings_defaults` groups, and the stop words.
import fs from 'node:fs';
import type { SnapshotGroup } from './types.ts';
import { userSettingsSnapshot } from './user_settings.ts';

export const userSettingsGroup: SnapshotGroup = async (ctx) => {
  const group = await userSettingsSnapshot(ctx);
  const settings = group.user_settings as Record<string, unknown> | undefined;
  if (!settings) return {};
  // Clients without the capability read the settings as top-level fields, as before it existed.
  return ctx.clientCapabilities.user_settings_object ? group : { ...group, ...settings };
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
