import type { Db } from '../db/connection.js';
import { NotFoundError } from '../errors.js';
import { getOrganization, labSettings } from '../settings/service.js';
import { getPatient } from '../patients/service.js';
import { billPdf } from '../pdf/bill.js';
import { billHeaderFor } from '../printing/service.js';
import { findBillByNumber } from './repository.js';
import { getBill } from './service.js';

/** The bill PDF: the same bytes for the UI's download and `lims bill print`. */
export async function billPdfById(
  db: Db,
  organizationId: number,
  billId: number,
  portal?: { url: string; pin: string },
): Promise<{ pdf: Buffer; billNumber: string }> {
  const bill = await getBill(db, organizationId, billId);
  const [org, patient] = [
    await getOrganization(db, organizationId),
    await getPatient(db, organizationId, bill.patient_id),
  ];
  // The header as the bill was issued (lab, patient, doctor); a bill from before headers were kept: today's.
  const header = await billHeaderFor(db, organizationId, bill);
  return {
    pdf: await billPdf({
      org: { ...org, ...header.lab },
      bill,
      patient: { ...patient, ...header.patient },
      doctor: header.doctor,
      portal,
      gstin: (await labSettings(db, organizationId)).gstin,
    }),
    billNumber: bill.bill_number,
  };
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
