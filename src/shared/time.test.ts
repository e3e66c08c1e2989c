import { describe, expect, it } from 'vitest';
import { formatLabDate, formatLabDateTime, labTimestamp, localDate, localMinuteStamp, parseLabDate } from './time.js';

describe('localDate and localMinuteStamp', () => {
  it('give the calendar day and minute in the lab’s time zone, not the server’s', () => {
    const evening = new Date('2024-03-31T19:00:00Z');
    expect(localDate('Asia/Kolkata', evening)).toBe('2024-04-01');
    expect(localDate('UTC', evening)).toBe('2024-03-31');
    expect(localDate('America/New_York', new Date('2024-04-01T02:00:00Z'))).toBe('2024-03-31');
    expect(localMinuteStamp('Asia/Kolkata', evening)).toBe('202404010030');
  });
});

describe('lab display formats (one implementation for the UI, PDFs and the CLI)', () => {
  const ist = { dateFormat: 'DD/MM/YYYY', timeZone: 'Asia/Kolkata', hour12: false } as const;
  it.each([
    ['2026-01-01T00:05:00Z', ist, '01/01/2026 05:35'],
    ['2026-01-01T18:29:00Z', ist, '01/01/2026 23:59'],
    ['2026-01-01T18:30:00Z', ist, '02/01/2026 00:00'],
    ['2026-01-01T06:35:00Z', { ...ist, hour12: true }, '01/01/2026 12:05 pm'],
    ['2026-01-01T18:45:00Z', { ...ist, hour12: true }, '02/01/2026 12:15 am'],
    ['2026-03-09T04:00:00Z', { ...ist, dateFormat: 'MM/DD/YYYY' }, '03/09/2026 09:30'],
    ['2026-03-09T04:00:00Z', { ...ist, dateFormat: 'YYYY-MM-DD', timeZone: 'UTC' }, '2026-03-09 04:00'],
  ] as const)('%s in %o is %s', (iso, f, shown) => {
    expect(formatLabDateTime(iso, f)).toBe(shown);
  });

  it('shows a date-only value as written, whatever the zone (a date of birth never moves a day)', () => {
    expect(formatLabDate('1990-04-01', { ...ist, timeZone: 'Pacific/Kiritimati' })).toBe('01/04/1990');
    expect(formatLabDate('1990-04-01', { ...ist, dateFormat: 'MM/DD/YYYY' })).toBe('04/01/1990');
  });

  it('turns an instant into the lab-local date, and empty values into a dash', () => {
    expect(formatLabDate('2026-01-01T18:30:00Z', ist)).toBe('02/01/2026');
    expect(formatLabDate(null)).toBe('—');
    expect(formatLabDateTime('')).toBe('—');
    expect(formatLabDateTime('not a date')).toBe('not a date');
  });

  it('writes CLI timestamps as YYYY-MM-DD HH:mm in the lab zone, empty for never', () => {
    expect(labTimestamp('2026-01-01T18:30:00Z', 'Asia/Kolkata')).toBe('2026-01-02 00:00');
    expect(labTimestamp(null, 'Asia/Kolkata')).toBe('');
  });
});

describe('parseLabDate', () => {
  it.each([
    ['05/03/1980', 'DD/MM/YYYY', '1980-03-05'],
    ['5/3/1980', 'DD/MM/YYYY', '1980-03-05'],
    ['05-03-1980', 'DD/MM/YYYY', '1980-03-05'],
    ['05.03.1980', 'DD/MM/YYYY', '1980-03-05'],
    ['03/05/1980', 'MM/DD/YYYY', '1980-03-05'],
    ['1980-03-05', 'DD/MM/YYYY', '1980-03-05'],
    ['31/02/1980', 'DD/MM/YYYY', null],
    ['05/03/80', 'DD/MM/YYYY', null],
    ['05/1980', 'DD/MM/YYYY', null],
    ['', 'DD/MM/YYYY', null],
  ])('"%s" in %s is %s', (text, format, iso) => {
    expect(parseLabDate(text, format)).toBe(iso);
  });
});
