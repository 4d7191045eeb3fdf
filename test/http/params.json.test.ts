// Every JSON parameter of every route refuses malformed JSON and JSON of the wrong type with a 400
// BAD_REQUEST, never a 500: the route table is walked, so new routes are covered as they come.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ParamSpec } from '../../src/http/params.ts';
import { accepts, otherParams, routeUrl } from '../helpers/walk.ts';
import { routes } from '../../src/routes/index.ts';
import { startServer } from '../helpers/server.ts';

/** Wrong types for a parameter, from what shape of value it takes. */
function wrongValues(spec: ParamSpec<unknown>): string[] {
  if (accepts(spec, '[]')) return ['{"a":1}', '"x"', '1', 'null', '[{}]', '[null]', '[[]]'];
  if (accepts(spec, '{}')) return ['[1]', '"x"', '1', 'null', '{"a":[[]]}'];
  return ['{"a":1}', '[{}]'];
}

test('malformed and wrongly typed JSON parameters are a 400 BAD_REQUEST on every route', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  let checked = 0;
  for (const r of routes) {
    const jsonParams = Object.entries(r.params).filter(([, spec]) => spec.json && !spec.inPath);
    if (jsonParams.length === 0 || r.streamBody) continue;
    const url = routeUrl(r, s.owner.id);
    for (const [name, spec] of jsonParams) {
      const others = otherParams(r, name);
      for (const bad of ['{', ...wrongValues(spec)]) {
        const res = await s.api(r.method, url, { ...others, [name]: bad });
        const what = `${r.method} ${r.path} with ${name}=${bad}: ${res.status} ${JSON.stringify(res.body)}`;
        // A value decoding accepts may still name nothing (a 404 for a missing row).
        if (accepts(spec, bad)) assert.ok(res.status === 400 || res.status === 404, what);
        else assert.equal(res.status, 400, what);
        assert.equal(res.body.result, 'error', what);
        assert.equal(res.body.code, 'BAD_REQUEST', what);
        // Where decoding refuses the value, naming the parameter shows decoding reached it
        // rather than stopping at another one (the rest are refused by the action).
        if (!accepts(spec, bad)) assert.ok(res.body.msg.includes(name), what);
        checked++;
      }
    }
  }
  assert.ok(checked > 100, `only ${checked} cases`);
});
