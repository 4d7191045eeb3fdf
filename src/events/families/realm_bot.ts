// realm_bot events: bots the user administers added, changed, deactivated (`remove`), or no
// longer administered by the user (`delete`).
import type { EventFamily, State } from '../family.ts';
import type { BaseEvent } from '../types.ts';

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

export const realmBotFamily: EventFamily = { apply };
