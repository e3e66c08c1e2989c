import type { Db } from '../db/connection.js';
import type { Actor } from '../context.js';
import { diff, writeAudit } from '../audit/audit.js';
import { ConflictError, NotFoundError, ValidationError } from '../errors.js';
import { organizationTimezone } from '../settings/service.js';
import { equipmentNow } from './clock.js';
import {
  deleteEquipmentRow,
  equipmentRowsAfter,
  findEquipmentRow,
  historySince,
  insertEquipmentRow,
  insertStatusHistory,
  latestReadings,
  referencesTo,
  selectAllEquipment,
  selectEquipmentPage,
  selectStatusHistory,
  serialTaken,
  testCountsSince,
} from './repository.js';
import { cancelOpenServices, serviceCounts, serviceDatesOf } from './service-repository.js';
import { updateLabRow } from '../db/lab-row.js';
import { equipmentAuditValues, toEquipment, type EquipmentRow, type Performance } from './mappers.js';
import { addDays, localDate } from '../../shared/time.js';
import { pageEnvelope } from '../../shared/schemas/common.js';
import {
  EQUIPMENT_STATUSES,
  PERFORMANCE_WINDOW_DAYS,
  UPCOMING_DAYS,
  type Equipment,
  type EquipmentCreate,
  type EquipmentListQuery,
  type EquipmentPage,
  type EquipmentStatusChange,
  type EquipmentSummary,
  type EquipmentUpdate,
  type StatusHistoryEntry,
} from '../../shared/schemas/equipment.js';

/** The lab's time zone and today by the equipment clock. */
export async function labDay(db: Db, organizationId: number) {
  const timeZone = await organizationTimezone(db, organizationId);
  const now = equipmentNow();
  return { timeZone, now, today: localDate(timeZone, now) };
}

/**
 * Uptime and tests per hour over the window (PERFORMANCE_WINDOW_DAYS, or since registration):
 * the time in status operational by the status history, and the results and QC runs naming it.
 */
function performanceOf(
  r: EquipmentRow,
  history: { status: string; changed_at: string; id: number }[],
  tests: number,
  now: Date,
): Performance {
  const windowStart = Math.max(now.getTime() - PERFORMANCE_WINDOW_DAYS * 86_400_000, Date.parse(r.created_at));
  const span = now.getTime() - windowStart;
  if (span < 60_000) return { uptime: null, tests_per_hour: null, tests_in_window: tests };
  const entries = [...history].sort((a, b) => a.changed_at.localeCompare(b.changed_at) || a.id - b.id);
  let operationalMs = 0;
  for (let i = 0; i < entries.length; i++) {
    const from = Math.max(Date.parse(entries[i]!.changed_at), windowStart);
    const to = Math.min(i + 1 < entries.length ? Date.parse(entries[i + 1]!.changed_at) : now.getTime(), now.getTime());
    if (entries[i]!.status === 'operational' && to > from) operationalMs += to - from;
  }
  const hours = operationalMs / 3_600_000;
  return {
    uptime: Math.round((operationalMs / span) * 1000) / 10,
    tests_per_hour: hours >= 1 / 60 ? Math.round((tests / hours) * 10) / 10 : null,
    tests_in_window: tests,
  };
}

/** The API objects of these rows: service dates, latest reading, uptime and tests per hour. */
async function toEquipmentList(db: Db, organizationId: number, rows: EquipmentRow[]): Promise<Equipment[]> {
  const { now, today } = await labDay(db, organizationId);
  const ids = rows.map((r) => r.id);
  const since = new Date(now.getTime() - PERFORMANCE_WINDOW_DAYS * 86_400_000).toISOString();
  const [dates, readings, history, tests] = await Promise.all([
    serviceDatesOf(db, organizationId, ids, today),
    latestReadings(db, organizationId, ids),
    historySince(db, organizationId, ids, since),
    testCountsSince(db, organizationId, ids, since),
  ]);
  return rows.map((r) =>
    toEquipment(
      r,
      today,
      dates.get(r.id),
      readings.get(r.id),
      performanceOf(
        r,
        history.filter((h) => h.equipment_id === r.id),
        tests.get(r.id) ?? 0,
        now,
      ),
    ),
  );
}

export async function requireRow(db: Db, organizationId: number, id: number): Promise<EquipmentRow> {
  const row = await findEquipmentRow(db, organizationId, id);
  if (!row) throw new NotFoundError('Equipment', id);
  return row;
}

export async function listEquipment(db: Db, organizationId: number, q: EquipmentListQuery): Promise<EquipmentPage> {
  const { today } = await labDay(db, organizationId);
  const { rows, total } = await selectEquipmentPage(db, organizationId, q, today);
  return { equipment: await toEquipmentList(db, organizationId, rows), ...pageEnvelope(total, q.page, q.limit) };
}

