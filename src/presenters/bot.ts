// The Bot object of the API (GET /bots, realm_bot events, the realm_bots snapshot).
import type { AppContext } from '../context.ts';
import type { Conn, Tx } from '../db/database.ts';
import type { Realm, User } from '../db/schema.ts';
import { botRows, streamNamesByIds, type BotRow } from '../db/queries/bots.ts';
import { isAdmin } from '../lib/permissions.ts';
import { realmUrl } from '../lib/realm.ts';
import { avatarUrl } from '../lib/avatar.ts';
import { BOT_TYPE } from '../lib/limits.ts';

export interface BotJson {
  user_id: number;
  email: string;
  full_name: string;
  bot_type: number | null;
  is_active: boolean;
  api_key: string;
  default_sending_stream: string | null;
  default_events_register_stream: string | null;
  default_all_public_streams: boolean;
  avatar_url: string;
  owner_id: number | null;
  services: { base_url: string; interface: number; token: string }[];
}

export function presentServices(bot: BotRow): BotJson['services'] {
  const s = bot.settings;
  if (bot.user.bot_type !== BOT_TYPE.OUTGOING_WEBHOOK || s.service_base_url === null) return [];
  return [{ base_url: s.service_base_url, interface: s.service_interface ?? 1, token: s.service_token ?? '' }];
}

export function presentBot(bot: BotRow, streamNames: ReadonlyMap<number, string>, realmUrl: string): BotJson {
  const { user, settings } = bot;
  const name = (id: number | null): string | null => (id === null ? null : (streamNames.get(id) ?? null));
  return {
    user_id: user.id,
    email: user.email,
    full_name: user.full_name,
    bot_type: user.bot_type,
    is_active: user.is_active === 1,
    api_key: user.api_key,
    default_sending_stream: name(settings.default_sending_stream_id),
    default_events_register_stream: name(settings.default_events_register_stream_id),
    default_all_public_streams: settings.default_all_public_streams === 1,
    avatar_url: avatarUrl(user, false, realmUrl) ?? '',
    owner_id: user.bot_owner_id,
    services: presentServices(bot),
  };
}

/** The stream IDs a list of bots refers to. */
export const botStreamIds = (bots: BotRow[]): number[] =>
  bots.flatMap((b) => [b.settings.default_sending_stream_id, b.settings.default_events_register_stream_id]).filter((id): id is number => id !== null);

type Q = Conn | Tx;

export async function presentBots(app: AppContext, db: Q, realm: Realm, bots: BotRow[]): Promise<BotJson[]> {
  const names = await streamNamesByIds(db, botStreamIds(bots));
  const url = realmUrl(app.config, realm);
  return bots.map((b) => presentBot(b, names, url));
}

/**
 * The bots a user administers: all of them for administrators, else their own. The register
 * snapshot lists deactivated ones too (marked inactive); `GET /bots` lists active ones only.
 */
export async function visibleBots(app: AppContext, caller: User, realm: Realm, activeOnly = false): Promise<BotJson[]> {
  const db = app.db.kysely;
  const rows = await botRows(db, realm.id, isAdmin(caller) ? undefined : caller.id, activeOnly);
  return presentBots(app, db, realm, rows);
}
