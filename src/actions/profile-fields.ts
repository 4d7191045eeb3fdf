// Custom profile fields (administrators) and users' values for them.
import type { AppContext } from '../context.ts';
import type { CustomProfileField, Realm, User } from '../db/schema.ts';
import {
  deleteProfileField,
  deleteProfileValue,
  insertProfileField,
  profileFieldById,
  profileFieldByName,
  profileFieldsInRealm,
  profileValue,
  profileValuesOfField,
  setProfileValue,
  updateProfileField,
} from '../db/queries/profile-fields.ts';
import { activeUserIdsInRealm, usersByIds } from '../db/queries/users.ts';
import { realmByIdOrThrow } from '../db/queries/realms.ts';
import { isAdmin, requireAdmin } from '../lib/permissions.ts';
import { badRequest } from '../lib/errors.ts';
import {
  checkFieldData,
  checkFieldType,
  checkFieldValue,
  DEFAULT_EXTERNAL_ACCOUNTS,
  FIELD_TYPE,
  isEmptyValue,
  PROFILE_LIMITS,
  renderFieldValue,
} from '../lib/profile-fields.ts';
import { realmUrl } from '../lib/realm.ts';
import { presentProfileField, presentProfileValue } from '../presenters/profile-field.ts';
import { runAction, type ActionScope } from './action.ts';
import { isDbId } from '../lib/limits.ts';

export interface FieldInput {
  name?: string;
  hint?: string;
  fieldData?: Record<string, unknown>;
  displayInProfileSummary?: boolean;
  required?: boolean;
  editableByUser?: boolean;
}

const fieldNotFound = (id: number): ReturnType<typeof badRequest> => badRequest(`Field id ${id} not found.`);

/** Name and hint of a field: external accounts of a known site take the site's. */
function nameAndHint(type: number, fieldData: string, name: string, hint: string): { name: string; hint: string } {
  if (type === FIELD_TYPE.EXTERNAL_ACCOUNT) {
    const subtype = (JSON.parse(fieldData) as { subtype: string }).subtype;
    const site = DEFAULT_EXTERNAL_ACCOUNTS[subtype];
    if (site) return { name: site.name, hint: site.hint };
  }
  const n = name.trim();
  if (n === '') throw badRequest('Label cannot be blank.');
  if (n.length > PROFILE_LIMITS.nameLength) throw badRequest(`name is too long (limit: ${PROFILE_LIMITS.nameLength} characters)`);
  if (hint.length > PROFILE_LIMITS.hintLength) throw badRequest(`hint is too long (limit: ${PROFILE_LIMITS.hintLength} characters)`);
  return { name: n, hint };
}

async function checkSummary(scope: ActionScope, realmId: number, type: number, exceptId: number | null): Promise<void> {
  if (type === FIELD_TYPE.LONG_TEXT || type === FIELD_TYPE.USER) {
    throw badRequest('Field type not supported for display in profile summary.');
  }
  const shown = (await profileFieldsInRealm(scope.tx, realmId)).filter((f) => f.display_in_profile_summary && f.id !== exceptId);
  if (shown.length >= PROFILE_LIMITS.summaryFields) {
    throw badRequest(`Only ${PROFILE_LIMITS.summaryFields} custom profile fields can be displayed in the profile summary.`);
  }
}

async function emitFields(scope: ActionScope, realmId: number): Promise<void> {
  const fields = (await profileFieldsInRealm(scope.tx, realmId)).map(presentProfileField);
  scope.emit({ type: 'custom_profile_fields', fields }, await activeUserIdsInRealm(scope.tx, realmId));
}

export async function checkCreateProfileField(app: AppContext, caller: User, realm: Realm, type: number, input: FieldInput): Promise<number> {
  requireAdmin(caller);
  checkFieldType(type);
  const fieldData = checkFieldData(type, input.fieldData);
  const { name, hint } = nameAndHint(type, fieldData, input.name ?? '', input.hint ?? '');
  return runAction(app, async (scope) => {
    if (await profileFieldByName(scope.tx, realm.id, name)) throw badRequest('A field with that label already exists.');
    if (input.displayInProfileSummary) await checkSummary(scope, realm.id, type, null);
    const id = await insertProfileField(scope.tx, {
      realmId: realm.id,
      name,
      hint,
      type,
      fieldData,
      summary: input.displayInProfileSummary ?? false,
      required: input.required ?? false,
      editableByUser: input.editableByUser ?? true,
    });
    await emitFields(scope, realm.id);
    return id;
  });
}

export async function checkUpdateProfileField(app: AppContext, caller: User, realm: Realm, fieldId: number, input: FieldInput): Promise<void> {
  requireAdmin(caller);
  await runAction(app, async (scope) => {
    const field = await profileFieldById(scope.tx, realm.id, fieldId);
    if (!field) throw fieldNotFound(fieldId);
    const fieldData = input.fieldData === undefined ? field.field_data : checkFieldData(field.type, input.fieldData);
    const { name, hint } = nameAndHint(field.type, fieldData, input.name ?? field.name, input.hint ?? field.hint);
    const sameName = await profileFieldByName(scope.tx, realm.id, name);
    if (sameName && sameName.id !== field.id) throw badRequest('A field with that label already exists.');
    if (input.displayInProfileSummary && !field.display_in_profile_summary) await checkSummary(scope, realm.id, field.type, field.id);
    const flag = (v: boolean | undefined, old: number): number => (v === undefined ? old : v ? 1 : 0);
    await updateProfileField(scope.tx, field.id, {
      name,
      hint,
      field_data: fieldData,
      display_in_profile_summary: flag(input.displayInProfileSummary, field.display_in_profile_summary),
      required: flag(input.required, field.required),
      editable_by_user: flag(input.editableByUser, field.editable_by_user),
    });
    if (field.type === FIELD_TYPE.SELECT && input.fieldData !== undefined) await dropRemovedChoices(app, scope, realm, field, fieldData);
    await emitFields(scope, realm.id);
  });
}

