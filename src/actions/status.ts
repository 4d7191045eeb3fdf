// User status (text, emoji, away) and alert words.
import type { AppContext } from '../context.ts';
import type { Tx } from '../db/database.ts';
import type { User } from '../db/schema.ts';
import { activeUserIdsInRealm, lockUser, updateUser, userById } from '../db/queries/users.ts';
import {
  addAlertWords,
  alertWords,
  realmEmojiById,
  realmEmojiByName,
  removeAlertWords,
  saveUserStatus,
  userStatus,
  type UserStatusRow,
} from '../db/queries/presence.ts';
import { badRequest } from '../lib/errors.ts';
import { emojiTables } from '../lib/markdown/emoji-data.ts';
import { isServiceEmoji } from '../lib/service-emoji.ts';
import { setOverride, storedOverrides, USER_SETTING_DEFAULTS } from '../lib/settings-registry.ts';
import { userSettingEvent, userSettings } from '../lib/user-settings.ts';
import type { UserStatusEvent } from '../events/event-types/user_status.ts';
import { runAction } from './action.ts';

export const STATUS_TEXT_LIMIT = 60;
export const ALERT_WORD_LIMIT = 100;

export interface StatusInput {
  statusText?: string;
  away?: boolean;
  emojiName?: string;
  emojiCode?: string;
  reactionType?: string;
}

const REACTION_TYPES = ['unicode_emoji', 'realm_emoji', 'service_extra_emoji'];

/** Resolves the emoji of a status: the code from the name when not given, checked either way. */
async function checkStatusEmoji(tx: Tx, realmId: number, name: string, code: string | undefined, type: string | undefined): Promise<{ code: string; type: string }> {
  if (type !== undefined && !REACTION_TYPES.includes(type)) throw badRequest('Invalid reaction_type');
  const custom = await realmEmojiByName(tx, realmId, name);
  const unicode = emojiTables().nameToCode.get(name);
  const resolvedType = type ?? (custom ? 'realm_emoji' : unicode !== undefined ? 'unicode_emoji' : isServiceEmoji(name) ? 'service_extra_emoji' : undefined);
  if (resolvedType === undefined) throw badRequest(`Emoji '${name}' does not exist`);
  if (resolvedType === 'realm_emoji') {
    if (code !== undefined && !/^\d{1,9}$/.test(code)) throw badRequest('Invalid custom emoji.');
    const byCode = code === undefined ? custom : await realmEmojiById(tx, realmId, Number(code));
    if (!byCode || byCode.name !== name || ('deactivated' in byCode && byCode.deactivated)) throw badRequest('Invalid custom emoji.');
    return { code: String(byCode.id), type: resolvedType };
  }
  if (resolvedType === 'service_extra_emoji') {
    if (!isServiceEmoji(name) || (code !== undefined && code !== name)) throw badRequest('Invalid emoji name.');
    return { code: name, type: resolvedType };
  }
  if (unicode === undefined) throw badRequest(`Emoji '${name}' does not exist`);
  if (code !== undefined && code !== unicode) throw badRequest('Invalid emoji name.');
  return { code: unicode, type: resolvedType };
}

export async function checkUpdateStatus(app: AppContext, user: User, input: StatusInput): Promise<void> {
  if (Object.values(input).every((v) => v === undefined)) throw badRequest('Client did not pass any new values.');
  const text = input.statusText?.trim();
  if (text !== undefined && text.length > STATUS_TEXT_LIMIT) throw badRequest(`status_text is too long (limit: ${STATUS_TEXT_LIMIT} characters)`);
  if (input.emojiName === undefined && (input.emojiCode !== undefined || input.reactionType !== undefined)) {
    throw badRequest('Client must pass emoji_name if they pass either emoji_code or reaction_type.');
  }
  await runAction(app, async (scope) => {
    await lockUser(scope.tx, user.realm_id, user.id, scope.dialect);
    const existing = await userStatus(scope.tx, user.id);
    const row: UserStatusRow = existing ?? { user_id: user.id, status_text: '', emoji_name: '', emoji_code: '', reaction_type: 'unicode_emoji', timestamp: scope.now };
    const event: UserStatusEvent = { type: 'user_status', user_id: user.id };
    if (text !== undefined) {
      row.status_text = text;
      event.status_text = text;
    }
    if (input.emojiName !== undefined) {
      if (input.emojiName === '') {
        Object.assign(row, { emoji_name: '', emoji_code: '', reaction_type: 'unicode_emoji' });
      } else {
        const emoji = await checkStatusEmoji(scope.tx, user.realm_id, input.emojiName, input.emojiCode, input.reactionType);
        Object.assign(row, { emoji_name: input.emojiName, emoji_code: emoji.code, reaction_type: emoji.type });
      }
      Object.assign(event, { emoji_name: row.emoji_name, emoji_code: row.emoji_code, reaction_type: row.reaction_type });
    }
    row.timestamp = scope.now;
    await saveUserStatus(scope.tx, row, existing !== undefined);
    if (input.away !== undefined) {
      // Since feature level 148 "away" is the inverse of the presence_enabled setting.
      event.away = input.away;
      const fresh = (await userById(scope.tx, user.realm_id, user.id))!;
      const settings = storedOverrides(fresh.settings);
      if (userSettings(fresh).presence_enabled === input.away) {
        setOverride(settings, USER_SETTING_DEFAULTS, 'presence_enabled', !input.away);
        await updateUser(scope.tx, user.id, { settings: JSON.stringify(settings) });
        scope.emit(userSettingEvent('presence_enabled', !input.away), [user.id]);
      }
    }
    scope.emit(event, await activeUserIdsInRealm(scope.tx, user.realm_id));
  });
}

function checkWords(words: string[]): string[] {
  const out: string[] = [];
  for (const [i, raw] of words.entries()) {
    const w = raw.trim();
    if (w.length > ALERT_WORD_LIMIT) throw badRequest(`alert_words[${i}] is too long (limit: ${ALERT_WORD_LIMIT} characters)`);
    if (w !== '') out.push(w);
  }
  return out;
}

/** Adds words not yet present (compared without case); returns the user's words. */
export async function checkAddAlertWords(app: AppContext, user: User, words: string[]): Promise<string[]> {
  const clean = checkWords(words);
  return runAction(app, async (scope) => {
    await lockUser(scope.tx, user.realm_id, user.id, scope.dialect);
    const current = await alertWords(scope.tx, user.id);
    const seen = new Set(current.map((w) => w.toLowerCase()));
    const added: string[] = [];
    for (const w of clean) {
      if (seen.has(w.toLowerCase())) continue;
      seen.add(w.toLowerCase());
      added.push(w);
    }
    await addAlertWords(scope.tx, user.id, added);
    const all = await alertWords(scope.tx, user.id);
    if (added.length > 0) scope.emit({ type: 'alert_words', alert_words: all }, [user.id]);
    return all;
  });
}

export async function checkRemoveAlertWords(app: AppContext, user: User, words: string[]): Promise<string[]> {
  const drop = new Set(words.map((w) => w.trim().toLowerCase()));
  return runAction(app, async (scope) => {
    await lockUser(scope.tx, user.realm_id, user.id, scope.dialect);
    const current = await alertWords(scope.tx, user.id);
    const removed = current.filter((w) => drop.has(w.toLowerCase()));
    await removeAlertWords(scope.tx, user.id, removed);
    const all = await alertWords(scope.tx, user.id);
    if (removed.length > 0) scope.emit({ type: 'alert_words', alert_words: all }, [user.id]);
    return all;
  });
}
