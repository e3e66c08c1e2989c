import { equipmentForEntry } from '../equipment/service.js';
import { randomUUID } from 'node:crypto';
import type { Db } from '../db/connection.js';
import type { Actor } from '../context.js';
import { nowIso } from '../context.js';
import { writeAudit } from '../audit/audit.js';
import { ConflictError, NotFoundError, ValidationError } from '../errors.js';
import { evaluateRun, zScore } from '../../shared/westgard.js';
import { roundQc, type QcRun, type QcTestRunCreate } from '../../shared/schemas/qc.js';
import { formatLabDateTime } from '../pdf/format.js';
import {
  findMaterial,
  insertRunRow,
  overrideRunRows,
  runsOfKey,
  selectLatestTestRuns,
  selectRunsByIds,
  testQcRules,
  type QcMaterialRow,
} from './repository.js';
import { materialStatus, newRunRow, toRun } from './mappers.js';
import { CLOCK_SKEW_MS, labCalendar, RULE_WINDOW } from './service.js';
import { rulesOfTest } from './rules.js';
import { qcTestStatus } from './gate.js';

/**
 * A QC run as Westgard means it: the control levels of a test measured together, judged together.
 * Within-run rules look across the levels (2-2s both beyond the same 2 SD, R-4s one above +2 SD and
 * one below -2 SD); across-run rules look at each level's series and at all levels in order.
 * Every level of a rejected run is rejected.
 */
export async function recordTestRun(
  db: Db,
  actor: Actor,
  input: QcTestRunCreate,
): Promise<{ runs: QcRun[]; status: string; rules: string[] }> {
  const { today, dateFormat, timeZone } = await labCalendar(db, actor.organizationId);
  const now = new Date();
  const performedAt = input.performed_at ? new Date(input.performed_at) : now;
  if (performedAt.getTime() > now.getTime() + CLOCK_SKEW_MS)
    throw ValidationError.field('performed_at', 'Performed at cannot be in the future');
  const ids = await db.transaction().execute(async (trx) => {
    const test = await testQcRules(trx, actor.organizationId, input.test_id);
    if (!test) throw ValidationError.field('test_id', `Unknown test ${input.test_id}`);
    const levels: { m: QcMaterialRow; value: number }[] = [];
    for (const [i, v] of input.values.entries()) {
      const m = await findMaterial(trx, actor.organizationId, v.material_id);
      if (!m || m.test_id !== test.id)
        throw ValidationError.field(
          `values.${i}.material_id`,
          `Control ${v.material_id} is not a control of ${test.name}`,
        );
      const status = materialStatus(m, today);
      if (status !== 'active')
        throw new ConflictError(
          `${m.control_id} (lot ${m.lot_number}) is ${status}; use a current control`,
          'QC_MATERIAL_NOT_ACTIVE',
        );
      levels.push({ m, value: v.value });
    }
    const earlier = await selectLatestTestRuns(trx, test.id, RULE_WINDOW * Math.max(levels.length, 1) * 2);
    const latest = earlier[0];
    if (latest && performedAt.toISOString() < latest.performed_at)
      throw ValidationError.field(
        'performed_at',
        `Performed at cannot be before the latest QC run of ${test.name} (${formatLabDateTime(latest.performed_at, dateFormat, timeZone)})`,
      );
    // Earlier runs grouped by run, newest first; each as the z of this run's levels (null if not run then).
    const z = (m: QcMaterialRow, v: number) => roundQc(zScore(v, m.target_mean, m.target_sd));
    const byKey = new Map<string, Map<number, number>>();
    for (const r of earlier) {
      const key = r.run_key ?? `r${r.id}`;
      if (!byKey.has(key)) byKey.set(key, new Map());
      byKey.get(key)!.set(r.material_id, r.value);
    }
    const history = [...byKey.values()].map((vals) =>
      levels.map(({ m }) => (vals.has(m.id) ? z(m, vals.get(m.id)!) : null)),
    );
    const current = levels.map(({ m, value }) => z(m, value));
    const verdict = evaluateRun([current, ...history], await rulesOfTest(trx, actor.organizationId, test.id));
    const runKey = randomUUID();
    const machine = input.equipment_id ? await equipmentForEntry(trx, actor.organizationId, input.equipment_id) : null;
    const out: number[] = [];
    for (const [i, { m, value }] of levels.entries()) {
      const row = await insertRunRow(
        trx,
        newRunRow(actor, {
          materialId: m.id,
          testId: test.id,
          value,
          zScore: current[i]!,
          verdict,
          comments: input.comments ?? null,
          performedAt,
          createdAt: nowIso(),
          runKey,
          machine,
        }),
      );
      out.push(row.id);
    }
    await writeAudit(trx, actor, {
      action: 'create',
      entity: 'qc_run',
      entityId: out[0]!,
      newValues: {
        test_id: test.id,
        run_key: runKey,
        levels: levels.map((l, i) => ({ control_id: l.m.control_id, value: l.value, z: current[i] })),
        ...verdict,
      },
    });
    return out;
  });
  const runs = (await selectRunsByIds(db, actor.organizationId, ids)).map(toRun);
  return { runs, status: runs[0]!.status, rules: runs[0]!.rules };
}

/**
 * Whether a patient result of a test may be verified: held while the latest run of any active
 * control level at or before its entry (on its machine, when it names one) is rejected and not
 * overridden (see gate.ts). The message names the level, lot and rules.
 */
export async function qcGate(
  db: Db,
  organizationId: number,
  testId: number,
  atIso: string,
  equipmentId: number | null = null,
): Promise<{ blocked: boolean; message?: string; runIds: number[] }> {
  const status = await qcTestStatus(db, organizationId, testId, { at: atIso, equipmentId });
  return status.held
    ? { blocked: true, message: status.message!, runIds: status.holds.map((h) => h.run_id) }
    : { blocked: false, runIds: [] };
}

/** A supervisor accepts a rejected QC run with a reason (kept on every level and in the audit trail). */
export async function overrideRun(db: Db, actor: Actor, runId: number, reason: string): Promise<QcRun[]> {
  const key = await db.transaction().execute(async (trx) => {
    const [row] = await selectRunsByIds(trx, actor.organizationId, [runId]);
    if (!row) throw new NotFoundError('QC run', runId);
    if (row.status !== 'failed')
      throw new ConflictError('Only a rejected QC run can be overridden', 'QC_RUN_NOT_FAILED');
    if (row.overridden_at) throw new ConflictError('This QC run is already overridden', 'QC_RUN_OVERRIDDEN');
    const runKey = row.run_key ?? `r${row.id}`;
    const now = nowIso();
    await overrideRunRows(trx, actor.organizationId, runKey, {
      override_reason: reason,
      overridden_by: actor.userId,
      overridden_at: now,
    });
    await writeAudit(trx, actor, {
      action: 'update',
      entity: 'qc_run',
      entityId: runId,
      oldValues: { status: 'failed', overridden: false },
      newValues: { overridden: true, override_reason: reason, run_key: runKey, performed_at: row.performed_at },
    });
    return runKey;
  });
  return (await runsOfKey(db, actor.organizationId, key)).map((r) =>
    toRun({ ...r, performer_first_name: null, performer_last_name: null }),
  );
}
