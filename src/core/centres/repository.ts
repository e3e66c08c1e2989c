import { sql, type Insertable, type Updateable } from 'kysely';
import type { Db } from '../db/connection.js';
import type {
  CentreApprovalsTable,
  CentreReceiptAllocationsTable,
  CentreReceiptsTable,
  CentreShareRulesTable,
  CentresTable,
} from './tables.js';
import { billsOfPayer, labRows } from '../db/joins.js';
import { deleteLabRow, updateLabRow } from '../db/lab-row.js';
import { payerBillsMadeIn } from '../db/bill-joins.js';

/** Every query of collection centres, always filtered by the lab. */

/** A centre with its payer's fields (name, contact, GSTIN, rates, credit days) and its account. */
function centreRows(db: Db, organizationId: number) {
  return db
    .selectFrom('centres as c')
    .innerJoin('payers as p', 'p.id', 'c.payer_id')
    .where('c.organization_id', '=', organizationId)
    .select([
      'c.id',
      'c.payer_id',
      'c.organization_id',
      'c.credit_limit_paise',
      'c.share_basis',
      'c.share_bp',
      'c.created_at',
      'c.updated_at',
      'p.name',
      'p.contact_person',
      'p.phone',
      'p.email',
      'p.address',
      'p.gstin',
      'p.state_code',
      'p.discount_percent',
      'p.payment_terms_days',
      'p.status',
      sql<number>`coalesce((SELECT sum(b.final_amount_paise - b.paid_paise) FROM bills b WHERE b.organization_id = c.organization_id AND b.payer_id = c.payer_id AND b.cancelled_at IS NULL), 0)`.as(
        'balance_paise',
      ),
      sql<number>`(SELECT count(*) FROM bills b WHERE b.organization_id = c.organization_id AND b.payer_id = c.payer_id AND b.cancelled_at IS NULL)`.as(
        'bill_count',
      ),
      sql<number>`(SELECT count(*) FROM centre_patients cp WHERE cp.centre_id = c.id)`.as('patient_count'),
    ]);
}
export type CentreRow = Awaited<ReturnType<ReturnType<typeof centreRows>['executeTakeFirstOrThrow']>>;

const numbers = (r: CentreRow): CentreRow => ({
  ...r,
  balance_paise: Number(r.balance_paise),
  bill_count: Number(r.bill_count),
  patient_count: Number(r.patient_count),
});

export async function findCentreRow(db: Db, organizationId: number, id: number): Promise<CentreRow | undefined> {
  const r = await centreRows(db, organizationId).where('c.id', '=', id).executeTakeFirst();
  return r ? numbers(r) : undefined;
}

export async function centreOfPayer(db: Db, organizationId: number, payerId: number): Promise<CentreRow | undefined> {
  const r = await centreRows(db, organizationId).where('c.payer_id', '=', payerId).executeTakeFirst();
  return r ? numbers(r) : undefined;
}

export async function listCentreRows(db: Db, organizationId: number, q: { search?: string; status?: string }) {
  let query = centreRows(db, organizationId);
  if (q.search) {
    const s = `%${q.search.toLowerCase()}%`;
    query = query.where((eb) =>
      eb.or([
        eb(sql`lower(p.name)`, 'like', s),
        eb(sql`lower(coalesce(p.gstin, ''))`, 'like', s),
        eb(sql`lower(coalesce(p.contact_person, ''))`, 'like', s),
      ]),
    );
  }
  if (q.status) query = query.where('p.status', '=', q.status);
  return (
    await query
      .orderBy(sql`lower(p.name)`)
      .orderBy('c.id')
      .execute()
  ).map(numbers);
}

export function insertCentreRow(trx: Db, values: Insertable<CentresTable>) {
  return trx.insertInto('centres').values(values).returningAll().executeTakeFirstOrThrow();
}

export function updateCentreRow(trx: Db, organizationId: number, id: number, values: Updateable<CentresTable>) {
  return updateLabRow(trx, 'centres', organizationId, id, values);
}

// Bills of a centre (read here, as the payers' account is: the bill rows are the ledger)

