import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from '../helpers/server.ts';
import { dm, send, subscribe } from '../helpers/factories.ts';
import { ids } from '../helpers/messages.ts';

test('anchors: id, newest, oldest, first_unread, include_anchor and the deprecated use_first_unread_anchor', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const alice = await s.createUser('Alice');
  const m: number[] = [];
  for (let i = 0; i < 6; i++) m.push(await send(s, 'general', 't', `m${i}`));
  const get = (p: Record<string, unknown>) => s.ok('GET', '/api/v1/messages', { narrow: [['stream', 'general']], ...p }, alice);

  const byId = await get({ anchor: m[2], num_before: 1, num_after: 1 });
  assert.deepEqual(byId.messages.map((x: any) => x.id), [m[1], m[2], m[3]]);
  assert.equal(byId.anchor, m[2]);
  assert.equal(byId.found_anchor, true);
  assert.equal(byId.found_oldest, false);
  assert.equal(byId.found_newest, false);

  const excl = await get({ anchor: m[2], num_before: 1, num_after: 1, include_anchor: false });
  assert.deepEqual(excl.messages.map((x: any) => x.id), [m[1], m[3]]);
  assert.equal(excl.found_anchor, false);

  const newest = await get({ anchor: 'newest', num_before: 2, num_after: 0 });
  assert.deepEqual(newest.messages.map((x: any) => x.id), [m[4], m[5]]);
  assert.equal(newest.found_newest, true);
  assert.equal(newest.found_oldest, false);

  const oldest = await get({ anchor: 'oldest', num_before: 0, num_after: 2 });
  assert.deepEqual(oldest.messages.map((x: any) => x.id), [m[0], m[1]]);
  assert.equal(oldest.found_oldest, true);

  // Alice has read the first three: the first unread is m[3].
  await s.ok('POST', '/api/v1/messages/flags', { messages: [m[0], m[1], m[2]], op: 'add', flag: 'read' }, alice);
  const unread = await get({ anchor: 'first_unread', num_before: 0, num_after: 1 });
  assert.equal(unread.anchor, m[3]);
  assert.deepEqual(unread.messages.map((x: any) => x.id), [m[3], m[4]]);
  const legacy = await get({ use_first_unread_anchor: true, num_before: 0, num_after: 0 });
  assert.equal(legacy.anchor, m[3]);
  // With an anchor as well (a terminal client's start-up query, verbatim), the flag wins.
  const both = await s.ok('GET', '/api/v1/messages?anchor=0&num_before=30&num_after=10&use_first_unread_anchor=true&narrow=[]', {}, alice);
  assert.equal(both.anchor, m[3]);
  assert.deepEqual(both.messages.map((x: any) => x.id), m);

  const tooMany = await s.api('GET', '/api/v1/messages', { anchor: 'newest', num_before: 4000, num_after: 1001 });
  assert.equal(tooMany.status, 400);
  assert.equal(tooMany.body.code, 'BAD_REQUEST');
});

