import type { Insertable } from 'kysely';
import { WESTGARD_RULES, passRate, type QcStatus, type RunVerdict, type WestgardRule } from '../../shared/westgard.js';
import type { Actor } from '../context.js';
import type { QcRunsTable } from './tables.js';
import {
  QC_CONTROL_TYPES,
  roundQc,
  type QcControlType,
  type QcMaterial,
  type QcMaterialStatus,
  type QcRun,
} from '../../shared/schemas/qc.js';
import type { QcMaterialListRow, QcMaterialRow, QcRunListRow } from './repository.js';

const DAY_MS = 86_400_000;

/** One control level's value as measured in a run, with the run's verdict and who did it where. */
export interface MeasuredLevel {
  materialId: number;
  testId: number;
  value: number;
  zScore: number;
  verdict: RunVerdict;
  comments: string | null;
  performedAt: Date;
  createdAt: string;
  runKey: string;
  machine: { id: number; warning: string | null } | null;
}

/**
 * The row of a new QC run level: a run of one material and a run of a test's levels store the
 * same thing (the levels of one run share `runKey`), and a new row is never overridden yet.
 */
export function newRunRow(actor: Actor, l: MeasuredLevel): Insertable<QcRunsTable> {
  return {
    organization_id: actor.organizationId,
    material_id: l.materialId,
    value: l.value,
    z_score: l.zScore,
    status: l.verdict.status,
    rules: JSON.stringify(l.verdict.rules),
    comments: l.comments,
    performed_by: actor.userId,
    performed_at: l.performedAt.toISOString(),
    created_at: l.createdAt,
    run_key: l.runKey,
    test_id: l.testId,
    override_reason: null,
    overridden_by: null,
    overridden_at: null,
    equipment_id: l.machine?.id ?? null,
    equipment_warning: l.machine?.warning ?? null,
  };
}

/** Whole days from `today` to `ymd` (both YYYY-MM-DD, calendar days, no time zone involved). */
export function daysBetween(today: string, ymd: string): number {
  const at = (d: string) => {
    const [y, m, day] = d.split('-').map(Number) as [number, number, number];
    return Date.UTC(y, m - 1, day);
  };
  return Math.round((at(ymd) - at(today)) / DAY_MS);
}

/** A material is usable through its expiry date; switched off wins over expired. */
export function materialStatus(row: Pick<QcMaterialRow, 'is_active' | 'expiry_date'>, today: string): QcMaterialStatus {
  if (!row.is_active) return 'inactive';
  return row.expiry_date < today ? 'expired' : 'active';
}

export function parseRules(text: string): WestgardRule[] {
  try {
    const parsed: unknown = JSON.parse(text);
    if (!Array.isArray(parsed)) return [];
    return parsed.filter((r): r is WestgardRule => (WESTGARD_RULES as readonly unknown[]).includes(r));
  } catch {
    return [];
  }
}

const STATUSES: readonly QcStatus[] = ['passed', 'warning', 'failed'];

export function toRun(r: QcRunListRow): QcRun {
  const name = [r.performer_first_name, r.performer_last_name].filter(Boolean).join(' ').trim();
  return {
    id: r.id,
    material_id: r.material_id,
    value: r.value,
    z_score: r.z_score,
    status: STATUSES.includes(r.status as QcStatus) ? (r.status as QcStatus) : 'failed',
    rules: parseRules(r.rules),
    comments: r.comments,
    performed_by: r.performed_by,
    performed_by_name: name || null,
    performed_at: r.performed_at,
    created_at: r.created_at,
    run_key: r.run_key,
    override_reason: r.override_reason,
    overridden_at: r.overridden_at,
    equipment_id: r.equipment_id ?? null,
    equipment_warning: r.equipment_warning ?? null,
  };
}

export function toMaterial(r: QcMaterialListRow, lastRun: QcRun | null, today: string): QcMaterial {
  const controlType: QcControlType = (QC_CONTROL_TYPES as readonly string[]).includes(r.control_type)
    ? (r.control_type as QcControlType)
    : 'Internal';
  return {
    id: r.id,
    control_id: r.control_id,
    name: r.name,
    test_id: r.test_id,
    test_name: r.test_name,
    test_code: r.test_code,
    level: r.level,
    control_type: controlType,
    lot_number: r.lot_number,
    expiry_date: r.expiry_date,
    target_mean: r.target_mean,
    target_sd: r.target_sd,
    acceptable_low: roundQc(r.target_mean - 2 * r.target_sd),
    acceptable_high: roundQc(r.target_mean + 2 * r.target_sd),
    unit: r.unit,
    is_active: Boolean(r.is_active),
    status: materialStatus(r, today),
    days_to_expiry: daysBetween(today, r.expiry_date),
    run_count: r.run_count,
    passed_count: r.passed_count,
    pass_rate: passRate(r.passed_count, r.run_count),
    last_run: lastRun,
    created_at: r.created_at,
    updated_at: r.updated_at,
  };
}

/** A date-only value in the lab's date format, for messages ("expired on 12/03/2025"). */
export function labDate(ymd: string, dateFormat: string): string {
  const [y, m, d] = ymd.split('-');
  if (dateFormat === 'MM/DD/YYYY') return `${m}/${d}/${y}`;
  if (dateFormat === 'YYYY-MM-DD') return ymd;
  return `${d}/${m}/${y}`;
}
