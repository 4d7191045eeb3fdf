// How tests are laid out and written (docs/DEVELOPING.md, "Tests"). They mirror src/: a test file
// is named after the module it tests, test/<path under src>/<module>.test.ts or
// <module>.<aspect>.test.ts; whole-system tests live in test/system/, and shared non-test modules
// in test/helpers/. A file anywhere else fails here. The lint rules for test files (teardown with
// t.after(), rows through test/helpers/factories.ts) fire on a sample that breaks them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { ESLint } from 'eslint';

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

test('lint refuses teardown by try/finally or node:test hooks, and rows written by hand, in test files', async () => {
  const eslint = new ESLint({ cwd: ROOT });
  const problems = async (file: string, code: string) => {
    const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, file) });
    return result!.messages.map((m) => `${m.ruleId}: ${m.message}`);
  };
  const head = "import { test } from 'node:test';\nimport { startServer } from '../helpers/server.ts';\n";
  const bad: [string, RegExp][] = [
    [head + 'test(\'x\', async () => {\n  const s = await startServer();\n  try {\n    await s.ok(\'GET\', \'/api/v1/users/me\');\n  } finally {\n    await s.close();\n  }\n});\n', /not try\/finally/],
    ["import { after, test } from 'node:test';\nafter(() => {});\ntest('x', () => {});\n", /t\.after\(\)/],
    [head + "test('x', async (t) => {\n  const s = await startServer();\n  t.after(() => s.close());\n  await s.server.app.db.kysely.updateTable('users').set({ full_name: 'x' }).execute();\n});\n", /factories\.ts/],
  ];
  for (const [code, message] of bad) {
    const found = await problems('test/routes/example.test.ts', code);
    assert.equal(found.length, 1, code);
    assert.match(found[0]!, message);
  }
  const good = head + "test('x', async (t) => {\n  const s = await startServer();\n  t.after(() => s.close());\n  await s.ok('GET', '/api/v1/users/me');\n});\n";
  assert.deepEqual(await problems('test/routes/example.test.ts', good), []);
  // The factories are the one place that writes rows.
  assert.deepEqual(await problems('test/helpers/factories.ts', "export const f = (db: any) => db.updateTable('users').set({}).execute();\n"), []);
});
