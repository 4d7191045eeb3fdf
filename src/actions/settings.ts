// The caller's personal settings, name and password (PATCH /settings).
import type { AppContext } from '../context.ts';
import type { Realm, User } from '../db/schema.ts';
import { activeUserIdsInRealm, lockUser, updateUser } from '../db/queries/users.ts';
import { deleteSessionsOfUser } from '../db/queries/sessions.ts';
import { isAdmin } from '../lib/permissions.ts';
import { checkPassword, hashPassword } from '../lib/apikey.ts';
import { badRequest } from '../lib/errors.ts';
import { realmSettings } from '../lib/realm.ts';
import { setOverride, storedOverrides, USER_SETTING_DEFAULTS, type UserSettingName } from '../lib/settings-registry.ts';
import { userSettingEvent, userSettings } from '../lib/user-settings.ts';
import { checkFullName, checkPasswordStrength } from '../lib/validate.ts';
import { doDeleteAllDrafts } from './drafts.ts';
import { runAction } from './action.ts';

export interface SettingsChanges {
  fullName?: string;
  oldPassword?: string;
  newPassword?: string;
  /** Values parsed by their declarations in the settings registry. */
  settings: Partial<Record<UserSettingName, unknown>>;
  /** The session of this request (kept when the password changes); null for API-key requests. */
  sessionHash?: string | null;
}

export async function checkUpdateSettings(app: AppContext, user: User, realm: Realm, changes: SettingsChanges): Promise<void> {
  const values = Object.entries(changes.settings).filter(([, v]) => v !== undefined) as [UserSettingName, unknown][];
  const fullName = changes.fullName === undefined ? undefined : checkFullName(changes.fullName);
  if (changes.newPassword !== undefined || changes.oldPassword !== undefined) {
    if (changes.oldPassword === undefined) throw badRequest("Missing 'old_password' argument");
    if (changes.newPassword === undefined) throw badRequest("Missing 'new_password' argument");
    if (!(await checkPassword(changes.oldPassword, user.password_hash))) throw badRequest('Wrong password!');
    checkPasswordStrength(changes.newPassword);
  }
  const newHash = changes.newPassword === undefined ? undefined : await hashPassword(changes.newPassword);
  await runAction(app, async (scope) => {
    const current = (await lockUser(scope.tx, user.realm_id, user.id, scope.dialect))!;
    const everyone = await activeUserIdsInRealm(scope.tx, realm.id);
    if (fullName !== undefined && fullName !== current.full_name) {
      if (realmSettings(realm).name_changes_disabled && !isAdmin(current)) throw badRequest('Name changes disabled in this organization.');
      await updateUser(scope.tx, current.id, { full_name: fullName });
      scope.emit({ type: 'realm_user', op: 'update', person: { user_id: current.id, full_name: fullName } }, everyone);
    }
    if (newHash !== undefined) {
      await updateUser(scope.tx, current.id, { password_hash: newHash });
      // Whoever knew the old password is logged out; the browser that changed it stays in.
      await deleteSessionsOfUser(scope.tx, current.id, changes.sessionHash ?? null);
      scope.sessionsEnded(current.id);
    }

    const before = userSettings(current);
    const stored = storedOverrides(current.settings);
    let changed = false;
    for (const [name, value] of values) {
      if (before[name] === value) continue;
      changed = true;
      if (name === 'timezone') {
        await updateUser(scope.tx, current.id, { timezone: value as string });
        scope.emit({ type: 'realm_user', op: 'update', person: { user_id: current.id, timezone: value } }, everyone);
      } else {
        setOverride(stored, USER_SETTING_DEFAULTS, name, value);
      }
      scope.emit(userSettingEvent(name, value), [current.id]);
      if (name === 'presence_enabled') {
        // The status snapshot's `away` mirrors this setting, so clients hear of it there too.
        scope.emit({ type: 'user_status', user_id: current.id, away: !value }, everyone);
      }
      if (name === 'enable_drafts_synchronization' && value === false) {
        // Turning synchronization off deletes the user's stored drafts (clients keep theirs).
        await doDeleteAllDrafts(scope, current.id);
      }
    }
    if (changed) await updateUser(scope.tx, current.id, { settings: JSON.stringify(stored) });
  });
}
