import { describe, expect, it } from 'vitest';
import { ageAt, rangeForPatient } from './mappers.js';

/** A child's range up to (not including) 18, the adult range from 18. */
const test = {
  normal_range: '12-16',
  reference_ranges: JSON.stringify([
    { age_max: 18, range: '11-14' },
    { age_min: 18, range: '13-17' },
  ]),
};
const patient = { gender: 'Female', date_of_birth: '2008-03-15' };
// 00:30 on 15 March 2026 in the lab (India), still 14 March in UTC: her 18th birthday in the lab.
const justAfterMidnightInTheLab = '2026-03-14T19:00:00.000Z';

describe('the age that picks a reference range', () => {
  it('is counted on the lab’s calendar day of collection, not the server’s', () => {
    expect(ageAt(patient.date_of_birth, justAfterMidnightInTheLab, 'Asia/Kolkata')).toBe(18);
    expect(ageAt(patient.date_of_birth, justAfterMidnightInTheLab, 'UTC')).toBe(17);
  });

  it('so a sample collected just after midnight on the 18th birthday gets the adult range in an Indian lab', () => {
    expect(rangeForPatient(test, patient, justAfterMidnightInTheLab, 'Asia/Kolkata')?.range).toBe('13-17');
    expect(rangeForPatient(test, patient, justAfterMidnightInTheLab, 'UTC')?.range).toBe('11-14');
  });

  it('is null without a date of birth, and the test’s general range applies when no band fits', () => {
    expect(ageAt(null, justAfterMidnightInTheLab, 'Asia/Kolkata')).toBeNull();
    expect(
      rangeForPatient({ normal_range: '12-16', reference_ranges: null }, patient, null, 'Asia/Kolkata')?.range,
    ).toBe('12-16');
  });
});
