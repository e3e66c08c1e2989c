import { describe, expect, it } from 'vitest';
import { passRate, westgard, zScore } from './westgard.js';

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
