import type { Db } from '../db/connection.js';
import { NotFoundError, ValidationError } from '../errors.js';
import { nowIso } from '../context.js';
import { formatLabDateTime } from '../pdf/format.js';
import { findEquipmentRow } from '../equipment/repository.js';
import type { QcHold, QcTestStatus, QcTestStatusQuery } from '../../shared/schemas/qc.js';
import { parseRules } from './mappers.js';
import { testQcRules } from './repository.js';
import {
  activeLevelsOfTests,
  latestLevelRunAt,
  levelRunsAround,
  machinesOfLevel,
  type LevelRun,
  type QcLevelRow,
} from './gate-repository.js';
import { labCalendar } from './service.js';

/**
 * The QC gate on patient results. Westgard QC is judged per control level: a level that passes
 * says nothing about another that was rejected, so a result is held while the latest run of ANY
 * of its test's active levels, at or before the result's entry, is rejected and not overridden.
 * Levels recorded one at a time (a rejected Level 2, then a passing Level 1) still hold it.
 *
 * Machines: a result that names its machine is judged by the runs on that machine and those that
 * name none (they may have been on it); a result that names none by every machine the level ran
 * on, each with the runs that name none. A rejection on another analyser does not hold it.
 */
export async function qcTestStatus(
  db: Db,
  organizationId: number,
  testId: number,
  opts: { at: string; equipmentId: number | null },
): Promise<QcTestStatus> {
  const test = await testQcRules(db, organizationId, testId);
  if (!test) throw new NotFoundError('Test', testId);
  const levels = await activeLevelsOfTests(db, organizationId, [testId]);
  return judge(db, organizationId, { id: test.id, name: test.name }, levels, opts, {
    machines: (level, at) => machinesOfLevel(db, organizationId, level, at),
    latest: (level, at, machine) => latestLevelRunAt(db, organizationId, level, at, machine),
  });
}

/** Where a judgement reads a level's runs: the database, or the runs of a page read at once. */
interface RunSource {
  /** The machines the level was run on at or before the moment, by id (runs naming none left out). */
  machines(level: number, at: string): Promise<number[]> | number[];
  /** The latest run at or before the moment: on that machine or naming none; any, without one. */
  latest(level: number, at: string, machine: number | null): Promise<LevelRun | undefined> | LevelRun | undefined;
}

/** Later first: the order the database's "latest run" uses (time, then id). */
const later = (a: LevelRun, b: LevelRun) =>
  a.performed_at === b.performed_at ? b.id - a.id : a.performed_at < b.performed_at ? 1 : -1;

/** The same answers as the database's, from runs read once (levelRunsAround). */
function runHistory(runs: LevelRun[]): RunSource {
  const byLevel = new Map<number, LevelRun[]>();
  for (const r of [...runs].sort(later)) byLevel.set(r.material_id, [...(byLevel.get(r.material_id) ?? []), r]);
  const upTo = (level: number, at: string) => (byLevel.get(level) ?? []).filter((r) => r.performed_at <= at);
  return {
    machines: (level, at) =>
      [...new Set(upTo(level, at).flatMap((r) => (r.equipment_id === null ? [] : [r.equipment_id])))].sort(
        (a, b) => a - b,
      ),
    latest: (level, at, machine) =>
      upTo(level, at).find((r) => machine === null || r.equipment_id === machine || r.equipment_id === null),
  };
}

/**
 * The QC state of many results at once (a page of a list): the levels of their tests and every
 * run that can judge them are read in three queries, whatever the page holds.
 */
export async function qcStatusesOf(
  db: Db,
  organizationId: number,
  items: { testId: number; testName: string; at: string; equipmentId: number | null }[],
): Promise<QcTestStatus[]> {
  const levels = await activeLevelsOfTests(db, organizationId, [...new Set(items.map((i) => i.testId))]);
  const judged = items.filter((i) => levels.some((l) => l.test_id === i.testId)).map((i) => i.at);
  const runs = judged.length
    ? await levelRunsAround(
        db,
        organizationId,
        levels.map((l) => l.id),
        judged.reduce((a, b) => (a < b ? a : b)),
        judged.reduce((a, b) => (a > b ? a : b)),
      )
    : [];
  const history = runHistory(runs);
  const out: QcTestStatus[] = [];
  for (const i of items) {
    const own = levels.filter((l) => l.test_id === i.testId);
    out.push(await judge(db, organizationId, { id: i.testId, name: i.testName }, own, i, history));
  }
  return out;
}

