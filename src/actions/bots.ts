// Bots: creating, changing, deactivating, and regenerating API keys (for bots and oneself).
import { randomBytes } from 'node:crypto';
import type { AppContext } from '../context.ts';
import type { Conn, Tx } from '../db/database.ts';
import type { Realm, User } from '../db/schema.ts';
import { adminUserIds, botSettings, saveBotSettings, type BotSettings } from '../db/queries/bots.ts';
import { activeUserIdsInRealm, updateUser, userByEmail, userById } from '../db/queries/users.ts';
import { accessStreamByName, accessUserById } from '../lib/access.ts';
import { canCreateBot, isAdmin, requireMember, ROLE } from '../lib/permissions.ts';
import { newApiKey } from '../lib/apikey.ts';
import { adminRequired, badRequest } from '../lib/errors.ts';
import { ADMIN_LIMITS, BOT_TYPE } from '../lib/limits.ts';
import { realmBotDomain, realmSettings, realmUrl } from '../lib/realm.ts';
import { checkFullName } from '../lib/validate.ts';
import { presentBots, presentServices, type BotJson } from '../presenters/bot.ts';
import { presentUser } from '../presenters/user.ts';
import { emitActivationGroupChange } from './user-groups.ts';
import { doDeactivateBot, emitPeerChanges } from './users.ts';
import { runAction, type ActionScope } from './action.ts';
import { doCreateUser } from './users.ts';

type Q = Conn | Tx;

/** The domain of bots' fake email addresses: the realm's host name. */
/** Administrators and the bot's owner administer it, and hear its realm_bot events. */
export async function botAudience(db: Q, realmId: number, ownerIds: (number | null)[]): Promise<number[]> {
  const ids = new Set(await adminUserIds(db, realmId));
  for (const id of ownerIds) if (id !== null) ids.add(id);
  return [...ids];
}

/** The bot the caller may administer, or the reference's errors. */
export async function accessBot(db: Q, caller: User, botId: number): Promise<User> {
  const bot = await userById(db, caller.realm_id, botId);
  if (!bot || !bot.is_bot) throw badRequest('No such bot');
  if (!isAdmin(caller) && bot.bot_owner_id !== caller.id) throw badRequest('Insufficient permission');
  return bot;
}

/** A stream name (or '' for none) a bot may default to: one the caller can see. */
async function botStreamId(db: Q, caller: User, name: string | null | undefined): Promise<number | null | undefined> {
  if (name === undefined) return undefined;
  if (name === null || name === '') return null;
  const { stream, sub } = await accessStreamByName(db, caller, name);
  if (stream.invite_only && !sub?.active) throw badRequest(`Invalid stream name '${name}'`);
  return stream.id;
}

export interface NewBotInput {
  fullName: string;
  shortName: string;
  botType: number;
  payloadUrl: string | undefined;
  interfaceType: number;
  defaultSendingStream: string | undefined;
  defaultEventsRegisterStream: string | undefined;
  defaultAllPublicStreams: boolean;
}

function checkPayloadUrl(url: string | undefined): string {
  if (url === undefined) throw badRequest('Missing \'payload_url\' argument');
  try {
    const u = new URL(url);
    if (u.protocol === 'http:' || u.protocol === 'https:') return url;
  } catch {
    // refused below
  }
  throw badRequest('payload_url is not a URL');
}

function checkCreatePermission(caller: User, realm: Realm, botType: number): void {
  const policy = realmSettings(realm).bot_creation_policy;
  requireMember(caller);
  if (!canCreateBot(caller, policy, botType === BOT_TYPE.GENERIC)) throw adminRequired();
}

