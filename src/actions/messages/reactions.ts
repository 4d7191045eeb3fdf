// Emoji reactions: adding and removing one's own, with the three kinds of emoji.
import type { AppContext } from '../../context.ts';
import type { Realm, User } from '../../db/schema.ts';
import { anyReactionWithCode, deleteReaction, findReaction, insertReaction } from '../../db/queries/reactions.ts';
import { realmEmojiById, realmEmojiByNames } from '../../db/queries/render-refs.ts';
import { messageByIdOrThrow } from '../../db/queries/messages.ts';
import { badRequest, missingArgument, reactionDoesNotExist, reactionExists } from '../../lib/errors.ts';
import { emojiTables } from '../../lib/markdown/emoji-data.ts';
import { accessMessage } from '../../lib/message-access.ts';
import { messageAudience } from '../../lib/message-audience.ts';
import { isServiceEmoji } from '../../lib/service-emoji.ts';
import type { ReactionEvent } from '../../events/event-types/reaction.ts';
import { runAction, type ActionScope } from '../action.ts';

export type ReactionType = 'unicode_emoji' | 'realm_emoji' | 'service_extra_emoji';
const REACTION_TYPES: readonly string[] = ['unicode_emoji', 'realm_emoji', 'service_extra_emoji'];

export interface ReactionInput {
  emojiName?: string | undefined;
  emojiCode?: string | undefined;
  reactionType?: string | undefined;
}

interface Emoji {
  name: string;
  code: string;
  type: ReactionType;
}

const noSuchEmoji = (name: string) => badRequest(`Emoji '${name}' does not exist`);

/** Works out the emoji from its name, or checks a given code and type against the name. */
async function resolveEmoji(app: AppContext, realm: Realm, input: ReactionInput, forAdd: boolean): Promise<Emoji> {
  const name = input.emojiName ?? '';
  if (input.reactionType !== undefined && !REACTION_TYPES.includes(input.reactionType)) throw badRequest('Invalid emoji type.');
  let type = input.reactionType as ReactionType | undefined;
  let code = input.emojiCode;
  const db = app.db.kysely;
  if (type === undefined) {
    const custom = name ? (await realmEmojiByNames(db, realm.id, [name])).find((e) => !e.deactivated) : undefined;
    if (custom) type = 'realm_emoji';
    else if (isServiceEmoji(name)) type = 'service_extra_emoji';
    else type = 'unicode_emoji';
  }
  if (type === 'realm_emoji') {
    const byCode = code !== undefined && /^\d+$/.test(code) ? await realmEmojiById(db, realm.id, Number(code)) : undefined;
    const emoji = byCode ?? (name ? (await realmEmojiByNames(db, realm.id, [name])).find((e) => !e.deactivated) : undefined);
    if (!emoji || (forAdd && emoji.deactivated)) throw badRequest('Invalid custom emoji.');
    if (code !== undefined && String(emoji.id) !== code) throw badRequest('Invalid custom emoji.');
    return { name: name || emoji.name, code: String(emoji.id), type };
  }
  if (type === 'service_extra_emoji') {
    const n = code ?? name;
    if (!isServiceEmoji(n)) throw noSuchEmoji(name || n);
    return { name: n, code: n, type };
  }
  const tables = emojiTables();
  if (code === undefined) {
    code = tables.nameToCode.get(name);
    if (code === undefined) throw noSuchEmoji(name);
  } else if (!tables.codeToName.has(code)) {
    throw badRequest('Invalid emoji code.');
  } else if (forAdd && name && tables.nameToCode.get(name) !== code) {
    throw badRequest('Invalid emoji name.');
  }
  return { name: name || tables.codeToName.get(code)!, code, type };
}

function reactionEvent(op: 'add' | 'remove', messageId: number, user: User, e: Emoji): ReactionEvent {
  return {
    type: 'reaction',
    op,
    message_id: messageId,
    emoji_name: e.name,
    emoji_code: e.code,
    reaction_type: e.type,
    user_id: user.id,
    user: { user_id: user.id, email: user.email, full_name: user.full_name, is_mirror_dummy: false },
  };
}

async function emitReaction(scope: ActionScope, op: 'add' | 'remove', user: User, messageId: number, e: Emoji): Promise<void> {
  const message = await messageByIdOrThrow(scope.tx, messageId);
  scope.emit(reactionEvent(op, messageId, user, e), await messageAudience(scope.tx, [message]));
}

export async function checkAddReaction(app: AppContext, user: User, realm: Realm, messageId: number, input: ReactionInput): Promise<void> {
  const { message } = await accessMessage(app.db.kysely, user, messageId);
  if (input.emojiName === undefined) throw missingArgument('emoji_name');
  let emoji = await resolveEmoji(app, realm, input, true);
  await runAction(app, async (scope) => {
    if (await findReaction(scope.tx, message.id, user.id, emoji.type, emoji.code)) {
      throw reactionExists();
    }
    // Joining someone's reaction keeps the name they chose, so one emoji shows once.
    const existing = await anyReactionWithCode(scope.tx, message.id, emoji.type, emoji.code);
    if (existing) emoji = { ...emoji, name: existing.emoji_name };
    await insertReaction(scope.tx, { message_id: message.id, user_id: user.id, emoji_name: emoji.name, emoji_code: emoji.code, reaction_type: emoji.type });
    await emitReaction(scope, 'add', user, message.id, emoji);
  });
}

export async function checkRemoveReaction(app: AppContext, user: User, realm: Realm, messageId: number, input: ReactionInput): Promise<void> {
  const { message } = await accessMessage(app.db.kysely, user, messageId);
  if (input.emojiName === undefined && input.emojiCode === undefined) {
    throw badRequest('At least one of the following arguments must be present: emoji_name, emoji_code');
  }
  let emoji: Emoji;
  try {
    emoji = await resolveEmoji(app, realm, input, false);
  } catch (e) {
    // A reaction with an emoji that no longer exists can still be taken back by its name.
    if (input.emojiCode !== undefined) emoji = { name: input.emojiName ?? '', code: input.emojiCode, type: (input.reactionType ?? 'unicode_emoji') as ReactionType };
    else throw e;
  }
  await runAction(app, async (scope) => {
    const row = await findReaction(scope.tx, message.id, user.id, emoji.type, emoji.code);
    if (!row) throw reactionDoesNotExist();
    await deleteReaction(scope.tx, row.id);
    await emitReaction(scope, 'remove', user, message.id, { name: row.emoji_name, code: row.emoji_code, type: row.reaction_type as ReactionType });
  });
}
