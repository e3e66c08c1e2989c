import { describe, expect, it } from 'vitest';
import { DEFAULT_QC_RULES, evaluateRun, passRate, westgard, zScore } from './westgard.js';

describe('Westgard rules (newest run first)', () => {
  it.each([
    ['in control', [0.5, -0.3, 1.1], 'passed', []],
    ['1-2s warning only', [2.4, 0.1, -0.5], 'warning', ['1-2s']],
    ['exactly 2 SD is not beyond 2 SD', [2.0, 0.0], 'passed', []],
    ['1-3s', [3.2, 0.1], 'failed', ['1-2s', '1-3s']],
    ['1-3s low', [-3.5], 'failed', ['1-2s', '1-3s']],
    ['2-2s', [2.3, 2.1, 0], 'failed', ['1-2s', '2-2s']],
    ['2-2s needs the same side', [2.3, -2.1], 'failed', ['1-2s', 'R-4s']],
    ['R-4s', [-2.2, 2.5], 'failed', ['1-2s', 'R-4s']],
    ['4-1s', [1.2, 1.5, 1.1, 1.9, -0.2], 'failed', ['4-1s']],
    ['4-1s broken by one run inside', [1.2, 1.5, 0.9, 1.9], 'passed', []],
    ['10-x', [0.2, 0.5, 0.1, 0.9, 0.3, 0.4, 0.2, 0.1, 0.6, 0.3], 'failed', ['10-x']],
    ['9 on one side is not 10-x', [0.2, 0.5, 0.1, 0.9, 0.3, 0.4, 0.2, 0.1, 0.6, -0.3], 'passed', []],
    ['no runs', [], 'passed', []],
  ] as const)('%s', (_name, zs, status, rules) => {
    expect(westgard(zs)).toEqual({ status, rules });
  });

  it('z-score and pass rate', () => {
    expect(zScore(105, 100, 2.5)).toBe(2);
    expect(passRate(2, 3)).toBe(66.7);
    expect(passRate(0, 0)).toBe(0);
  });
});

/**
 * Runs of two control levels (Westgard's "across levels"): each case is the z-scores of every run,
 * newest first, [level 1, level 2]. Definitions from westgard.com "Westgard Rules" (multirule QC):
 * 2-2s across materials within a run; R-4s within a run; 4-1s across materials and runs.
 */
describe('Westgard rules across levels (two controls per run)', () => {
  it.each([
    ['both levels in control', [[0.4, -0.8]], DEFAULT_QC_RULES, 'passed', []],
    ['one level beyond 2 SD: warning', [[2.3, 0.5]], DEFAULT_QC_RULES, 'warning', ['1-2s']],
    ['2-2s within the run: both levels beyond +2 SD', [[2.1, 2.4]], DEFAULT_QC_RULES, 'failed', ['1-2s', '2-2s']],
    ['2-2s needs the same side within the run', [[2.1, -2.4]], DEFAULT_QC_RULES, 'failed', ['1-2s', 'R-4s']],
    ['R-4s within the run: +2.5 and -2.1', [[2.5, -2.1]], DEFAULT_QC_RULES, 'failed', ['1-2s', 'R-4s']],
    [
      'R-4s is not across runs when both levels ran',
      [
        [2.5, 0.2],
        [-2.4, 0.1],
      ],
      DEFAULT_QC_RULES,
      'warning',
      ['1-2s'],
    ],
    [
      '2-2s across runs on one level',
      [
        [2.2, 0.1],
        [2.6, 0.3],
      ],
      DEFAULT_QC_RULES,
      'failed',
      ['1-2s', '2-2s'],
    ],
    ['exactly 2 SD on both levels is in control', [[2.0, 2.0]], DEFAULT_QC_RULES, 'passed', []],
    ['1-3s on one level', [[0.2, -3.1]], DEFAULT_QC_RULES, 'failed', ['1-2s', '1-3s']],
    [
      '4-1s across levels and runs (2 x 2)',
      [
        [1.2, 1.6],
        [1.1, 1.4],
        [0, 0],
      ],
      DEFAULT_QC_RULES,
      'failed',
      ['4-1s'],
    ],
    [
      '4-1s broken by one value inside 1 SD',
      [
        [1.2, 1.6],
        [0.9, 1.4],
      ],
      DEFAULT_QC_RULES,
      'passed',
      [],
    ],
    [
      '10-x across levels: 5 runs of two on one side',
      [
        [0.2, 0.5],
        [0.1, 0.4],
        [0.3, 0.6],
        [0.2, 0.1],
        [0.7, 0.3],
      ],
      DEFAULT_QC_RULES,
      'failed',
      ['10-x'],
    ],
    [
      '8-x when selected',
      [
        [0.2, 0.5],
        [0.1, 0.4],
        [0.3, 0.6],
        [0.2, 0.1],
      ],
      ['8-x'],
      'failed',
      ['8-x'],
    ],
    ['2of3-2s with three levels', [[2.3, 2.1, 0.4]], ['1-2s', '2of3-2s'], 'failed', ['1-2s', '2of3-2s']],
    ['3-1s with three levels', [[1.3, 1.1, 1.6]], ['3-1s'], 'failed', ['3-1s']],
    [
      '7-T: one level rising seven runs in a row',
      [
        [1.8, 0],
        [1.5, 0],
        [1.1, 0],
        [0.6, 0],
        [0.2, 0],
        [-0.3, 0],
        [-0.9, 0],
      ],
      ['7-T'],
      'failed',
      ['7-T'],
    ],
    ['a rule not selected does not fire', [[2.1, 2.4]], ['1-2s', '1-3s'], 'warning', ['1-2s']],
    [
      '12-x needs twelve',
      [
        [0.2, 0.5],
        [0.1, 0.4],
        [0.3, 0.6],
        [0.2, 0.1],
        [0.7, 0.3],
      ],
      ['12-x'],
      'passed',
      [],
    ],
    [
      'a level not run this time is not judged',
      [
        [null, 0.3],
        [3.5, 0.1],
      ],
      DEFAULT_QC_RULES,
      'passed',
      [],
    ],
  ] as const)('%s', (_name, runs, rules, status, broken) => {
    expect(evaluateRun(runs as unknown as (number | null)[][], rules)).toEqual({ status, rules: broken });
  });
});
