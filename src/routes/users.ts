// Users: listing, reading, creating, changing, deactivating and reactivating.
import { route } from '../http/route.ts';
import { optional, p, path } from '../http/params.ts';
import { id, isDbId } from '../http/ids.ts';
import { maxMessageIdAndProfile, usersInRealm } from '../db/queries/users.ts';
import { accessUserByEmail, accessUserById } from '../lib/access.ts';
import { realmUrl } from '../lib/realm.ts';
import { badRequest } from '../lib/errors.ts';
import { presentProfileData, profileDataOfUsers } from '../presenters/profile-field.ts';
import { checkProfileEntries } from '../actions/profile-fields.ts';
import { presentUser } from '../presenters/user.ts';
import { checkCreateUserByAdmin, checkDeactivateUser, checkReactivateUser, checkUpdateUser } from '../actions/users.ts';

const avatarParams = {
  client_external_avatar: optional(p.bool(), true),
  include_custom_profile_fields: optional(p.bool(), false),
};

/** A numeric path key past the ID range names no user. */
function userIdFromPath(key: string): number {
  const n = Number(key);
  if (!isDbId(n)) throw badRequest('No such user');
  return n;
}

export const userRoutes = [
  route({
    method: 'GET',
    path: '/users',
    auth: 'user',
    params: avatarParams,
    async handler({ app, realm, params }) {
      const users = await usersInRealm(app.db.kysely, realm.id, { includeInactive: true });
      const opts = { clientExternalAvatar: params.client_external_avatar, realmUrl: realmUrl(app.config, realm) };
      const profiles = params.include_custom_profile_fields ? await profileDataOfUsers(app.db.kysely, realm.id, null) : null;
      return {
        members: users.map((u) => {
          const json = presentUser(u, opts);
          return profiles ? { ...json, profile_data: profiles.get(u.id) ?? {} } : json;
        }),
      };
    },
  }),
  route({
    method: 'GET',
    path: '/users/me',
    auth: 'user',
    params: {},
    async handler({ app, realm, user }) {
      const json = presentUser(user, { clientExternalAvatar: false, realmUrl: realmUrl(app.config, realm) });
      const { maxMessageId, profile } = await maxMessageIdAndProfile(app.db, realm.id, user.id, !user.is_bot);
      return {
        ...json,
        max_message_id: maxMessageId,
        ...(user.is_bot ? {} : { profile_data: presentProfileData(profile).get(user.id) ?? {} }),
      };
    },
  }),
  route({
    method: 'GET',
    path: '/users/{user_id}',
    auth: 'user',
    params: { user_id: path(p.string()), ...avatarParams },
    async handler({ app, realm, user, params }) {
      const key = params.user_id;
      const target = /^\d+$/.test(key)
        ? await accessUserById(app.db.kysely, user, userIdFromPath(key), { allowInactive: true })
        : await accessUserByEmail(app.db.kysely, user, key, { allowInactive: true });
      const json = presentUser(target, { clientExternalAvatar: params.client_external_avatar, realmUrl: realmUrl(app.config, realm) });
      if (!params.include_custom_profile_fields) return { user: json };
      return { user: { ...json, profile_data: (await profileDataOfUsers(app.db.kysely, realm.id, [target.id])).get(target.id) ?? {} } };
    },
  }),
  route({
    method: 'POST',
    path: '/users',
    auth: 'user',
    params: { email: p.string({ trim: true }), password: p.string(), full_name: p.string() },
    async handler({ app, realm, user, params }) {
      const userId = await checkCreateUserByAdmin(app, user, realm, { email: params.email, password: params.password, fullName: params.full_name });
      return { user_id: userId };
    },
  }),
  route({
    method: 'PATCH',
    path: '/users/{user_id}',
    auth: 'user',
    params: {
      user_id: path(id()),
      full_name: optional(p.string()),
      role: optional(p.int()),
      profile_data: optional(p.json(checkProfileEntries)),
    },
    async handler({ app, user, params }) {
      const target = await accessUserById(app.db.kysely, user, params.user_id, { allowInactive: true });
      await checkUpdateUser(app, user, target, { fullName: params.full_name, role: params.role, profileData: params.profile_data });
      return {};
    },
  }),
  route({
    method: 'DELETE',
    path: '/users/{user_id}',
    auth: 'user',
    params: { user_id: path(id()), deactivation_notification_comment: optional(p.string({ maxLength: 2000 })) },
    async handler({ app, user, params }) {
      const target = await accessUserById(app.db.kysely, user, params.user_id);
      await checkDeactivateUser(app, user, target);
      return {};
    },
  }),
  route({
    method: 'POST',
    path: '/users/{user_id}/reactivate',
    auth: 'user',
    params: { user_id: path(id()) },
    async handler({ app, realm, user, params }) {
      const target = await accessUserById(app.db.kysely, user, params.user_id, { allowInactive: true });
      await checkReactivateUser(app, user, realm, target);
      return {};
    },
  }),
];
