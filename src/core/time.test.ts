import { describe, expect, it } from 'vitest';
import { localDate, localMinuteStamp } from './time.js';

describe('localDate and localMinuteStamp', () => {
  it('give the calendar day and minute in the lab’s time zone, not the server’s', () => {
    const evening = new Date('2024-03-31T19:00:00Z');
    expect(localDate('Asia/Kolkata', evening)).toBe('2024-04-01');
    expect(localDate('UTC', evening)).toBe('2024-03-31');
    expect(localDate('America/New_York', new Date('2024-04-01T02:00:00Z'))).toBe('2024-03-31');
    expect(localMinuteStamp('Asia/Kolkata', evening)).toBe('202404010030');
  });
});
