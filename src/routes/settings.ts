// PATCH /settings: the caller's personal settings, name and password.
import { route } from '../http/route.ts';
import { requestSessionHash } from '../http/session.ts';
import { alias, optional, p, type ParamSpec, type ParamSpecs } from '../http/params.ts';
import { USER_SETTING_NAMES, userSetting, type SettingDecl, type UserSettingName } from '../lib/settings-registry.ts';
import { checkUpdateSettings } from '../actions/settings.ts';

/** Optional parameters for declared settings, each parsed by its declaration (and accepted under its newer name). */
export function settingParams(names: readonly string[], declOf: (name: string) => (SettingDecl & { alias?: string }) | undefined): ParamSpecs {
  const out: ParamSpecs = {};
  for (const name of names) {
    const decl = declOf(name)!;
    const spec = p.custom((raw, n) => decl.parse(raw, n)) as ParamSpec<unknown>;
    out[name] = optional(decl.alias ? alias(spec, decl.alias) : spec);
  }
  return out;
}

/** The parameters that were given. */
export function given(params: Record<string, unknown>, names: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of names) if (params[name] !== undefined) out[name] = params[name];
  return out;
}

export const settingsRoutes = [
  route({
    method: 'PATCH',
    path: '/settings',
    auth: 'user',
    params: {
      full_name: optional(p.string()),
      old_password: optional(p.string()),
      new_password: optional(p.string()),
      ...settingParams(USER_SETTING_NAMES, userSetting),
    },
    async handler({ app, realm, user, params, http }) {
      await checkUpdateSettings(app, user, realm, {
        fullName: params.full_name as string | undefined,
        oldPassword: params.old_password as string | undefined,
        newPassword: params.new_password as string | undefined,
        settings: given(params, USER_SETTING_NAMES) as Partial<Record<UserSettingName, unknown>>,
        sessionHash: requestSessionHash(http),
      });
      return {};
    },
  }),
];
