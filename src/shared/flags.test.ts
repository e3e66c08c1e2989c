import { describe, expect, it } from 'vitest';
import { ageParts } from './age.js';
import { bandLabel, computeFlag, isCritical, parseRange, pickRange, type ReferenceRange } from './flags.js';

/** A patient this many whole years old on 2026-06-15. */
const yearsOld = (n: number) => ageParts(`${2026 - n}-06-15`, '2026-06-15');

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
    ['Male', 30, '13.0-17.0'],
    ['Female', 30, '12.0-15.0'],
    ['Female', 11, '11.0-14.5'],
    ['Male', 12, '13.0-17.0'],
    ['Other', 30, '12.0-17.0'],
    [null, null, '12.0-17.0'],
  ] as const)('%s aged %s uses %s', (sex, age, range) => {
    expect(pickRange(hb, '12.0-17.0', { sex, age: age === null ? null : yearsOld(age) })?.range).toBe(range);
  });

  it('the same value flags differently by sex', () => {
    const male = pickRange(hb, null, { sex: 'Male', age: yearsOld(40) });
    const female = pickRange(hb, null, { sex: 'Female', age: yearsOld(40) });
    expect(computeFlag('12.5', male?.range)).toBe('low');
    expect(computeFlag('12.5', female?.range)).toBe('normal');
  });

  it('critical limits are inclusive', () => {
    const r = pickRange(hb, null, { sex: 'Male', age: yearsOld(40) });
    expect(isCritical('7', r)).toBe(true);
    expect(isCritical('7.1', r)).toBe(false);
    expect(isCritical('20', r)).toBe(true);
    expect(isCritical('Positive', r)).toBe(false);
  });
});

describe('bands in days, months and years', () => {
  // Newborn and infant bands as the starter catalogue writes them, first match wins.
  const bands: ReferenceRange[] = [
    { age_min: 0, age_max: 7, age_unit: 'days', range: 'd0-7' },
    { age_min: 7, age_max: 14, age_unit: 'days', range: 'd7-14' },
    { age_min: 14, age_max: 1, age_unit: 'days', range: 'never' },
    { age_max: 1, age_unit: 'months', range: 'to1m' },
    { age_min: 1, age_max: 24, age_unit: 'months', range: 'm1-24' },
    { sex: 'Female', age_min: 2, age_max: 18, age_unit: 'years', range: 'girl' },
    { age_min: 2, age_max: 18, range: 'child' },
    { sex: 'Female', age_min: 18, range: 'woman' },
    { sex: 'Male', age_min: 18, range: 'man' },
  ];
  const on = (dob: string, day: string, sex: string | null = null) =>
    pickRange(bands, 'general', { sex, age: ageParts(dob, day) })?.range;

  it.each([
    ['born today', '2026-03-10', '2026-03-10', 'd0-7'],
    ['6 days old', '2026-03-04', '2026-03-10', 'd0-7'],
    ['7 days old: the next band (to is not included)', '2026-03-03', '2026-03-10', 'd7-14'],
    ['13 days old', '2026-02-25', '2026-03-10', 'd7-14'],
    ['14 days old: the month band', '2026-02-24', '2026-03-10', 'to1m'],
    ['a day short of a month', '2026-02-11', '2026-03-10', 'to1m'],
    ['exactly one month', '2026-02-10', '2026-03-10', 'm1-24'],
    ['born 31 January, on 28 February: one month', '2026-01-31', '2026-02-28', 'm1-24'],
    ['a day short of two years', '2024-03-11', '2026-03-10', 'm1-24'],
  ])('%s', (_what, dob, day, range) => {
    expect(on(dob, day)).toBe(range);
  });

  it('a sex-specific band wins over "any" only when it comes first, and fits only that sex', () => {
    expect(on('2021-03-10', '2026-03-10', 'Female')).toBe('girl');
    expect(on('2021-03-10', '2026-03-10', 'Male')).toBe('child');
    expect(on('2021-03-10', '2026-03-10', null)).toBe('child');
    expect(on('1990-03-10', '2026-03-10', 'Female')).toBe('woman');
    expect(on('1990-03-10', '2026-03-10', 'Male')).toBe('man');
    // Sex not known, adult: no band fits, the test's general range applies.
    expect(on('1990-03-10', '2026-03-10', null)).toBe('general');
  });

  it('a band without a unit counts whole years (ranges stored before bands had units)', () => {
    expect(
      pickRange([{ age_max: 1, range: 'infant' }], 'g', { sex: null, age: ageParts('2025-06-01', '2026-05-31') })
        ?.range,
    ).toBe('infant');
    expect(
      pickRange([{ age_max: 1, range: 'infant' }], 'g', { sex: null, age: ageParts('2025-06-01', '2026-06-01') })
        ?.range,
    ).toBe('g');
  });

  it('an age band needs a known age; a sex-only band does not', () => {
    expect(pickRange(bands, 'general', { sex: 'Female', age: null })?.range).toBe('general');
    expect(pickRange([{ sex: 'Female', range: 'f' }], 'g', { sex: 'Female', age: null })?.range).toBe('f');
  });

  it('labels a band as the test screen and reports say it', () => {
    expect(bandLabel({ sex: 'Female', age_min: 1, age_max: 6, age_unit: 'years', range: 'x' })).toBe(
      'Female, 1-6 years',
    );
    expect(bandLabel({ age_min: 0, age_max: 7, age_unit: 'days', range: 'x' })).toBe('0-7 days');
    expect(bandLabel({ sex: 'Male', age_min: 18, range: 'x' })).toBe('Male, from 18 years');
    expect(bandLabel({ range: 'x' })).toBe('Everyone');
  });
});
