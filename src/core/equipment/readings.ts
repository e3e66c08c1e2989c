import type { Db } from '../db/connection.js';
import type { Actor } from '../context.js';
import { writeAudit } from '../audit/audit.js';
import { ValidationError } from '../errors.js';
import { notify } from '../notifications/service.js';
import { equipmentNow } from './clock.js';
import { findEquipmentRow, insertReadingRow, selectReadingById, selectReadings } from './repository.js';
import { overdueCalibrationsOf } from './service-repository.js';
import { toReading } from './mappers.js';
import { type Equipment, type Reading, type ReadingCreate } from '../../shared/schemas/equipment.js';
import { labDay, requireRow, getEquipment } from './service.js';

export async function equipmentReadings(db: Db, organizationId: number, id: number): Promise<Reading[]> {
  await requireRow(db, organizationId, id);
  return (await selectReadings(db, organizationId, id)).map(toReading);
}

function outside(v: number | null | undefined, min: number | null, max: number | null): boolean {
  if (v == null) return false;
  return (min != null && v < Number(min)) || (max != null && v > Number(max));
}

/** Logs a reading; outside the equipment's limits it is flagged and the lab is notified in the same transaction. */
export async function addReading(
  db: Db,
  actor: Actor,
  id: number,
  input: ReadingCreate,
): Promise<{ reading: Reading; equipment: Equipment }> {
  const readingId = await db.transaction().execute(async (trx) => {
    const e = await requireRow(trx, actor.organizationId, id);
    const now = equipmentNow();
    const recordedAt = input.recorded_at ? new Date(input.recorded_at) : now;
    if (recordedAt.getTime() > now.getTime() + 5 * 60_000)
      throw ValidationError.field('recorded_at', 'Recorded at cannot be in the future');
    const tempOut = outside(input.temperature, e.min_temperature, e.max_temperature);
    const humOut = outside(input.humidity, e.min_humidity, e.max_humidity);
    const row = await insertReadingRow(trx, {
      organization_id: actor.organizationId,
      equipment_id: id,
      temperature: input.temperature ?? null,
      humidity: input.humidity ?? null,
      out_of_range: tempOut || humOut ? 1 : 0,
      notes: input.notes ?? null,
      recorded_by: actor.userId,
      recorded_at: recordedAt.toISOString(),
      created_at: now.toISOString(),
    });
    await writeAudit(trx, actor, {
      action: 'create',
      entity: 'equipment_reading',
      entityId: row.id,
      newValues: {
        equipment_id: id,
        temperature: row.temperature,
        humidity: row.humidity,
        out_of_range: row.out_of_range,
      },
    });
    if (tempOut || humOut) {
      const parts: string[] = [];
      if (tempOut)
        parts.push(
          `temperature ${input.temperature} °C (limits ${limitText(e.min_temperature, e.max_temperature, ' °C')})`,
        );
      if (humOut) parts.push(`humidity ${input.humidity}% (limits ${limitText(e.min_humidity, e.max_humidity, '%')})`);
      await notify(
        trx,
        actor.organizationId,
        { kind: 'equipment_reading', equipmentName: e.name, serialNumber: e.serial_number, detail: parts.join(', ') },
        { by: actor.userId },
      );
    }
    return row.id;
  });
  return {
    reading: toReading(await selectReadingById(db, actor.organizationId, readingId)),
    equipment: await getEquipment(db, actor.organizationId, id),
  };
}

function limitText(min: number | null, max: number | null, unit: string): string {
  if (min != null && max != null) return `${min} to ${max}${unit}`;
  if (min != null) return `at least ${min}${unit}`;
  return `at most ${max}${unit}`;
}

/**
 * For result and QC entry: the equipment named (it must be this lab's) and the warning the entry
 * carries when the equipment's calibration is past due or it is not operational. Throws a 400
 * naming `equipment_id` for an unknown id.
 */
export async function equipmentForEntry(
  trx: Db,
  organizationId: number,
  equipmentId: number,
): Promise<{ id: number; warning: string | null }> {
  const e = await findEquipmentRow(trx, organizationId, equipmentId);
  if (!e) throw ValidationError.field('equipment_id', `Unknown equipment ${equipmentId}`);
  const { today } = await labDay(trx, organizationId);
  const overdue = await overdueCalibrationsOf(trx, organizationId, e.id, today);
  const warnings: string[] = [];
  if (overdue.length) warnings.push(`${e.name} (${e.serial_number}) calibration was due ${overdue[0]!.due_date}`);
  if (e.status !== 'operational') warnings.push(`${e.name} (${e.serial_number}) was marked ${e.status}`);
  return { id: e.id, warning: warnings.length ? warnings.join('; ') : null };
}
