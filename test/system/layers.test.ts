// The lint rules that hold the layers of src/ and keep SQL in src/db/ (eslint.config.js,
// eslint/layers.js): each fires on a file that breaks it, and not on one that keeps it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';

const root = fileURLToPath(new URL('../..', import.meta.url));
const eslint = new ESLint({ cwd: root });

async function problems(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return result!.messages.map((m) => `${m.ruleId}: ${m.message}`);
}

test('an upward import fails, type imports and re-exports included; own layer and below pass', async () => {
  const cases: [string, string][] = [
    ['src/db/queries/example.ts', "import { search } from '../../lib/search.ts';\nexport const x = search;\n"],
    ['src/lib/example.ts', "import type { MessageJson } from '../presenters/message.ts';\nexport type X = MessageJson;\n"],
    ['src/events/state/example.ts', "export { checkCreateBot } from '../../actions/bots.ts';\n"],
    ['src/presenters/example.ts', "export const load = () => import('../http/body.ts');\n"],
    ['src/log.ts', "import { LIMITS } from './lib/limits.ts';\nexport const x = LIMITS;\n"],
    ['src/routes/example.ts', "import { createServer } from '../app.ts';\nexport const x = createServer;\n"],
  ];
  for (const [file, code] of cases) {
    const found = await problems(file, code);
    assert.equal(found.filter((m) => m.startsWith('parley/layers:')).length, 1, `${file}: ${found.join('; ')}`);
  }
  const allowed: [string, string][] = [
    ['src/routes/example.ts', "import { LIMITS } from '../lib/limits.ts';\nimport type { AppContext } from '../context.ts';\nexport const x = LIMITS;\nexport type A = AppContext;\n"],
    ['src/db/queries/example.ts', "import { FLAG_BITS } from '../flags.ts';\nimport { loadConfig } from '../../config.ts';\nexport const x = [FLAG_BITS, loadConfig];\n"],
    ['src/app.ts', "import { routes } from './routes/index.ts';\nexport const x = routes;\n"],
  ];
  for (const [file, code] of allowed) assert.deepEqual(await problems(file, code), [], file);
});

test('SQL outside src/db/ fails: the sql tag and Kysely query building', async () => {
  const bad = [
    "import { sql } from 'kysely';\nexport const x = sql`select 1`;\n",
    'export const q = (db: any) => db.selectFrom(\'users\').selectAll().execute();\n',
    "export const q = (tx: any) => tx.insertInto('subscriptions').values({}).execute();\n",
  ];
  for (const code of bad) assert.ok((await problems('src/actions/example.ts', code)).length > 0, code);
  const inDb = await problems('src/db/queries/example.ts', "import { sql, type Kysely } from 'kysely';\nexport const q = (db: Kysely<{ users: { id: number } }>) => db.selectFrom('users').select(sql<number>`1`.as('one')).execute();\n");
  assert.deepEqual(inDb, []);
});
