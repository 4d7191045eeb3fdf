// realm_bot events: bots the user administers added, changed, deactivated (`remove`), or no
// longer administered by the user (`delete`).
// The `realm_bot` snapshot group: the bots the user administers (all of them for administrators).
import { visibleBots, type BotJson } from '../../presenters/bot.ts';
import { defineEventType, type SnapshotGroup, type State } from '../event-type.ts';
import type { BaseEvent } from '../types.ts';

export type RealmBotEvent =
  | { type: 'realm_bot'; op: 'add'; bot: BotJson }
  | { type: 'realm_bot'; op: 'update'; bot: { user_id: number } & Partial<BotJson> }
  | { type: 'realm_bot'; op: 'remove'; bot: { user_id: number; full_name: string } }
  | { type: 'realm_bot'; op: 'delete'; bot: { user_id: number } };

export const realmBotGroup: SnapshotGroup = async ({ app, realm, user }) => ({
  realm_bots: user ? await visibleBots(app, user, realm) : [],
});

type Bot = { user_id: number } & Record<string, unknown>;

function apply(state: State, event: BaseEvent): void {
  if (!Array.isArray(state.realm_bots)) return;
  const bot = event.bot as Bot;
  let bots = state.realm_bots as Bot[];
  if (event.op === 'add') bots = [...bots.filter((b) => b.user_id !== bot.user_id), structuredClone(bot)];
  else if (event.op === 'delete') bots = bots.filter((b) => b.user_id !== bot.user_id);
  else if (event.op === 'remove') {
    // A deactivated bot stays listed, inactive.
    for (const b of bots) if (b.user_id === bot.user_id) b.is_active = false;
  }
  else if (event.op === 'update') {
    for (const b of bots) if (b.user_id === bot.user_id) Object.assign(b, structuredClone(bot));
  }
  state.realm_bots = bots;
}

export const realmBotEventType = defineEventType<RealmBotEvent>({ type: 'realm_bot', snapshot: { realm_bot: realmBotGroup }, apply });
