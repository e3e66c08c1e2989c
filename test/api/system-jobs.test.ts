import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLab, type TestLab } from '../helpers.js';
import { createScheduler, type Scheduler } from '../../src/core/scheduler.js';
import type { JobStatus } from '../../src/shared/schemas/system.js';

/** The System screen's list of background jobs: what the scheduler knows, for the server's operator alone. */

let lab: TestLab;
let scheduler: Scheduler;
let delivered = 0;

beforeAll(async () => {
  scheduler = createScheduler(
    [
      {
        name: 'broken-sweep',
        description: 'Fails every time',
        periodMs: 20,
        firstDelayMs: 0,
        run: () => Promise.reject(Object.assign(new Error('The folder /srv/drop cannot be read'), { code: 'EACCES' })),
      },
      {
        name: 'working-sender',
        description: 'Succeeds every time',
        periodMs: 20,
        firstDelayMs: 0,
        run: () => {
          delivered++;
        },
      },
    ],
    { error: () => undefined },
  );
  lab = await makeLab({ jobStatus: () => scheduler.status() });
  scheduler.start();
});
afterAll(async () => {
  await scheduler.stop();
  await lab.close();
});

const jobsAs = async (who: TestLab['admin']) => {
  const res = await who.get('/api/system/jobs');
  return { status: res.statusCode, jobs: res.statusCode === 200 ? res.json<{ jobs: JobStatus[] }>().jobs : [] };
};

describe('GET /api/system/jobs', () => {
  it("shows the server's superadmin every job: a failing one with its error, the others still running", async () => {
    await expect.poll(() => delivered, { timeout: 5_000 }).toBeGreaterThanOrEqual(3);
    const { status, jobs } = await jobsAs(lab.admin);
    expect(status).toBe(200);
    expect(jobs.map((j) => j.name)).toEqual(['broken-sweep', 'working-sender']);
    const [broken, working] = jobs;
    expect(broken).toMatchObject({
      period_ms: 20,
      last_outcome: 'failed',
      last_error: 'The folder /srv/drop cannot be read',
    });
    expect(broken!.failures).toBeGreaterThanOrEqual(2);
    expect(broken!.failures).toBe(broken!.runs);
    expect(Date.parse(broken!.last_error_at!)).toBeGreaterThan(0);
    expect(working).toMatchObject({ last_outcome: 'ok', failures: 0, last_error: null });
    expect(working!.runs).toBeGreaterThanOrEqual(3);
    expect(working!.last_duration_ms).toBeGreaterThanOrEqual(0);
  });

  it("answers 403 to a lab's admin and to other roles", async () => {
    for (const role of ['admin', 'lab_manager', 'receptionist'] as const)
      expect((await jobsAs(await lab.as(role))).status, role).toBe(403);
  });

  it('lists no job when the app runs without a scheduler (built alone, as in tests)', async () => {
    const bare = await makeLab();
    try {
      expect(await jobsAs(bare.admin)).toEqual({ status: 200, jobs: [] });
    } finally {
      await bare.close();
    }
  });
});
