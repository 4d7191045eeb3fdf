import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from '../helpers/server.ts';
import { checkLinkifierPattern } from '../../src/lib/linkifier-check.ts';
import { realmFiltersGroup, realmLinkifiersGroup } from '../../src/events/event-types/realm_linkifiers.ts';
import { topicLinks } from '../../src/lib/markdown/index.ts';
import { markdownLinkifier } from '../../src/lib/realm-markdown.ts';
import { linkifierRows } from '../../src/db/queries/linkifiers.ts';

const GH = { pattern: '#(?P<id>[0-9]+)', url_template: 'https://github.com/acme/app/issues/{id}' };

test('linkifiers are added, listed, changed, reordered and removed, each with an event', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const alice = await s.createUser('Alice');
  s.published.length = 0;
  const a = await s.ok('POST', '/api/v1/realm/filters', GH);
  const b = await s.ok('POST', '/api/v1/realm/filters', { pattern: 'JIRA-(?P<key>[A-Z]+)-(?P<num>\\d+)', url_template: 'https://jira.example.com/browse/{key}-{num}' });
  let list = (await s.ok('GET', '/api/v1/realm/linkifiers')).linkifiers;
  assert.deepEqual(list, [
    { id: a.id, ...GH },
    { id: b.id, pattern: 'JIRA-(?P<key>[A-Z]+)-(?P<num>\\d+)', url_template: 'https://jira.example.com/browse/{key}-{num}' },
  ]);
  assert.deepEqual(s.published.map((p) => p.event), [
    { type: 'realm_linkifiers', realm_linkifiers: [list[0]] },
    { type: 'realm_linkifiers', realm_linkifiers: list },
  ]);
  assert.deepEqual(s.published[0]!.userIds.sort(), [s.owner.id, alice.id].sort());

  await s.ok('PATCH', `/api/v1/realm/filters/${a.id}`, { pattern: '#(?P<id>[0-9]{1,6})', url_template: 'https://github.com/acme/app/pull/{id}' });
  await s.ok('PATCH', '/api/v1/realm/linkifiers', { ordered_linkifier_ids: [b.id, a.id] });
  list = (await s.ok('GET', '/api/v1/realm/linkifiers')).linkifiers;
  assert.deepEqual(list.map((l: any) => [l.id, l.url_template]), [
    [b.id, 'https://jira.example.com/browse/{key}-{num}'],
    [a.id, 'https://github.com/acme/app/pull/{id}'],
  ]);
  assert.deepEqual(s.published.at(-1)!.event, { type: 'realm_linkifiers', realm_linkifiers: list });

  // Rendering uses them: the topic links of "#42".
  const rows = await linkifierRows(s.server.app.db.kysely, 1);
  assert.deepEqual(topicLinks('fix #42', rows.map(markdownLinkifier)), [{ text: '#42', url: 'https://github.com/acme/app/pull/42' }]);

  await s.ok('DELETE', `/api/v1/realm/filters/${b.id}`);
  list = (await s.ok('GET', '/api/v1/realm/linkifiers')).linkifiers;
  assert.deepEqual(list.map((l: any) => l.id), [a.id]);
  assert.deepEqual(s.published.at(-1)!.event, { type: 'realm_linkifiers', realm_linkifiers: list });

  const missing = await s.api('DELETE', `/api/v1/realm/filters/${b.id}`);
  assert.equal(missing.status, 400);
  assert.equal(missing.body.msg, 'Linkifier not found.');
  const badOrder = await s.api('PATCH', '/api/v1/realm/linkifiers', { ordered_linkifier_ids: [a.id, a.id] });
  assert.equal(badOrder.status, 400);
  assert.match(badOrder.body.msg, /exactly once/);
});

