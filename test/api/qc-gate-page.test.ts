import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLab, type TestLab } from '../helpers.js';
import type { QcMaterial } from '../../src/shared/schemas/qc.js';
import { qcStatusesOf, qcTestStatus } from '../../src/core/qc/gate.js';
import { uniqueWord } from './support.js';

/**
 * A page of results is judged by QC from runs read once (three queries for the page), not by
 * queries per result, level and machine. The page's judgement must be exactly the one a single
 * result gets: checked here on a history of runs on three machines and none, passing, failing and
 * overridden, with ties in time, against many results at moments before, between and after them.
 */
let lab: TestLab;
let testId: number;
let testName: string;
let levels: QcMaterial[];
let machines: number[];

/** A small deterministic generator, so a failure can be reproduced. */
function random(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

beforeAll(async () => {
  lab = await makeLab();
  const code = uniqueWord('GL').toUpperCase();
  testName = `Glucose ${code}`;
  const t = await lab.admin.post('/api/tests', {
    name: testName,
    code,
    price: 100,
    unit: 'mg/dL',
    normal_range: '70-110',
  });
  expect(t.statusCode, t.body).toBe(201);
  testId = t.json().test.id as number;
  levels = [];
  for (const [level, mean] of [
    ['Level 1', 90],
    ['Level 2', 250],
  ] as const) {
    const res = await lab.admin.post('/api/qc/materials', {
      name: `Glucose control ${level}`,
      test_id: testId,
      level,
      target_mean: mean,
      target_sd: 3,
    });
    expect(res.statusCode, res.body).toBe(201);
    levels.push(res.json<{ material: QcMaterial }>().material);
  }
  machines = [];
  for (let i = 0; i < 3; i++) {
    const res = await lab.admin.post('/api/equipment', {
      kind: 'machine',
      name: `Analyser ${uniqueWord()}`,
      serial_number: `SN-${uniqueWord('').toUpperCase()}`,
      type: 'Chemistry Analyzer',
    });
    expect(res.statusCode, res.body).toBe(201);
    machines.push(res.json().equipment.id as number);
  }
  // 160 runs over ten days: some at the same moment, some naming no machine, some overridden.
  const next = random(42);
  const base = Date.parse('2026-11-01T02:00:00.000Z');
  const rows = [];
  for (let i = 0; i < 160; i++) {
    const at = new Date(base + Math.floor(next() * 80) * 3 * 3600_000).toISOString();
    const failed = next() < 0.35;
    const pick = next();
    rows.push({
      organization_id: lab.organizationId,
      material_id: levels[next() < 0.5 ? 0 : 1]!.id,
      test_id: testId,
      value: 90,
      z_score: failed ? 3.4 : 0.2,
      status: failed ? 'failed' : 'passed',
      rules: JSON.stringify(failed ? ['1-3s'] : []),
      performed_at: at,
      created_at: at,
      equipment_id: pick < 0.25 ? null : machines[Math.floor(pick * 4) - 1]!,
      overridden_at: failed && next() < 0.2 ? at : null,
    });
  }
  await lab.database.db.insertInto('qc_runs').values(rows).execute();
});
afterAll(() => lab.close());

describe('QC state of a page of results', () => {
  it('is the same as each result judged on its own', async () => {
    const next = random(7);
    const base = Date.parse('2026-10-31T00:00:00.000Z');
    const items = Array.from({ length: 120 }, () => {
      const pick = next();
      return {
        testId,
        testName,
        // Whole hours from a day before the first run to a day after the last: on runs, between them, outside.
        at: new Date(base + Math.floor(next() * 13 * 24) * 3600_000).toISOString(),
        equipmentId: pick < 0.3 ? null : machines[Math.floor(pick * 3.99 - 0.9) % 3]!,
      };
    });
    const page = await qcStatusesOf(lab.database.db, lab.organizationId, items);
    const one = [];
    for (const i of items)
      one.push(
        await qcTestStatus(lab.database.db, lab.organizationId, testId, { at: i.at, equipmentId: i.equipmentId }),
      );
    expect(page).toEqual(one);
    // The history is rich enough to mean something: some results held, some not, on several machines.
    const held = page.filter((s) => s.held);
    expect(held.length).toBeGreaterThan(10);
    expect(page.length - held.length).toBeGreaterThan(10);
    expect(new Set(held.flatMap((s) => s.holds.map((h) => h.equipment_id))).size).toBeGreaterThan(2);
  });
});