/** The centre's bills with money still due, oldest first (the order a part payment settles them). */
export function unpaidBillsOfPayer(db: Db, organizationId: number, payerId: number) {
  return billsOfPayer(db, organizationId, payerId)
    .innerJoin('patients as pt', 'pt.id', 'b.patient_id')
    .select([
      'b.id',
      'b.bill_number',
      'b.patient_id',
      'b.created_at',
      'b.due_date',
      'b.final_amount_paise',
      'b.paid_paise',
      'pt.first_name',
      'pt.last_name',
    ])
    .where(sql<boolean>`b.final_amount_paise > b.paid_paise`)
    .orderBy('b.created_at')
    .orderBy('b.id')
    .execute();
}

/** Bills of the payer created before `beforeIso` with what was paid on them before it (for ageing). */
export function billsOwedAt(db: Db, organizationId: number, payerId: number, beforeIso: string) {
  return billsOfPayer(db, organizationId, payerId)
    .select([
      'b.id',
      'b.due_date',
      'b.final_amount_paise',
      sql<number>`coalesce((SELECT sum(pm.amount_paise) FROM payments pm WHERE pm.bill_id = b.id AND pm.created_at < ${beforeIso}), 0)`.as(
        'paid_paise',
      ),
    ])
    .where('b.created_at', '<', beforeIso)
    .execute();
}

/** The lines of the payer's bills created in [fromIso, toIso), with each test's category. */
export function billLinesBetween(db: Db, organizationId: number, payerId: number, fromIso: string, toIso: string) {
  return payerBillsMadeIn(db, organizationId, payerId, fromIso, toIso)
    .innerJoin('bill_items as bi', 'bi.bill_id', 'b.id')
    .leftJoin('tests as t', 't.id', 'bi.test_id')
    .select(['bi.id', 'bi.test_id', 'bi.total_paise', 't.category'])
    .execute();
}

/** The lab's sample with the bill it is a tube of (`s`, `b`): how a sample is traced to a centre's account. */
export function sampleWithBill(db: Db, organizationId: number, sampleId: number) {
  return db
    .selectFrom('samples as s')
    .innerJoin('bills as b', 'b.id', 's.bill_id')
    .where('s.organization_id', '=', organizationId)
    .where('s.id', '=', sampleId);
}

export function billOfSample(db: Db, organizationId: number, sampleId: number) {
  return sampleWithBill(db, organizationId, sampleId)
    .select(['b.id', 'b.payer_id', 'b.bill_number'])
    .executeTakeFirst();
}

// Share rules

export function shareRuleRows(db: Db, organizationId: number, centreId: number) {
  return db
    .selectFrom('centre_share_rules as r')
    .leftJoin('tests as t', 't.id', 'r.test_id')
    .select(['r.id', 'r.test_id', 'r.category', 'r.share_bp', 't.name as test_name'])
    .where('r.organization_id', '=', organizationId)
    .where('r.centre_id', '=', centreId)
    .orderBy('r.category')
    .orderBy('t.name')
    .orderBy('r.id')
    .execute();
}

export function insertShareRuleRow(trx: Db, values: Insertable<CentreShareRulesTable>) {
  return trx.insertInto('centre_share_rules').values(values).returningAll().executeTakeFirstOrThrow();
}

