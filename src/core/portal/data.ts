import { billsWithVerifiedResults, linesOfBills, reportableSample, verifiedResultsOfPatient } from './repository.js';
import { visitReport, reportStatus } from '../results/service.js';
import { primaryOrganization, organizationTimezone } from '../settings/service.js';
import type { Db } from '../db/connection.js';
import { NotFoundError } from '../errors.js';
import { findPatient } from '../patients/repository.js';
import { billsQuery, findBillRow, selectBillColumns } from '../billing/repository.js';
import { toBill, billPdfById } from '../billing/service.js';
import { localDate } from '../../shared/time.js';
import { visitsOfPatient } from '../visits/repository.js';
import { ageOn, formatAge } from '../../shared/age.js';
import type { PortalAppointment, PortalBill, PortalPatient, PortalResult } from '../../shared/schemas/portal.js';
import type { PortalSession } from './auth.js';

/**
 * What the signed-in patient may see. Every query is filtered by the session's organisation AND
 * patient, so an id guessed from another patient's record answers 404 like an id that does not exist.
 */

export async function portalMe(db: Db, s: PortalSession): Promise<PortalPatient> {
  const p = await findPatient(db, s.organizationId, s.patientId);
  if (!p) throw new NotFoundError('Patient', s.patientCode);
  const timeZone = await organizationTimezone(db, s.organizationId);
  return {
    first_name: p.first_name,
    last_name: p.last_name,
    patient_id: p.patient_code,
    age: ageOn(p.date_of_birth, localDate(timeZone)),
    age_text: formatAge(p.date_of_birth, localDate(timeZone)),
    gender: p.gender,
    mobile: p.phone,
    email: p.email,
    blood_group: p.blood_group,
    membership_status: p.membership_type,
    registration_date: localDate(timeZone, new Date(p.created_at)),
  };
}

export async function portalAppointments(db: Db, s: PortalSession): Promise<PortalAppointment[]> {
  const visits = await visitsOfPatient(db, s.organizationId, s.patientId);
  return visits.map((v) => ({
    id: v.id,
    date: v.visit_date,
    time: v.visit_time,
    doctor_name: v.doctor_name,
    doctor_specialization: v.doctor_specialization,
    status: v.status,
    type: v.visit_type,
    chief_complaint: v.chief_complaint,
    follow_up_date: v.follow_up_date,
  }));
}

export function reportUrl(sampleId: number): string {
  return `/api/portal/samples/${sampleId}/report.pdf`;
}

/**
 * Only verified results: a value nobody has checked yet is never shown to the patient, and neither
 * are the results of a report the lab holds (a critical value not yet telephoned; money due when
 * the lab holds reports until paid).
 */
export async function portalResults(db: Db, s: PortalSession): Promise<PortalResult[]> {
  const timeZone = await organizationTimezone(db, s.organizationId);
  const rows = await verifiedResultsOfPatient(db, s.organizationId, s.patientId);
  const released = new Map<number, boolean>();
  for (const id of new Set(rows.map((r) => r.sample_pk)))
    released.set(id, (await reportStatus(db, s.organizationId, id)).releasable);
  return rows
    .filter((r) => released.get(r.sample_pk))
    .map((r) => ({
      id: r.id,
      test_name: r.test_name,
      test_date: localDate(timeZone, new Date(r.collection_date ?? r.created_at)),
      result_value: r.result_value,
      normal_range: r.normal_range,
      unit: r.unit,
      flag: r.flag,
      status: r.status,
      remarks: r.notes,
      sample_id: r.sample_code,
      verified_at: r.verified_at ?? r.created_at,
      report_url: reportUrl(r.sample_pk),
    }));
}

/** A sample's report is the patient's only when the sample is theirs and has at least one verified result. */
export async function requireReportableSample(
  db: Db,
  s: PortalSession,
  sampleId: number,
): Promise<{ sampleCode: string }> {
  const row = await reportableSample(db, s.organizationId, s.patientId, sampleId);
  if (!row) throw new NotFoundError('Report', sampleId);
  return { sampleCode: row.sample_code };
}

export async function portalBills(db: Db, s: PortalSession): Promise<PortalBill[]> {
  const timeZone = await organizationTimezone(db, s.organizationId);
  const today = localDate(timeZone);
  const rows = await selectBillColumns(billsQuery(db, s.organizationId).where('b.patient_id', '=', s.patientId))
    .orderBy('b.created_at', 'desc')
    .orderBy('b.id', 'desc')
    .execute();
  const items = new Map<number, PortalBill['items']>();
  if (rows.length) {
    const lines = await linesOfBills(
      db,
      rows.map((r) => r.id),
    );
    for (const l of lines) {
      items.set(l.bill_id, [
        ...(items.get(l.bill_id) ?? []),
        { name: l.name, qty: l.qty, price: l.unit_price_paise / 100, total: l.total_paise / 100 },
      ]);
    }
  }
  const reported = await billsWithVerifiedResults(
    db,
    s.organizationId,
    s.patientId,
    rows.map((r) => r.id),
  );
  return rows.map((r) => {
    const b = toBill(r, timeZone, today);
    return {
      id: b.id,
      bill_number: b.bill_number,
      bill_date: b.bill_date,
      consultation_fee: b.consultation_fee,
      discount_amount: b.discount_amount,
      tax_amount: b.tax_amount,
      total_amount: b.total_amount,
      paid_amount: b.paid_amount,
      balance: b.balance,
      status: b.status,
      payment_status: b.payment_status,
      payment_method: b.payment_method,
      items: items.get(b.id) ?? [],
      pdf_url: `/api/portal/bills/${b.id}/pdf`,
      // The visit's report, once one of its results is verified (the samples' reports stay under Results).
      report_url: reported.has(b.id) && b.status !== 'cancelled' ? `/api/portal/bills/${b.id}/report.pdf` : null,
    };
  });
}

/** The bill PDF staff print, for the patient's own bills only. */
export async function portalBillPdf(
  db: Db,
  s: PortalSession,
  billId: number,
): Promise<{ pdf: Buffer; billNumber: string }> {
  const bill = await findBillRow(db, s.organizationId, billId);
  const own = bill && bill.patient_id === s.patientId;
  if (!own) throw new NotFoundError('Bill', billId);
  return billPdfById(db, s.organizationId, billId);
}

/** The report of one of the patient's own visits (bills): every released result of its samples. */
export async function portalVisitReport(
  db: Db,
  s: PortalSession,
  billId: number,
  verifyBase: string,
): Promise<{ pdf: Buffer; billNumber: string }> {
  const bill = await findBillRow(db, s.organizationId, billId);
  const reported = await billsWithVerifiedResults(db, s.organizationId, s.patientId, [billId]);
  if (!bill || bill.patient_id !== s.patientId || !reported.has(billId)) throw new NotFoundError('Report', billId);
  return visitReport(db, s.organizationId, billId, {}, verifyBase);
}

/** The lab of a single-lab install, for the portal's header (public: name and contact only). */
export async function portalLab(db: Db): Promise<{ name: string; phone: string | null; address: string | null }> {
  const org = await primaryOrganization(db);
  return { name: org?.name ?? 'Patient Portal', phone: org?.phone ?? null, address: org?.address ?? null };
}
