import type { Db } from '../db/connection.js';
import type { Actor } from '../context.js';
import { ForbiddenError, NotFoundError } from '../errors.js';
import { createBill } from '../billing/service.js';
import { insertPatient } from '../patients/service.js';
import { listTests } from '../catalogue/service.js';
import { payerForBill, payerUnitPrice } from '../payers/service.js';
import { billReports, visitReport } from '../results/service.js';
import { labelPdfForSample } from '../samples/service.js';
import { labToday } from '../settings/service.js';
import { nowIso } from '../context.js';
import { rupeesToPaise } from '../../shared/money.js';
import type { PatientCreate } from '../../shared/schemas/patients.js';
import type { PortalBill, PortalOrder } from '../../shared/schemas/centre-portal.js';
import { centreHold } from './hold.js';
import { toCentre, toCentreBillMoney } from './mappers.js';
import { mustFindCentre } from './service.js';
import { linkPatient, type CentreRow } from './repository.js';
import {
  centreBillRows,
  centreIdOfUser,
  centrePatientRows,
  isCentreBill,
  isCentrePatient,
  isCentreSample,
} from './portal-repository.js';

/**
 * The centre portal: a collection centre's own login registers its patients, orders their tests
 * (bills on the centre's account, at its rates), prints tube labels and reads its released reports
 * and its statement. Every read and write starts from the centre the login is bound to, and every
 * id it sends is checked against that centre (404 otherwise, as if the row did not exist).
 */

/** The centre of the signed-in centre login; 403 for anyone not bound to one. */
export async function portalCentre(db: Db, actor: Actor): Promise<CentreRow> {
  const centreId = actor.userId ? await centreIdOfUser(db, actor.organizationId, actor.userId) : null;
  if (!centreId) throw new ForbiddenError('The centre portal is for a collection centre’s own login');
  return mustFindCentre(db, actor.organizationId, centreId);
}

export async function portalAccount(db: Db, actor: Actor) {
  const c = await portalCentre(db, actor);
  return toCentre(c, await centreHold(db, c));
}

/** Active tests at the centre's price on the lab's today. */
export async function portalTests(db: Db, actor: Actor, search: string | undefined) {
  const c = await portalCentre(db, actor);
  const payer = await payerForBill(db, actor.organizationId, c.payer_id);
  const today = await labToday(db, actor.organizationId);
  const tests = await listTests(db, actor.organizationId, { search, status: 'active' });
  return Promise.all(
    tests.slice(0, 100).map(async (t) => ({
      id: t.id,
      code: t.code,
      name: t.name,
      sample_type: t.sample_type ?? null,
      price: (await payerUnitPrice(db, payer, 'test', t.id, rupeesToPaise(t.price), today)) / 100,
    })),
  );
}

const toPortalPatient = (p: Awaited<ReturnType<typeof centrePatientRows>>[number]) => ({
  id: p.id,
  patient_code: p.patient_code,
  name: `${p.first_name} ${p.last_name}`.trim(),
  phone: p.phone,
  gender: p.gender,
  registered_at: p.created_at,
});

export async function portalPatients(db: Db, actor: Actor, search: string | undefined) {
  const c = await portalCentre(db, actor);
  return (await centrePatientRows(db, actor.organizationId, c.id, search)).map(toPortalPatient);
}

/**
 * A patient registered by the centre becomes the centre's. The lab's duplicate check is not asked:
 * it would name the lab's other patients to the centre; the lab merges a duplicate later.
 */
export async function portalRegisterPatient(db: Db, actor: Actor, input: PatientCreate) {
  const c = await portalCentre(db, actor);
  const id = await db.transaction().execute(async (trx) => {
    const row = await insertPatient(trx, actor, { ...input, confirm_new: true });
    await linkPatient(trx, actor.organizationId, c.id, row.id, nowIso());
    return row.id;
  });
  const row = (await centrePatientRows(db, actor.organizationId, c.id)).find((p) => p.id === id)!;
  return toPortalPatient(row);
}

function toPortalBill(b: Awaited<ReturnType<typeof centreBillRows>>[number]): PortalBill {
  return {
    ...toCentreBillMoney(b),
    patient_code: b.patient_code,
    due: b.cancelled_at ? 0 : (b.final_amount_paise - b.paid_paise) / 100,
    cancelled: b.cancelled_at !== null,
  };
}

export async function portalBills(db: Db, actor: Actor): Promise<PortalBill[]> {
  const c = await portalCentre(db, actor);
  return (await centreBillRows(db, actor.organizationId, c.payer_id)).map(toPortalBill);
}

/**
 * Tests for one of the centre's own patients: a bill charged to the centre's payer (its rates), no
 * money taken at the counter (the centre settles by statement). The centre's hold refuses it with
 * the reason (centres' bill.created listener).
 */
export async function portalOrder(db: Db, actor: Actor, input: PortalOrder): Promise<PortalBill> {
  const c = await portalCentre(db, actor);
  if (!(await isCentrePatient(db, actor.organizationId, c.id, input.patient_id)))
    throw new NotFoundError('Patient', input.patient_id);
  const bill = await createBill(db, actor, {
    patient_id: input.patient_id,
    items: input.test_ids.map((item_id) => ({ item_type: 'test' as const, item_id, qty: 1, discount_percent: 0 })),
    payer_id: c.payer_id,
    visit_type: 'lab_only',
    discount_percentage: 0,
    tax_percentage: 0,
    payment_method: 'cash',
    notes: input.notes,
  });
  return (await portalBills(db, actor)).find((b) => b.id === bill.id)!;
}

async function ownBill(db: Db, actor: Actor, billId: number): Promise<CentreRow> {
  const c = await portalCentre(db, actor);
  if (!(await isCentreBill(db, actor.organizationId, c.payer_id, billId))) throw new NotFoundError('Bill', billId);
  return c;
}

/**
 * One bill and its tubes. A centre's login reads released reports only, and while its centre is on
 * hold a released report is shown as held, with the reason (printing it is refused the same way).
 */
export async function portalBill(db: Db, actor: Actor, billId: number) {
  const c = await ownBill(db, actor, billId);
  const bill = (await portalBills(db, actor)).find((b) => b.id === billId)!;
  const hold = await centreHold(db, c);
  const reports = (await billReports(db, actor.organizationId, billId, { releasedOnly: true })).map((r) =>
    hold.on_hold && r.printable ? { ...r, printable: false, reason: `Held: ${hold.reason}` } : r,
  );
  return { bill, reports };
}

export async function portalReportPdf(db: Db, actor: Actor, billId: number, verifyBase: string) {
  await ownBill(db, actor, billId);
  return visitReport(db, actor.organizationId, billId, { releasedOnly: true }, verifyBase);
}

export async function portalLabelPdf(db: Db, actor: Actor, sampleId: number) {
  const c = await portalCentre(db, actor);
  if (!(await isCentreSample(db, actor.organizationId, c.payer_id, sampleId)))
    throw new NotFoundError('Sample', sampleId);
  return labelPdfForSample(db, actor.organizationId, sampleId);
}