export async function getEquipment(db: Db, organizationId: number, id: number): Promise<Equipment> {
  const [e] = await toEquipmentList(db, organizationId, [await requireRow(db, organizationId, id)]);
  return e!;
}

export async function equipmentSummary(db: Db, organizationId: number, kind?: string): Promise<EquipmentSummary> {
  const rows = await selectAllEquipment(db, organizationId, kind);
  const list = await toEquipmentList(db, organizationId, rows);
  const { today, timeZone, now } = await labDay(db, organizationId);
  const by = Object.fromEntries(EQUIPMENT_STATUSES.map((s) => [s, 0])) as EquipmentSummary['by_status'];
  for (const e of list) by[e.status] += 1;
  const uptimes = list.map((e) => e.uptime).filter((u): u is number => u !== null);
  const upcomingTo = addDays(today, UPCOMING_DAYS);
  void timeZone;
  void now;
  return {
    total: list.length,
    by_status: by,
    average_uptime: uptimes.length ? Math.round((uptimes.reduce((a, b) => a + b, 0) / uptimes.length) * 10) / 10 : null,
    tests_in_window: list.reduce((n, e) => n + e.tests_in_window, 0),
    window_days: PERFORMANCE_WINDOW_DAYS,
    calibration_overdue: list.filter((e) => e.calibration_overdue).length,
    maintenance_overdue: list.filter((e) => e.maintenance_overdue).length,
    maintenance_upcoming: list.filter(
      (e) => e.next_maintenance !== null && e.next_maintenance >= today && e.next_maintenance <= upcomingTo,
    ).length,
    readings_out_of_range: list.filter((e) => e.reading_out_of_range).length,
    locations: [...new Set(list.map((e) => e.location).filter((l): l is string => !!l))].sort(),
    types: [...new Set(list.map((e) => e.type).filter((t): t is string => !!t))].sort(),
  };
}

export async function createEquipment(db: Db, actor: Actor, input: EquipmentCreate): Promise<Equipment> {
  const id = await db.transaction().execute((trx) => insertEquipment(trx, actor, input));
  return getEquipment(db, actor.organizationId, id);
}

/** Inside an open transaction: the equipment, its first status history entry, audited (an import adds many). */
export async function insertEquipment(trx: Db, actor: Actor, input: EquipmentCreate): Promise<number> {
  if (await serialTaken(trx, actor.organizationId, input.serial_number))
    throw new ConflictError(
      `Equipment with serial number ${input.serial_number} is already registered`,
      'SERIAL_TAKEN',
    );
  const now = equipmentNow().toISOString();
  const row = await insertEquipmentRow(trx, {
    organization_id: actor.organizationId,
    kind: input.kind,
    name: input.name,
    model: input.model ?? null,
    serial_number: input.serial_number,
    type: input.type ?? null,
    location: input.location ?? null,
    status: input.status,
    installed_on: input.installed_on ?? null,
    supplier: input.supplier ?? null,
    warranty_end: input.warranty_end ?? null,
    min_temperature: input.min_temperature ?? null,
    max_temperature: input.max_temperature ?? null,
    min_humidity: input.min_humidity ?? null,
    max_humidity: input.max_humidity ?? null,
    notes: input.notes ?? null,
    archived_at: null,
    created_at: now,
    updated_at: now,
  });
  await insertStatusHistory(trx, {
    organization_id: actor.organizationId,
    equipment_id: row.id,
    status: row.status,
    previous_status: null,
    reason: 'Registered',
    changed_by: actor.userId,
    changed_at: now,
  });
  await writeAudit(trx, actor, {
    action: 'create',
    entity: 'equipment',
    entityId: row.id,
    newValues: equipmentAuditValues(row),
  });
  return row.id;
}

export async function updateEquipment(db: Db, actor: Actor, id: number, input: EquipmentUpdate): Promise<Equipment> {
  await db.transaction().execute((trx) => applyEquipmentUpdate(trx, actor, id, input));
  return getEquipment(db, actor.organizationId, id);
}

