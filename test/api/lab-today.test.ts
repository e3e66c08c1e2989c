import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database_ } from '../../src/core/db/connection.js';
import { setupLab } from '../../src/core/setup/service.js';
import { labToday } from '../../src/core/settings/organization.js';
import { openTestDatabase } from '../db.js';

/** The lab's today is remembered for a few seconds, and only for the moment it was asked about. */
let database: Database_;
let org: number;
beforeAll(async () => {
  database = await openTestDatabase();
  org = (
    await setupLab(database.db, {
      labName: 'Today Lab',
      adminName: 'Asha Rao',
      adminEmail: 'admin@today.lab',
      adminPassword: 'today-lab-password-1',
      timezone: 'Asia/Kolkata',
      currency: 'INR',
      dateFormat: 'DD/MM/YYYY',
      importSampleTests: false,
      importSampleProfiles: false,
      importSamplePackages: false,
    })
  ).organizationId;
});
afterAll(() => database.close());

describe('labToday', () => {
  it("answers each time's own lab day, in the lab's zone, however recently another was asked", async () => {
    // 2026-03-01 20:00 UTC is 2 March 01:30 in Kolkata.
    const night = Date.parse('2026-03-01T20:00:00Z');
    expect(await labToday(database.db, org, night)).toBe('2026-03-02');
    expect(await labToday(database.db, org, night - 86_400_000)).toBe('2026-03-01');
    expect(await labToday(database.db, org, night + 1000)).toBe('2026-03-02');
    expect(await labToday(database.db, org, night - 7 * 86_400_000)).toBe('2026-02-23');
  });
});
