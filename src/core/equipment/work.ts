import type { Db } from '../db/connection.js';
import type { Actor } from '../context.js';
import { diff, writeAudit } from '../audit/audit.js';
import { ConflictError, NotFoundError, ValidationError } from '../errors.js';
import { equipmentNow } from './clock.js';
import { labDay } from './service.js';
import { deleteFileRow, findEquipmentRow } from './repository.js';
import {
  deleteServiceRow,
  findServiceRow,
  insertServiceRow,
  selectServicePage,
  serviceCounts,
  type ServiceRow,
} from './service-repository.js';
import { serviceAuditValues, toCalibration, toMaintenance } from './mappers.js';
import { updateLabRow } from '../db/lab-row.js';
import { rupeesToPaise } from '../../shared/money.js';
import { addDays, localDate, startOfLocalDayUtc } from '../../shared/time.js';
import { pageEnvelope } from '../../shared/schemas/common.js';
import {
  UPCOMING_DAYS,
  type Calibration,
  type CalibrationCreate,
  type Maintenance,
  type ServiceComplete,
  type ServiceKind,
  type ServiceListQuery,
  type ServiceSummary,
} from '../../shared/schemas/equipment.js';

/**
 * Calibration and maintenance work (one shape, `kind` apart): schedule with a due date and an
 * interval, record the work, the next record scheduled from the interval. Overdue and upcoming
 * are computed from the lab's today (the equipment clock).
 */

export type ServiceCreate = CalibrationCreate;
export type ServiceUpdate = {
  type?: string;
  due_date?: string;
  interval_days?: number | null;
  description?: string | null;
  status?: 'scheduled' | 'in_progress' | 'cancelled';
};

type Out<K extends ServiceKind> = K extends 'calibration' ? Calibration : Maintenance;

const LABEL: Record<ServiceKind, string> = { calibration: 'Calibration', maintenance: 'Maintenance' };

export function toService<K extends ServiceKind>(kind: K, r: ServiceRow, today: string): Out<K> {
  return (kind === 'calibration' ? toCalibration(r, today) : toMaintenance(r, today)) as Out<K>;
}

async function requireService(db: Db, organizationId: number, kind: ServiceKind, id: number, today: string) {
  const row = await findServiceRow(db, organizationId, kind, id, today);
  if (!row) throw new NotFoundError(LABEL[kind], id);
  return row;
}

export async function listServices<K extends ServiceKind>(
  db: Db,
  organizationId: number,
  kind: K,
  q: ServiceListQuery,
) {
  const { today } = await labDay(db, organizationId);
  const { rows, total } = await selectServicePage(db, organizationId, kind, q, today, addDays(today, UPCOMING_DAYS));
  return { rows: rows.map((r) => toService(kind, r, today)), ...pageEnvelope(total, q.page, q.limit) };
}

export async function getService<K extends ServiceKind>(
  db: Db,
  organizationId: number,
  kind: K,
  id: number,
): Promise<Out<K>> {
  const { today } = await labDay(db, organizationId);
  return toService(kind, await requireService(db, organizationId, kind, id, today), today);
}

export async function serviceSummary(db: Db, organizationId: number, kind: ServiceKind): Promise<ServiceSummary> {
  const { today, timeZone } = await labDay(db, organizationId);
  const monthFrom = startOfLocalDayUtc(timeZone, `${today.slice(0, 8)}01`).toISOString();
  const c = await serviceCounts(db, organizationId, kind, today, addDays(today, UPCOMING_DAYS), monthFrom);
  const { cost_month_paise, ...rest } = c;
  return {
    ...rest,
    certificates: kind === 'calibration' ? c.certificates : 0,
    cost_this_month: cost_month_paise / 100,
  };
}

export async function createService<K extends ServiceKind>(
  db: Db,
  actor: Actor,
  kind: K,
  input: ServiceCreate,
): Promise<Out<K>> {
  const id = await db.transaction().execute((trx) => insertService(trx, actor, kind, input));
  return getService(db, actor.organizationId, kind, id);
}

/** Inside an open transaction: a scheduled record (its due date may be past: overdue at once), audited. */
export async function insertService(
  trx: Db,
  actor: Actor,
  kind: ServiceKind,
  input: ServiceCreate,
  done?: {
    performed_by: string;
    performed_at: string;
    accuracy: number | null;
    cost_paise: number | null;
    next_due: string | null;
  },
  /** An open record's stored status (an import brings in-progress and cancelled records as they were). */
  openStatus: 'scheduled' | 'in_progress' | 'cancelled' = 'scheduled',
): Promise<number> {
  const e = await findEquipmentRow(trx, actor.organizationId, input.equipment_id);
  if (!e) throw ValidationError.field('equipment_id', `Unknown equipment ${input.equipment_id}`);
  const now = equipmentNow().toISOString();
  const { id } = await insertServiceRow(trx, {
    organization_id: actor.organizationId,
    equipment_id: e.id,
    kind,
    type: input.type,
    status: done ? 'completed' : openStatus,
    due_date: input.due_date,
    interval_days: input.interval_days ?? null,
    performed_by: done?.performed_by ?? null,
    performed_at: done?.performed_at ?? null,
    accuracy: done?.accuracy ?? null,
    cost_paise: done?.cost_paise ?? null,
    description: input.description ?? null,
    next_due: done?.next_due ?? null,
    certificate_id: null,
    created_by: actor.userId,
    created_at: now,
    updated_at: now,
  });
  const { today } = await labDay(trx, actor.organizationId);
  const row = await requireService(trx, actor.organizationId, kind, id, today);
  await writeAudit(trx, actor, { action: 'create', entity: kind, entityId: id, newValues: serviceAuditValues(row) });
  return id;
}

