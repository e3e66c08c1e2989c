import { describe, expect, it } from 'vitest';
import { SAMPLE_STATUSES, canMoveSample, completionRate, isValidBarcode, makeBarcode, sampleEta } from './samples.js';

describe('the sample status machine', () => {
  const allowed = new Set([
    'pending>collected',
    'pending>rejected',
    'collected>processing',
    'collected>rejected',
    'processing>completed',
    'processing>rejected',
  ]);
  for (const from of SAMPLE_STATUSES) {
    for (const to of SAMPLE_STATUSES) {
      const ok = allowed.has(`${from}>${to}`);
      it(`${from} -> ${to} is ${ok ? 'allowed' : 'refused'}`, () => expect(canMoveSample(from, to)).toBe(ok));
    }
  }
});

describe('barcodes', () => {
  it('BC + type code + last 8 digits of the timestamp + 3 digits', () => {
    expect(makeBarcode('Blood', 1763751234567, 7)).toBe('BCBL51234567007');
    expect(makeBarcode('Urine', 1763751234567, 999)).toBe('BCUR51234567999');
    expect(makeBarcode('Other', 5, 12)).toBe('BCOT00000005012');
  });
  it.each([
    ['BCBL51234567007', true],
    ['BCUR12345678123', true],
    ['bcbl51234567007', false],
    ['BCBL5123456700', false],
    ['BCB151234567007', false],
    ['XXBL51234567007', false],
    ['BCBL51234567007 ', false],
  ])('%s valid: %s', (code, ok) => expect(isValidBarcode(code)).toBe(ok));
});

describe('tracking figures', () => {
  it('ETA is collection plus 2 hours; completion rate rounds and is 0 with no samples', () => {
    expect(sampleEta('2026-11-21T10:00:00.000Z')).toBe('2026-11-21T12:00:00.000Z');
    expect(completionRate(1, 3)).toBe(33);
    expect(completionRate(2, 3)).toBe(67);
    expect(completionRate(0, 0)).toBe(0);
  });
});
