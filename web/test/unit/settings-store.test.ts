// The settings pages' store against a real server, as the server's verify-action tests do:
// each change is made through the same API calls the pages make, the events it causes are
// applied to the store, and the result must equal a fresh register snapshot of the same state.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from '../../../test/helpers/server.ts';
import { Api } from '../../api/http.ts';
import { SettingsApi } from '../../api/settings.ts';
import { REGISTER_PARAMS } from '../../api/queue.ts';
import { Store } from '../../store/index.ts';

function view(s: Store) {
  const a = s.admin;
  return {
    emoji: a.emoji.value,
    linkifiers: a.linkifiers.value,
    profileFields: a.profileFields.value,
    profileData: Object.fromEntries([...a.profileData.value].filter(([, d]) => Object.keys(d).length)),
    groups: Object.fromEntries(a.groups.value),
    bots: [...a.bots.value].sort((x, y) => x.user_id - y.user_id),
    defaultStreams: [...a.defaultStreams.value].sort(),
    mutedUsers: a.mutedUsers.value.map((m) => m.id),
    statuses: Object.fromEntries(a.statuses.value),
    realmName: s.settings.realm.value.name,
    policy: s.settings.realm.value.create_public_stream_policy,
    editLimit: s.settings.realm.value.message_content_edit_limit_seconds,
    twentyFour: s.settings.user.value.twenty_four_hour_time,
    roles: [...s.users.byId.value.values()].map((u) => [u.user_id, u.role, u.is_active]).sort(),
  };
}

test('settings changes made through the API reach the store by events, equal to a fresh snapshot', async () => {
  const s = await startServer();
  const api = new Api({ base: `${s.baseUrl}/api/v1`, headers: { Authorization: 'Basic ' + Buffer.from(`${s.owner.email}:${s.owner.apiKey}`).toString('base64') } });
  const store = new Store();
  const settings = new SettingsApi(api);
  try {
    const alice = await s.createUser('Alice');
    await s.ok('POST', '/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'general' }], principals: [s.owner.email, alice.email] });
    const { stream_id: general } = await s.ok('GET', '/api/v1/get_stream_id', { stream: 'general' });
    // The queue is read without blocking (no long-poll left open when the test ends).
    const first = await api.post<{ queue_id: string; last_event_id: number }>('/register', REGISTER_PARAMS);
    store.load(first);
    let last = first.last_event_id;
    const drain = async () => {
      const r = await api.get<{ events: { id: number; type: string }[] }>('/events', { queue_id: first.queue_id, last_event_id: last, dont_block: true });
      for (const e of r.events) last = Math.max(last, e.id);
      store.apply(r.events.filter((e) => e.type !== 'heartbeat'));
    };

    // Custom emoji are uploaded in the browser test: after a multipart upload from node's fetch
    // the server's close waits a minute for that connection.
    await settings.addLinkifier('#(?P<id>[0-9]+)', 'https://example.com/{id}');
    await settings.addProfileField({ name: 'Team', hint: '', field_type: 1 });
    await settings.addProfileField({ name: 'Office', hint: '', field_type: 3, field_data: JSON.stringify({ 0: { text: 'Paris', order: '0' } }) });
    const fields = (await s.ok('GET', '/api/v1/realm/profile_fields')).custom_fields as { id: number }[];
    await settings.reorderProfileFields(fields.map((f) => f.id).reverse());
    await settings.setProfileData([{ id: fields[0]!.id, value: 'Core' }]);
    await settings.createGroup('designers', '', [s.owner.id]);
    const groups = (await s.ok('GET', '/api/v1/user_groups')).user_groups as { id: number; name: string }[];
    const designers = groups.find((g) => g.name === 'designers')!.id;
    const owners = groups.find((g) => g.name === 'role:owners')!.id;
    await settings.groupMembers(designers, [alice.id], []);
    await settings.groupSubgroups(designers, [owners], []);
    await settings.updateGroup(designers, { description: 'Make it pretty' });
    const bot = await settings.createBot({ full_name: 'Helper', short_name: 'helper', bot_type: 1 });
    await settings.deactivateBot(bot.user_id);
    await settings.setDefaultStream(general as number, true);
    await settings.muteUser(alice.id, true);
    await settings.setStatus({ status_text: 'In a meeting', emoji_name: 'calendar', away: true });
    await settings.updateRealm({ name: 'Acme', create_public_stream_policy: 2, message_content_edit_limit_seconds: 'unlimited' });
    await settings.updateSettings({ twenty_four_hour_time: true });
    // The last change's event marks the end.
    await settings.updateUser(alice.id, { role: 300 });
    const until = Date.now() + 5000;
    for (;;) {
      await drain();
      if (store.users.get(alice.id)?.role === 300) break;
      if (Date.now() > until) assert.fail('the events did not arrive');
      await new Promise((r) => setTimeout(r, 20));
    }

    const fresh = new Store();
    const snapshot = await api.post<{ queue_id: string }>('/register', REGISTER_PARAMS);
    await api.delete('/events', { queue_id: snapshot.queue_id });
    fresh.load(snapshot);
    const got = view(store);
    assert.deepEqual(got, view(fresh));
    // And it is what was asked for (the comparison alone would pass if nothing happened).
    assert.equal(got.linkifiers.length, 1);
    assert.deepEqual(got.profileFields.map((f) => f.name), ['Office', 'Team']);
    assert.equal(got.groups[designers]?.description, 'Make it pretty');
    assert.deepEqual(got.groups[designers]?.direct_subgroup_ids, [owners]);
    assert.equal(got.bots.find((b) => b.user_id === bot.user_id)?.is_active, false);
    assert.deepEqual(got.mutedUsers, [alice.id]);
    assert.equal(got.statuses[s.owner.id]?.status_text, 'In a meeting');
    assert.equal(got.realmName, 'Acme');
    assert.equal(got.editLimit, null);
    assert.equal(got.twentyFour, true);
  } finally {
    await s.close();
  }
});