export function findShareRuleRow(db: Db, organizationId: number, centreId: number, id: number) {
  return labRows(db, 'centre_share_rules', organizationId)
    .where('centre_id', '=', centreId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export function sameShareRule(db: Db, centreId: number, testId: number | null, category: string | null) {
  let q = db.selectFrom('centre_share_rules').select('id').where('centre_id', '=', centreId);
  q = testId ? q.where('test_id', '=', testId) : q.where(sql`lower(category)`, '=', (category ?? '').toLowerCase());
  return q.executeTakeFirst();
}

export function deleteShareRuleRow(trx: Db, organizationId: number, id: number) {
  return deleteLabRow(trx, 'centre_share_rules', organizationId, id);
}

// Patients of a centre

export async function linkPatient(trx: Db, organizationId: number, centreId: number, patientId: number, at: string) {
  await trx
    .insertInto('centre_patients')
    .values({ organization_id: organizationId, centre_id: centreId, patient_id: patientId, created_at: at })
    .onConflict((oc) => oc.columns(['centre_id', 'patient_id']).doNothing())
    .execute();
}

/** A centre's own patients (`cp`, `p`): where the desk's list of them and the portal's start. */
export function centrePatients(db: Db, organizationId: number, centreId: number) {
  return db
    .selectFrom('centre_patients as cp')
    .innerJoin('patients as p', 'p.id', 'cp.patient_id')
    .where('cp.organization_id', '=', organizationId)
    .where('cp.centre_id', '=', centreId);
}

export function patientsOfCentre(db: Db, organizationId: number, centreId: number) {
  return centrePatients(db, organizationId, centreId)
    .select(['p.id', 'p.patient_code', 'p.first_name', 'p.last_name', 'cp.created_at'])
    .orderBy('cp.created_at', 'desc')
    .orderBy('p.id', 'desc')
    .execute();
}

// Lab setting and approvals

export async function breachMode(db: Db, organizationId: number): Promise<string> {
  const r = await db
    .selectFrom('centre_settings')
    .select('on_breach')
    .where('organization_id', '=', organizationId)
    .executeTakeFirst();
  return r?.on_breach ?? 'refuse';
}

export async function saveBreachMode(trx: Db, organizationId: number, mode: string, at: string) {
  await trx
    .insertInto('centre_settings')
    .values({ organization_id: organizationId, on_breach: mode, updated_at: at })
    .onConflict((oc) => oc.column('organization_id').doUpdateSet({ on_breach: mode, updated_at: at }))
    .execute();
}

export function insertApprovalRow(trx: Db, values: Insertable<CentreApprovalsTable>) {
  return trx.insertInto('centre_approvals').values(values).returningAll().executeTakeFirstOrThrow();
}

export function openApproval(db: Db, organizationId: number, centreId: number) {
  return labRows(db, 'centre_approvals', organizationId)
    .where('centre_id', '=', centreId)
    .where('used_at', 'is', null)
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
}

export function useApproval(trx: Db, id: number, billId: number, at: string) {
  return trx.updateTable('centre_approvals').set({ bill_id: billId, used_at: at }).where('id', '=', id).execute();
}

export function approvalRows(db: Db, organizationId: number, centreId: number) {
  return db
    .selectFrom('centre_approvals as a')
    .leftJoin('users as u', 'u.id', 'a.approved_by')
    .leftJoin('bills as b', 'b.id', 'a.bill_id')
    .select(['a.id', 'a.reason', 'a.approved_at', 'a.used_at', 'u.first_name', 'u.last_name', 'b.bill_number'])
    .where('a.organization_id', '=', organizationId)
    .where('a.centre_id', '=', centreId)
    .orderBy('a.id', 'desc')
    .limit(50)
    .execute();
}

// Receipts

export function insertReceiptRow(trx: Db, values: Insertable<CentreReceiptsTable>) {
  return trx.insertInto('centre_receipts').values(values).returningAll().executeTakeFirstOrThrow();
}

export function insertAllocationRow(trx: Db, values: Insertable<CentreReceiptAllocationsTable>) {
  return trx.insertInto('centre_receipt_allocations').values(values).execute();
}

export function receiptRows(db: Db, organizationId: number, centreId: number) {
  return labRows(db, 'centre_receipts', organizationId)
    .where('centre_id', '=', centreId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(100)
    .execute();
}

export function allocationRows(db: Db, receiptIds: number[]) {
  return db
    .selectFrom('centre_receipt_allocations as a')
    .innerJoin('bills as b', 'b.id', 'a.bill_id')
    .select(['a.receipt_id', 'a.bill_id', 'a.amount_paise', 'b.bill_number'])
    .where('a.receipt_id', 'in', receiptIds.length ? receiptIds : [0])
    .orderBy('a.id')
    .execute();
}