/** Users whose chosen option was removed lose their value, as if they had cleared it. */
async function dropRemovedChoices(app: AppContext, scope: ActionScope, realm: Realm, field: CustomProfileField, fieldData: string): Promise<void> {
  const choices = JSON.parse(fieldData) as Record<string, unknown>;
  const rows = await profileValuesOfField(scope.tx, field.id);
  for (const row of rows) {
    if (Object.hasOwn(choices, row.value)) continue;
    await deleteProfileValue(scope.tx, field.id, row.user_id);
    await emitValueChange(scope, realm.id, row.user_id, { id: field.id, value: null });
  }
  void app;
}

export async function checkDeleteProfileField(app: AppContext, caller: User, realm: Realm, fieldId: number): Promise<void> {
  requireAdmin(caller);
  await runAction(app, async (scope) => {
    const field = await profileFieldById(scope.tx, realm.id, fieldId);
    if (!field) throw fieldNotFound(fieldId);
    await deleteProfileField(scope.tx, field.id);
    await emitFields(scope, realm.id);
  });
}

export async function checkReorderProfileFields(app: AppContext, caller: User, realm: Realm, order: number[]): Promise<void> {
  requireAdmin(caller);
  await runAction(app, async (scope) => {
    const fields = await profileFieldsInRealm(scope.tx, realm.id);
    const ids = new Set(fields.map((f) => f.id));
    if (order.length !== ids.size || new Set(order).size !== order.length || !order.every((id) => ids.has(id))) {
      throw badRequest('Invalid order mapping.');
    }
    for (const [i, id] of order.entries()) await updateProfileField(scope.tx, id, { order: i + 1 });
    await emitFields(scope, realm.id);
  });
}

export interface ProfileEntry {
  id: number;
  value: unknown;
}

async function emitValueChange(scope: ActionScope, realmId: number, userId: number, field: Record<string, unknown>): Promise<void> {
  scope.emit(
    { type: 'realm_user', op: 'update', person: { user_id: userId, custom_profile_field: field } },
    await activeUserIdsInRealm(scope.tx, realmId),
  );
}

/**
 * Sets (or, for empty values, removes) a user's values inside an action. Users editing their own
 * profile may only touch fields that are editable by users; administrators may set any.
 */
export async function doUpdateProfileData(app: AppContext, scope: ActionScope, caller: User, target: User, entries: ProfileEntry[]): Promise<void> {
  const realm = await realmByIdOrThrow(scope.tx, target.realm_id);
  const url = realmUrl(app.config, realm);
  for (const entry of entries) {
    const field = await profileFieldById(scope.tx, target.realm_id, entry.id);
    if (!field) throw fieldNotFound(entry.id);
    if (!field.editable_by_user && !isAdmin(caller)) {
      throw badRequest('You are not allowed to change this field. Contact an administrator to update it.');
    }
    const existing = await profileValue(scope.tx, field.id, target.id);
    if (isEmptyValue(entry.value)) {
      if (!existing) continue;
      await deleteProfileValue(scope.tx, field.id, target.id);
      await emitValueChange(scope, target.realm_id, target.id, { id: field.id, value: null });
      continue;
    }
    const value = checkFieldValue(field, entry.value);
    if (field.type === FIELD_TYPE.USER) {
      const ids = JSON.parse(value) as number[];
      const found = new Set((await usersByIds(scope.tx, target.realm_id, ids)).map((u) => u.id));
      const bad = ids.find((id) => !found.has(id));
      if (bad !== undefined) throw badRequest(`Invalid user ID: ${bad}`);
    }
    if (existing?.value === value) continue;
    const row = { field_id: field.id, user_id: target.id, value, rendered_value: renderFieldValue(field.type, value, url) };
    await setProfileValue(scope.tx, row, existing !== undefined);
    await emitValueChange(scope, target.realm_id, target.id, { id: field.id, ...presentProfileValue(row) });
  }
}

export async function checkUpdateOwnProfileData(app: AppContext, user: User, entries: ProfileEntry[]): Promise<void> {
  if (entries.length === 0) throw badRequest('Empty profile_data is not allowed.');
  await runAction(app, (scope) => doUpdateProfileData(app, scope, user, user, entries));
}

export async function checkDeleteOwnProfileData(app: AppContext, user: User, fieldIds: number[]): Promise<void> {
  await runAction(app, (scope) =>
    doUpdateProfileData(
      app,
      scope,
      user,
      user,
      fieldIds.map((id) => ({ id, value: null })),
    ),
  );
}

/** Checks the JSON of a profile_data parameter: a list of {id, value}. */
export function checkProfileEntries(value: unknown, name: string): ProfileEntry[] {
  if (!Array.isArray(value)) throw badRequest(`${name} is not a list`);
  return value.map((item, i) => {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) throw badRequest(`${name}[${i}] is not a dict`);
    const o = item as Record<string, unknown>;
    if (!isDbId(o.id)) throw badRequest(`${name}[${i}]["id"] is not an integer`);
    if (!('value' in o)) throw badRequest(`${name}[${i}] is missing key 'value'`);
    return { id: o.id as number, value: o.value };
  });
}
