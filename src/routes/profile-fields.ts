// Custom profile fields of the realm, and the caller's own values.
import { route } from '../http/route.ts';
import { optional, p, path } from '../http/params.ts';
import { id, idList } from '../http/ids.ts';
import { profileFieldsInRealm } from '../db/queries/profile-fields.ts';
import { presentProfileField } from '../presenters/profile-field.ts';
import {
  checkCreateProfileField,
  checkDeleteOwnProfileData,
  checkDeleteProfileField,
  checkProfileEntries,
  checkReorderProfileFields,
  checkUpdateOwnProfileData,
  checkUpdateProfileField,
  type FieldInput,
} from '../actions/profile-fields.ts';

const fieldParams = {
  name: optional(p.string()),
  hint: optional(p.string()),
  field_data: optional(p.object()),
  display_in_profile_summary: optional(p.bool()),
  required: optional(p.bool()),
  editable_by_user: optional(p.bool()),
};

function fieldInput(params: {
  name: string | undefined;
  hint: string | undefined;
  field_data: Record<string, unknown> | undefined;
  display_in_profile_summary: boolean | undefined;
  required: boolean | undefined;
  editable_by_user: boolean | undefined;
}): FieldInput {
  return {
    name: params.name,
    hint: params.hint,
    fieldData: params.field_data,
    displayInProfileSummary: params.display_in_profile_summary,
    required: params.required,
    editableByUser: params.editable_by_user,
  };
}

export const profileFieldRoutes = [
  route({
    method: 'GET',
    path: '/realm/profile_fields',
    auth: 'user',
    params: {},
    async handler({ app, realm }) {
      return { custom_fields: (await profileFieldsInRealm(app.db.kysely, realm.id)).map(presentProfileField) };
    },
  }),
  route({
    method: 'POST',
    path: '/realm/profile_fields',
    auth: 'user',
    params: { field_type: p.int(), ...fieldParams },
    async handler({ app, realm, user, params }) {
      return { id: await checkCreateProfileField(app, user, realm, params.field_type, fieldInput(params)) };
    },
  }),
  route({
    method: 'PATCH',
    path: '/realm/profile_fields',
    auth: 'user',
    params: { order: idList() },
    async handler({ app, realm, user, params }) {
      await checkReorderProfileFields(app, user, realm, params.order);
      return {};
    },
  }),
  route({
    method: 'PATCH',
    path: '/realm/profile_fields/{field_id}',
    auth: 'user',
    params: { field_id: path(id()), ...fieldParams },
    async handler({ app, realm, user, params }) {
      await checkUpdateProfileField(app, user, realm, params.field_id, fieldInput(params));
      return {};
    },
  }),
  route({
    method: 'DELETE',
    path: '/realm/profile_fields/{field_id}',
    auth: 'user',
    params: { field_id: path(id()) },
    async handler({ app, realm, user, params }) {
      await checkDeleteProfileField(app, user, realm, params.field_id);
      return {};
    },
  }),
  route({
    method: 'PATCH',
    path: '/users/me/profile_data',
    auth: 'user',
    params: { data: p.json(checkProfileEntries) },
    async handler({ app, user, params }) {
      await checkUpdateOwnProfileData(app, user, params.data);
      return {};
    },
  }),
  route({
    method: 'DELETE',
    path: '/users/me/profile_data',
    auth: 'user',
    params: { data: idList() },
    async handler({ app, user, params }) {
      await checkDeleteOwnProfileData(app, user, params.data);
      return {};
    },
  }),
];
