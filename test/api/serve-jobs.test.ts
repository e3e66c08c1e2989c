import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve } from '../../src/server/server.js';
import { openDatabaseAt } from '../../src/core/db/connection.js';
import { setupLab } from '../../src/core/setup/service.js';
import { freePort } from '../net.js';
import { ADMIN_EMAIL, PASSWORD, tempDir } from '../helpers.js';
import type { JobStatus } from '../../src/shared/schemas/system.js';

/**
 * A real `lims serve` (its own SQLite data dir): its scheduler runs every recurring job of the list,
 * the System screen's route shows them, and closing the server stops them.
 */
let server: { url: string; close: () => Promise<void> } | null = null;

beforeAll(async () => {
  const dir = tempDir();
  const database = await openDatabaseAt({ kind: 'sqlite', file: join(dir, 'lims.db') });
  await setupLab(database.db, {
    labName: 'Serve Lab',
    adminName: 'Asha Admin',
    adminEmail: ADMIN_EMAIL,
    adminPassword: PASSWORD,
    timezone: 'Asia/Kolkata',
    currency: 'INR',
    dateFormat: 'DD/MM/YYYY',
    importSampleTests: false,
    importSampleProfiles: false,
    importSamplePackages: false,
  });
  await database.close();
  server = await serve({ dataDir: dir, port: await freePort(), host: '127.0.0.1', demo: false, quiet: true });
});
afterAll(async () => {
  await server?.close();
});

describe('lims serve runs its background jobs on the one scheduler', () => {
  it("lists every recurring job on the System screen's route, with the listeners' jobs last", async () => {
    const login = await fetch(`${server!.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: ADMIN_EMAIL, password: PASSWORD }),
    });
    expect(login.status).toBe(200);
    const cookie = login.headers
      .getSetCookie()
      .find((c) => c.startsWith('lims_session='))!
      .split(';')[0]!;
    const res = await fetch(`${server!.url}/api/system/jobs`, { headers: { cookie } });
    expect(res.status).toBe(200);
    const { jobs } = (await res.json()) as { jobs: JobStatus[] };
    expect(jobs.map((j) => [j.name, j.period_ms])).toEqual([
      ['overdue-sweep', 600_000],
      ['backups', 300_000],
      ['outbox-send', 5_000],
      ['outbox-prune', 3_600_000],
      ['centre-statements', 3_600_000],
      ['report-deliveries', 5_000],
      ['report-links-send', 5_000],
      ['data-files-sweep', 3_600_000],
      ['interface-listeners', 3_000],
      ['watched-folders', 5_000],
    ]);
    // Started: every job has its next run set and none has failed.
    for (const j of jobs) {
      expect(j.next_run_at !== null || j.running, j.name).toBe(true);
      expect(j.failures, j.name).toBe(0);
    }
  });

  it('stops every job when the server closes, and a second close is harmless', async () => {
    const s = server!;
    server = null;
    await s.close();
    await s.close();
    await expect(fetch(`${s.url}/api/health`)).rejects.toThrow();
  });
});