const isOpen = (r: ServiceRow) => r.set_status === 'scheduled' || r.set_status === 'in_progress';

export async function updateService<K extends ServiceKind>(
  db: Db,
  actor: Actor,
  kind: K,
  id: number,
  input: ServiceUpdate,
): Promise<Out<K>> {
  await db.transaction().execute(async (trx) => {
    const { today } = await labDay(trx, actor.organizationId);
    const before = await requireService(trx, actor.organizationId, kind, id, today);
    if (
      !isOpen(before) &&
      (input.due_date !== undefined || input.interval_days !== undefined || input.type !== undefined || input.status)
    )
      throw new ConflictError(
        `${LABEL[kind]} ${id} is ${before.set_status}; only its description can change`,
        'SERVICE_CLOSED',
      );
    await updateLabRow(trx, 'equipment_services', actor.organizationId, id, {
      ...(input.type !== undefined && { type: input.type }),
      ...(input.due_date !== undefined && { due_date: input.due_date }),
      ...(input.interval_days !== undefined && { interval_days: input.interval_days }),
      ...(input.description !== undefined && { description: input.description ?? null }),
      ...(input.status && { status: input.status }),
      updated_at: equipmentNow().toISOString(),
    });
    const after = await requireService(trx, actor.organizationId, kind, id, today);
    const { oldValues, newValues } = diff(serviceAuditValues(before), serviceAuditValues(after));
    if (Object.keys(newValues).length)
      await writeAudit(trx, actor, { action: 'update', entity: kind, entityId: id, oldValues, newValues });
  });
  return getService(db, actor.organizationId, kind, id);
}

/** "2026-11-20" is that day's start in the lab; a date and time is taken as given. Not in the future. */
function performedInstant(value: string | undefined, timeZone: string, now: Date): Date {
  if (!value) return now;
  const at = /^\d{4}-\d{2}-\d{2}$/.test(value) ? startOfLocalDayUtc(timeZone, value) : new Date(value);
  if (at.getTime() > now.getTime() + 5 * 60_000)
    throw ValidationError.field('performed_at', 'Performed at cannot be in the future');
  return at;
}

/**
 * Records the work of an open record. With an interval, the next record is scheduled for the
 * performed day (in the lab) + interval, and the completed one keeps it as next_due.
 */
export async function completeService<K extends ServiceKind>(
  db: Db,
  actor: Actor,
  kind: K,
  id: number,
  input: ServiceComplete,
): Promise<{ done: Out<K>; next: Out<K> | null }> {
  const nextId = await db.transaction().execute(async (trx) => {
    const { today, timeZone, now } = await labDay(trx, actor.organizationId);
    const before = await requireService(trx, actor.organizationId, kind, id, today);
    if (!isOpen(before))
      throw new ConflictError(`${LABEL[kind]} ${id} is already ${before.set_status}`, 'SERVICE_CLOSED');
    const at = performedInstant(input.performed_at, timeZone, now);
    const nextDue = before.interval_days ? addDays(localDate(timeZone, at), Number(before.interval_days)) : null;
    await updateLabRow(trx, 'equipment_services', actor.organizationId, id, {
      status: 'completed',
      performed_by: input.performed_by,
      performed_at: at.toISOString(),
      ...(kind === 'calibration'
        ? { accuracy: input.accuracy ?? null }
        : { cost_paise: input.cost == null ? null : rupeesToPaise(input.cost) }),
      ...(input.description !== undefined && input.description !== null && { description: input.description }),
      next_due: nextDue,
      updated_at: now.toISOString(),
    });
    const after = await requireService(trx, actor.organizationId, kind, id, today);
    const { oldValues, newValues } = diff(serviceAuditValues(before), serviceAuditValues(after));
    await writeAudit(trx, actor, {
      action: 'update',
      entity: kind,
      entityId: id,
      oldValues,
      newValues: { ...newValues, completed: true },
    });
    if (!nextDue) return null;
    return insertService(trx, actor, kind, {
      equipment_id: before.equipment_id,
      type: before.type as ServiceCreate['type'],
      due_date: nextDue,
      interval_days: Number(before.interval_days),
      description: null,
    });
  });
  return {
    done: await getService(db, actor.organizationId, kind, id),
    next: nextId === null ? null : await getService(db, actor.organizationId, kind, nextId),
  };
}

/** Erases a scheduled or cancelled record (a mistake); completed work stays on record. */
export async function deleteService<K extends ServiceKind>(db: Db, actor: Actor, kind: K, id: number): Promise<Out<K>> {
  const out = await getService(db, actor.organizationId, kind, id);
  await db.transaction().execute(async (trx) => {
    const { today } = await labDay(trx, actor.organizationId);
    const row = await requireService(trx, actor.organizationId, kind, id, today);
    if (row.set_status === 'completed')
      throw new ConflictError(`${LABEL[kind]} ${id} is completed work and stays on record`, 'SERVICE_COMPLETED');
    await deleteServiceRow(trx, actor.organizationId, id);
    if (row.certificate_id !== null) await deleteFileRow(trx, actor.organizationId, row.certificate_id);
    await writeAudit(trx, actor, { action: 'delete', entity: kind, entityId: id, oldValues: serviceAuditValues(row) });
  });
  return out;
}
