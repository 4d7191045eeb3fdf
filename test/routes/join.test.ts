import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { httpRequest, startServer, type TestServer } from '../helpers/server.ts';
import { alertText, hasLabelledInput, page } from '../helpers/pages.ts';
import { streamNamesOf, userByEmail } from '../helpers/accounts.ts';
import { send, setTime, subscribe } from '../helpers/factories.ts';

/** An email invitation's link, as the administrator sees it without SMTP. */
async function invite(s: TestServer, email: string, params: Record<string, unknown> = {}): Promise<string> {
  await s.ok('POST', '/api/v1/invites', { invitee_emails: email, stream_ids: [], ...params });
  const { invites } = await s.ok('GET', '/api/v1/invites');
  return invites.find((i: any) => i.email === email).link_url as string;
}

test('an invitation link shows the organization and a labelled sign-up form under the app\'s CSP', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const link = await invite(s, 'new@example.com');
  const res = await page(s, 'GET', link);
  assert.equal(res.status, 200);
  assert.match(res.headers['content-type'] ?? '', /^text\/html/);
  assert.match(String(res.headers['content-security-policy']), /script-src 'self'/);
  assert.equal(res.headers['referrer-policy'], 'no-referrer');
  assert.match(res.text, /Test Org/);
  assert.ok(hasLabelledInput(res.text, 'Full name'));
  assert.ok(hasLabelledInput(res.text, 'Password'));
  assert.ok(hasLabelledInput(res.text, 'Email'));
  assert.match(res.text, /value="new@example.com" readonly/);
  assert.match(res.text, /<button type="submit">Sign up<\/button>/);
  // Someone who has an account already finds the way to log in.
  assert.match(res.text, /Already have an account\? <a href="\/">Log in<\/a>/);
  assert.doesNotMatch(res.text, /<script/);
  const css = await page(s, 'GET', '/static/pages.css');
  assert.equal(css.status, 200);
  assert.match(css.headers['content-type'] ?? '', /^text\/css/);
  assert.match(css.text, /prefers-color-scheme: dark/);
  // In the web app's colours, light and dark, so that its login page and these look like one site.
  const app = fs.readFileSync(new URL('../../web/views/styles.css', import.meta.url), 'utf8');
  const accents = (text: string) => [...text.matchAll(/--accent: (#[0-9a-f]+);/g)].map((m) => m[1]).slice(0, 2);
  assert.deepEqual(accents(css.text), accents(app));
});

test('signing up through an invitation: role, default and invited streams, the referrer\'s DM, a session, then the link is spent', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  await s.ok('POST', '/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'design' }] });
  const { stream_id: design } = await s.ok('GET', '/api/v1/get_stream_id', { stream: 'design' });
  const link = await invite(s, 'new@example.com', { invite_as: 300, stream_ids: [design], include_realm_default_subscriptions: true });

  const bad = await page(s, 'POST', link, { full_name: '', password: 'long-enough-pw' });
  assert.equal(bad.status, 400);
  assert.equal(alertText(bad.text), 'Name too short!');
  assert.match(bad.text, /aria-invalid="true"/);
  const weak = await page(s, 'POST', link, { full_name: 'New Person', password: 'x' });
  assert.equal(weak.status, 400);
  assert.match(alertText(weak.text) ?? '', /password is too weak/);
  assert.match(weak.text, /value="New Person"/);
  assert.equal(await userByEmail(s, 'new@example.com'), undefined);

  const ok = await page(s, 'POST', link, { full_name: 'New Person', password: 'long-enough-pw' });
  assert.equal(ok.status, 303);
  assert.equal(ok.headers.location, '/');
  assert.match(ok.cookie, /parley_session=[A-Za-z0-9_-]+; parley_csrf=/);
  const user = (await userByEmail(s, 'new@example.com'))!;
  assert.equal(user.full_name, 'New Person');
  assert.equal(user.role, 300);
  assert.deepEqual(await streamNamesOf(s, user.id), ['design', 'general']);

  const me = await httpRequest(`${s.baseUrl}/json/users/me`, 'GET', { host: new URL(s.baseUrl).host, cookie: ok.cookie });
  assert.equal(JSON.parse(me.text).user_id, user.id);

  const { messages } = await s.ok('GET', '/api/v1/messages', { anchor: 'newest', num_before: 5, num_after: 0, narrow: [{ operator: 'is', operand: 'dm' }], apply_markdown: false });
  const dm = messages.at(-1);
  assert.equal(dm.sender_full_name, 'Notification Bot');
  assert.equal(dm.content, `@_**New Person|${user.id}** accepted your invitation to join Test Org!`);

  const again = await page(s, 'GET', link);
  assert.equal(again.status, 410);
  assert.match(again.text, /already been used/);
  const post = await page(s, 'POST', link, { full_name: 'Someone Else', password: 'long-enough-pw' });
  assert.equal(post.status, 410);
  assert.deepEqual((await s.ok('GET', '/api/v1/invites')).invites, []);
});

test('without include_realm_default_subscriptions (the reference default) only the invitation\'s streams; no DM when not asked', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const link = await invite(s, 'quiet@example.com', { notify_referrer_on_join: false });
  const before = s.published.filter((p) => p.event.type === 'message').length;
  assert.equal((await page(s, 'POST', link, { full_name: 'Quiet One', password: 'long-enough-pw' })).status, 303);
  const user = (await userByEmail(s, 'quiet@example.com'))!;
  assert.deepEqual(await streamNamesOf(s, user.id), []);
  assert.equal(s.published.filter((p) => p.event.type === 'message').length, before);
  assert.ok(s.published.some((p) => p.event.type === 'realm_user' && p.event.op === 'add' && p.event.person.user_id === user.id));
});

test('a newcomer\'s feed starts with their streams\' recent messages: an invited private stream\'s shared history, not a protected one\'s or other streams\'', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  await subscribe(s, ['design'], s.owner, { invite_only: true, history_public_to_subscribers: true });
  await subscribe(s, ['vault'], s.owner, { invite_only: true, history_public_to_subscribers: false });
  await subscribe(s, ['lobby']);
  const streamId = async (name: string) => (await s.ok('GET', '/api/v1/get_stream_id', { stream: name })).stream_id as number;
  const inGeneral = await send(s, 'general', 'hello', 'in general');
  const inDesign = await send(s, 'design', 'mockups', 'in design');
  await send(s, 'vault', 'keys', 'in the vault');
  await send(s, 'lobby', 'hello', 'in the lobby');
  const link = await invite(s, 'new@example.com', { stream_ids: [await streamId('design'), await streamId('vault')], include_realm_default_subscriptions: true });
  assert.equal((await page(s, 'POST', link, { full_name: 'New Person', password: 'long-enough-pw' })).status, 303);
  const { api_key: apiKey, user_id: id } = await s.ok('POST', '/api/v1/fetch_api_key', { username: 'new@example.com', password: 'long-enough-pw' });
  const newcomer = { id: id as number, email: 'new@example.com', apiKey: apiKey as string };
  assert.deepEqual(await streamNamesOf(s, newcomer.id), ['design', 'general', 'vault']);
  const { messages } = await s.ok('GET', '/api/v1/messages', { anchor: 'newest', num_before: 100, num_after: 0 }, newcomer);
  // The referrer's notice is theirs, not the newcomer's.
  assert.deepEqual(messages.map((m: { id: number }) => m.id), [inGeneral, inDesign]);
  const { unread_msgs } = await s.ok('POST', '/api/v1/register', { fetch_event_types: ['message', 'update_message_flags'] }, newcomer);
  assert.equal(unread_msgs.count, 2);
});

