/**
 * A lims server and the bare one in their own processes, measured side by side: throughput by id,
 * the latency rows, and the PostgreSQL run on the same register.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { cpus, loadavg, platform, release, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { BENCH_EMAIL, BENCH_PASSWORD, type Dataset } from './dataset.js';
import { measureLatency, measureThroughput, type Target, type ThroughputResult } from './load.js';
import type { ServerKind } from './server.js';
import { ensurePostgresDataset } from './postgres.js';
import type { LatencyRow, PostgresReport } from './report.js';
import {
  root,
  THROUGHPUT_SECONDS,
  LATENCY_SECONDS,
  CONNECTIONS,
  WARM_UP_SECONDS,
  log,
  SEARCH_PREFIXES,
} from './settings.js';

export const children: ChildProcess[] = [];

export interface Server {
  origin: string;
  /** The server process's CPU time so far (user + system), in microseconds. */
  cpuMicros(): Promise<number>;
  /** Ends the server process and waits for it to exit. */
  stop(): Promise<void>;
}

export function startServer(kind: ServerKind, data: Pick<Dataset, 'file' | 'organizationId'>): Promise<Server> {
  const child = fork(
    fileURLToPath(new URL('./server.js', import.meta.url)),
    [kind, data.file, String(data.organizationId)],
    {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    },
  );
  children.push(child);
  const cpuMicros = () =>
    new Promise<number>((resolve) => {
      child.once('message', (m: { cpuMicros?: number }) => resolve(m.cpuMicros ?? Number.NaN));
      child.send('cpu');
    });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the ${kind} server did not start within 60 s`)), 60_000);
    child.once('message', (m: { port?: number }) => {
      clearTimeout(timer);
      const stop = () =>
        new Promise<void>((done) => {
          if (child.exitCode !== null) return done();
          child.once('exit', () => done());
          child.disconnect();
        });
      if (typeof m.port === 'number') resolve({ origin: `http://127.0.0.1:${m.port}`, cpuMicros, stop });
      else reject(new Error(`the ${kind} server sent an unexpected message`));
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the ${kind} server exited with code ${code ?? 'null'}`));
    });
  });
}

/** Throughput, with the server's CPU time spent during the run. */
export async function throughputOf(server: Server, target: Target, seconds: number): Promise<ThroughputResult> {
  const before = await server.cpuMicros();
  const result = await measureThroughput(target, CONNECTIONS, seconds);
  return { ...result, cpuMicros: (await server.cpuMicros()) - before };
}

export async function signIn(origin: string): Promise<string> {
  const res = await fetch(`${origin}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: BENCH_EMAIL, password: BENCH_PASSWORD }),
  });
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith('lims_session='));
  if (res.status !== 200 || !cookie) throw new Error(`sign-in to lims failed: ${res.status} ${await res.text()}`);
  return cookie.split(';')[0] as string;
}

