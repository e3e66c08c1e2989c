import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Browser walk-throughs of several screens take 20-30 s on two busy cores; the limit only catches hangs.
    testTimeout: 90_000,
    // Cheaper password hashing for the many sign-ins of the suite (production cost: src/core/auth/password.ts).
    env: { LIMS_SCRYPT_N: '1024' },
    hookTimeout: 60_000,
    // Browser tests share one built server per file; keep files in parallel, up to the two cores.
    pool: 'forks',
    // @fastify/autoload imports src/server/routes/*.ts: run it through Vite so those imports work.
    server: { deps: { inline: ['@fastify/autoload'] } },
    maxWorkers: 2,
  },
});
