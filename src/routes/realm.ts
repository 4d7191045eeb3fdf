// The organization's settings: PATCH /realm and the defaults of new users' settings.
import { optional, p, type ParamSpec, type ParamSpecs } from '../http/params.ts';
import { route } from '../http/route.ts';
import { badRequest } from '../lib/errors.ts';
import { USER_SETTING_DEFAULTS } from '../lib/limits.ts';
import { REALM_COLUMN_SPECS, REALM_SETTING_SPECS, type RealmSettingSpec } from '../lib/realm-setting-specs.ts';
import { checkUpdateRealm, checkUpdateRealmUserDefaults } from '../actions/realm-settings.ts';

function specParams(specs: Record<string, RealmSettingSpec>): ParamSpecs {
  const out: ParamSpecs = {};
  for (const [name, s] of Object.entries(specs)) out[name] = optional(p.custom((raw, n) => s.parse(raw, n))) as ParamSpec<unknown>;
  return out;
}

const realmParams = { ...specParams(REALM_COLUMN_SPECS), ...specParams(REALM_SETTING_SPECS) };

const range = (min: number, max: number) => (v: unknown) => typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;
const words = (...allowed: string[]) => (v: unknown) => typeof v === 'string' && allowed.includes(v);

/** Checks of the user settings whose values are not any boolean (booleans are checked by type). */
const USER_SETTING_CHECKS: Record<string, (v: unknown) => boolean> = {
  web_mark_read_on_scroll_policy: range(1, 3),
  color_scheme: range(1, 3),
  demote_inactive_streams: range(1, 3),
  user_list_style: range(1, 3),
  desktop_icon_count_display: range(1, 3),
  realm_name_in_email_notifications_policy: range(1, 3),
  automatically_follow_topics_policy: range(1, 4),
  automatically_unmute_topics_in_muted_streams_policy: range(1, 4),
  email_address_visibility: range(1, 5),
  email_notifications_batching_period_seconds: range(120, 7 * 86400),
  default_language: (v) => typeof v === 'string' && /^[a-z]{2,3}([-_][A-Za-z0-9]{2,8})?$/.test(v),
  default_view: words('recent_topics', 'all_messages', 'inbox'),
  emojiset: words('google', 'google-blob', 'twitter', 'text'),
  notification_sound: (v) => typeof v === 'string' && /^[\w-]{1,40}$/.test(v),
};

/** New-user defaults: every user setting but the time zone, which is each user's own. */
const userDefaultParams: ParamSpecs = {};
for (const [name, def] of Object.entries(USER_SETTING_DEFAULTS)) {
  if (name === 'timezone') continue;
  userDefaultParams[name] = optional(
    p.custom((raw, n) => {
      let v: unknown = raw;
      if (typeof def !== 'string') {
        try {
          v = JSON.parse(raw);
        } catch {
          throw badRequest(`Argument "${n}" is not valid JSON.`);
        }
      }
      const check = USER_SETTING_CHECKS[n];
      const valid = check ? check(v) : typeof v === typeof def;
      if (!valid) throw badRequest(`Invalid ${n}`);
      return v;
    }),
  ) as ParamSpec<unknown>;
}

function given(params: Record<string, unknown>, exclude: string[] = []): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(params)) if (v !== undefined && !exclude.includes(k)) out[k] = v;
  return out;
}

export const realmRoutes = [
  route({
    method: 'PATCH',
    path: '/realm',
    auth: 'user',
    params: realmParams,
    async handler({ app, realm, user, params }) {
      const settings = given(params, ['name', 'description']);
      await checkUpdateRealm(app, user, realm, {
        name: params.name as string | undefined,
        description: params.description as string | undefined,
        settings,
      });
      return {};
    },
  }),
  route({
    method: 'PATCH',
    path: '/realm/user_settings_defaults',
    auth: 'user',
    params: userDefaultParams,
    async handler({ app, realm, user, params }) {
      await checkUpdateRealmUserDefaults(app, user, realm, given(params));
      return {};
    },
  }),
];
