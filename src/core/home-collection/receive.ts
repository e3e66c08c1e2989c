import type { Db } from '../db/connection.js';
import type { Actor } from '../context.js';
import { nowIso } from '../context.js';
import { writeAudit } from '../audit/audit.js';
import { ConflictError, NotFoundError, ValidationError } from '../errors.js';
import { labSettings } from '../settings/service.js';
import { barcodeOwner, updateSampleRow } from '../samples/repository.js';
import { addHistory } from '../samples/service.js';
import type { InTransit, ReceiveInput, Tube } from '../../shared/schemas/home-collection.js';
import { tubeByBarcode, tubesInTransit, updateTubeRow } from './repository.js';
import { IN_TRANSIT, toTube } from './tubes.js';

/** The lab's receive bench: the tubes drawn at home still on their way, and the scan that takes one in. */

const fullName = (first: string | null, last: string | null) =>
  first === null ? null : `${first} ${last ?? ''}`.trim();

export async function inTransit(db: Db, organizationId: number): Promise<InTransit> {
  const settings = await labSettings(db, organizationId);
  const rows = await tubesInTransit(db, organizationId);
  return {
    record_temperature: settings.recordReceiveTemperature,
    tubes: rows.map((r) => ({
      ...toTube(r),
      booking_id: r.booking_id,
      booking_number: r.booking_number,
      patient_name: fullName(r.patient_first_name, r.patient_last_name) ?? '',
      patient_code: r.patient_code,
      phlebotomist_name: fullName(r.phlebotomist_first_name, r.phlebotomist_last_name),
      sample_code: r.sample_code,
    })),
  };
}

/**
 * The received-at-lab scan of a tube drawn at home: the time, and the temperature when the lab
 * records it. The sample's collection time is left as the phone recorded the draw, so turnaround
 * counts from the patient's arm, not from the bench. A barcode that is not a home tube, not drawn
 * yet or already in changes nothing and says which.
 */
export async function receiveTube(db: Db, actor: Actor, input: ReceiveInput): Promise<Tube> {
  const barcode = input.barcode.trim().toUpperCase();
  const temperature = input.temperature ?? null;
  const { recordReceiveTemperature } = await labSettings(db, actor.organizationId);
  if (recordReceiveTemperature && temperature === null)
    throw ValidationError.field(
      'temperature',
      'Temperature (°C) is required: the lab records it for every tube received',
    );
  return db.transaction().execute(async (trx) => {
    const t = await tubeByBarcode(trx, actor.organizationId, barcode);
    if (!t) {
      const sample = await barcodeOwner(trx, actor.organizationId, barcode);
      if (sample)
        throw new ConflictError(
          `Barcode ${barcode} is sample ${sample.sample_code}, not a tube drawn at home: nothing was received`,
          'NOT_HOME_TUBE',
        );
      throw new NotFoundError('Home collection tube with barcode', barcode);
    }
    if (!t.sample_id)
      throw new ConflictError(`Tube ${t.barcode} has not been collected yet: nothing was received`, 'NOT_COLLECTED');
    if (t.received_at)
      throw new ConflictError(`Tube ${t.barcode} was already received at ${t.received_at}`, 'ALREADY_RECEIVED');
    const now = nowIso();
    await updateTubeRow(trx, t.id, { received_at: now, received_temperature: temperature, received_by: actor.userId });
    await updateSampleRow(trx, t.sample_id, { location: 'Lab', updated_at: now });
    const note = `Received at lab from home collection${temperature === null ? '' : `, ${temperature} °C`}`;
    await addHistory(trx, actor, t.sample_id, 'collected', 'collected', 'Lab', note);
    await writeAudit(trx, actor, {
      action: 'update',
      entity: 'sample',
      entityId: t.sample_id,
      oldValues: { location: IN_TRANSIT },
      newValues: { location: 'Lab', received_at: now, temperature },
    });
    return toTube({ ...t, received_at: now, received_temperature: temperature, received_by: actor.userId });
  });
}
