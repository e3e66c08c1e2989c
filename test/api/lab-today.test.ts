import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { labToday } from '../../src/core/settings/organization.js';
import { makeLab, type TestLab } from '../helpers.js';

/** The lab's today is remembered for a few seconds, and only for the moment it was asked about. */
let lab: TestLab;
beforeAll(async () => {
  lab = await makeLab();
});
afterAll(() => lab.close());

describe('labToday', () => {
  it("answers each time's own lab day, in the lab's zone, however recently another was asked", async () => {
    const { db } = lab.database;
    // 2026-03-01 20:00 UTC is 2 March 01:30 in Kolkata (the test lab's zone).
    const night = Date.parse('2026-03-01T20:00:00Z');
    expect(await labToday(db, lab.organizationId, night)).toBe('2026-03-02');
    expect(await labToday(db, lab.organizationId, night - 86_400_000)).toBe('2026-03-01');
    expect(await labToday(db, lab.organizationId, night + 1000)).toBe('2026-03-02');
    expect(await labToday(db, lab.organizationId, night - 7 * 86_400_000)).toBe('2026-02-23');
  });
});
