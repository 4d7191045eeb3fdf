// The tests mirror src/ (docs/DEVELOPING.md, "Tests"): a test file is named after the module it
// tests, test/<path under src>/<module>.test.ts or <module>.<aspect>.test.ts; whole-system tests
// live in test/system/, and shared non-test modules in test/helpers/. A file anywhere else fails here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../..');

function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? filesUnder(p) : [p];
  });
}

/** Why a file (a path under test/, with forward slashes) is out of place, or null when it is in place. */
function misplaced(file: string, srcExists: (srcPath: string) => boolean): string | null {
  if (file.startsWith('helpers/')) return file.endsWith('.test.ts') ? 'a test file in test/helpers/ (helpers are not tests)' : null;
  if (file.startsWith('system/')) return file.endsWith('.test.ts') && !file.slice('system/'.length).includes('/') ? null : 'test/system/ holds only *.test.ts files, no folders';
  const m = /^(?:(.+)\/)?([^./]+)(?:\.([a-z0-9-]+))?\.test\.ts$/.exec(file);
  if (!m) return 'not a test file (<module>.test.ts or <module>.<aspect>.test.ts); shared code goes to test/helpers/';
  const source = (m[1] ? m[1] + '/' : '') + m[2] + '.ts';
  return srcExists(source) ? null : `no module src/${source} for it to test`;
}

test('every file under test/ tests a module of src/ at the same path, or is a helper or a system test', () => {
  const wrong = filesUnder(path.join(ROOT, 'test'))
    .map((f) => path.relative(path.join(ROOT, 'test'), f).split(path.sep).join('/'))
    .map((f) => [f, misplaced(f, (s) => fs.existsSync(path.join(ROOT, 'src', s)))] as const)
    .filter(([, why]) => why !== null)
    .map(([f, why]) => `test/${f}: ${why}`);
  assert.deepEqual(wrong, []);
});

test('the layout check refuses misplaced files and accepts the allowed shapes', () => {
  const src = new Set(['routes/join.ts', 'lib/markdown/index.ts', 'cli.ts']);
  const exists = (s: string) => src.has(s);
  for (const ok of ['routes/join.test.ts', 'routes/join.open-signup.test.ts', 'lib/markdown/index.safety.test.ts', 'cli.test.ts', 'system/fuzz.test.ts', 'helpers/server.ts']) {
    assert.equal(misplaced(ok, exists), null, ok);
  }
  for (const bad of ['accounts/join.test.ts', 'routes/joins.test.ts', 'routes/helpers.ts', 'markdown/index.test.ts', 'system/deep/x.test.ts', 'helpers/x.test.ts', 'join.test.ts']) {
    assert.notEqual(misplaced(bad, exists), null, bad);
  }
});
