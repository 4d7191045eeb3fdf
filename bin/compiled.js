// Whether dist/ holds a compiled copy of every file in src/ at least as new as its source.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** @param {URL | string} root the folder holding src/ and dist/ */
export function compiledIsCurrent(root) {
  const base = typeof root === 'string' ? root : fileURLToPath(root);
  const src = path.join(base, 'src');
  const dist = path.join(base, 'dist');
  if (!fs.existsSync(path.join(dist, 'cli.js'))) return false;
  // An install that ships only dist/ has nothing to compare against.
  if (!fs.existsSync(src)) return true;
  // Per file, not the newest source against dist/ as a whole: a build still being written, or a
  // source edited after the build, fails the check for the file concerned.
  const walk = (dir) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, e.name);
      if (e.isDirectory()) {
        if (!walk(full)) return false;
      } else if (e.name.endsWith('.ts') && !e.name.endsWith('.d.ts')) {
        const compiled = path.join(dist, path.relative(src, full)).replace(/\.ts$/, '.js');
        let built;
        try {
          built = fs.statSync(compiled).mtimeMs;
        } catch {
          return false;
        }
        if (built < fs.statSync(full).mtimeMs) return false;
      }
    }
    return true;
  };
  return walk(src);
}
