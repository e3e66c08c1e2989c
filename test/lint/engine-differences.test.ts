import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { ESLint, Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import engineDifferences from '../../eslint/engine-differences.js';

/**
 * The engine-differences rule (eslint/engine-differences.js) on planted code, and proof that
 * `npm run lint` applies it to source files outside src/core/db and not inside it.
 */
const ROOT = new URL('../..', import.meta.url).pathname;
const linter = new Linter();
const config: Linter.Config[] = [
  {
    files: ['**/*.ts'],
    languageOptions: { parser: tseslint.parser as Linter.Parser },
    plugins: { 'lims-db': engineDifferences },
    rules: { 'lims-db/in-db-only': 'error' },
  },
];

function ruleErrors(code: string): string[] {
  const messages = linter.verify(code, config, { filename: join(ROOT, 'src/core/patients/planted.ts') });
  expect(messages.filter((m) => m.fatal)).toEqual([]);
  return messages.filter((m) => m.ruleId === 'lims-db/in-db-only').map((m) => m.message);
}

describe('engine differences live in src/core/db', () => {
  it('is on for source files outside src/core/db, and off inside it', async () => {
    const eslint = new ESLint({ cwd: ROOT });
    for (const file of ['src/core/reports/repository.ts', 'src/server/jobs.ts', 'src/core/patients/repository.ts']) {
      const cfg = (await eslint.calculateConfigForFile(file)) as Linter.Config;
      expect(cfg.rules?.['lims-db/in-db-only'], file).toEqual([2]);
    }
    const db = (await eslint.calculateConfigForFile('src/core/db/dialect.ts')) as Linter.Config;
    expect(db.rules?.['lims-db/in-db-only']).toBeUndefined();
  });

  it('refuses the engine test in a feature', () => {
    const errors = ruleErrors("import { engineOf } from '../db/dialect.js';\nexport const e = engineOf;\n");
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain("'engineOf' outside src/core/db");
  });

  it('refuses an index hint in SQL text, in a template or a string', () => {
    const code = [
      "import { sql } from 'kysely';",
      'export const a = sql`SELECT 1 FROM bills b INDEXED BY bills_org_doctor_created`;',
      "export const b = 'SELECT 1 FROM bills indexed  by x';",
    ].join('\n');
    expect(ruleErrors(code)).toHaveLength(2);
  });

  it('allows the functions of src/core/db that carry the differences', () => {
    const code = [
      "import { tableUsingIndex, isIsoDateText } from '../db/dialect.js';",
      "export const t = (db: never) => [tableUsingIndex(db, 'bills', 'bills_x'), isIsoDateText(db, 'p.date_of_birth')];",
    ].join('\n');
    expect(ruleErrors(code)).toEqual([]);
  });
});
