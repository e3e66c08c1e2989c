import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * Two projects: every suite on SQLite, and the API, CLI and durability suites again on
 * PostgreSQL (test/postgres-server.ts starts a throwaway server unless $LIMS_TEST_DATABASE_URL
 * names one). Files that test one engine's own machinery are listed below.
 */
const SQLITE_ONLY = [
  // pragmas, sqlite_master, the FTS5 query text, the SQLite statement cache and its backup API
  'test/api/migrations.test.ts',
  // No database question in them: glyph shaping in PDFs, the API reference and route contracts
  // generated from code, the roles table of the docs. Once is enough.
  'test/api/indic-pdf.test.ts',
  'test/api/api-reference.test.ts',
  'test/api/route-contracts.test.ts',
  'test/api/roles-doc.test.ts',
];
const POSTGRES_ONLY = ['test/**/*.pg.test.ts', 'src/**/*.pg.test.ts'];

export default defineConfig({
  // The UI's import paths (vite.config.ts), so unit tests of its pure helpers (src/ui/lib) run too.
  resolve: {
    alias: {
      '@shared': fileURLToPath(new URL('./src/shared', import.meta.url)),
      '@': fileURLToPath(new URL('./src/ui', import.meta.url)),
    },
  },
  test: {
    // Browser walk-throughs of several screens take 20-30 s on two busy cores; the limit only catches hangs.
    testTimeout: 90_000,
    // Cheaper password hashing for the many sign-ins of the suite (production cost: src/core/auth/password.ts).
    env: { LIMS_SCRYPT_N: '1024' },
    hookTimeout: 60_000,
    // Browser tests share one built server per file; keep files in parallel, up to the two cores.
    pool: 'forks',
    // Test files run one after another in the same two worker processes, not each in a fresh process
    // that imports the whole server again: the API suite on SQLite took 336 s of CPU isolated and
    // 101 s without (796 tests, same results). Every file opens and closes its own lab database and
    // server; nothing in src keeps state between labs, and tests do not stub globals or the env.
    isolate: false,
    // @fastify/autoload imports src/server/routes/*.ts: run it through Vite so those imports work.
    server: { deps: { inline: ['@fastify/autoload'] } },
    // Two: three were slower on two cores (797 s against 715 s for the whole run).
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: {
          name: 'sqlite',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          exclude: [...POSTGRES_ONLY, 'test/e2e/**', 'node_modules/**'],
        },
      },
      {
        extends: true,
        test: {
          // The browser walk-throughs, on SQLite. A step that waits on Chromium can miss its moment on
          // two loaded cores (a box read while the top bar re-renders): a failed walk-through runs once
          // more, and the report names it as retried. A real defect fails both times.
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          retry: 1,
        },
      },
      {
        extends: true,
        test: {
          name: 'postgres',
          include: ['test/api/**/*.test.ts', 'test/cli/**/*.test.ts', 'test/durability/**/*.test.ts', ...POSTGRES_ONLY],
          exclude: [...SQLITE_ONLY, 'node_modules/**'],
          env: { LIMS_SCRYPT_N: '1024', LIMS_TEST_ENGINE: 'postgres' },
          globalSetup: ['test/postgres-server.ts'],
        },
      },
      // The browser walk-throughs on PostgreSQL: on demand (LIMS_E2E_POSTGRES=1), not in npm test,
      // whose time budget they would exceed; the API, CLI and durability suites cover both engines.
      ...(process.env.LIMS_E2E_POSTGRES === '1'
        ? [
            {
              extends: true as const,
              test: {
                name: 'e2e-postgres',
                include: ['test/e2e/**/*.test.ts'],
                retry: 1,
                env: { LIMS_SCRYPT_N: '1024', LIMS_TEST_ENGINE: 'postgres' },
                globalSetup: ['test/postgres-server.ts'],
              },
            },
          ]
        : []),
    ],
  },
});
