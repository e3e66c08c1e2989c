import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Browser tests share one built server per file; keep files in parallel, up to the two cores.
    pool: 'forks',
    maxWorkers: 2,
  },
});
