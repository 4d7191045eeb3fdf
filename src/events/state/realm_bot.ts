// The `realm_bot` snapshot group: the bots the user administers (all of them for administrators).
import { visibleBots } from '../../presenters/bot.ts';
import type { SnapshotGroup } from './types.ts';

export const realmBotGroup: SnapshotGroup = async ({ app, realm, user }) => ({
  realm_bots: user ? await visibleBots(app, user, realm) : [],
});
