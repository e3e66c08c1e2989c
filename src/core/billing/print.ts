import type { Db } from '../db/connection.js';
import { NotFoundError } from '../errors.js';
import { getOrganization } from '../settings/organization.js';
import { getPatient } from '../patients/service.js';
import { billPdf } from '../pdf/bill.js';
import { findBillByNumber } from './repository.js';
import { getBill } from './service.js';

/** The bill PDF: the same bytes for the UI's download and `lims bill print`. */
export async function billPdfById(
  db: Db,
  organizationId: number,
  billId: number,
): Promise<{ pdf: Buffer; billNumber: string }> {
  const bill = await getBill(db, organizationId, billId);
  const [org, patient] = [
    await getOrganization(db, organizationId),
    await getPatient(db, organizationId, bill.patient_id),
  ];
  const doctorRow = bill.doctor_id
    ? await db
        .selectFrom('users')
        .select(['first_name', 'last_name', 'specialization', 'department'])
        .where('id', '=', bill.doctor_id)
        .executeTakeFirst()
    : undefined;
  const doctor = doctorRow
    ? {
        name: `${doctorRow.first_name} ${doctorRow.last_name}`,
        specialization: doctorRow.specialization,
        department: doctorRow.department,
      }
    : null;
  return { pdf: await billPdf({ org, bill, patient, doctor }), billNumber: bill.bill_number };
}

export async function billPdfByNumber(
  db: Db,
  organizationId: number,
  billNumber: string,
): Promise<{ pdf: Buffer; billNumber: string }> {
  const row = await findBillByNumber(db, organizationId, billNumber);
  if (!row) throw new NotFoundError('Bill', billNumber);
  return billPdfById(db, organizationId, row.id);
}
