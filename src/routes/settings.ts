// PATCH /settings: the caller's personal settings, name and password.
import { route } from '../http/route.ts';
import { requestSessionHash } from '../http/session.ts';
import { alias, optional, p, type ParamSpec } from '../http/params.ts';
import { USER_SETTING_DEFAULTS } from '../lib/limits.ts';
import { SETTING_ALIASES, SETTING_NAMES, type SettingName } from '../lib/user-settings.ts';
import { checkUpdateSettings } from '../actions/settings.ts';

/** Strings arrive plain; older clients JSON-encode them, so one pair of quotes is dropped. */
const settingString = p.custom((raw) => {
  if (raw.length >= 2 && raw.startsWith('"') && raw.endsWith('"')) {
    try {
      const v: unknown = JSON.parse(raw);
      if (typeof v === 'string') return v;
    } catch {
      // not JSON: the plain string it is
    }
  }
  return raw;
});

function settingParam(name: SettingName): ParamSpec<unknown> {
  const def = USER_SETTING_DEFAULTS[name];
  const base: ParamSpec<unknown> = typeof def === 'boolean' ? p.bool() : typeof def === 'number' ? p.int() : settingString;
  const newer = SETTING_ALIASES[name];
  return optional(newer ? alias(base, newer) : base);
}

const settingParams = Object.fromEntries(SETTING_NAMES.map((n) => [n, settingParam(n)])) as Record<SettingName, ParamSpec<unknown>>;

export const settingsRoutes = [
  route({
    method: 'PATCH',
    path: '/settings',
    auth: 'user',
    params: {
      full_name: optional(p.string()),
      old_password: optional(p.string()),
      new_password: optional(p.string()),
      ...settingParams,
    },
    async handler({ app, realm, user, params, http }) {
      const settings: Partial<Record<SettingName, unknown>> = {};
      for (const name of SETTING_NAMES) if (params[name] !== undefined) settings[name] = params[name];
      await checkUpdateSettings(app, user, realm, {
        fullName: params.full_name,
        oldPassword: params.old_password,
        newPassword: params.new_password,
        settings,
        sessionHash: requestSessionHash(http),
      });
      return {};
    },
  }),
];
