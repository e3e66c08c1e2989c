import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { ESLint, Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import coreFeatures, { featureGraph, pathBack } from '../../eslint/core-features.js';
import { knownEdges } from '../../eslint/core-features.known.js';

/**
 * The core-features rule (eslint/core-features.js) on planted imports, and proof that `npm run
 * lint` applies it to src/core. The planted file sits in a feature folder; the rule reads the real
 * import graph of src/core, so a planted import closes a cycle only where the code already points
 * the other way (billing imports patients today).
 */
const ROOT = new URL('../..', import.meta.url).pathname;
const linter = new Linter();
const config = (options: object = {}): Linter.Config[] => [
  {
    files: ['**/*.ts'],
    languageOptions: { parser: tseslint.parser as Linter.Parser },
    plugins: { 'lims-core': coreFeatures },
    rules: { 'lims-core/no-feature-cycles': ['error', options] },
  },
];

function ruleErrors(code: string, file: string, options: object = {}): string[] {
  const messages = linter.verify(code, config(options), { filename: join(ROOT, file) });
  expect(messages.filter((m) => m.fatal)).toEqual([]);
  return messages.filter((m) => m.ruleId === 'lims-core/no-feature-cycles').map((m) => m.message);
}

describe('core features do not reach into each other', () => {
  it('is on for src/core', async () => {
    const eslint = new ESLint({ cwd: ROOT });
    const cfg = (await eslint.calculateConfigForFile('src/core/patients/service.ts')) as Linter.Config;
    expect((cfg.rules?.['lims-core/no-feature-cycles'] as unknown[])[0]).toBe(2);
  });

  it('the graph it reads has billing over patients, and no way back but the known edges', () => {
    const graph = featureGraph();
    expect(graph.get('billing')?.has('patients')).toBe(true);
    expect(pathBack(graph, 'patients', 'billing', new Set(knownEdges))).toBeNull();
  });

  it('refuses an import that closes a cycle, naming the way round', () => {
    const errors = ruleErrors(
      "import { countBillsOfPatient } from '../billing/repository.js';\nexport const c = countBillsOfPatient;\n",
      'src/core/patients/planted.ts',
    );
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain("Feature 'patients' importing 'billing' closes a cycle: patients -> billing -> ");
    expect(errors[0]).toContain('src/core/events.ts');
  });

  it('a known edge is passed over, and only that one', () => {
    const code =
      "import { countBillsOfPatient } from '../billing/repository.js';\nexport const c = countBillsOfPatient;\n";
    expect(ruleErrors(code, 'src/core/patients/planted.ts', { knownEdges: ['patients -> billing'] })).toEqual([]);
    expect(ruleErrors(code, 'src/core/patients/planted.ts', { knownEdges: ['visits -> billing'] })).toHaveLength(1);
  });

  it("refuses a deep import of another feature's internals, and lets its entry files through", () => {
    const deep = ruleErrors(
      "import { priceBill } from '../billing/pricing.js';\nexport const p = priceBill;\n",
      'src/core/analytics/planted.ts',
    );
    expect(deep).toHaveLength(1);
    expect(deep[0]).toContain("'../billing/pricing.js' reaches into feature 'billing'");
    const entries = [
      "import { getBill } from '../billing/service.js';",
      "import { findBillRow } from '../billing/repository.js';",
      "import { referralRows } from '../billing/referral-repository.js';",
      "import type { BillsTable } from '../billing/tables.js';",
      "import { announce } from '../events.js';",
      "import { writeAudit } from '../audit/audit.js';",
      "import { toBill } from './mappers.js';",
    ].join('\n');
    expect(ruleErrors(entries, 'src/core/analytics/planted.ts')).toEqual([]);
    expect(
      ruleErrors("import { priceBill } from '../billing/pricing.js';\n", 'src/core/analytics/planted.ts', {
        knownInternals: ['billing/pricing.ts'],
      }),
    ).toEqual([]);
  });

  it('leaves files outside the feature folders alone', () => {
    const code = "import { getBill } from './billing/pricing.js';\nimport { x } from './patients/bulk.js';\n";
    expect(ruleErrors(code, 'src/core/listeners.ts')).toEqual([]);
    expect(ruleErrors("import { priceBill } from '../billing/pricing.js';\n", 'src/core/db/planted.ts')).toEqual([]);
  });
});
