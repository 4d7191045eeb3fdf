// The organization's settings: PATCH /realm and the defaults of new users' settings, with the
// parameters their declarations in the settings registry give.
import { route } from '../http/route.ts';
import { CHANGEABLE_REALM_SETTINGS, REALM_DEFAULT_NAMES, realmSetting, userSetting } from '../lib/settings-registry.ts';
import { checkUpdateRealm, checkUpdateRealmUserDefaults } from '../actions/realm-settings.ts';
import { given, settingParams } from './settings.ts';

export const realmRoutes = [
  route({
    method: 'PATCH',
    path: '/realm',
    auth: 'user',
    params: settingParams(CHANGEABLE_REALM_SETTINGS, realmSetting),
    async handler({ app, realm, user, params }) {
      await checkUpdateRealm(app, user, realm, given(params, CHANGEABLE_REALM_SETTINGS));
      return {};
    },
  }),
  route({
    method: 'PATCH',
    path: '/realm/user_settings_defaults',
    auth: 'user',
    params: settingParams(REALM_DEFAULT_NAMES, userSetting),
    async handler({ app, realm, user, params }) {
      await checkUpdateRealmUserDefaults(app, user, realm, given(params, REALM_DEFAULT_NAMES));
      return {};
    },
  }),
];
