import type { Db } from '../db/connection.js';
import { labTable, labDelete } from '../db/lab-tables.js';

/** Barcodes handed out before their tube exists (barcode_reservations, migration 53). */

/** Whether a barcode is held for a tube not made yet (barcode_reservations). */
export async function barcodeReserved(db: Db, organizationId: number, barcode: string): Promise<boolean> {
  const row = await labTable(db, 'barcode_reservations', organizationId)
    .select('barcode')
    .where('barcode', '=', barcode)
    .executeTakeFirst();
  return !!row;
}

export async function insertReservation(trx: Db, organizationId: number, barcode: string, holder: string, at: string) {
  await trx
    .insertInto('barcode_reservations')
    .values({ organization_id: organizationId, barcode, holder, reserved_at: at })
    .execute();
}

export async function deleteReservation(trx: Db, organizationId: number, barcode: string): Promise<number> {
  const r = await labDelete(trx, 'barcode_reservations', organizationId)
    .where('barcode', '=', barcode)
    .executeTakeFirst();
  return Number(r.numDeletedRows);
}
