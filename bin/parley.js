#!/usr/bin/env node
// Runs the compiled CLI in dist/ (what `npm install` builds) when it is there and no source file
// is newer than its compiled copy; otherwise runs the TypeScript through tsx, so a checkout that
// was edited, or never built, still works. Compiled, the server starts faster and idles in less
// memory (see the README).
import { compiledIsCurrent } from './compiled.js';

const root = new URL('..', import.meta.url);
if (compiledIsCurrent(root)) {
  await import(new URL('dist/cli.js', root).href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(new URL('src/cli.ts', root).href);
}
