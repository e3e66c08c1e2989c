import { describe, expect, it } from 'vitest';
import { bandsText, parseBandsText } from './range-text.js';
import type { ReferenceRange } from '../../shared/flags.js';

describe('bands in one cell', () => {
  const bands: ReferenceRange[] = [
    { age_min: 0, age_max: 7, age_unit: 'days', range: '14.5-22.5' },
    { sex: 'Female', age_max: 12, age_unit: 'years', range: '11-14', critical_low: 7 },
    { sex: 'Male', age_min: 18, age_unit: 'years', range: '13.0-17.0', critical_high: 20 },
    { range: 'Negative' },
  ];

  it('writes each band as "who: range" and reads it back the same', () => {
    const text = bandsText(bands)!;
    expect(text).toBe(
      '0-7 days: 14.5-22.5; Female <12 years: 11-14 [critical <=7]; Male 18+ years: 13.0-17.0 [critical >=20]; Everyone: Negative',
    );
    expect(parseBandsText(text)).toEqual({
      bands: [
        { age_min: 0, age_max: 7, age_unit: 'days', range: '14.5-22.5' },
        { sex: 'Female', age_max: 12, age_unit: 'years', range: '11-14', critical_low: 7 },
        { sex: 'Male', age_min: 18, age_unit: 'years', range: '13.0-17.0', critical_high: 20 },
        { sex: null, range: 'Negative' },
      ],
    });
  });

  it('keeps a titre range with its colon, and falls back to JSON for a range the cell cannot hold', () => {
    expect(parseBandsText('Everyone: <1:80')).toEqual({ bands: [{ sex: null, range: '<1:80' }] });
    const odd: ReferenceRange[] = [{ range: 'A; B' }];
    expect(JSON.parse(bandsText(odd)!)).toEqual(odd);
    expect(bandsText([])).toBeNull();
  });
});