test('the linkifier snapshot needs the linkifier_url_template capability; realm_filters is empty', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const { id } = await s.ok('POST', '/api/v1/realm/filters', GH);
  const realm = await s.server.app.db.kysely.selectFrom('realms').selectAll().executeTakeFirstOrThrow();
  const ctx = { app: s.server.app, realm, user: null, clientCapabilities: {}, applyMarkdown: true, clientExternalAvatar: true, includeSubscribers: false, slimPresence: false };
  assert.deepEqual(await realmLinkifiersGroup(ctx), { realm_linkifiers: [] });
  assert.deepEqual(await realmLinkifiersGroup({ ...ctx, clientCapabilities: { linkifier_url_template: true } }), { realm_linkifiers: [{ id, ...GH }] });
  assert.deepEqual(await realmFiltersGroup(ctx), { realm_filters: [] });
});

test('members may not manage linkifiers', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const member = await s.createUser('Member');
  const { id } = await s.ok('POST', '/api/v1/realm/filters', GH);
  for (const [method, path, params] of [
    ['POST', '/api/v1/realm/filters', GH],
    ['PATCH', `/api/v1/realm/filters/${id}`, GH],
    ['DELETE', `/api/v1/realm/filters/${id}`, {}],
    ['PATCH', '/api/v1/realm/linkifiers', { ordered_linkifier_ids: [id] }],
  ] as const) {
    const res = await s.api(method, path, params, { as: member });
    assert.equal(res.status, 400, path);
    assert.equal(res.body.msg, 'Must be an organization administrator');
  }
  assert.equal((await s.ok('GET', '/api/v1/realm/linkifiers', {}, member)).linkifiers.length, 1);
});

test('invalid and catastrophic patterns and bad URL templates are refused', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const cases: [string, string, RegExp][] = [
    ['(?P<id>[0-9]+', 'https://x.example/{id}', /unbalanced parenthesis/],
    ['[a-z', 'https://x.example/', /unterminated character class/],
    ['(?P<id>a+)+$', 'https://x.example/{id}', /catastrophic/],
    ['(?P<id>(a|aa)*)b', 'https://x.example/{id}', /catastrophic/],
    ['(?P<id>(.*a){12})', 'https://x.example/{id}', /catastrophic/],
    ['(?P<id>\\d+)(?=x)', 'https://x.example/{id}', /lookaround/],
    ['(?P<id>a)\\1', 'https://x.example/{id}', /backreferences/],
    ['(?i)abc', 'https://x.example/', /not supported/],
    ['a{1,5000}', 'https://x.example/', /repeat counts/],
    ['*abc', 'https://x.example/', /nothing to repeat/],
    ['(?P<id>\\d+\\d+\\d+\\d+)z', 'https://x.example/{id}', /takes too long/],
    ['', 'https://x.example/', /empty/],
    ['#(?P<id>[0-9]+)', 'https://x.example/{other}', /Group "other" in URL template is not present/],
    ['#(?P<id>[0-9]+)', 'javascript:alert({id})', /Invalid URL template/],
    ['#(?P<id>[0-9]+)', 'https://x.example/{id', /Invalid URL template/],
  ];
  for (const [pattern, url_template, msg] of cases) {
    const res = await s.api('POST', '/api/v1/realm/filters', { pattern, url_template });
    assert.equal(res.status, 400, pattern);
    assert.equal(res.body.code, 'BAD_REQUEST');
    assert.match(res.body.msg, msg, pattern);
  }
  assert.deepEqual((await s.ok('GET', '/api/v1/realm/linkifiers')).linkifiers, []);
});

test('the pattern check accepts the usual linkifier shapes', () => {
  assert.deepEqual(checkLinkifierPattern('#(?P<id>[0-9]+)'), ['id']);
  assert.deepEqual(checkLinkifierPattern('(?P<org>[a-zA-Z0-9_-]+)/(?P<repo>[a-zA-Z0-9_-]+)#(?P<id>[0-9]+)'), ['org', 'repo', 'id']);
  assert.deepEqual(checkLinkifierPattern('RT #(?P<id>\\d{1,8})'), ['id']);
  assert.deepEqual(checkLinkifierPattern('(?:ticket|bug) (?P<id>\\d+)'), ['id']);
  assert.deepEqual(checkLinkifierPattern('(?P<id>ab){3}'), ['id']);
});