export async function checkCreateBot(app: AppContext, caller: User, realm: Realm, input: NewBotInput): Promise<{ bot: BotJson }> {
  const fullName = checkFullName(input.fullName);
  const shortName = input.shortName.trim().toLowerCase();
  if (!/^[a-z0-9][a-z0-9._-]*$/.test(shortName) || shortName.length > ADMIN_LIMITS.maxBotShortNameLength) throw badRequest('Bad name or username');
  if (input.botType === BOT_TYPE.EMBEDDED) throw badRequest('Embedded bots are not enabled.');
  if (!(Object.values(BOT_TYPE) as number[]).includes(input.botType)) throw badRequest('Invalid bot type');
  const payloadUrl = input.botType === BOT_TYPE.OUTGOING_WEBHOOK ? checkPayloadUrl(input.payloadUrl) : null;
  if (![1, 2].includes(input.interfaceType)) throw badRequest('Invalid interface type');
  checkCreatePermission(caller, realm, input.botType);
  const email = `${shortName}-bot@${realmBotDomain(app, realm)}`;
  return runAction(app, async (scope) => {
    if (await userByEmail(scope.tx, realm.id, email)) throw badRequest('Username already in use');
    const sending = await botStreamId(scope.tx, caller, input.defaultSendingStream);
    const register = await botStreamId(scope.tx, caller, input.defaultEventsRegisterStream);
    const { id } = await doCreateUser(scope.tx, scope.now, {
      realmId: realm.id,
      email,
      fullName,
      password: null,
      role: ROLE.MEMBER,
      isBot: true,
      botType: input.botType,
      botOwnerId: caller.id,
    });
    const settings: BotSettings = {
      user_id: id,
      default_sending_stream_id: sending ?? null,
      default_events_register_stream_id: register ?? null,
      default_all_public_streams: input.defaultAllPublicStreams ? 1 : 0,
      service_base_url: payloadUrl,
      service_interface: payloadUrl === null ? null : input.interfaceType,
      service_token: payloadUrl === null ? null : randomBytes(16).toString('hex'),
    };
    await saveBotSettings(scope.tx, settings);
    const user = (await userById(scope.tx, realm.id, id))!;
    return { bot: await emitBotAdded(app, scope, realm, user, settings) };
  });
}

/** Tells the realm of a new bot: its users, the bot's administrators, the groups it joined by its role. */
export async function emitBotAdded(app: AppContext, scope: ActionScope, realm: Realm, user: User, settings: BotSettings): Promise<BotJson> {
  const [bot] = await presentBots(app, scope.tx, realm, [{ user, settings }]);
  const person = presentUser(user, { clientExternalAvatar: false, realmUrl: realmUrl(app.config, realm) });
  scope.emit({ type: 'realm_user', op: 'add', person }, await activeUserIdsInRealm(scope.tx, realm.id));
  scope.emit({ type: 'realm_bot', op: 'add', bot: bot! }, await botAudience(scope.tx, realm.id, [user.bot_owner_id]));
  // The bot joined the default streams: their subscribers hear of it.
  await emitPeerChanges(scope, user.id, 'peer_add');
  await emitActivationGroupChange(scope, user, true);
  return bot!;
}

export interface BotChanges {
  fullName?: string | undefined;
  botOwnerId?: number | undefined;
  defaultSendingStream?: string | null | undefined;
  defaultEventsRegisterStream?: string | null | undefined;
  defaultAllPublicStreams?: boolean | undefined;
  servicePayloadUrl?: string | undefined;
  serviceInterface?: number | undefined;
}