test('a reusable link asks for the email, serves several people, refuses an address already here; revoked and expired links say so', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const { invite_link } = await s.ok('POST', '/api/v1/invites/multiuse', { invite_as: 600, include_realm_default_subscriptions: true });
  const form = await page(s, 'GET', invite_link);
  assert.ok(hasLabelledInput(form.text, 'Email'));
  assert.doesNotMatch(form.text, /readonly/);
  const taken = await page(s, 'POST', invite_link, { email: 'OWNER@example.com', full_name: 'Imposter', password: 'long-enough-pw' });
  assert.equal(taken.status, 400);
  assert.match(alertText(taken.text) ?? '', /already exists/);
  const noEmail = await page(s, 'POST', invite_link, { full_name: 'No Mail', password: 'long-enough-pw' });
  assert.equal(alertText(noEmail.text), 'Please enter your email address.');
  for (const email of ['one@example.com', 'two@example.com']) {
    assert.equal((await page(s, 'POST', invite_link, { email, full_name: email.split('@')[0]!, password: 'long-enough-pw' })).status, 303);
    assert.equal((await userByEmail(s, email))!.role, 600);
  }
  const { invites } = await s.ok('GET', '/api/v1/invites');
  await s.ok('DELETE', `/api/v1/invites/multiuse/${invites[0].id}`);
  const revoked = await page(s, 'GET', invite_link);
  assert.equal(revoked.status, 410);
  assert.match(revoked.text, /revoked/);

  const link = await invite(s, 'late@example.com');
  await setTime(s, 'invitations', 'expires_at', 1, { email: 'late@example.com' });
  const expired = await page(s, 'GET', link);
  assert.equal(expired.status, 410);
  assert.match(expired.text, /expired/);
  const missing = await page(s, 'GET', '/join/aaaaaaaaaaaaaaaaaaaaaaaa/');
  assert.equal(missing.status, 404);
});