test('narrow operators: stream, topic, sender, dm, dm-including, is, has, id, negation, both forms and legacy names', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const alice = await s.createUser('Alice');
  const bob = await s.createUser('Bob');
  await subscribe(s, ['design']);
  await subscribe(s, ['design'], alice);
  const a = await send(s, 'general', 'lunch', 'hello');
  const b = await send(s, 'design', 'logo', 'see https://example.com/x', alice);
  const c = await send(s, 'design', '\u2714 done', 'finished');
  const d = await dm(s, [alice.id], 'psst');
  const e = await dm(s, [alice.id, bob.id], 'group');
  const f = await send(s, 'general', 'Lunch', `@**Alice** come`);

  assert.deepEqual(await ids(s, { narrow: [{ operator: 'stream', operand: 'design' }] }), [b, c]);
  assert.deepEqual(await ids(s, { narrow: [['stream', 'general'], ['topic', 'lunch']] }), [a, f]);
  const general = (await s.server.app.db.kysely.selectFrom('streams').select('id').where('name', '=', 'general').executeTakeFirstOrThrow()).id;
  assert.deepEqual(await ids(s, { narrow: [{ operator: 'stream', operand: general }] }), [a, f]);
  assert.deepEqual(await ids(s, { narrow: [{ operator: 'sender', operand: alice.id }] }), [b]);
  assert.deepEqual(await ids(s, { narrow: [['sender', alice.email]] }), [b]);
  assert.deepEqual(await ids(s, { narrow: [['dm', alice.email]] }), [d]);
  assert.deepEqual(await ids(s, { narrow: [{ operator: 'dm', operand: [alice.id, bob.id] }] }), [e]);
  assert.deepEqual(await ids(s, { narrow: [['pm-with', `${alice.email},${bob.email}`]] }), [e]);
  assert.deepEqual(await ids(s, { narrow: [{ operator: 'dm-including', operand: bob.id }] }), [e]);
  assert.deepEqual(await ids(s, { narrow: [['group-pm-with', bob.email]] }), [e]);
  assert.deepEqual(await ids(s, { narrow: [['is', 'dm']] }), [d, e]);
  assert.deepEqual(await ids(s, { narrow: [['is', 'private']] }), [d, e]);
  assert.deepEqual(await ids(s, { narrow: [['is', 'resolved']] }), [c]);
  assert.deepEqual(await ids(s, { narrow: [['is', 'mentioned']] }, alice), [f]);
  assert.deepEqual(await ids(s, { narrow: [['is', 'followed']] }), []);
  assert.deepEqual(await ids(s, { narrow: [['has', 'link']] }), [b]);
  assert.deepEqual(await ids(s, { narrow: [['id', String(c)]] }), [c]);
  assert.deepEqual(await ids(s, { narrow: [{ operator: 'is', operand: 'dm', negated: true }, { operator: 'stream', operand: 'general' }] }), [a, f]);
  assert.deepEqual(await ids(s, { narrow: [{ operator: 'topic', operand: 'lunch', negated: true }] }), [b, c, d, e]);
  assert.deepEqual(await ids(s, { narrow: [['is', 'unread']] }, alice), [a, c, d, e, f]);
  await s.ok('POST', `/api/v1/messages/${a}/reactions`, { emoji_name: 'smile' });
  assert.deepEqual(await ids(s, { narrow: [['has', 'reaction']] }), [a]);
  assert.deepEqual(await ids(s, { narrow: [['near', String(a)], ['stream', 'general']] }), [a, f]);

  for (const bad of [[['bogus', 'x']], [['is', 'nothing']], [['has', 'cats']], [{ operand: 'x' }], ['stream'], 'x']) {
    const r = await s.api('GET', '/api/v1/messages', { anchor: 'newest', num_before: 1, num_after: 0, narrow: bad });
    assert.equal(r.status, 400, JSON.stringify(bad));
    assert.equal(r.body.code, 'BAD_REQUEST');
  }
});

