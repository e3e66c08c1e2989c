import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { ESLint, Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import migrationsFrozen from '../../eslint/migrations-frozen.js';

/**
 * The frozen-migrations rule (eslint/migrations-frozen.js) on planted code, and proof that `npm run
 * lint` applies it to the shipped source.
 */
const ROOT = new URL('../..', import.meta.url).pathname;
const linter = new Linter();
const config: Linter.Config[] = [
  {
    files: ['**/*.ts'],
    languageOptions: { parser: tseslint.parser as Linter.Parser },
    plugins: { 'lims-migrations': migrationsFrozen },
    rules: { 'lims-migrations/no-runtime-import': 'error' },
  },
];

function ruleErrors(code: string, file: string): string[] {
  const messages = linter.verify(code, config, { filename: join(ROOT, file) });
  expect(messages.filter((m) => m.fatal)).toEqual([]);
  return messages.filter((m) => m.ruleId === 'lims-migrations/no-runtime-import').map((m) => m.message);
}

describe('runtime code does not import migration modules', () => {
  it('is on for the shipped source', async () => {
    const eslint = new ESLint({ cwd: ROOT });
    for (const file of ['src/core/db/copy.ts', 'src/core/reports/summary.ts', 'src/server/jobs.ts']) {
      const cfg = (await eslint.calculateConfigForFile(file)) as Linter.Config;
      expect(cfg.rules?.['lims-migrations/no-runtime-import'], file).toEqual([2]);
    }
  });

  it('refuses a migration module or the list imported by runtime code', () => {
    expect(
      ruleErrors("import { COUNTED_PREFIX } from './migrations/postgres.js';\n", 'src/core/db/patient-search.ts'),
    ).toHaveLength(1);
    expect(
      ruleErrors("import { sql } from '../db/migrations/049_day_rollups.js';\n", 'src/core/reports/planted.ts'),
    ).toHaveLength(1);
    expect(
      ruleErrors("export { migrations } from '../db/migrations/index.js';\n", 'src/core/reports/planted.ts')[0],
    ).toMatch(/migration runner/);
  });

  it('lets the migration list, the runner and the migrations themselves import them', () => {
    const list = "import { migrations } from './migrations/index.js';\nexport const m = migrations;\n";
    expect(ruleErrors(list, 'src/core/db/migrate.ts')).toEqual([]);
    expect(ruleErrors(list, 'src/core/db/postgres.ts')).toEqual([]);
    expect(
      ruleErrors("import { liveOpenTriggers } from './031_live_open_tests.js';\n", 'src/core/db/migrations/037_x.ts'),
    ).toEqual([]);
    expect(ruleErrors("import { migrations } from './migrations.js';\n", 'src/core/db/other.ts')).toEqual([]);
  });
});
