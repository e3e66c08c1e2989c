import net from 'node:net';
import { loadavg } from 'node:os';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { openDatabase, type Database_ } from '../src/core/db/connection.js';
import type { Db } from '../src/core/db/connection.js';
import { setupLab } from '../src/core/setup/service.js';
import { systemActor, type Actor } from '../src/core/context.js';
import { createTest } from '../src/core/catalogue/tests.js';
import { createPatient } from '../src/core/patients/service.js';
import { createConnection } from '../src/core/interfaces/service.js';
import { findConnectionRow } from '../src/core/interfaces/repository.js';
import { startInterfaceListeners } from '../src/core/interfaces/listen.js';
import { machineActor } from '../src/core/interfaces/apply-inbound.js';
import { AstmLink } from '../src/core/interfaces/astm/link.js';
import { enterResult } from '../src/core/results/entry.js';
import { collectedSamples } from './seed-samples.js';

/**
 * Results through the analyser interface: SAMPLES samples x 10 tests sent by a
 * simulated machine over one TCP connection in ASTM E1381 (the machine side is lims's own AstmLink:
 * ENQ, each frame on ACK, EOT, one transmission per sample) into `startInterfaceListeners`, timed
 * from the first byte until the last message is stored; every result is then counted (stored
 * once, on its own sample). The bare baseline does the same inserts on a second set of samples
 * straight through `enterResult` (one transaction per sample, as the interface does per message),
 * without frames, parsing, code map or message log.
 */

export const INTERFACES_START = '<!-- interfaces:start -->';
export const INTERFACES_END = '<!-- interfaces:end -->';
const TESTS = 10;

export interface InterfacesResult {
  samples: number;
  results: number;
  interfaceSeconds: number;
  bareSeconds: number;
  storedOnce: boolean;
  load: string;
}

function seedSamples(db: Db, organizationId: number, patientId: number, testIds: number[], prefix: string, n: number) {
  return collectedSamples(db, organizationId, patientId, prefix, n, () => testIds);
}

const records = (code: string, i: number) => [
  'H|\\^&|||BenchAnalyser^1',
  'P|1',
  `O|1|${code}||^^^ALL|R`,
  ...Array.from({ length: TESTS }, (_, k) => `R|${k + 1}|^^^B${k}|${(i % 90) + k + 1}|mg/dL||N||F`),
  'L|1|N',
];

async function countStored(db: Db, ids: number[]): Promise<{ rows: number; distinct: number }> {
  let rows = 0;
  const keys = new Set<string>();
  for (let at = 0; at < ids.length; at += 500) {
    const part = await db
      .selectFrom('test_results')
      .select(['sample_id', 'test_id'])
      .where('sample_id', 'in', ids.slice(at, at + 500))
      .execute();
    rows += part.length;
    for (const r of part) keys.add(`${r.sample_id}:${r.test_id}`);
  }
  return { rows, distinct: keys.size };
}

