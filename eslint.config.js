import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import uiBoundaries from './eslint/ui-boundaries.js';
import engineDifferences from './eslint/engine-differences.js';
import coreFeatures from './eslint/core-features.js';
import { knownEdges, knownInternals } from './eslint/core-features.known.js';
import migrationsFrozen from './eslint/migrations-frozen.js';

/** Layers: shared <- core <- server, cli; shared <- ui. The UI never imports core or server. */
const boundary = (from, banned) => ({
  files: [`${from}/**/*.{ts,tsx}`],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: banned.map((b) => ({
          group: [`**/${b}/**`, `**/${b}`],
          message: `${from} must not import ${b} (layers: docs/README.md, ../shared/STYLE.md)`,
        })),
      },
    ],
  },
});

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'bench/.data/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: ['*.js', 'bin/*.js'] },
        tsconfigRootDir: import.meta.dirname,
      },
      globals: { ...globals.node },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
    },
  },
  {
    files: ['src/ui/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks, 'lims-ui': uiBoundaries },
    languageOptions: { globals: { ...globals.browser } },
    rules: { ...reactHooks.configs.recommended.rules, 'lims-ui/feature-boundaries': 'error' },
  },
  {
    // Fastify has no logger unless requests are logged (src/server/logging.ts): req.log would be silent.
    files: ['src/server/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "MemberExpression[property.name='log'][object.name=/^(req|request|reply|app|fastify)$/]",
          message: 'log through app.serverLog (Fastify has no logger of its own by default; see src/server/logging.ts)',
        },
        {
          // SQL lives in core repositories (docs/README.md, step 3); routes call services.
          selector:
            'CallExpression[callee.property.name=/^(selectFrom|insertInto|updateTable|deleteFrom|prepare|transaction)$/]',
          message: 'no SQL in src/server: call a core service (src/core/<feature>/service.ts)',
        },
        {
          selector: "CallExpression[callee.name='writeAudit']",
          message: 'routes do not write audit rows: the core service does, in its transaction',
        },
      ],
    },
  },
  {
    // SQLite and PostgreSQL differ only in src/core/db: a function per difference (eslint/engine-differences.js).
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['src/core/db/**'],
    plugins: { 'lims-db': engineDifferences },
    rules: { 'lims-db/in-db-only': 'error' },
  },
  {
    // Core features import each other one way, through their entry files (eslint/core-features.js).
    files: ['src/core/**/*.ts'],
    plugins: { 'lims-core': coreFeatures },
    rules: { 'lims-core/no-feature-cycles': ['error', { knownEdges, knownInternals }] },
  },
  {
    // A shipped migration stays frozen: in the shipped code only the migration list and its runner
    // import migration modules (tests may import one to test it).
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'lims-migrations': migrationsFrozen },
    rules: { 'lims-migrations/no-runtime-import': 'error' },
  },
  {
    // A source file says one thing: past 400 lines it is split by responsibility. Shipped migrations
    // are frozen as they are.
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['src/core/db/migrations/0*.ts'],
    rules: { 'max-lines': ['error', { max: 400, skipBlankLines: false, skipComments: false }] },
  },
  boundary('src/shared', ['core', 'server', 'cli', 'ui']),
  boundary('src/core', ['server', 'cli', 'ui']),
  boundary('src/server', ['cli', 'ui']),
  boundary('src/cli', ['ui']),
  boundary('src/ui', ['core', 'server', 'cli']),
  { files: ['**/*.js', '**/*.mjs'], languageOptions: { globals: { ...globals.node } } },
  // The phone app's plain scripts run in the browser and its service worker, not in Node.
  {
    files: ['src/ui/public/**/*.js'],
    languageOptions: { globals: { ...globals.browser, ...globals.serviceworker } },
  },
);
