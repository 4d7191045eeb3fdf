// Register snapshot: custom_profile_fields and custom_profile_field_types.
import { profileFieldsInRealm } from '../../db/queries/profile-fields.ts';
import { FIELD_TYPES } from '../../lib/profile-fields.ts';
import { presentProfileField } from '../../presenters/profile-field.ts';
import type { SnapshotGroup } from './types.ts';

export const customProfileFieldsSnapshot: SnapshotGroup = async ({ app, realm }) => ({
  custom_profile_fields: (await profileFieldsInRealm(app.db.kysely, realm.id)).map(presentProfileField),
  custom_profile_field_types: FIELD_TYPES,
});