export async function checkUpdateBot(app: AppContext, caller: User, realm: Realm, botId: number, changes: BotChanges): Promise<Record<string, unknown>> {
  const fullName = changes.fullName === undefined ? undefined : checkFullName(changes.fullName);
  if (changes.serviceInterface !== undefined && ![1, 2].includes(changes.serviceInterface)) throw badRequest('Invalid interface type');
  return runAction(app, async (scope) => {
    const bot = await accessBot(scope.tx, caller, botId);
    if (!bot.is_active) throw badRequest('No such bot');
    const settings = await botSettings(scope.tx, bot.id);
    const result: Record<string, unknown> = {};
    const botEvents: Record<string, unknown>[] = [];
    const everyone = await activeUserIdsInRealm(scope.tx, realm.id);
    let ownerId = bot.bot_owner_id;
    if (fullName !== undefined && fullName !== bot.full_name) {
      await updateUser(scope.tx, bot.id, { full_name: fullName });
      scope.emit({ type: 'realm_user', op: 'update', person: { user_id: bot.id, full_name: fullName } }, everyone);
      botEvents.push({ full_name: fullName });
    }
    if (fullName !== undefined) result.full_name = fullName;
    if (changes.botOwnerId !== undefined) {
      const owner = await accessUserById(scope.tx, caller, changes.botOwnerId);
      if (owner.is_bot) throw badRequest('Failed to change owner, bots can\'t own other bots');
      if (owner.id !== bot.bot_owner_id) {
        await updateUser(scope.tx, bot.id, { bot_owner_id: owner.id });
        ownerId = owner.id;
        scope.emit({ type: 'realm_user', op: 'update', person: { user_id: bot.id, bot_owner_id: owner.id } }, everyone);
        botEvents.push({ owner_id: owner.id });
      }
      result.bot_owner = owner.email;
    }
    const next: BotSettings = { ...settings };
    const sending = await botStreamId(scope.tx, caller, changes.defaultSendingStream);
    if (sending !== undefined) {
      next.default_sending_stream_id = sending;
      result.default_sending_stream = changes.defaultSendingStream || null;
      botEvents.push({ default_sending_stream: result.default_sending_stream });
    }
    const register = await botStreamId(scope.tx, caller, changes.defaultEventsRegisterStream);
    if (register !== undefined) {
      next.default_events_register_stream_id = register;
      result.default_events_register_stream = changes.defaultEventsRegisterStream || null;
      botEvents.push({ default_events_register_stream: result.default_events_register_stream });
    }
    if (changes.defaultAllPublicStreams !== undefined) {
      next.default_all_public_streams = changes.defaultAllPublicStreams ? 1 : 0;
      result.default_all_public_streams = changes.defaultAllPublicStreams;
      botEvents.push({ default_all_public_streams: changes.defaultAllPublicStreams });
    }
    if (changes.servicePayloadUrl !== undefined || changes.serviceInterface !== undefined) {
      if (bot.bot_type !== BOT_TYPE.OUTGOING_WEBHOOK) throw badRequest('Only outgoing webhook bots have a service');
      if (changes.servicePayloadUrl !== undefined) next.service_base_url = checkPayloadUrl(changes.servicePayloadUrl);
      if (changes.serviceInterface !== undefined) next.service_interface = changes.serviceInterface;
      botEvents.push({ services: presentServices({ user: bot, settings: next }) });
      result.service_payload_url = next.service_base_url;
      result.service_interface = next.service_interface;
    }
    await saveBotSettings(scope.tx, next);
    // Administrators and the (new) owner see the changes; an owner who is not an administrator
    // loses the bot from their list, and a new one gains it whole.
    const admins = new Set(await adminUserIds(scope.tx, realm.id));
    const handedOver = ownerId !== bot.bot_owner_id;
    const audience = (await botAudience(scope.tx, realm.id, [ownerId])).filter((id) => !handedOver || id !== ownerId || admins.has(id));
    for (const change of botEvents) scope.emit({ type: 'realm_bot', op: 'update', bot: { user_id: bot.id, ...change } }, audience);
    if (handedOver && bot.bot_owner_id !== null && !admins.has(bot.bot_owner_id)) {
      scope.emit({ type: 'realm_bot', op: 'delete', bot: { user_id: bot.id } }, [bot.bot_owner_id]);
    }
    if (handedOver && ownerId !== null && !admins.has(ownerId)) {
      const [whole] = await presentBots(app, scope.tx, realm, [{ user: (await userById(scope.tx, realm.id, bot.id))!, settings: next }]);
      scope.emit({ type: 'realm_bot', op: 'add', bot: whole! }, [ownerId]);
    }
    return result;
  });
}

export async function checkDeactivateBot(app: AppContext, caller: User, realm: Realm, botId: number): Promise<void> {
  await runAction(app, async (scope) => {
    const bot = await accessBot(scope.tx, caller, botId);
    if (!bot.is_active) throw badRequest('No such bot');
    await doDeactivateBot(scope, bot, await activeUserIdsInRealm(scope.tx, realm.id));
  });
}

/** A new API key for the caller (the old one stops working at once), or for a bot they administer. */
export async function checkRegenerateApiKey(app: AppContext, caller: User, realm: Realm, botId?: number): Promise<string> {
  return runAction(app, async (scope) => {
    const target = botId === undefined ? caller : await accessBot(scope.tx, caller, botId);
    if (botId !== undefined && !target.is_active) throw badRequest('No such bot');
    const apiKey = newApiKey();
    await updateUser(scope.tx, target.id, { api_key: apiKey });
    if (target.is_bot) {
      scope.emit(
        { type: 'realm_bot', op: 'update', bot: { user_id: target.id, api_key: apiKey } },
        await botAudience(scope.tx, realm.id, [target.bot_owner_id]),
      );
    }
    return apiKey;
  });
}