test('in:home leaves out muted streams and muted topics but keeps unmuted and followed topics of muted streams; in:all narrows nothing', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const alice = await s.createUser('Alice');
  await subscribe(s, ['noise']);
  const a = await send(s, 'general', 'lunch', 'a');
  const b = await send(s, 'general', 'spam', 'b');
  const c = await send(s, 'noise', 'chatter', 'c');
  const d = await send(s, 'noise', 'keep', 'd');
  const e = await send(s, 'noise', 'follow', 'e');
  const f = await dm(s, [alice.id], 'f');
  const streamId = async (name: string) => (await s.server.app.db.kysely.selectFrom('streams').select('id').where('name', '=', name).executeTakeFirstOrThrow()).id;
  const noise = await streamId('noise');
  await s.ok('POST', '/api/v1/users/me/subscriptions/properties', { subscription_data: [{ stream_id: noise, property: 'is_muted', value: true }] });
  await s.ok('POST', '/api/v1/user_topics', { stream_id: await streamId('general'), topic: 'spam', visibility_policy: 1 });
  await s.ok('POST', '/api/v1/user_topics', { stream_id: noise, topic: 'keep', visibility_policy: 2 });
  await s.ok('POST', '/api/v1/user_topics', { stream_id: noise, topic: 'follow', visibility_policy: 3 });

  // The "all messages" views of clients: the legacy pair form and the object form.
  assert.deepEqual(await ids(s, { narrow: [['in', 'home']] }), [a, d, e, f]);
  assert.deepEqual(await ids(s, { narrow: [{ operator: 'in', operand: 'home' }] }), [a, d, e, f]);
  assert.deepEqual(await ids(s, { narrow: [{ operator: 'in', operand: 'home', negated: true }] }), [b, c]);
  // Stream muting holds within a stream narrow too, as in the reference.
  assert.deepEqual(await ids(s, { narrow: [['stream', 'noise'], ['in', 'home']] }), [d, e]);
  assert.deepEqual(await ids(s, { narrow: [['in', 'all']] }), [a, b, c, d, e, f]);
  assert.deepEqual(await ids(s, { narrow: [{ operator: 'in', operand: 'all', negated: true }] }), [a, b, c, d, e, f]);
  // Another user's muting is not the caller's.
  assert.deepEqual(await ids(s, { narrow: [['in', 'home']] }, alice), [a, b, f]);

  const bad = await s.api('GET', '/api/v1/messages', { anchor: 'newest', num_before: 1, num_after: 0, narrow: [['in', 'elsewhere']] });
  assert.equal(bad.status, 400);
  assert.equal(bad.body.msg, 'Invalid narrow operand for in: elsewhere');
  // An event queue does not follow muting: the reference refuses the operator there.
  const reg = await s.api('POST', '/api/v1/register', { narrow: [['in', 'home']] });
  assert.equal(reg.status, 400);
  assert.equal(reg.body.msg, 'Operator in not supported.');
});

test('stream narrows reach shared history; narrows without a stream search only the user\'s own; streams:public reaches all public streams', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  await subscribe(s, ['old']);
  const before = await send(s, 'old', 't', 'before alice joined');
  const alice = await s.createUser('Alice');
  await subscribe(s, ['secret'], s.owner, { invite_only: true });
  const hidden = await send(s, 'secret', 't', 'hidden');
  assert.deepEqual(await ids(s, { narrow: [['stream', 'old']] }, alice), [before]);
  assert.deepEqual(await ids(s, { narrow: [] }, alice), []);
  assert.deepEqual(await ids(s, { narrow: [['streams', 'public']] }, alice), [before]);
  const got = await s.ok('GET', '/api/v1/messages', { anchor: 'newest', num_before: 1, num_after: 0, narrow: [['stream', 'old']] }, alice);
  assert.deepEqual(got.messages[0].flags, ['read', 'historical']);
  assert.deepEqual(await ids(s, { narrow: [['stream', 'secret']] }, alice), []);
  const single = await s.api('GET', `/api/v1/messages/${hidden}`, {}, { as: alice });
  assert.equal(single.status, 400);
});

