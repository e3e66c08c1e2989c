import { describe, expect, it } from 'vitest';
import { computeFlag, isCritical, parseRange, pickRange, type ReferenceRange } from './flags.js';

describe('computeFlag', () => {
  it.each([
    // value, range, flag
    ['85', '70-110', 'normal'],
    ['70', '70-110', 'normal'],
    ['110', '70-110', 'normal'],
    ['69.9', '70-110', 'low'],
    ['110.1', '70-110', 'high'],
    ['14.2', '13.0 – 17.0', 'normal'],
    ['12.9', '13.0–17.0', 'low'],
    ['199', '<200', 'normal'],
    ['200', '<200', 'high'],
    ['200', '<=200', 'normal'],
    ['200', '≤ 200', 'normal'],
    ['5.7', '<5.7', 'high'],
    ['41', '>40', 'normal'],
    ['40', '>40', 'low'],
    ['40', '>=40', 'normal'],
    ['60', '≥60', 'normal'],
    ['1,50,000', '150000-410000', 'normal'],
    ['Negative', 'Negative', 'normal'],
    ['negative', 'Non-reactive', 'normal'],
    ['Positive', 'Negative', 'abnormal'],
    ['Reactive', 'Non-reactive', 'abnormal'],
    ['Hemolysed', '70-110', 'abnormal'],
    ['12', 'Negative', null],
    ['85', null, null],
    ['85', '', null],
    ['85', '110-70', null],
    ['', '70-110', null],
  ] as const)('%s against %s is %s', (value, range, flag) => {
    expect(computeFlag(value, range)).toBe(flag);
  });

  it('parses the range forms', () => {
    expect(parseRange('70 - 110')).toEqual({ kind: 'between', low: 70, high: 110 });
    expect(parseRange('< 5')).toEqual({ kind: 'below', limit: 5, inclusive: false });
    expect(parseRange('>= 1.5')).toEqual({ kind: 'above', limit: 1.5, inclusive: true });
    expect(parseRange('Absent')).toEqual({ kind: 'text', expected: 'Absent' });
    expect(parseRange('12 g/dL or so')).toBeNull();
  });
});

describe('ranges by sex and age', () => {
  const hb: ReferenceRange[] = [
    { age_max: 12, range: '11.0-14.5' },
    { sex: 'Male', age_min: 12, range: '13.0-17.0', critical_low: 7, critical_high: 20 },
    { sex: 'Female', age_min: 12, range: '12.0-15.0', critical_low: 7, critical_high: 20 },
  ];
  it.each([
    [{ sex: 'Male', age: 30 }, '13.0-17.0'],
    [{ sex: 'Female', age: 30 }, '12.0-15.0'],
    [{ sex: 'Female', age: 11 }, '11.0-14.5'],
    [{ sex: 'Male', age: 12 }, '13.0-17.0'],
    [{ sex: 'Other', age: 30 }, '12.0-17.0'],
    [{ sex: null, age: null }, '12.0-17.0'],
  ] as const)('%o uses %s', (patient, range) => {
    expect(pickRange(hb, '12.0-17.0', patient)?.range).toBe(range);
  });

  it('the same value flags differently by sex', () => {
    const male = pickRange(hb, null, { sex: 'Male', age: 40 });
    const female = pickRange(hb, null, { sex: 'Female', age: 40 });
    expect(computeFlag('12.5', male?.range)).toBe('low');
    expect(computeFlag('12.5', female?.range)).toBe('normal');
  });

  it('critical limits are inclusive', () => {
    const r = pickRange(hb, null, { sex: 'Male', age: 40 });
    expect(isCritical('7', r)).toBe(true);
    expect(isCritical('7.1', r)).toBe(false);
    expect(isCritical('20', r)).toBe(true);
    expect(isCritical('Positive', r)).toBe(false);
  });
});
