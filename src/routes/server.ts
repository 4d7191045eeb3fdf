// Server settings (no authentication) and fetching an API key with a password.
import { realmIconUrl } from '../lib/avatar.ts';
import { route } from '../http/route.ts';
import { p } from '../http/params.ts';
import { checkPasswordLogin } from '../http/login.ts';
import { SERVICE_FEATURE_LEVEL, SERVICE_MERGE_BASE, SERVICE_VERSION } from '../lib/limits.ts';
import { realmUrl } from '../lib/realm.ts';
import { renderPlain } from '../lib/render.ts';

export const serverRoutes = [
  route({
    method: 'GET',
    path: '/server_settings',
    auth: 'server',
    params: {},
    async handler({ app, maybeRealm: realm }) {
      const base = {
        authentication_methods: { password: true, dev: false, email: true, ldap: false, remoteuser: false, github: false, azuread: false, gitlab: false, apple: false, google: false, saml: false, 'openid connect': false },
        external_authentication_methods: [],
        service_feature_level: SERVICE_FEATURE_LEVEL,
        service_version: SERVICE_VERSION,
        service_merge_base: SERVICE_MERGE_BASE,
        push_notifications_enabled: false,
        is_incompatible: false,
        email_auth_enabled: true,
        require_email_format_usernames: true,
      };
      if (!realm) return base;
      const url = realmUrl(app.config, realm);
      return {
        ...base,
        realm_uri: url,
        realm_url: url,
        realm_name: realm.name,
        realm_icon: realmIconUrl(realm, url),
        realm_description: renderPlain(realm.description),
        realm_web_public_access_enabled: false,
      };
    },
  }),
  route({
    method: 'POST',
    path: '/fetch_api_key',
    auth: 'none',
    params: { username: p.string({ trim: true }), password: p.string() },
    async handler({ app, realm, params, http }) {
      const user = await checkPasswordLogin(app, http, realm, params.username, params.password);
      return { api_key: user.api_key, email: user.email, user_id: user.id };
    },
  }),
];