export async function measureInterfaces(
  dir: string,
  samples: number,
  log: (line: string) => void,
): Promise<InterfacesResult> {
  const dataDir = join(dir, 'interfaces');
  rmSync(dataDir, { recursive: true, force: true });
  mkdirSync(dataDir, { recursive: true });
  const database: Database_ = openDatabase(join(dataDir, 'lims.db'));
  const db = database.db;
  const loadStart = loadavg()[0]!.toFixed(2);
  try {
    const lab = await setupLab(db, {
      labName: 'Interface Bench Diagnostics',
      labAddress: '12, MG Road, Bengaluru',
      adminName: 'Bench Admin',
      adminEmail: 'bench@lab.test',
      adminPassword: 'bench-password-1',
      timezone: 'Asia/Kolkata',
      currency: 'INR',
      dateFormat: 'DD/MM/YYYY',
      importSampleTests: false,
      importSampleProfiles: false,
      importSamplePackages: false,
    });
    const admin: Actor = { ...systemActor(lab.organizationId), userId: lab.adminId };
    const testIds: number[] = [];
    for (let k = 0; k < TESTS; k++) {
      const t = await createTest(db, admin, {
        name: `Bench Analyte ${k}`,
        code: `B${k}`,
        unit: 'mg/dL',
        normal_range: '0-100',
        price: 100,
      } as Parameters<typeof createTest>[2]);
      testIds.push(t.id);
    }
    const patient = await createPatient(db, admin, {
      first_name: 'Bench',
      last_name: 'Patient',
      date_of_birth: '1985-01-01',
      gender: 'Male',
    } as Parameters<typeof createPatient>[2]);
    log(`interfaces: seeding ${samples.toLocaleString('en-IN')} x 2 samples of ${TESTS} tests...`);
    const viaInterface = await seedSamples(db, lab.organizationId, patient.id, testIds, 'IF', samples);
    const viaBare = await seedSamples(db, lab.organizationId, patient.id, testIds, 'BR', samples);

    const port = await new Promise<number>((resolve) => {
      const s = net.createServer().listen(0, '127.0.0.1', () => {
        const p = (s.address() as net.AddressInfo).port;
        s.close(() => resolve(p));
      });
    });
    const conn = await createConnection(db, admin, {
      name: 'Bench analyser',
      protocol: 'astm',
      transport: 'tcp-server',
      port,
      enabled: true,
      lenient: false,
      code_map: testIds.map((test_id, k) => ({ code: `B${k}`, test_id })),
    } as Parameters<typeof createConnection>[2]);
    const quiet = { info: () => {}, warn: () => {}, error: (o: object, m: string) => log(`interfaces: ${m}`) };
    const listeners = startInterfaceListeners(() => db, quiet, { bindHost: '127.0.0.1', pollMs: 200 });
    await listeners.ready;

    log(`interfaces: ${(samples * TESTS).toLocaleString('en-IN')} results through ASTM over TCP...`);
    const processed = async () =>
      Number(
        (
          await db
            .selectFrom('interface_messages')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('connection_id', '=', conn.id)
            .where('direction', '=', 'in')
            .executeTakeFirstOrThrow()
        ).n,
      );
    const socket = net.connect({ port, host: '127.0.0.1' });
    await new Promise<void>((r, j) => socket.once('connect', r).once('error', j));
    let failed = 0;
    const machine = new AstmLink({
      write: (b) => socket.write(b),
      onMessage: () => {},
      onSendDone: (ok) => {
        if (!ok) failed += 1;
      },
      contentionRetryMs: 50,
    });
    socket.on('data', (d) => machine.receive(d));
    const started = performance.now();
    viaInterface.forEach((s, i) => machine.send(records(s.code, i)));
    const deadline = Date.now() + 30 * 60_000;
    while ((await processed()) < samples) {
      if (failed || Date.now() > deadline) throw new Error(`interfaces: the machine's sends failed (${failed})`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const interfaceSeconds = (performance.now() - started) / 1000;
    machine.close();
    socket.destroy();
    await listeners.stop();

    log('interfaces: the same results straight through enterResult (bare)...');
    const row = (await findConnectionRow(db, lab.organizationId, conn.id))!;
    const actor = machineActor(row);
    const bareStart = performance.now();
    for (const [i, s] of viaBare.entries()) {
      await db.transaction().execute(async (trx) => {
        for (let k = 0; k < TESTS; k++) {
          await enterResult(trx, actor, {
            sample_id: s.id,
            test_id: testIds[k]!,
            result_value: String((i % 90) + k + 1),
            unit: 'mg/dL',
          } as Parameters<typeof enterResult>[2]);
        }
      });
    }
    const bareSeconds = (performance.now() - bareStart) / 1000;

    const a = await countStored(
      db,
      viaInterface.map((s) => s.id),
    );
    const b = await countStored(
      db,
      viaBare.map((s) => s.id),
    );
    const results = samples * TESTS;
    return {
      samples,
      results,
      interfaceSeconds,
      bareSeconds,
      storedOnce: a.rows === results && a.distinct === results && b.rows === results,
      load: `${loadStart} / ${loadavg()[0]!.toFixed(2)}`,
    };
  } finally {
    await database.close();
  }
}

export function renderInterfaces(r: InterfacesResult, startedAt: Date): string {
  const rate = (s: number) => Math.round(r.results / s).toLocaleString('en-IN');
  return [
    INTERFACES_START,
    `## Analyser results through the interface, run ${startedAt.toISOString()}`,
    '',
    `${r.samples.toLocaleString('en-IN')} samples x ${TESTS} tests = ${r.results.toLocaleString('en-IN')} results, SQLite, one TCP connection, ASTM E1381/E1394 (one transmission per sample, each frame waiting for its ACK), stored through the listener of \`lims serve\`. Bare: the same inserts straight through \`enterResult\` (one transaction per sample), no frames, parsing, code map or message log. Load average (1 min) at start / end: ${r.load}.`,
    '',
    '| path | seconds | results/s | stored once |',
    '|---|---:|---:|---|',
    `| interface (ASTM over TCP) | ${r.interfaceSeconds.toFixed(1)} | ${rate(r.interfaceSeconds)} | ${r.storedOnce ? 'yes' : 'NO'} |`,
    `| bare (enterResult) | ${r.bareSeconds.toFixed(1)} | ${rate(r.bareSeconds)} | ${r.storedOnce ? 'yes' : 'NO'} |`,
    '',
    `Interface / bare time: ${(r.interfaceSeconds / r.bareSeconds).toFixed(2)}.`,
    '',
    INTERFACES_END,
  ].join('\n');
}
