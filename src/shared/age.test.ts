import { describe, expect, it } from 'vitest';
import { ageFromDob, ageOn, isRealDate } from './age.js';

/** A local calendar day (ages are counted in the clinic's local time). */
const on = (y: number, m: number, d: number) => new Date(y, m - 1, d, 10, 30);

describe('ageFromDob', () => {
  const cases: [string, string, Date, number][] = [
    ['birthday already passed this year', '1990-03-10', on(2024, 6, 1), 34],
    ['birthday later this year: one year less', '1990-09-10', on(2024, 6, 1), 33],
    ['birthday later this month: one year less', '1990-06-20', on(2024, 6, 1), 33],
    ['birthday today: the new age', '1990-06-01', on(2024, 6, 1), 34],
    ['birthday tomorrow: not yet', '1990-06-02', on(2024, 6, 1), 33],
    ['born today', '2024-06-01', on(2024, 6, 1), 0],
    ['eleven months old', '2023-07-01', on(2024, 6, 1), 0],
    ['first birthday today', '2023-06-01', on(2024, 6, 1), 1],
    ['New Year’s Day, born on New Year’s Eve', '2000-12-31', on(2024, 1, 1), 23],
    ['Feb 29 birthday, on Feb 29 of a leap year', '2000-02-29', on(2024, 2, 29), 24],
    ['Feb 29 birthday, on Feb 28 of a leap year: not yet', '2000-02-29', on(2024, 2, 28), 23],
    ['Feb 29 birthday, on Feb 28 of a common year: not yet', '2000-02-29', on(2023, 2, 28), 22],
    ['Feb 29 birthday, on Mar 1 of a common year: counted', '2000-02-29', on(2023, 3, 1), 23],
    ['a centenarian', '1924-05-31', on(2024, 6, 1), 100],
  ];
  for (const [what, dob, today, age] of cases) {
    it(`${what}: ${dob} on ${today.toDateString()} is ${age}`, () => {
      expect(ageFromDob(dob, today)).toBe(age);
    });
    const day = `${today.getFullYear()}-${String(today.getMonth() + 1).padStart(2, '0')}-${String(today.getDate()).padStart(2, '0')}`;
    it(`ageOn, the lab's calendar day: ${what}: ${dob} on ${day} is ${age}`, () => {
      expect(ageOn(dob, day)).toBe(age);
    });
  }

  it('ageOn answers null unless both are YYYY-MM-DD dates', () => {
    for (const [dob, day] of [
      ['1990-06-01', '01/06/2024'],
      ['1990-6-1', '2024-06-01'],
      ['', '2024-06-01'],
      ['1990-06-01', ''],
    ] as const) {
      expect(ageOn(dob, day)).toBeNull();
    }
  });

  it('answers null for text that is not a YYYY-MM-DD date', () => {
    for (const bad of ['', '01/06/1990', '1990-6-1', 'yesterday']) expect(ageFromDob(bad, on(2024, 6, 1))).toBeNull();
  });

  it('counts against today when no date is given', () => {
    const now = new Date();
    const dob = `${now.getFullYear() - 25}-01-01`;
    expect(ageFromDob(dob)).toBe(25);
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
