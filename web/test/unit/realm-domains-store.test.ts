// The organization's email domains in the web store against a real server: added, changed and
// removed through the calls the Joining settings make, the events applied to the store equal a
// fresh register snapshot, sorted by domain; a bad domain is refused and changes nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from '../../../test/helpers/server.ts';
import { Api, ApiError } from '../../api/http.ts';
import { SettingsApi } from '../../api/settings.ts';
import { REGISTER_PARAMS } from '../../api/queue.ts';
import { Store } from '../../store/index.ts';

test('realm domains follow by events, equal to a fresh snapshot', async () => {
  const s = await startServer();
  const api = new Api({ base: `${s.baseUrl}/api/v1`, headers: { Authorization: 'Basic ' + Buffer.from(`${s.owner.email}:${s.owner.apiKey}`).toString('base64') } });
  const store = new Store();
  const settings = new SettingsApi(api);
  try {
    const first = await api.post<{ queue_id: string; last_event_id: number }>('/register', REGISTER_PARAMS);
    store.load(first);
    let last = first.last_event_id;
    const drain = async () => {
      const r = await api.get<{ events: { id: number; type: string }[] }>('/events', { queue_id: first.queue_id, last_event_id: last, dont_block: true });
      for (const e of r.events) last = Math.max(last, e.id);
      store.apply(r.events.filter((e) => e.type !== 'heartbeat'));
    };

    await settings.addRealmDomain('zeta.example', false);
    await settings.addRealmDomain('Alpha.example', true);
    await settings.addRealmDomain('gone.example', false);
    await settings.changeRealmDomain('zeta.example', true);
    await settings.removeRealmDomain('gone.example');
    await assert.rejects(settings.addRealmDomain('nodot', false), (e: unknown) => e instanceof ApiError && e.status === 400 && /Invalid domain/.test(e.message));
    // The last change's event marks the end.
    await settings.changeRealmDomain('alpha.example', false);
    const until = Date.now() + 5000;
    for (;;) {
      await drain();
      if (store.admin.realmDomains.value.find((d) => d.domain === 'alpha.example')?.allow_subdomains === false) break;
      if (Date.now() > until) assert.fail('the events did not arrive');
      await new Promise((r) => setTimeout(r, 20));
    }
    const fresh = new Store();
    const snapshot = await api.post<{ queue_id: string }>('/register', REGISTER_PARAMS);
    await api.delete('/events', { queue_id: snapshot.queue_id });
    fresh.load(snapshot);
    assert.deepEqual(store.admin.realmDomains.value, fresh.admin.realmDomains.value);
    assert.deepEqual(store.admin.realmDomains.value, [
      { domain: 'alpha.example', allow_subdomains: false },
      { domain: 'zeta.example', allow_subdomains: true },
    ]);
  } finally {
    await s.close();
  }
});
