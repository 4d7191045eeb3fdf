import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from '../helpers/server.ts';
import { kinds, verifyAction } from '../helpers/verify.ts';

test('realm domains: add, change and remove, each event applied to a client equals a fresh register', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  let events = await verifyAction(s, s.owner, () => s.ok('POST', '/api/v1/realm/domains', { domain: 'Example.ORG', allow_subdomains: false }));
  assert.deepEqual(kinds(events), ['realm_domains:add']);
  await s.ok('POST', '/api/v1/realm/domains', { domain: 'acme.com', allow_subdomains: true });
  events = await verifyAction(s, s.owner, () => s.ok('PATCH', '/api/v1/realm/domains/example.org', { allow_subdomains: true }));
  assert.deepEqual(kinds(events), ['realm_domains:change']);
  const { domains } = await s.ok('GET', '/api/v1/realm/domains');
  assert.deepEqual(domains, [
    { domain: 'acme.com', allow_subdomains: true },
    { domain: 'example.org', allow_subdomains: true },
  ]);
  const state = await s.ok('POST', '/api/v1/register', { fetch_event_types: ['realm_domains'] });
  assert.deepEqual(state.realm_domains, domains);
  events = await verifyAction(s, s.owner, () => s.ok('DELETE', '/api/v1/realm/domains/acme.com'));
  assert.deepEqual(kinds(events), ['realm_domains:remove']);
  assert.deepEqual((await s.ok('GET', '/api/v1/realm/domains')).domains, [{ domain: 'example.org', allow_subdomains: true }]);
});

test('realm domains: owners only, no duplicates, valid domains, known domains', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const admin = await s.createUser('Ada', { role: 200 });
  const denied = await s.api('POST', '/api/v1/realm/domains', { domain: 'example.org', allow_subdomains: false }, { as: admin });
  assert.deepEqual([denied.status, denied.body.msg], [400, 'Must be an organization owner']);
  await s.ok('POST', '/api/v1/realm/domains', { domain: 'example.org', allow_subdomains: false });
  const dup = await s.api('POST', '/api/v1/realm/domains', { domain: 'example.org', allow_subdomains: true });
  assert.deepEqual([dup.status, dup.body.msg], [400, 'The domain example.org is already a part of your organization.']);
  for (const bad of ['', 'localhost', '.example.org', 'ex ample.org', 'a..b']) {
    const res = await s.api('POST', '/api/v1/realm/domains', { domain: bad, allow_subdomains: false });
    assert.equal(res.status, 400, bad);
    assert.match(res.body.msg, /^Invalid domain/);
  }
  const unknown = await s.api('DELETE', '/api/v1/realm/domains/other.org');
  assert.deepEqual([unknown.status, unknown.body.msg], [400, 'No entry found for domain other.org.']);
  const unknownChange = await s.api('PATCH', '/api/v1/realm/domains/other.org', { allow_subdomains: true });
  assert.equal(unknownChange.status, 400);
});
