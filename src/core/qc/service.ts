import { equipmentForEntry } from '../equipment/service.js';
import type { Db } from '../db/connection.js';
import type { Actor } from '../context.js';
import { nowIso } from '../context.js';
import { diff, writeAudit } from '../audit/audit.js';
import { ConflictError, NotFoundError, ValidationError } from '../errors.js';
import { nextSequence } from '../sequences.js';
import { getOrganization } from '../settings/service.js';
import { addDays, localDate } from '../../shared/time.js';
import { formatLabDateTime } from '../pdf/format.js';
import { evaluateRun, passRate, zScore } from '../../shared/westgard.js';
import { randomUUID } from 'node:crypto';
import { rulesOfTest } from './rules.js';
import {
  QC_DEFAULT_EXPIRY_DAYS,
  QC_EXPIRY_WARNING_DAYS,
  roundQc,
  type QcMaterial,
  type QcMaterialCreate,
  type QcMaterialListQuery,
  type QcMaterialUpdate,
  type QcRun,
  type QcRunCreate,
  type QcSummary,
} from '../../shared/schemas/qc.js';
import {
  countRuns,
  findLabTest,
  findMaterial,
  findSameLot,
  runTallies,
  selectLatestRuns,
  selectMaterials,
  selectRuns,
  selectRunsByIds,
  type QcMaterialRow,
  insertMaterialRow,
  updateMaterialRow,
  deleteMaterialRow,
  insertRunRow,
} from './repository.js';
import { labDate, materialStatus, newRunRow, toMaterial, toRun } from './mappers.js';

/** 12-x, the longest rule, reads the new run and the eleven before it. */
export const RULE_WINDOW = 12;
/** Clocks of the browser and the server differ a little; a run "now" must not be refused as future. */
export const CLOCK_SKEW_MS = 5 * 60_000;

export async function labCalendar(db: Db, organizationId: number) {
  const org = await getOrganization(db, organizationId);
  return { today: localDate(org.timezone), dateFormat: org.date_format, timeZone: org.timezone };
}

async function materials(db: Db, organizationId: number, q: QcMaterialListQuery & { id?: number }, today: string) {
  const rows = await selectMaterials(db, organizationId, q, today);
  const lastIds = rows.map((r) => r.last_run_id).filter((id): id is number => id !== null);
  const last = new Map((await selectRunsByIds(db, organizationId, lastIds)).map((r) => [r.id, toRun(r)]));
  return rows.map((r) => toMaterial(r, r.last_run_id === null ? null : (last.get(r.last_run_id) ?? null), today));
}

export async function listMaterials(db: Db, organizationId: number, q: QcMaterialListQuery): Promise<QcMaterial[]> {
  const { today } = await labCalendar(db, organizationId);
  return materials(db, organizationId, q, today);
}

export async function getMaterial(db: Db, organizationId: number, id: number): Promise<QcMaterial> {
  const { today } = await labCalendar(db, organizationId);
  const [m] = await materials(db, organizationId, { id }, today);
  if (!m) throw new NotFoundError('QC material', id);
  return m;
}

async function assertTest(trx: Db, organizationId: number, testId: number) {
  const test = await findLabTest(trx, organizationId, testId);
  if (!test) throw ValidationError.field('test_id', `Test ${testId} does not exist in this lab`);
  return test;
}

async function assertLotFree(
  trx: Db,
  organizationId: number,
  key: { test_id: number; lot_number: string; level: string | null },
  exceptId?: number,
) {
  const same = await findSameLot(trx, organizationId, key, exceptId);
  if (same) {
    const level = key.level ? ` at ${key.level}` : '';
    throw new ConflictError(
      `Lot ${key.lot_number}${level} of this test is already recorded as ${same.control_id}`,
      'LOT_TAKEN',
    );
  }
}

/** LOT + 3-digit per-lab sequence, skipping any number staff already typed in by hand for this test and level. */
async function defaultLot(trx: Db, organizationId: number, testId: number, level: string | null): Promise<string> {
  for (;;) {
    const lot = `LOT${String(await nextSequence(trx, organizationId, 'qc_lot')).padStart(3, '0')}`;
    if (!(await findSameLot(trx, organizationId, { test_id: testId, lot_number: lot, level }))) return lot;
  }
}

