// Test data, made as the application makes it: through its API, by the person who would do it, so
// a test's setup passes every check and sends every event a real change does. What no request
// can make (a time in the past, a deactivated organization, an archived stream brought back) is
// written by `writeDirectly` at the end of this file, the one place tests change rows by hand.
import assert from 'node:assert/strict';
import type { Database } from '../../src/db/schema.ts';
import { ROLE } from '../../src/lib/permissions.ts';
import { checkResponse } from './openapi.ts';
import type { Account, Params, TestServer } from './server.ts';

// People: members and other roles are made by `s.createUser(name, { role })` (helpers/server.ts).

export const makeGuest = (s: TestServer, name: string): Promise<Account> => s.createUser(name, { role: ROLE.GUEST });

/** A bot owned by `owner` (a generic bot unless `botType` says otherwise), created by its owner. */
export async function makeBot(s: TestServer, owner: Account, name: string, botType = 1): Promise<Account> {
  const shortName = name.toLowerCase().replace(/[^a-z0-9]+/g, '-');
  const r = await s.ok('POST', '/api/v1/bots', { full_name: name, short_name: shortName, bot_type: botType }, owner);
  const { user } = await s.ok('GET', `/api/v1/users/${r.user_id}`);
  return { id: r.user_id as number, email: user.email as string, apiKey: r.api_key as string };
}

// Streams and messages.

/** Subscribes `as` (the owner unless told) to streams, creating those that do not exist. */
export async function subscribe(s: TestServer, names: string[], as?: Account, opts: Params = {}): Promise<void> {
  await s.ok('POST', '/api/v1/users/me/subscriptions', { subscriptions: names.map((name) => ({ name })), ...opts }, as);
}

/** Sends a stream message; its ID. */
export async function send(s: TestServer, to: string, topic: string, content: string, as?: Account): Promise<number> {
  const r = await s.ok('POST', '/api/v1/messages', { type: 'stream', to, topic, content }, as);
  return r.id as number;
}

/** Sends a direct message to the user IDs `to`; its ID. */
export async function dm(s: TestServer, to: number[], content: string, as?: Account): Promise<number> {
  const r = await s.ok('POST', '/api/v1/messages', { type: 'direct', to, content }, as);
  return r.id as number;
}

/** Marks messages read for `as`, as their client does. */
export async function markRead(s: TestServer, as: Account, messageIds: number[]): Promise<void> {
  await s.ok('POST', '/api/v1/messages/flags', { messages: messageIds, op: 'add', flag: 'read' }, as);
}

// Settings.

/** Changes organization settings as the owner does (PATCH /realm). */
export async function setRealmSettings(s: TestServer, settings: Params): Promise<void> {
  await s.ok('PATCH', '/api/v1/realm', settings);
}

/** Changes `as`'s own settings (PATCH /settings). */
export async function setUserSettings(s: TestServer, as: Account, settings: Params): Promise<void> {
  await s.ok('PATCH', '/api/v1/settings', settings, as);
}

// Organization data.

/** A user group with `members`, created by `as` (the owner unless told); its ID. */
export async function makeUserGroup(s: TestServer, name: string, members: Account[], as?: Account): Promise<number> {
  const r = await s.ok('POST', '/api/v1/user_groups/create', { name, description: '', members: members.map((m) => m.id) }, as);
  return r.group_id as number;
}

/** A linkifier added by the owner; its ID. */
export async function makeLinkifier(s: TestServer, pattern: string, urlTemplate: string): Promise<number> {
  return (await s.ok('POST', '/api/v1/realm/filters', { pattern, url_template: urlTemplate })).id as number;
}

/** A 1×1 PNG. */
export const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

