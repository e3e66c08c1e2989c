import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { ESLint, Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import uiBoundaries from '../../eslint/ui-boundaries.js';

/**
 * The UI import rule (eslint/ui-boundaries.js) on planted imports, and proof that `npm run lint`
 * (eslint.config.js) applies it to every UI file. The rule runs alone here: the project's
 * type-aware rules need files that exist in a tsconfig, and planted files do not.
 */
const ROOT = new URL('../..', import.meta.url).pathname;
const linter = new Linter();
const config: Linter.Config[] = [
  {
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: { parser: tseslint.parser as Linter.Parser },
    plugins: { 'lims-ui': uiBoundaries },
    rules: { 'lims-ui/feature-boundaries': 'error' },
  },
];

async function ruleErrors(code: string, filePath: string): Promise<string[]> {
  const messages = linter.verify(code, config, { filename: join(ROOT, filePath) });
  expect(messages.filter((m) => m.fatal)).toEqual([]);
  return messages.filter((m) => m.ruleId === 'lims-ui/feature-boundaries').map((m) => m.message);
}

const use = (spec: string) => `import { x } from '${spec}';\nexport const y = x;\n`;

describe('UI features import neither the app shell nor each other', () => {
  it('is switched on for every UI file by eslint.config.js', async () => {
    const eslint = new ESLint({ cwd: ROOT });
    for (const file of ['src/ui/features/billing/pages/X.tsx', 'src/ui/features/patients/api.ts']) {
      const cfg = (await eslint.calculateConfigForFile(file)) as Linter.Config;
      expect(cfg.rules?.['lims-ui/feature-boundaries']).toEqual([2]);
    }
  });

  it('refuses a feature importing another feature by alias', async () => {
    const errors = await ruleErrors(use('@/features/patients/api'), 'src/ui/features/billing/planted.ts');
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain("Feature 'billing' must not import feature 'patients'");
  });

  it('refuses a feature importing another feature by a relative path', async () => {
    const errors = await ruleErrors(use('../../audit/format'), 'src/ui/features/users/components/planted.ts');
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain("Feature 'users' must not import feature 'audit'");
  });

  it('refuses a feature importing the app shell', async () => {
    const errors = await ruleErrors(use('@/app/registry'), 'src/ui/features/patients/pages/planted.tsx');
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain('must not import the app shell');
  });

  it('allows the feature itself, lib, components and shared', async () => {
    const code = [
      "import { a } from '../api';",
      "import { b } from '@/features/patients/options';",
      "import { c } from '@/lib/api';",
      "import { d } from '@/components';",
      "import { e } from '@shared/roles';",
      'export const all = [a, b, c, d, e];',
      '',
    ].join('\n');
    expect(await ruleErrors(code, 'src/ui/features/patients/pages/planted.tsx')).toEqual([]);
  });

  it('lets the app shell import every feature (it assembles them)', async () => {
    expect(await ruleErrors(use('@/features/patients/screens'), 'src/ui/app/planted.ts')).toEqual([]);
  });
});