export async function createMaterial(db: Db, actor: Actor, input: QcMaterialCreate): Promise<QcMaterial> {
  const { today } = await labCalendar(db, actor.organizationId);
  if (input.expiry_date !== undefined && input.expiry_date < today) {
    throw ValidationError.field('expiry_date', 'Expiry date cannot be in the past');
  }
  const id = await db.transaction().execute(async (trx) => {
    const test = await assertTest(trx, actor.organizationId, input.test_id);
    const level = input.level ?? null;
    const lot = input.lot_number ?? (await defaultLot(trx, actor.organizationId, input.test_id, level));
    if (input.lot_number)
      await assertLotFree(trx, actor.organizationId, { test_id: input.test_id, lot_number: lot, level });
    const year = today.slice(0, 4);
    const seq = await nextSequence(trx, actor.organizationId, `qc_control:${year}`);
    const now = nowIso();
    const row = await insertMaterialRow(trx, {
      organization_id: actor.organizationId,
      control_id: `QC-${year}-${String(seq).padStart(3, '0')}`,
      name: input.name,
      test_id: input.test_id,
      level,
      control_type: input.control_type,
      lot_number: lot,
      expiry_date: input.expiry_date ?? addDays(today, QC_DEFAULT_EXPIRY_DAYS),
      target_mean: input.target_mean,
      target_sd: input.target_sd,
      // A control is measured in its test's unit unless the form says otherwise.
      unit: input.unit ?? test.unit ?? null,
      is_active: 1,
      created_at: now,
      updated_at: now,
    });
    await writeAudit(trx, actor, { action: 'create', entity: 'qc_material', entityId: row.id, newValues: row });
    return row.id;
  });
  return getMaterial(db, actor.organizationId, id);
}

export async function updateMaterial(db: Db, actor: Actor, id: number, input: QcMaterialUpdate): Promise<QcMaterial> {
  const { today } = await labCalendar(db, actor.organizationId);
  await db.transaction().execute(async (trx) => {
    const before = await findMaterial(trx, actor.organizationId, id);
    if (!before) throw new NotFoundError('QC material', id);
    const patch: Partial<QcMaterialRow> = {};
    if (input.name !== undefined) patch.name = input.name;
    if (input.level !== undefined) patch.level = input.level ?? null;
    if (input.control_type !== undefined) patch.control_type = input.control_type;
    if (input.lot_number !== undefined) patch.lot_number = input.lot_number;
    if (input.expiry_date !== undefined) patch.expiry_date = input.expiry_date;
    if (input.target_mean !== undefined) patch.target_mean = input.target_mean;
    if (input.target_sd !== undefined) patch.target_sd = input.target_sd;
    if (input.unit !== undefined) patch.unit = input.unit ?? null;
    if (input.is_active !== undefined) patch.is_active = input.is_active ? 1 : 0;
    if (input.test_id !== undefined && input.test_id !== before.test_id) {
      // Runs already judged against this test's targets would silently belong to another test.
      const runs = await countRuns(trx, id);
      if (runs > 0) {
        throw new ConflictError(
          `${before.control_id} has ${runs} run(s); its test cannot change. Add a new control material instead`,
          'IN_USE',
        );
      }
      await assertTest(trx, actor.organizationId, input.test_id);
      patch.test_id = input.test_id;
    }
    if (patch.expiry_date !== undefined && patch.expiry_date !== before.expiry_date && patch.expiry_date < today) {
      throw ValidationError.field('expiry_date', 'Expiry date cannot be in the past');
    }
    const key = {
      test_id: patch.test_id ?? before.test_id,
      lot_number: patch.lot_number ?? before.lot_number,
      level: patch.level !== undefined ? patch.level : before.level,
    };
    await assertLotFree(trx, actor.organizationId, key, id);
    const after = await updateMaterialRow(trx, actor.organizationId, id, { ...patch, updated_at: nowIso() });
    const { oldValues, newValues } = diff(before, after);
    delete oldValues.updated_at;
    delete newValues.updated_at;
    if (Object.keys(newValues).length > 0) {
      await writeAudit(trx, actor, { action: 'update', entity: 'qc_material', entityId: id, oldValues, newValues });
    }
  });
  return getMaterial(db, actor.organizationId, id);
}

export async function deleteMaterial(db: Db, actor: Actor, id: number): Promise<QcMaterial> {
  const material = await getMaterial(db, actor.organizationId, id);
  await db.transaction().execute(async (trx) => {
    const before = await findMaterial(trx, actor.organizationId, id);
    if (!before) throw new NotFoundError('QC material', id);
    const runs = await countRuns(trx, id);
    if (runs > 0) {
      throw new ConflictError(
        `${before.control_id} has ${runs} QC run(s); deactivate it instead of deleting it`,
        'IN_USE',
      );
    }
    await deleteMaterialRow(trx, actor.organizationId, id);
    await writeAudit(trx, actor, { action: 'delete', entity: 'qc_material', entityId: id, oldValues: before });
  });
  return material;
}

export async function listRuns(
  db: Db,
  organizationId: number,
  materialId: number,
): Promise<{ material: QcMaterial; runs: QcRun[] }> {
  const material = await getMaterial(db, organizationId, materialId);
  const runs = (await selectRuns(db, organizationId, materialId)).map(toRun);
  return { material, runs };
}

