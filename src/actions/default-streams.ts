// Default streams (new users join them) and default stream groups (offered at sign-up).
import type { AppContext } from '../context.ts';
import type { Realm, Stream, User } from '../db/schema.ts';
import {
  activeNonGuestUserIds,
  addDefaultStream,
  defaultStreamGroupById,
  defaultStreamGroupByName,
  defaultStreamGroups,
  defaultStreams,
  deleteDefaultStreamGroup,
  insertDefaultStreamGroup,
  isDefaultStream,
  removeDefaultStream,
  setGroupStream,
  updateDefaultStreamGroup,
} from '../db/queries/default-streams.ts';
import { streamById, streamByName } from '../db/queries/streams.ts';
import { requireAdmin } from '../lib/permissions.ts';
import { badRequest, streamDoesNotExist } from '../lib/errors.ts';
import { ADMIN_LIMITS } from '../lib/limits.ts';
import { presentDefaultStreamGroup, presentDefaultStreams } from '../presenters/default-streams.ts';
import { runAction, type ActionScope } from './action.ts';

export async function emitDefaultStreams(scope: ActionScope, realmId: number): Promise<void> {
  const streams = await defaultStreams(scope.tx, realmId);
  scope.emit({ type: 'default_streams', default_streams: presentDefaultStreams(streams) }, await activeNonGuestUserIds(scope.tx, realmId));
}

export async function emitDefaultStreamGroups(scope: ActionScope, realmId: number): Promise<void> {
  const groups = await defaultStreamGroups(scope.tx, realmId);
  scope.emit(
    { type: 'default_stream_groups', default_stream_groups: groups.map(presentDefaultStreamGroup) },
    await activeNonGuestUserIds(scope.tx, realmId),
  );
}

/** Makes a stream default inside a running action (also used when creating a stream). */
export async function doAddDefaultStream(scope: ActionScope, realm: Realm, stream: Stream): Promise<void> {
  if (stream.invite_only) throw badRequest('Private streams cannot be made default.');
  if (await isDefaultStream(scope.tx, realm.id, stream.id)) return;
  await addDefaultStream(scope.tx, realm.id, stream.id);
  await emitDefaultStreams(scope, realm.id);
}

async function streamOrError(scope: ActionScope, realmId: number, streamId: number): Promise<Stream> {
  const stream = await streamById(scope.tx, realmId, streamId);
  if (!stream) throw badRequest('Invalid stream ID');
  return stream;
}

export async function checkAddDefaultStream(app: AppContext, caller: User, realm: Realm, streamId: number): Promise<void> {
  requireAdmin(caller);
  await runAction(app, async (scope) => doAddDefaultStream(scope, realm, await streamOrError(scope, realm.id, streamId)));
}

export async function checkRemoveDefaultStream(app: AppContext, caller: User, realm: Realm, streamId: number): Promise<void> {
  requireAdmin(caller);
  await runAction(app, async (scope) => {
    const stream = await streamOrError(scope, realm.id, streamId);
    if (!(await isDefaultStream(scope.tx, realm.id, stream.id))) return;
    await removeDefaultStream(scope.tx, realm.id, stream.id);
    await emitDefaultStreams(scope, realm.id);
  });
}

function checkGroupName(name: string): string {
  const n = name.trim();
  if (n === '') throw badRequest('Invalid default channel group name ');
  if (n.length > ADMIN_LIMITS.maxDefaultStreamGroupNameLength) {
    throw badRequest(`Default channel group name too long (limit: ${ADMIN_LIMITS.maxDefaultStreamGroupNameLength} characters)`);
  }
  return n;
}

async function streamsByNames(scope: ActionScope, realm: Realm, names: string[]): Promise<Stream[]> {
  const out: Stream[] = [];
  for (const name of names) {
    const stream = await streamByName(scope.tx, realm.id, name);
    if (!stream) throw streamDoesNotExist(name);
    if (stream.invite_only) throw badRequest('Private streams cannot be made default.');
    if (!out.some((s) => s.id === stream.id)) out.push(stream);
  }
  return out;
}

export async function checkCreateDefaultStreamGroup(
  app: AppContext,
  caller: User,
  realm: Realm,
  input: { name: string; description: string; streamNames: string[] },
): Promise<void> {
  requireAdmin(caller);
  const name = checkGroupName(input.name);
  await runAction(app, async (scope) => {
    if (await defaultStreamGroupByName(scope.tx, realm.id, name)) throw badRequest(`Default channel group '${name}' already exists`);
    const streams = await streamsByNames(scope, realm, input.streamNames);
    const id = await insertDefaultStreamGroup(scope.tx, realm.id, name, input.description);
    for (const s of streams) await setGroupStream(scope.tx, id, s.id, true);
    await emitDefaultStreamGroups(scope, realm.id);
  });
}

export async function checkUpdateDefaultStreamGroup(
  app: AppContext,
  caller: User,
  realm: Realm,
  groupId: number,
  changes: { name?: string | undefined; description?: string | undefined },
): Promise<void> {
  requireAdmin(caller);
  if (changes.name === undefined && changes.description === undefined) throw badRequest('You must pass "new_description" or "new_group_name".');
  const name = changes.name === undefined ? undefined : checkGroupName(changes.name);
  await runAction(app, async (scope) => {
    const group = await defaultStreamGroupById(scope.tx, realm.id, groupId);
    if (!group) throw badRequest('Default channel group with id \'' + groupId + '\' does not exist.');
    if (name !== undefined && name !== group.name && (await defaultStreamGroupByName(scope.tx, realm.id, name))) {
      throw badRequest(`Default channel group '${name}' already exists`);
    }
    await updateDefaultStreamGroup(scope.tx, group.id, { ...(name !== undefined ? { name } : {}), ...(changes.description !== undefined ? { description: changes.description } : {}) });
    await emitDefaultStreamGroups(scope, realm.id);
  });
}

export async function checkUpdateDefaultStreamGroupStreams(
  app: AppContext,
  caller: User,
  realm: Realm,
  groupId: number,
  op: 'add' | 'remove',
  streamNames: string[],
): Promise<void> {
  requireAdmin(caller);
  await runAction(app, async (scope) => {
    const group = (await defaultStreamGroups(scope.tx, realm.id)).find((g) => g.id === groupId);
    if (!group) throw badRequest('Default channel group with id \'' + groupId + '\' does not exist.');
    const streams = await streamsByNames(scope, realm, streamNames);
    for (const s of streams) {
      const member = group.streams.some((g) => g.id === s.id);
      if (op === 'add' && member) throw badRequest(`Channel '${s.name}' is already present in default channel group '${group.name}'`);
      if (op === 'remove' && !member) throw badRequest(`Channel '${s.name}' is not present in default channel group '${group.name}'`);
      await setGroupStream(scope.tx, group.id, s.id, op === 'add');
    }
    await emitDefaultStreamGroups(scope, realm.id);
  });
}

export async function checkRemoveDefaultStreamGroup(app: AppContext, caller: User, realm: Realm, groupId: number): Promise<void> {
  requireAdmin(caller);
  await runAction(app, async (scope) => {
    const group = await defaultStreamGroupById(scope.tx, realm.id, groupId);
    if (!group) throw badRequest('Default channel group with id \'' + groupId + '\' does not exist.');
    await deleteDefaultStreamGroup(scope.tx, group.id);
    await emitDefaultStreamGroups(scope, realm.id);
  });
}
