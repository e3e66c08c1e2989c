import { assertInScope, type ResultScope } from '../results/service.js';
import type { Db } from '../db/connection.js';
import { NotFoundError } from '../errors.js';
import { findPatient, toPatient } from '../patients/repository.js';
import { billsQuery, selectBillColumns } from '../billing/repository.js';
import { toBill } from '../billing/service.js';
import { labToday, organizationTimezone } from '../settings/service.js';
import { localDate } from '../../shared/time.js';
import { visitsOfPatient } from '../visits/repository.js';
import { resultRowsOfPatient } from '../results/summary-repository.js';
import { sampleRowsOfPatient, testsOfSamples } from '../samples/repository.js';
import type { HistoryBill, HistorySample, HistoryTestResult, PatientHistory } from '../../shared/schemas/history.js';

/** Every result of a patient (any status: this is the staff view), newest first, with the test and sample. */
async function resultsOfPatient(db: Db, organizationId: number, patientId: number): Promise<HistoryTestResult[]> {
  const rows = await resultRowsOfPatient(db, organizationId, patientId);
  return rows.map(({ sample_code, is_critical, ...r }) => ({
    ...r,
    is_critical: is_critical === 1,
    sample_id: sample_code,
  }));
}

async function samplesOfPatient(db: Db, organizationId: number, patientId: number): Promise<HistorySample[]> {
  const rows = await sampleRowsOfPatient(db, organizationId, patientId);
  const tests = await testsOfSamples(
    db,
    rows.map((r) => r.id),
  );
  return rows.map(({ sample_code, ...r }) => ({
    ...r,
    sample_id: sample_code,
    tests: (tests.get(r.id) ?? []).map((t) => t.name),
  }));
}

async function billsOfPatient(
  db: Db,
  organizationId: number,
  patientId: number,
): Promise<{ bills: HistoryBill[]; livePaise: number }> {
  const timeZone = await organizationTimezone(db, organizationId);
  const today = localDate(timeZone);
  const rows = await selectBillColumns(billsQuery(db, organizationId).where('b.patient_id', '=', patientId))
    .orderBy('b.created_at', 'desc')
    .orderBy('b.id', 'desc')
    .execute();
  // Summed in paise from the rows, so the total is exact and agrees with the list shown.
  const livePaise = rows.filter((r) => r.cancelled_at === null).reduce((sum, r) => sum + r.final_amount_paise, 0);
  const bills = rows.map((r) => {
    const b = toBill(r, timeZone, today);
    return {
      id: b.id,
      bill_number: b.bill_number,
      bill_date: b.bill_date,
      total_amount: b.total_amount,
      paid_amount: b.paid_amount,
      payment_method: b.payment_method,
      status: b.status,
      payment_status: b.payment_status,
    };
  });
  return { bills, livePaise };
}

/** Patient History (spec 2.13): the patient, their visits, results, samples and bills, and the totals over them. */
/** A patient's history; a doctor limited to their own patients (results scope) gets 404 for another's. */
export async function patientHistory(
  db: Db,
  organizationId: number,
  patientId: number,
  scope: ResultScope = {},
): Promise<PatientHistory> {
  const row = await findPatient(db, organizationId, patientId);
  if (!row) throw new NotFoundError('Patient', patientId);
  await assertInScope(db, scope, patientId, 'Patient', patientId);
  const visits = await visitsOfPatient(db, organizationId, patientId);
  const test_results = await resultsOfPatient(db, organizationId, patientId);
  const samples = await samplesOfPatient(db, organizationId, patientId);
  const { bills, livePaise } = await billsOfPatient(db, organizationId, patientId);
  return {
    patient: toPatient(row, await labToday(db, organizationId)),
    totals: {
      visits: visits.length,
      test_results: test_results.length,
      samples_collected: samples.filter((s) => s.status !== 'pending').length,
      bills: bills.length,
      total_amount: livePaise / 100,
    },
    visits,
    test_results,
    samples,
    bills,
  };
}
