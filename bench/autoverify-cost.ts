import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, type Database_, type Db } from '../src/core/db/connection.js';
import { setupLab } from '../src/core/setup/service.js';
import { systemActor, type Actor } from '../src/core/context.js';
import { createTest } from '../src/core/catalogue/tests.js';
import { createPatient } from '../src/core/patients/service.js';
import { createMaterial } from '../src/core/qc/service.js';
import { recordTestRun } from '../src/core/qc/runs.js';
import { enterResult } from '../src/core/results/entry.js';
import { collectedSamples } from './seed-samples.js';
import {
  activateRuleSet,
  approveRuleSet,
  createRuleSet,
  stopAutoverification,
} from '../src/core/autoverify/service.js';

/**
 * What autoverification adds to entering a result, on SQLite: labs of the same shape in one
 * process, one result entered per transaction (as a typed result or an analyzer message is), with
 * autoverification off (no rule set in force), in shadow mode (judged and stored, not released),
 * live (judged, stored and released through the manual release: the sample completes) and live
 * with the lab-wide stop on. Rounds alternate between the labs so that the machine's load falls on
 * each alike; p50 and p99 of every entry's time. Run: node dist/bench/autoverify-cost.js [entries
 * per round] [rounds]. The target: evaluating the rules (shadow) at most 2 ms p50 above off.
 */

type Variant = 'off' | 'shadow' | 'live' | 'stopped';
const VARIANTS: Variant[] = ['off', 'shadow', 'live', 'stopped'];
const TESTS = 5;

interface Lab {
  database: Database_;
  db: Db;
  actor: Actor;
  testIds: number[];
  samples: number[];
  next: number;
}

async function openLab(dir: string, variant: Variant, samples: number): Promise<Lab> {
  const database = openDatabase(join(dir, `${variant}.db`));
  const db = database.db;
  const lab = await setupLab(db, {
    labName: `Autoverify bench ${variant}`,
    adminName: 'Bench Admin',
    adminEmail: 'bench@lab.test',
    adminPassword: 'bench-password-1',
    timezone: 'Asia/Kolkata',
    currency: 'INR',
    dateFormat: 'DD/MM/YYYY',
    importSampleTests: false,
    importSampleProfiles: false,
    importSamplePackages: false,
  } as Parameters<typeof setupLab>[1]);
  const actor: Actor = { ...systemActor(lab.organizationId), userId: lab.adminId, role: 'admin' };
  const testIds: number[] = [];
  for (let k = 0; k < TESTS; k++) {
    const t = await createTest(db, actor, {
      name: `Bench Analyte ${k}`,
      code: `B${k}`,
      unit: 'mg/dL',
      normal_range: '70-110',
      category: 'Biochemistry',
      price: 100,
    } as Parameters<typeof createTest>[2]);
    testIds.push(t.id);
    const m = await createMaterial(db, actor, {
      name: `Control ${k}`,
      test_id: t.id,
      level: 'Level 1',
      target_mean: 100,
      target_sd: 2,
    } as Parameters<typeof createMaterial>[2]);
    await recordTestRun(db, actor, {
      test_id: t.id,
      values: [{ material_id: m.id, value: 100.4 }],
    } as Parameters<typeof recordTestRun>[2]);
  }
  const patient = await createPatient(db, actor, {
    first_name: 'Bench',
    last_name: 'Patient',
    date_of_birth: '1985-01-01',
    gender: 'Male',
  } as Parameters<typeof createPatient>[2]);
  const ids = (
    await collectedSamples(db, lab.organizationId, patient.id, 'AV', samples, (i) => [testIds[i % TESTS]!])
  ).map((r) => r.id);
  if (variant !== 'off') {
    const rs = await createRuleSet(db, actor, { name: 'Bench' });
    await approveRuleSet(db, actor, rs.id);
    await activateRuleSet(db, actor, rs.id, { mode: variant === 'shadow' ? 'shadow' : 'live' });
    if (variant === 'stopped') await stopAutoverification(db, actor, { reason: 'bench' });
  }
  return { database, db, actor, testIds, samples: ids, next: 0 };
}

async function enterOne(lab: Lab): Promise<number> {
  const i = lab.next++;
  const t0 = performance.now();
  await lab.db.transaction().execute((trx) =>
    enterResult(trx, lab.actor, {
      sample_id: lab.samples[i]!,
      test_id: lab.testIds[i % TESTS]!,
      result_value: String(80 + (i % 20)),
    }),
  );
  return performance.now() - t0;
}

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

async function main() {
  const perRound = Number(process.argv[2] ?? 200);
  const rounds = Number(process.argv[3] ?? 10);
  const dir = mkdtempSync(join(tmpdir(), 'lims-autoverify-bench-'));
  const load = loadavg()[0]!.toFixed(2);
  const labs = new Map<Variant, Lab>();
  try {
    for (const v of VARIANTS) labs.set(v, await openLab(dir, v, perRound * rounds + perRound));
    // One round each to warm statement caches and the JIT; not counted.
    for (const v of VARIANTS) for (let k = 0; k < perRound; k++) await enterOne(labs.get(v)!);
    const times = new Map<Variant, number[]>(VARIANTS.map((v) => [v, []]));
    for (let r = 0; r < rounds; r++)
      for (const v of r % 2 ? [...VARIANTS].reverse() : VARIANTS)
        for (let k = 0; k < perRound; k++) times.get(v)!.push(await enterOne(labs.get(v)!));
    const released = await labs
      .get('live')!
      .db.selectFrom('test_results')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('status', '=', 'verified')
      .executeTakeFirstOrThrow();
    const p50Off = pct(
      [...times.get('off')!].sort((a, b) => a - b),
      50,
    );
    console.log(
      `autoverify cost: ${rounds} rounds x ${perRound} entries per variant, load ${load} -> ${loadavg()[0]!.toFixed(2)}`,
    );
    for (const v of VARIANTS) {
      const s = [...times.get(v)!].sort((a, b) => a - b);
      const p50 = pct(s, 50);
      console.log(
        `  ${v.padEnd(8)} p50 ${p50.toFixed(2)} ms  p99 ${pct(s, 99).toFixed(2)} ms  (p50 ${v === 'off' ? 'baseline' : `${p50 - p50Off >= 0 ? '+' : ''}${(p50 - p50Off).toFixed(2)} ms`})`,
      );
    }
    console.log(`  live released ${String(released.n)} results by the rules`);
    // Evaluating is what shadow mode does; live also releases, which a person's verification would do later.
    const shadow = pct(
      [...times.get('shadow')!].sort((a, b) => a - b),
      50,
    );
    console.log(`  target: evaluating (shadow) p50 <= off p50 + 2 ms: ${shadow - p50Off <= 2 ? 'met' : 'MISSED'}`);
  } finally {
    for (const l of labs.values()) await l.database.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