/**
 * Records a control value and judges it on entry: its z-score against the material's target and
 * the Westgard rules over it and this material's earlier runs (one material is one lot of one
 * level, so the history never mixes lots). Runs are entered in order: one dated before the latest
 * recorded run would leave that later run judged without it.
 */
export async function recordRun(
  db: Db,
  actor: Actor,
  materialId: number,
  input: QcRunCreate,
): Promise<{ run: QcRun; material: QcMaterial }> {
  const { today, dateFormat, timeZone } = await labCalendar(db, actor.organizationId);
  const now = new Date();
  const performedAt = input.performed_at ? new Date(input.performed_at) : now;
  if (performedAt.getTime() > now.getTime() + CLOCK_SKEW_MS) {
    throw ValidationError.field('performed_at', 'Performed at cannot be in the future');
  }
  const runId = await db.transaction().execute(async (trx) => {
    const m = await findMaterial(trx, actor.organizationId, materialId);
    if (!m) throw new NotFoundError('QC material', materialId);
    const status = materialStatus(m, today);
    if (status === 'inactive') {
      throw new ConflictError(
        `${m.control_id} (lot ${m.lot_number}) is inactive; activate it before recording runs`,
        'QC_MATERIAL_INACTIVE',
      );
    }
    if (status === 'expired') {
      throw new ConflictError(
        `${m.control_id} (lot ${m.lot_number}) expired on ${labDate(m.expiry_date, dateFormat)}; record runs on a current lot`,
        'QC_MATERIAL_EXPIRED',
      );
    }
    const earlier = await selectLatestRuns(trx, materialId, RULE_WINDOW - 1);
    const latest = earlier[0];
    if (latest && performedAt.toISOString() < latest.performed_at) {
      throw ValidationError.field(
        'performed_at',
        `Performed at cannot be before the latest run of ${m.control_id} (${formatLabDateTime(latest.performed_at, dateFormat, timeZone)})`,
      );
    }
    // Earlier values are judged against today's target, so a corrected target applies to the whole series.
    const z = (v: number) => roundQc(zScore(v, m.target_mean, m.target_sd));
    const zs = [z(input.value), ...earlier.map((r) => z(r.value))];
    const verdict = evaluateRun(
      zs.map((v) => [v]),
      await rulesOfTest(trx, actor.organizationId, m.test_id),
    );
    const machine = input.equipment_id ? await equipmentForEntry(trx, actor.organizationId, input.equipment_id) : null;
    const row = await insertRunRow(
      trx,
      newRunRow(actor, {
        materialId,
        testId: m.test_id,
        value: input.value,
        zScore: zs[0]!,
        verdict,
        comments: input.comments ?? null,
        performedAt,
        createdAt: nowIso(),
        runKey: randomUUID(),
        machine,
      }),
    );
    await writeAudit(trx, actor, {
      action: 'create',
      entity: 'qc_run',
      entityId: row.id,
      newValues: { ...row, control_id: m.control_id, lot_number: m.lot_number },
    });
    return row.id;
  });
  const [runRow] = await selectRunsByIds(db, actor.organizationId, [runId]);
  return { run: toRun(runRow!), material: await getMaterial(db, actor.organizationId, materialId) };
}

export async function qcSummary(db: Db, organizationId: number): Promise<QcSummary> {
  const { today } = await labCalendar(db, organizationId);
  const tallies = await runTallies(db, organizationId);
  const passed = tallies.passed ?? 0;
  const warnings = tallies.warning ?? 0;
  const failed = tallies.failed ?? 0;
  const total = passed + warnings + failed;
  const all = await selectMaterials(db, organizationId, {}, today);
  const active = all.filter((m) => materialStatus(m, today) === 'active');
  const horizon = addDays(today, QC_EXPIRY_WARNING_DAYS);
  const expiring = active
    .filter((m) => m.expiry_date <= horizon)
    .sort((a, b) => a.expiry_date.localeCompare(b.expiry_date))
    .map((m) => toMaterial(m, null, today))
    .map(({ id, control_id, name, test_name, lot_number, expiry_date, days_to_expiry }) => ({
      id,
      control_id,
      name,
      test_name,
      lot_number,
      expiry_date,
      days_to_expiry,
    }));
  return {
    total_runs: total,
    passed,
    warnings,
    failed,
    pass_rate: passRate(passed, total),
    active_materials: active.length,
    expired_materials: all.filter((m) => materialStatus(m, today) === 'expired').length,
    expiring_soon: expiring,
  };
}

export { qcGate } from './runs.js';
export { qcStatusesOf, qcTestStatus } from './gate.js';
