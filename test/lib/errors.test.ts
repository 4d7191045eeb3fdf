// One condition, one error: refusals for lack of a role go out with the reference's
// UNAUTHORIZED_PRINCIPAL wherever they are raised, and the rules decided by the reference
// (test/lib/permissions.test.ts has them as a table) hold through the API.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startServer, type ApiResponse } from '../helpers/server.ts';
import { ROLE } from '../../src/lib/permissions.ts';
import { ageMembers } from '../helpers/factories.ts';

const refused = (res: ApiResponse, msg: string) => assert.deepEqual([res.status, res.body.code, res.body.msg], [400, 'UNAUTHORIZED_PRINCIPAL', msg]);

test('"Must be an organization administrator" carries UNAUTHORIZED_PRINCIPAL from every endpoint that says it', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const member = await s.createUser('Member');
  const other = await s.createUser('Other');
  const ADMIN = 'Must be an organization administrator';
  const general = (await s.ok('GET', '/api/v1/get_stream_id', { stream: 'general' })).stream_id as number;

  refused(await s.api('PATCH', '/api/v1/realm', { name: 'Renamed' }, { as: member }), ADMIN);
  refused(await s.api('POST', '/api/v1/realm/filters', { pattern: '#(?P<id>[0-9]+)', url_template: 'https://example.com/{id}' }, { as: member }), ADMIN);
  refused(await s.api('POST', '/api/v1/default_streams', { stream_id: general }, { as: member }), ADMIN);
  refused(await s.api('PATCH', `/api/v1/users/${other.id}`, { full_name: 'Renamed' }, { as: member }), ADMIN);
  refused(await s.api('POST', `/api/v1/streams/${general}/delete_topic`, { topic_name: 'x' }, { as: member }), ADMIN);
  // Bot creation under the policy (the reference raises its administrator error class there too).
  await s.ok('PATCH', '/api/v1/realm', { bot_creation_policy: 3 });
  refused(await s.api('POST', '/api/v1/bots', { full_name: 'Hook', short_name: 'hook', bot_type: 2 }, { as: member }), ADMIN);
  // Another person's invitation: it went out as BAD_REQUEST here before (the reference's own
  // invitation view does too); one condition now has one code.
  await s.ok('POST', '/api/v1/invites', { invitee_emails: 'new@example.com', stream_ids: [] }, member);
  const [invite] = (await s.ok('GET', '/api/v1/invites', {}, member)).invites;
  refused(await s.api('DELETE', `/api/v1/invites/${invite.id}`, {}, { as: other }), ADMIN);
});

test('"Must be an organization owner" carries UNAUTHORIZED_PRINCIPAL, for administrators too', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const admin = await s.createUser('Admin', { role: ROLE.ADMINISTRATOR });
  const OWNER = 'Must be an organization owner';
  const general = (await s.ok('GET', '/api/v1/get_stream_id', { stream: 'general' })).stream_id as number;

  refused(await s.api('POST', '/api/v1/realm/domains', { domain: 'example.org', allow_subdomains: false }, { as: admin }), OWNER);
  refused(await s.api('PATCH', `/api/v1/streams/${general}`, { message_retention_days: 30 }, { as: admin }), OWNER);
  // Role changes to or from owner, and deactivating an owner (plain BAD_REQUEST here before).
  refused(await s.api('PATCH', `/api/v1/users/${s.owner.id}`, { role: ROLE.MEMBER }, { as: admin }), OWNER);
  refused(await s.api('DELETE', `/api/v1/users/${s.owner.id}`, {}, { as: admin }), OWNER);
});

test('a moderator within the waiting period posts where only full members may; a new member may not', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const moderator = await s.createUser('Mod', { role: ROLE.MODERATOR });
  const member = await s.createUser('Member');
  await s.ok('PATCH', '/api/v1/realm', { waiting_period_threshold: 10 });
  await ageMembers(s, [moderator.id, member.id], 86400);
  const general = (await s.ok('GET', '/api/v1/get_stream_id', { stream: 'general' })).stream_id as number;
  await s.ok('PATCH', `/api/v1/streams/${general}`, { stream_post_policy: 3 });

  const message = { type: 'stream', to: 'general', topic: 'new people', content: 'hello' };
  await s.ok('POST', '/api/v1/messages', message, moderator);
  const denied = await s.api('POST', '/api/v1/messages', message, { as: member });
  assert.deepEqual([denied.status, denied.body.code], [400, 'BAD_REQUEST']);
  assert.equal(denied.body.msg, 'You do not have permission to post in this stream.');
});

test('errors with a code of their own are built only in the error catalog (src/lib/errors.ts)', () => {
  const root = join(import.meta.dirname, '../../src');
  const files = (readdirSync(root, { recursive: true }) as string[]).filter((f) => f.endsWith('.ts') && f !== join('lib', 'errors.ts'));
  const strays: string[] = [];
  for (const f of files) {
    const text = readFileSync(join(root, f), 'utf8');
    // A coded ApiError built in place, or a catalog message raised as a plain bad request.
    for (const m of text.matchAll(/new ApiError\([^;]*?'([A-Z_]+)'/g)) if (m[1] !== 'BAD_REQUEST') strays.push(`${f}: ${m[0]}`);
    for (const msg of ['Must be an organization administrator\'', 'Must be an organization owner\'', 'Not logged in: API', 'Account is deactivated', 'does not exist`, \'STREAM']) {
      if (text.includes(msg)) strays.push(`${f}: ${msg}`);
    }
  }
  assert.deepEqual(strays, []);
});