export async function getJson(
  origin: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<Record<string, unknown>> {
  const res = await fetch(`${origin}${path}`, { headers });
  if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as Record<string, unknown>;
}

export function machineFacts(data: Dataset): Record<string, string> {
  const cpu = cpus();
  const sqlite = new Database(data.file, { readonly: true });
  const version = (sqlite.prepare('SELECT sqlite_version() AS v').get() as { v: string }).v;
  sqlite.close();
  return {
    node: process.version,
    cpus: `${cpu.length} x ${cpu[0]?.model.trim() ?? 'unknown'}`,
    memory: `${(totalmem() / 2 ** 30).toFixed(1)} GiB`,
    os: `${platform()} ${release()}`,
    sqlite: version,
    'load average at start (1/5/15 min)': loadavg()
      .map((n) => n.toFixed(2))
      .join(' / '),
  };
}

export function sum(a: ThroughputResult, b: ThroughputResult): ThroughputResult {
  const requests = a.requests + b.requests;
  const seconds = a.seconds + b.seconds;
  return {
    requests,
    seconds,
    rps: requests / seconds,
    errors: a.errors + b.errors,
    non2xx: a.non2xx + b.non2xx,
    cpuMicros: (a.cpuMicros ?? Number.NaN) + (b.cpuMicros ?? Number.NaN),
  };
}

/**
 * The latency rows, one connection each: the target requests (first page with its total, 3-letter
 * name prefixes), then, for information, the last page, a gender filter, a phone search and a patient
 * by id on both servers.
 */
export async function measureLatencies(
  origin: string,
  auth: Record<string, string>,
  byId: [Target, Target],
): Promise<LatencyRow[]> {
  const firstPage = await getJson(origin, '/api/patients?page=1&limit=10', auth);
  const scenarios: { name: string; path: string; target: boolean }[] = [
    { name: 'first page with total', path: '/api/patients?page=1&limit=10', target: true },
    ...SEARCH_PREFIXES.map((p) => ({
      name: `search "${p}"`,
      path: `/api/patients?search=${p}&page=1&limit=10`,
      target: true,
    })),
    { name: 'last page', path: `/api/patients?page=${Number(firstPage.totalPages)}&limit=10`, target: false },
    { name: 'gender filter (Female), first page', path: '/api/patients?gender=Female&page=1&limit=10', target: false },
    { name: 'search by phone digits "98765"', path: '/api/patients?search=98765&page=1&limit=10', target: false },
  ];
  const rows: LatencyRow[] = [];
  for (const s of scenarios) {
    const answer = await getJson(origin, s.path, auth);
    log(`latency: ${s.name}...`);
    const result = await measureLatency({ origin, headers: auth, nextPath: () => s.path }, LATENCY_SECONDS);
    const shown = (answer.patients as unknown[]).length;
    rows.push({ ...s, note: `${shown} of ${Number(answer.total).toLocaleString('en-IN')}`, result });
  }
  const [lims, bare] = byId;
  for (const [name, target, path] of [
    ['patient by id (lims)', lims, '/api/patients/{id}'],
    ['patient by id (bare)', bare, '/patients/{id}'],
  ] as const) {
    rows.push({
      name,
      path,
      note: 'one patient',
      target: false,
      result: await measureLatency(target, LATENCY_SECONDS),
    });
  }
  return rows;
}

export interface PairResult {
  bare: ThroughputResult;
  lims: ThroughputResult;
}

/** A lims server and a bare one, both answering the same patient; lims with a signed-in session. */
export async function startPair(
  data: Pick<Dataset, 'file' | 'organizationId'>,
  randomId: () => number,
  kinds: [ServerKind, ServerKind] = ['lims', 'bare'],
) {
  const [lims, bare] = await Promise.all([startServer(kinds[0], data), startServer(kinds[1], data)]);
  const auth = { cookie: await signIn(lims.origin) };
  const limsById: Target = { origin: lims.origin, headers: auth, nextPath: () => `/api/patients/${randomId()}` };
  const bareById: Target = { origin: bare.origin, nextPath: () => `/patients/${randomId()}` };
  const probe = randomId();
  const a = (await getJson(lims.origin, `/api/patients/${probe}`, auth)).patient as { id: number };
  const b = (await getJson(bare.origin, `/patients/${probe}`)).patient as { id: number };
  if (Number(a.id) !== probe || Number(b.id) !== probe)
    throw new Error('lims and the bare endpoint disagree on a patient');
  return { lims, bare, limsById, bareById, auth };
}

/** Warm-up, then two alternating halves each, so a change in background load hits both sides alike. */
export async function measurePair(s: Awaited<ReturnType<typeof startPair>>): Promise<PairResult> {
  globalThis.gc?.();
  // Long enough for both processes' JIT to settle before anything counts.
  await measureThroughput(s.bareById, CONNECTIONS, WARM_UP_SECONDS);
  await measureThroughput(s.limsById, CONNECTIONS, WARM_UP_SECONDS);
  const half = THROUGHPUT_SECONDS / 2;
  const bare1 = await throughputOf(s.bare, s.bareById, half);
  const lims1 = await throughputOf(s.lims, s.limsById, half);
  const lims2 = await throughputOf(s.lims, s.limsById, half);
  const bare2 = await throughputOf(s.bare, s.bareById, half);
  return { bare: sum(bare1, bare2), lims: sum(lims1, lims2) };
}

/**
 * The PostgreSQL run on the same register: lims against Fastify + pg (by id), the latency targets,
 * and two lims processes on one database against one (the scale-out a chain gets).
 */
export async function measurePostgres(sqlite: Dataset): Promise<PostgresReport> {
  const data = await ensurePostgresDataset(root('bench/.data'), sqlite, log);
  const target = { file: data.url, organizationId: data.organizationId };
  const randomId = () => data.minId + Math.floor(Math.random() * (data.maxId - data.minId + 1));
  try {
    const s = await startPair(target, randomId, ['lims-pg', 'bare-pg']);
    log(`PostgreSQL: warming up, then throughput by id, ${CONNECTIONS} connections, ${THROUGHPUT_SECONDS} s each...`);
    const pair = await measurePair(s);
    const latency = await measureLatencies(s.limsById.origin, s.auth, [s.limsById, s.bareById]);
    await s.bare.stop();
    log('PostgreSQL: scale-out, one lims process and then two on the same database...');
    const second = await startServer('lims-pg', target);
    const auth2 = { cookie: await signIn(second.origin) };
    const secondById: Target = { origin: second.origin, headers: auth2, nextPath: () => `/api/patients/${randomId()}` };
    await measureThroughput(secondById, CONNECTIONS, WARM_UP_SECONDS);
    const one = await measureThroughput(s.limsById, CONNECTIONS, THROUGHPUT_SECONDS);
    const [a, b] = await Promise.all([
      measureThroughput(s.limsById, CONNECTIONS / 2, THROUGHPUT_SECONDS),
      measureThroughput(secondById, CONNECTIONS / 2, THROUGHPUT_SECONDS),
    ]);
    await Promise.all([s.lims.stop(), second.stop()]);
    return {
      version: data.version,
      patients: data.patients,
      copiedSeconds: data.copiedSeconds,
      throughput: { connections: CONNECTIONS, bare: pair.bare, lims: pair.lims },
      latency,
      scaleOut: { one, two: sum(a, b), cores: cpus().length },
    };
  } finally {
    await data.stop();
  }
}