/** POSTs one file as multipart, as `as`; asserts success and returns the body. */
async function postFile(s: TestServer, apiPath: string, fileName: string, data: Buffer, as: Account): Promise<Record<string, any>> {
  const form = new FormData();
  form.append('filename', new Blob([new Uint8Array(data)]), fileName);
  const res = await fetch(`${s.baseUrl}${apiPath}`, {
    method: 'POST',
    headers: { authorization: 'Basic ' + Buffer.from(`${as.email}:${as.apiKey}`).toString('base64') },
    body: form,
  });
  const body = (await res.json()) as Record<string, any>;
  assert.equal(res.status, 200, `POST ${apiPath} failed: ${JSON.stringify(body)}`);
  assert.deepEqual(checkResponse('POST', apiPath, body), []);
  return body;
}

/** A custom emoji (a PNG) uploaded by `as` (the owner unless told); its ID. */
export async function makeCustomEmoji(s: TestServer, name: string, as: Account = s.owner): Promise<number> {
  await postFile(s, `/api/v1/realm/emoji/${encodeURIComponent(name)}`, `${name}.png`, PNG, as);
  const { emoji } = await s.ok('GET', '/api/v1/realm/emoji', {}, as);
  const found = Object.values(emoji as Record<string, { id: string; name: string; deactivated: boolean }>).find((e) => e.name === name && !e.deactivated);
  assert.ok(found, `emoji ${name} was not stored`);
  return Number(found.id);
}

/** A file uploaded by `as` (the owner unless told); its URL (/user_uploads/...). */
export async function uploadFile(s: TestServer, fileName: string, data: Buffer, as: Account = s.owner): Promise<string> {
  return (await postFile(s, '/api/v1/user_uploads', fileName, data, as)).uri as string;
}

// Beyond the API: states no request can make.

type Row<T extends keyof Database> = { [C in keyof Database[T]]?: unknown };

/** The one place tests write rows by hand: sets `values` on the rows of `table` matching `where`. */
async function writeDirectly<T extends keyof Database>(s: TestServer, table: T, values: Row<T>, where: Row<T> = {}): Promise<void> {
  let q = s.server.app.db.kysely.updateTable(table as any).set(values as any);
  for (const [column, value] of Object.entries(where)) q = q.where(column as any, '=', value as any);
  await q.execute();
}

/**
 * Sets a time column (UTC seconds) of the rows matching `where` to `time`, or to `time(old)`:
 * what the clock would have made, for expiry, time limits and periods.
 */
export async function setTime<T extends keyof Database>(s: TestServer, table: T, column: keyof Database[T] & string, time: number | ((old: number) => number), where: Row<T> = {}): Promise<void> {
  if (typeof time === 'number') return writeDirectly(s, table, { [column]: time } as Row<T>, where);
  const rows = await s.server.app.db.kysely.selectFrom(table as any).select(['id', column] as any).where((eb: any) => eb.and(Object.entries(where).map(([c, v]) => eb(c, '=', v)))).execute();
  for (const row of rows as Record<string, number>[]) await writeDirectly(s, table, { [column]: time(row[column]!) } as Row<T>, { id: row.id } as Row<T>);
}

/** Makes messages `seconds` older (their send time moves back). */
export async function ageMessages(s: TestServer, messageIds: number[], seconds: number): Promise<void> {
  for (const id of messageIds) await setTime(s, 'messages', 'date_sent', (t) => t - seconds, { id });
}

/** Makes users `seconds` longer members (their join time moves back), e.g. past the waiting period. */
export async function ageMembers(s: TestServer, userIds: number[], seconds: number): Promise<void> {
  for (const id of userIds) await setTime(s, 'users', 'date_joined', (t) => t - seconds, { id });
}

/** Deactivates the test organization (there is no API for it). */
export async function deactivateRealm(s: TestServer): Promise<void> {
  await writeDirectly(s, 'realms', { deactivated: 1 });
}

/** Deactivates a stream keeping its name, or brings it back (archiving renames it, and nothing unarchives). */
export async function setStreamDeactivated(s: TestServer, streamId: number, deactivated: boolean): Promise<void> {
  await writeDirectly(s, 'streams', { deactivated: deactivated ? 1 : 0 }, { id: streamId });
}