/** Inside an open transaction: changes the given fields, a status change into the history, audited. */
export async function applyEquipmentUpdate(trx: Db, actor: Actor, id: number, input: EquipmentUpdate): Promise<void> {
  const before = await requireRow(trx, actor.organizationId, id);
  if (input.serial_number !== undefined && (await serialTaken(trx, actor.organizationId, input.serial_number, id)))
    throw new ConflictError(
      `Equipment with serial number ${input.serial_number} is already registered`,
      'SERIAL_TAKEN',
    );
  const merged = {
    min_temperature: input.min_temperature === undefined ? before.min_temperature : input.min_temperature,
    max_temperature: input.max_temperature === undefined ? before.max_temperature : input.max_temperature,
    min_humidity: input.min_humidity === undefined ? before.min_humidity : input.min_humidity,
    max_humidity: input.max_humidity === undefined ? before.max_humidity : input.max_humidity,
  };
  if (
    merged.min_temperature != null &&
    merged.max_temperature != null &&
    merged.min_temperature > merged.max_temperature
  )
    throw ValidationError.field('max_temperature', 'Maximum temperature must not be below the minimum');
  if (merged.min_humidity != null && merged.max_humidity != null && merged.min_humidity > merged.max_humidity)
    throw ValidationError.field('max_humidity', 'Maximum humidity must not be below the minimum');
  const type = input.type === undefined ? before.type : input.type;
  if (
    before.kind === 'instrument' &&
    type != null &&
    !['Imaging', 'Analytical', 'Measurement', 'Environmental'].includes(type)
  )
    throw ValidationError.field(
      'type',
      'Instrument type must be one of Imaging, Analytical, Measurement, Environmental',
    );
  const now = equipmentNow().toISOString();
  const pick = <K extends keyof EquipmentUpdate & keyof EquipmentRow>(k: K) =>
    input[k] === undefined ? {} : { [k]: input[k] ?? null };
  await updateLabRow(trx, 'equipment', actor.organizationId, id, {
    ...pick('name'),
    ...pick('model'),
    ...pick('serial_number'),
    ...pick('type'),
    ...pick('location'),
    ...pick('installed_on'),
    ...pick('supplier'),
    ...pick('warranty_end'),
    ...pick('notes'),
    ...merged,
    ...(input.status ? { status: input.status } : {}),
    updated_at: now,
  });
  if (input.status && input.status !== before.status) {
    await insertStatusHistory(trx, {
      organization_id: actor.organizationId,
      equipment_id: id,
      status: input.status,
      previous_status: before.status,
      reason: input.status_reason ?? null,
      changed_by: actor.userId,
      changed_at: now,
    });
  }
  const after = await requireRow(trx, actor.organizationId, id);
  const { oldValues, newValues } = diff(equipmentAuditValues(before), equipmentAuditValues(after));
  if (Object.keys(newValues).length)
    await writeAudit(trx, actor, { action: 'update', entity: 'equipment', entityId: id, oldValues, newValues });
}

export async function setEquipmentStatus(
  db: Db,
  actor: Actor,
  id: number,
  input: EquipmentStatusChange,
): Promise<Equipment> {
  await db
    .transaction()
    .execute((trx) =>
      applyEquipmentUpdate(trx, actor, id, { status: input.status, status_reason: input.reason ?? null }),
    );
  return getEquipment(db, actor.organizationId, id);
}

/**
 * Erases equipment no record names (registered by mistake). Once results, QC runs, calibration or
 * maintenance work or readings name it, it is archived instead: it leaves every list, GET answers
 * 404, its records keep their history, its open work is cancelled and its serial number is free.
 */
export async function deleteEquipment(
  db: Db,
  actor: Actor,
  id: number,
): Promise<{ equipment: Equipment; archived: boolean }> {
  const equipment = await getEquipment(db, actor.organizationId, id);
  const archived = await db.transaction().execute(async (trx) => {
    const row = await requireRow(trx, actor.organizationId, id);
    const now = equipmentNow().toISOString();
    if ((await referencesTo(trx, id)) === 0) {
      await deleteEquipmentRow(trx, actor.organizationId, id);
      await writeAudit(trx, actor, {
        action: 'delete',
        entity: 'equipment',
        entityId: id,
        oldValues: equipmentAuditValues(row),
      });
      return false;
    }
    const cancelled = await cancelOpenServices(trx, actor.organizationId, id, now);
    await updateLabRow(trx, 'equipment', actor.organizationId, id, { archived_at: now, updated_at: now });
    await writeAudit(trx, actor, {
      action: 'delete',
      entity: 'equipment',
      entityId: id,
      oldValues: equipmentAuditValues(row),
      newValues: { archived_at: now, cancelled_work: cancelled },
    });
    return true;
  });
  return { equipment, archived };
}

export async function equipmentHistory(db: Db, organizationId: number, id: number): Promise<StatusHistoryEntry[]> {
  await requireRow(db, organizationId, id);
  return (await selectStatusHistory(db, organizationId, id)).map((h) => ({ ...h, changed_by_name: h.changed_by_name }));
}

/** Equipment rows for export, in pages. */
export { equipmentRowsAfter, toEquipmentList, serviceCounts };
export { equipmentForEntry } from './readings.js';

/** What the import and export engine (transfer/) writes and reads through. */
export { insertService, toService } from './work.js';
