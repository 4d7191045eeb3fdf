import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import layers from './eslint/layers.js';

export default tseslint.config(
  { ignores: ['node_modules', 'dist', 'data', 'coverage', 'web/dist'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly', Buffer: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', setInterval: 'readonly', clearInterval: 'readonly', URL: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // The layers of src/ (docs/DEVELOPING.md, "Layers"): no import reaches a layer above.
    files: ['src/**/*.ts'],
    plugins: { parley: layers },
    rules: { 'parley/layers': 'error' },
  },
  {
    // SQL only in src/db/: no Kysely query building and no `sql` tag elsewhere.
    files: ['src/**/*.ts'],
    ignores: ['src/db/**'],
    rules: {
      'no-restricted-imports': ['error', { paths: [{ name: 'kysely', importNames: ['sql'], message: 'SQL lives in src/db/: add a named query in src/db/queries/.' }] }],
      'no-restricted-syntax': [
        'error',
        {
          selector: 'CallExpression > MemberExpression.callee > Identifier.property[name=/^(selectFrom|selectNoFrom|insertInto|replaceInto|updateTable|deleteFrom|mergeInto|withRecursive)$/]',
          message: 'SQL lives in src/db/: add a named query in src/db/queries/.',
        },
        { selector: "TaggedTemplateExpression[tag.name='sql']", message: 'SQL lives in src/db/: add a named query in src/db/queries/.' },
      ],
    },
  },
  {
    // The browser app: page globals, and node's for its unit tests.
    files: ['web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
  },
  {
    // Tests (docs/DEVELOPING.md, "Tests"): teardown is `t.after()` registered where the resource is
    // made, and rows are written through test/helpers/factories.ts, never by hand in a test.
    files: ['test/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: [{ name: 'node:test', importNames: ['after', 'afterEach', 'before', 'beforeEach'], message: 'Register teardown with t.after() where the resource is made.' }] }],
      'no-restricted-syntax': [
        'error',
        { selector: 'TryStatement[finalizer]', message: 'Teardown is t.after(() => ...) registered where the resource is made, not try/finally.' },
        {
          selector: 'CallExpression > MemberExpression.callee > Identifier.property[name=/^(insertInto|replaceInto|updateTable|deleteFrom|mergeInto)$/]',
          message: 'Make test data with test/helpers/factories.ts (the API, or its one direct write for what the API cannot reach).',
        },
      ],
    },
  },
  {
    files: ['test/helpers/factories.ts'],
    rules: { 'no-restricted-syntax': 'off' },
  },
  {
    // Tests read loosely typed JSON responses.
    files: ['test/**/*.ts', 'bench/**/*.ts', 'web/test/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