async function judge(
  db: Db,
  organizationId: number,
  test: { id: number; name: string },
  levels: QcLevelRow[],
  opts: { at: string; equipmentId: number | null },
  source: RunSource,
): Promise<QcTestStatus> {
  const holds: QcHold[] = [];
  const seen = new Set<number>();
  for (const level of levels) {
    const machines = opts.equipmentId !== null ? [opts.equipmentId] : await source.machines(level.id, opts.at);
    for (const machine of machines.length ? machines : [null]) {
      const run = await source.latest(level.id, opts.at, machine);
      if (!run || run.status !== 'failed' || run.overridden_at || seen.has(run.id)) continue;
      seen.add(run.id);
      holds.push(await toHold(db, organizationId, level, run));
    }
  }
  return {
    test_id: test.id,
    test_name: test.name,
    as_of: opts.at,
    equipment_id: opts.equipmentId,
    held: holds.length > 0,
    message: holds.length ? await holdMessage(db, organizationId, test.name, holds) : null,
    holds,
  };
}

async function toHold(db: Db, organizationId: number, level: QcLevelRow, run: LevelRun): Promise<QcHold> {
  const rules = parseRules(run.rules);
  const rejecting = rules.filter((r) => r !== '1-2s');
  const machine = run.equipment_id === null ? null : await findEquipmentRow(db, organizationId, run.equipment_id);
  return {
    run_id: run.id,
    run_key: run.run_key,
    material_id: level.id,
    control_id: level.control_id,
    name: level.name,
    level: level.level,
    lot_number: level.lot_number,
    value: run.value,
    z_score: run.z_score,
    rules: rejecting.length ? rejecting : rules,
    performed_at: run.performed_at,
    equipment_id: run.equipment_id,
    equipment_name: machine?.name ?? null,
  };
}

/** "Level 2 (QC-2026-002, lot LOT002)": how staff find the control on the QC screen. */
export function holdLevelText(h: Pick<QcHold, 'level' | 'name' | 'control_id' | 'lot_number'>): string {
  return `${h.level ?? h.name} (${h.control_id}, lot ${h.lot_number})`;
}

async function holdMessage(db: Db, organizationId: number, testName: string, holds: QcHold[]): Promise<string> {
  const { dateFormat, timeZone } = await labCalendar(db, organizationId);
  // The levels of one run were judged together: one phrase per run.
  const runs = new Map<string, QcHold[]>();
  for (const h of holds) {
    const key = h.run_key ?? `r${h.run_id}`;
    runs.set(key, [...(runs.get(key) ?? []), h]);
  }
  const parts = [...runs.values()].map((levels) => {
    const h = levels[0]!;
    const where = h.equipment_name ? ` on ${h.equipment_name}` : '';
    return `${levels.map(holdLevelText).join(' and ')} ${h.rules.join(', ')} at ${formatLabDateTime(h.performed_at, dateFormat, timeZone)}${where}`;
  });
  return `QC of ${testName} was rejected: ${parts.join('; ')}. Results entered after it are held until the level passes a re-run (then re-enter or confirm the result) or a supervisor overrides the rejection`;
}

/** The QC state of a test as the API asks for it: now unless a moment is given, any machine unless one is. */
export async function testQcStatus(
  db: Db,
  organizationId: number,
  testId: number,
  q: QcTestStatusQuery,
): Promise<QcTestStatus> {
  const equipmentId = q.equipment_id ?? null;
  if (equipmentId !== null && !(await findEquipmentRow(db, organizationId, equipmentId)))
    throw ValidationError.field('equipment_id', `Unknown equipment ${equipmentId}`);
  const at = q.at ? new Date(q.at).toISOString() : nowIso();
  return qcTestStatus(db, organizationId, testId, { at, equipmentId });
}
