import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './postgres.js';

/** A `lims serve` of this build in a process of its own, a signed-in session on it, and a work pool. */

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Runs `work(i)` for i in [0, n) with at most `limit` at once. */
export async function pool(n: number, limit: number, work: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, n) }, async () => {
      while (next < n) await work(next++);
    }),
  );
}

export class Session {
  private cookie = '';
  constructor(readonly origin: string) {}
  async login(email: string, password: string): Promise<this> {
    const res = await fetch(`${this.origin}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password }),
    });
    const set = res.headers.getSetCookie().find((c) => c.startsWith('lims_session='));
    if (res.status !== 200 || !set) throw new Error(`sign-in of ${email} failed: ${res.status}`);
    this.cookie = set.split(';')[0]!;
    return this;
  }
  async send<T>(method: string, path: string, body?: object): Promise<T> {
    const res = await fetch(`${this.origin}${path}`, {
      method,
      headers: { cookie: this.cookie, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 300)}`);
    return (text ? JSON.parse(text) : {}) as T;
  }
}

export interface Serve {
  origin: string;
  child: ChildProcess;
  dataDir: string;
}

/** `lims serve` of this build on the database, in a process and a data dir of its own. */
export async function startServe(bin: string, url: string): Promise<Serve> {
  const dataDir = mkdtempSync(join(tmpdir(), 'lims-bench-links-'));
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [
      bin,
      '--data-dir',
      dataDir,
      '--database-url',
      url,
      'serve',
      '--port',
      String(port),
      '--quiet',
      // The fakes listen on 127.0.0.1, which the outbound policy refuses unless the operator allows it.
      '--allow-private-outbound',
    ],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
  const origin = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    const up = await fetch(`${origin}/api/health`)
      .then((r) => r.ok)
      .catch(() => false);
    if (up) return { origin, child, dataDir };
    if (i > 900 || child.exitCode !== null) throw new Error('lims serve did not start');
    await sleep(100);
  }
}

export async function stopServe(s: Serve): Promise<void> {
  if (s.child.exitCode === null) {
    s.child.kill('SIGTERM');
    await Promise.race([once(s.child, 'exit'), sleep(15_000)]);
    if (s.child.exitCode === null) s.child.kill('SIGKILL');
  }
  rmSync(s.dataDir, { recursive: true, force: true });
}
