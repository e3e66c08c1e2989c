import { describe, expect, it } from 'vitest';
import { ageOn, ageParts, birthDateFromAge, formatAge, isRealDate } from './age.js';

describe('ageOn: age in whole years on a calendar day', () => {
  const cases: [string, string, string, number][] = [
    ['birthday already passed this year', '1990-03-10', '2024-06-01', 34],
    ['birthday later this year: one year less', '1990-09-10', '2024-06-01', 33],
    ['birthday later this month: one year less', '1990-06-20', '2024-06-01', 33],
    ['birthday today: the new age', '1990-06-01', '2024-06-01', 34],
    ['birthday tomorrow: not yet', '1990-06-02', '2024-06-01', 33],
    ['born today', '2024-06-01', '2024-06-01', 0],
    ['eleven months old', '2023-07-01', '2024-06-01', 0],
    ['first birthday today', '2023-06-01', '2024-06-01', 1],
    ['New Year’s Day, born on New Year’s Eve', '2000-12-31', '2024-01-01', 23],
    ['Feb 29 birthday, on Feb 29 of a leap year', '2000-02-29', '2024-02-29', 24],
    ['Feb 29 birthday, on Feb 28 of a leap year: not yet', '2000-02-29', '2024-02-28', 23],
    ['Feb 29 birthday, on Feb 28 of a common year: not yet', '2000-02-29', '2023-02-28', 22],
    ['Feb 29 birthday, on Mar 1 of a common year: counted', '2000-02-29', '2023-03-01', 23],
    ['a centenarian', '1924-05-31', '2024-06-01', 100],
  ];
  for (const [what, dob, day, age] of cases) {
    it(`${what}: ${dob} on ${day} is ${age}`, () => {
      expect(ageOn(dob, day)).toBe(age);
    });
  }

  it('answers null unless both are YYYY-MM-DD dates', () => {
    for (const [dob, day] of [
      ['1990-06-01', '01/06/2024'],
      ['1990-6-1', '2024-06-01'],
      ['', '2024-06-01'],
      ['1990-06-01', ''],
      ['yesterday', '2024-06-01'],
    ] as const) {
      expect(ageOn(dob, day)).toBeNull();
    }
  });
});

describe('isRealDate', () => {
  it.each(['2024-02-29', '2000-02-29', '2023-12-31', '1999-01-01', '2023-04-30'])('%s is a real date', (d) => {
    expect(isRealDate(d)).toBe(true);
  });
  it.each([
    '2023-02-29',
    '1900-02-29',
    '2023-04-31',
    '2023-13-01',
    '2023-00-10',
    '2023-01-00',
    '2023-01-32',
    '2023-1-5',
    '20230105',
    '',
    'abcd-ef-gh',
  ])('%s is not', (d) => {
    expect(isRealDate(d)).toBe(false);
  });
});

describe('ageParts and formatAge: the one way an age is printed', () => {
  it.each([
    ['born today', '2026-03-10', '2026-03-10', '0 days', '0 d'],
    ['one day', '2026-03-09', '2026-03-10', '1 day', '1 d'],
    ['30 days, a day short of a month', '2026-01-11', '2026-02-10', '30 days', '30 d'],
    ['exactly one month', '2026-02-10', '2026-03-10', '1 month', '1 mo'],
    ['8 months', '2025-07-10', '2026-03-10', '8 months', '8 mo'],
    ['a year old is still counted in months', '2025-03-10', '2026-03-10', '12 months', '12 mo'],
    ['a day short of two years', '2024-03-11', '2026-03-10', '23 months', '23 mo'],
    ['two years', '2024-03-10', '2026-03-10', '2 years', '2 y'],
    ['an adult', '1990-03-11', '2026-03-10', '35 years', '35 y'],
    ['born 31 January, on 28 February of a common year', '2026-01-31', '2026-02-28', '1 month', '1 mo'],
    ['born 31 January, on 27 February', '2026-01-31', '2026-02-27', '27 days', '27 d'],
  ])('%s', (_what, dob, day, long, short) => {
    expect(formatAge(dob, day)).toBe(long);
    expect(formatAge(dob, day, 'short')).toBe(short);
  });

  it('an infant registered as 8 months old reads 8 months, not 0 years', () => {
    const today = '2026-12-02';
    expect(formatAge(birthDateFromAge(8, 'months', today), today)).toBe('8 months');
    expect(formatAge(birthDateFromAge(10, 'days', today), today)).toBe('10 days');
    expect(formatAge(birthDateFromAge(35, 'years', today), today)).toBe('35 years');
  });

  it('counts days, whole months and whole years', () => {
    expect(ageParts('2024-02-29', '2025-03-01')).toEqual({ days: 366, months: 12, years: 1 });
    expect(ageParts('2026-03-10', '2026-03-09')).toBeNull();
    expect(formatAge(null, '2026-03-10')).toBeNull();
    expect(formatAge('not a date', '2026-03-10')).toBeNull();
  });
});
