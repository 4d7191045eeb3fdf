// Builds the browser app into web/dist with hashed names under assets/, which `parley serve`
// serves with long cache lifetimes. No inline script: the server's CSP forbids it.
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';

/**
 * emoji-datasource's emoji.json carries sprite coordinates, skin tones and vendor flags the app
 * never reads (1.3 MB); the lazy emoji chunk keeps only the fields lib/emoji-data.ts reads.
 */
function slimEmojiData(): Plugin {
  return {
    name: 'parley-slim-emoji-data',
    enforce: 'pre',
    transform(code, id) {
      if (!/emoji-datasource[\\/]emoji\.json$/.test(id)) return null;
      const data = JSON.parse(code) as Record<string, unknown>[];
      const slim = data.map(({ unified, name, short_names, category, sort_order }) => ({ unified, name, short_names, category, sort_order }));
      return { code: JSON.stringify(slim), map: null };
    },
  };
}

const root = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root,
  base: '/',
  publicDir: 'public',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  plugins: [slimEmojiData()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    reportCompressedSize: false,
  },
  logLevel: 'warn',
});
