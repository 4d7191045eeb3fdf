// A NUL character in any parameter is a 400 BAD_REQUEST naming it, on both databases (PostgreSQL
// text cannot hold one; SQLite's can, so without the check the two would answer differently).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { routes } from '../../src/routes/index.ts';
import { startServer } from '../helpers/server.ts';
import { otherParams, routeUrl } from '../helpers/walk.ts';

test('a null byte in any parameter of any route is refused', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  let checked = 0;
  for (const r of routes) {
    if (r.streamBody) continue;
    for (const [name, spec] of Object.entries(r.params)) {
      // Plain and JSON-encoded: the NUL of a JSON string arrives escaped.
      const bads = spec.inPath ? ['a\u0000b'] : ['a\u0000b', spec.json ? '["a\\u0000b"]' : '"a\\u0000b"'];
      for (const bad of bads) {
        if (spec.inPath && !/_id|email|name/.test(name)) continue;
        const url = routeUrl(r, s.owner.id, spec.inPath ? { [name]: bad } : {});
        const res = await s.api(r.method, url, spec.inPath ? otherParams(r, name) : { ...otherParams(r, name), [name]: bad });
        const what = `${r.method} ${r.path} with ${name}=${JSON.stringify(bad)}: ${res.status} ${JSON.stringify(res.body)}`;
        if (!spec.json && bad !== 'a\u0000b') {
          // A JSON-escaped NUL is plain text to a plain string; to parsers that decode JSON
          // themselves it is a NUL: never a 500 either way (s.api checks that).
          assert.ok(res.status < 500, what);
        } else {
          assert.equal(res.status, 400, what);
          assert.equal(res.body.code, 'BAD_REQUEST', what);
          if (bad === 'a\u0000b') assert.equal(res.body.msg, `${name} contains a null byte`, what);
        }
        checked++;
      }
    }
  }
  assert.ok(checked > 200, `only ${checked} cases`);
});
