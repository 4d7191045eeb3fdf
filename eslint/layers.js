// A local ESLint rule: each layer of src/ imports only its own layer or the layers below it.
// Type imports count too: a type import upward still ties the lower layer to the upper one's
// shapes, and is how circles start.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const SRC = fileURLToPath(new URL('../src', import.meta.url));

/** From the top. `base` is the three modules under everything. */
export const LAYERS = ['routes', 'http', 'actions', 'events', 'presenters', 'lib', 'db', 'base'];
const BASE = new Set(['config.ts', 'log.ts', 'lazy.ts']);
/** The application context, importable from anywhere. */
const ANYWHERE = new Set(['context.ts']);
/** Composition roots: they may import anything, and nothing in a layer may import them. */
const ROOTS = new Set(['app.ts', 'cli.ts', 'scheduler.ts']);

/** The layer of a path relative to src/, 'any' for the context, 'root' for the roots, null outside. */
export function layerOf(rel) {
  const parts = rel.split(/[\\/]/);
  if (parts[0] === '..' || path.isAbsolute(rel)) return null;
  if (parts.length > 1) return LAYERS.includes(parts[0]) ? parts[0] : 'root';
  if (BASE.has(rel)) return 'base';
  if (ANYWHERE.has(rel)) return 'any';
  if (ROOTS.has(rel)) return 'root';
  return 'root';
}

export const layersRule = {
  meta: {
    type: 'problem',
    docs: { description: 'Keep each layer of src/ importing only its own layer or the layers below it' },
    schema: [],
    messages: {
      upward: "{{from}} may not import {{to}} ('{{source}}'): layers from the top are routes, http, actions, events, presenters, lib, db, then config/log/lazy. Move the helper down.",
    },
  },
  create(context) {
    const file = context.filename;
    const srcDir = SRC;
    const fromLayer = layerOf(path.relative(srcDir, file));
    if (fromLayer === null || fromLayer === 'root' || fromLayer === 'any') return {};
    function check(node, source) {
      if (!source || typeof source.value !== 'string' || !source.value.startsWith('.')) return;
      const target = path.resolve(path.dirname(file), source.value);
      const toLayer = layerOf(path.relative(srcDir, target));
      if (toLayer === null || toLayer === 'any') return;
      if (toLayer === 'root' || LAYERS.indexOf(toLayer) < LAYERS.indexOf(fromLayer)) {
        context.report({ node: source, messageId: 'upward', data: { from: fromLayer, to: toLayer === 'root' ? path.basename(target) : toLayer, source: source.value } });
      }
    }
    return {
      ImportDeclaration: (node) => check(node, node.source),
      ExportNamedDeclaration: (node) => check(node, node.source),
      ExportAllDeclaration: (node) => check(node, node.source),
      ImportExpression: (node) => check(node, node.source.type === 'Literal' ? node.source : null),
    };
  },
};

export default { rules: { layers: layersRule } };
