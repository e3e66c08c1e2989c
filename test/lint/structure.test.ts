import { describe, expect, it } from 'vitest';
import { ESLint } from 'eslint';

/**
 * The structural rules hold over the whole shipped source, as the test command runs (it does not
 * run `npm run lint`): no source file over 400 lines (shipped migrations are frozen as they are),
 * no cycle between core features and no reach into another feature's files, no runtime import of
 * a migration, no engine difference outside src/core/db. Each rule is tested on planted code in
 * its own file here; this one applies them to what ships.
 */
const ROOT = new URL('../..', import.meta.url).pathname;
const RULES = new Set([
  'max-lines',
  'lims-core/no-feature-cycles',
  'lims-migrations/no-runtime-import',
  'lims-db/in-db-only',
]);

describe('the source keeps its structure', () => {
  it('breaks none of the structural rules', async () => {
    const eslint = new ESLint({
      cwd: ROOT,
      ruleFilter: ({ ruleId }) => RULES.has(ruleId),
      // None of these rules needs types: parse without the TypeScript program (seconds, not tens).
      overrideConfig: { languageOptions: { parserOptions: { projectService: false, project: null } } },
    });
    const results = await eslint.lintFiles(['src/**/*.ts', 'src/**/*.tsx']);
    const problems = results.flatMap((r) =>
      r.messages.map((m) => `${r.filePath.slice(ROOT.length)}:${m.line} ${m.ruleId ?? 'parse'}: ${m.message}`),
    );
    expect(problems).toEqual([]);
    expect(results.length).toBeGreaterThan(500);
  });
});