test('search: words, phrases, stop words, topic matches, highlighting, access filter and matches_narrow', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const alice = await s.createUser('Alice');
  const a = await send(s, 'general', 'planning', 'The rocket launches on Monday');
  const b = await send(s, 'general', 'rockets', 'unrelated text');
  const c = await send(s, 'general', 'misc', 'a launch of the big rocket today');
  await subscribe(s, ['secret'], s.owner, { invite_only: true });
  await send(s, 'secret', 'x', 'rocket secrets');
  const search = (q: string, as = alice) => ids(s, { narrow: [['search', q]] }, as);

  assert.deepEqual(await search('rocket'), [a, b, c]);
  assert.deepEqual(await search('the rocket'), [a, b, c]);
  assert.deepEqual(await search('rocket monday'), [a]);
  assert.deepEqual(await search('"big rocket"'), [c]);
  assert.deepEqual(await search('"rocket big"'), []);
  const r = await s.ok('GET', '/api/v1/messages', { anchor: 'newest', num_before: 10, num_after: 0, narrow: [['search', 'rocket monday']] }, alice);
  assert.equal(r.messages[0].match_content, '<p>The <span class="highlight">rocket</span> launches on <span class="highlight">Monday</span></p>');
  assert.equal(r.messages[0].match_subject, 'planning');
  const plain = await s.ok('GET', '/api/v1/messages', { anchor: 'newest', num_before: 1, num_after: 0 }, alice);
  assert.equal(plain.messages[0].match_content, undefined);

  const m = await s.ok('GET', '/api/v1/messages/matches_narrow', { msg_ids: [a, b], narrow: [['search', 'rockets']] }, alice);
  assert.deepEqual(Object.keys(m.messages).sort(), [String(a), String(b)].sort());
  assert.equal(m.messages[String(b)].match_subject, '<span class="highlight">rockets</span>');
  const m2 = await s.ok('GET', '/api/v1/messages/matches_narrow', { msg_ids: [a, b], narrow: [['topic', 'planning']] }, alice);
  assert.deepEqual(Object.keys(m2.messages), [String(a)]);
});

test('GET /messages/{id} and the Message object fields', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const alice = await s.createUser('Alice');
  const id = await send(s, 'general', 'hello', '**bold** @**Alice**');
  const r = await s.ok('GET', `/api/v1/messages/${id}`, {}, alice);
  assert.equal(r.raw_content, '**bold** @**Alice**');
  assert.equal(r.message.content, `<p><strong>bold</strong> <span class="user-mention" data-user-id="${alice.id}">@Alice</span></p>`);
  assert.deepEqual(r.message.flags, ['mentioned']);
  assert.equal(r.message.sender_realm_str, '');
  assert.deepEqual(r.message.topic_links, []);
  const raw = await s.ok('GET', `/api/v1/messages/${id}`, { apply_markdown: false }, alice);
  assert.equal(raw.message.content, '**bold** @**Alice**');
  assert.equal(raw.message.content_type, 'text/x-markdown');
  const missing = await s.api('GET', '/api/v1/messages/999999');
  assert.equal(missing.status, 400);
  assert.equal(missing.body.msg, 'Invalid message(s)');
});

test('search within a stream, a topic or a conversation: the same matches, newest first, paged by anchor', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const alice = await s.createUser('Alice');
  await subscribe(s, ['ops'], s.owner);
  const inGeneral: number[] = [];
  for (let i = 0; i < 6; i++) {
    inGeneral.push(await send(s, 'general', i % 2 ? 'odd' : 'even', `meeting notes ${i}`));
    await send(s, 'ops', 'log', `meeting elsewhere ${i}`);
  }
  const narrowed = (narrow: unknown[], p: Record<string, unknown> = {}) =>
    s.ok('GET', '/api/v1/messages', { anchor: 'newest', num_before: 10, num_after: 0, narrow, ...p }, alice).then((r) => r.messages.map((m: { id: number }) => m.id));
  assert.deepEqual(await narrowed([['stream', 'general'], ['search', 'meeting']]), inGeneral);
  assert.deepEqual(await narrowed([['stream', 'general'], ['topic', 'odd'], ['search', 'meeting']]), inGeneral.filter((_, i) => i % 2));
  assert.deepEqual(await narrowed([['stream', 'general'], ['search', 'meeting']], { anchor: inGeneral[3], num_before: 2, include_anchor: false }), inGeneral.slice(1, 3));
  assert.deepEqual(await narrowed([['stream', 'general'], ['search', 'nothing']]), []);
  const first = await dm(s, [alice.id], 'a meeting just for us', s.owner);
  await dm(s, [alice.id], 'no match here', s.owner);
  assert.deepEqual(await narrowed([['dm', s.owner.email], ['search', 'meeting']]), [first]);
});
