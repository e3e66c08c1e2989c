import { afterEach, describe, expect, it, vi } from 'vitest';
import { createScheduler, type JobSpec } from './scheduler.js';

afterEach(() => {
  vi.useRealTimers();
});

const job = (name: string, run: JobSpec['run'], periodMs = 1_000): JobSpec => ({
  name,
  description: `the ${name} job`,
  periodMs,
  firstDelayMs: 0,
  run,
});

describe('the scheduler', () => {
  it('keeps running the other jobs when one fails, and keeps the failure for the System screen', async () => {
    vi.useFakeTimers();
    let good = 0;
    const logged: object[] = [];
    const s = createScheduler(
      [
        job('broken', () => {
          throw new Error('the mail server said no\nsecond line with detail');
        }),
        job('fine', () => {
          good++;
        }),
      ],
      { error: (obj) => logged.push(obj) },
    );
    s.start();
    await vi.advanceTimersByTimeAsync(3_500);
    expect(good).toBe(4);
    const [broken, fine] = s.status();
    expect(broken).toMatchObject({
      name: 'broken',
      runs: 4,
      failures: 4,
      last_outcome: 'failed',
      last_error: 'the mail server said no',
      running: false,
    });
    expect(broken!.next_run_at).not.toBeNull();
    expect(fine).toMatchObject({ runs: 4, failures: 0, last_outcome: 'ok', last_error: null });
    // The log names the job and the error's class, never its message.
    expect(logged[0]).toEqual({ job: 'broken', code: 'Error' });
    expect(JSON.stringify(logged)).not.toContain('mail server');
    await s.stop();
  });

  it('never overlaps two runs of one job: a slow run delays the next', async () => {
    vi.useFakeTimers();
    let inside = 0;
    let most = 0;
    let runs = 0;
    const s = createScheduler(
      [
        job(
          'slow',
          async () => {
            inside++;
            most = Math.max(most, inside);
            await new Promise((r) => setTimeout(r, 2_500));
            inside--;
            runs++;
          },
          1_000,
        ),
      ],
      { error: () => undefined },
    );
    s.start();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(s.status()[0]).toMatchObject({ running: true, next_run_at: null });
    await vi.advanceTimersByTimeAsync(9_100);
    expect(most).toBe(1);
    // Runs start at 0, 2.5, 5 and 7.5 s: each as soon as the one before ends.
    expect(runs).toBe(4);
    const stopped = s.stop();
    await vi.advanceTimersByTimeAsync(2_500);
    await stopped;
    expect(runs).toBe(5);
  });

  it('stop() waits for the run under way, aborts its signal and leaves no timer', async () => {
    vi.useFakeTimers();
    let finished = false;
    let aborted = false;
    const s = createScheduler(
      [
        job('long', async (signal) => {
          await new Promise((r) => setTimeout(r, 5_000));
          aborted = signal.aborted;
          finished = true;
        }),
        job('idle', () => undefined, 60_000),
      ],
      { error: () => undefined },
    );
    s.start();
    expect(vi.getTimerCount()).toBe(2);
    await vi.advanceTimersByTimeAsync(10);
    const stopped = s.stop();
    await vi.advanceTimersByTimeAsync(5_000);
    await stopped;
    expect(finished).toBe(true);
    expect(aborted).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
    expect(s.status().map((j) => j.next_run_at)).toEqual([null, null]);
    // Started again (the server moved to another database), the jobs carry on with their figures.
    s.start();
    expect(vi.getTimerCount()).toBe(2);
    await s.stop();
    expect(vi.getTimerCount()).toBe(0);
    expect(s.status()[0]!.runs).toBe(1);
  });

  it('refuses two jobs of one name and a period of 0', () => {
    expect(() => createScheduler([job('a', () => 1), job('a', () => 2)], { error: () => undefined })).toThrow(
      'Two background jobs are named a',
    );
    expect(() => createScheduler([job('z', () => 1, 0)], { error: () => undefined })).toThrow('period above 0');
  });
});
