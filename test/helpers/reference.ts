// Finds ../shared/reference, which a fresh clone does not have: tests using it skip then.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export function referenceDir(): string | null {
  const candidates = [process.env.PARLEY_REFERENCE_DIR, path.join(repoRoot, '..', 'shared', 'reference'), '/work/shared/reference'];
  for (const c of candidates) {
    if (c && fs.existsSync(path.join(c, 'zulip-openapi.yaml'))) return c;
  }
  return null;
}

export const REFERENCE_MISSING = 'reference files (../shared/reference) not found: schema checks skipped';
