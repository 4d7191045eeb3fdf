// npm run bench: the standard workload's one table (bench/standard.ts).
// npm run bench all | name...: the benchmarks in bench/ one after another, or those named (each
// is also a standalone script: `npx tsx bench/<name>.ts`). Figures go to stdout. generate.ts
// builds the organization the benchmarks use and is not one itself.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const dir = path.dirname(fileURLToPath(import.meta.url));
const all = fs
  .readdirSync(dir)
  .filter((f) => f.endsWith('.ts') && f !== 'run.ts' && f !== 'generate.ts' && !f.startsWith('_'))
  .map((f) => f.slice(0, -3))
  .sort();
const wanted = process.argv.slice(2);
const chosen = wanted.length === 0 ? ['standard'] : wanted.includes('all') ? all : all.filter((b) => wanted.includes(b));
if (chosen.length === 0) {
  process.stderr.write(`No benchmark named ${wanted.join(', ')}; there are: ${all.join(', ')}\n`);
  process.exit(2);
}
let failed = 0;
for (const name of chosen) {
  process.stdout.write(`\n== bench/${name}.ts\n`);
  const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(dir, `${name}.ts`)], { stdio: 'inherit' });
  if (r.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
