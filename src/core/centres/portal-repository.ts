import { sql } from 'kysely';
import type { Db } from '../db/connection.js';
import { billsWithPatient } from '../db/bill-joins.js';
import { centrePatients, sampleWithBill } from './repository.js';
import { labRows } from '../db/joins.js';

/**
 * The centre portal's row filters: every query names the centre (or its payer) as well as the lab,
 * so a centre's login reads its own patients and bills and nothing else, whatever id it sends.
 */

/** The centre a login is bound to (null for the lab's staff). */
export async function centreIdOfUser(db: Db, organizationId: number, userId: number): Promise<number | null> {
  const r = await db
    .selectFrom('users')
    .select('centre_id')
    .where('organization_id', '=', organizationId)
    .where('id', '=', userId)
    .where('role', '=', 'centre')
    .executeTakeFirst();
  return r?.centre_id ?? null;
}

/** The centre's own patients, newest first, optionally those whose name, code or phone holds `search`. */
export function centrePatientRows(db: Db, organizationId: number, centreId: number, search?: string) {
  let q = centrePatients(db, organizationId, centreId).select([
    'p.id',
    'p.patient_code',
    'p.first_name',
    'p.last_name',
    'p.phone',
    'p.gender',
    'cp.created_at',
  ]);
  if (search) {
    // A search for a name, not a pattern: LIKE's wildcards typed by the user are dropped.
    const like = `%${search.toLowerCase().replace(/[%_\\]/g, '')}%`;
    q = q.where((eb) =>
      eb.or([
        eb(sql<string>`lower(p.first_name || ' ' || p.last_name)`, 'like', like),
        eb(sql<string>`lower(p.patient_code)`, 'like', like),
        eb(sql<string>`coalesce(p.phone, '')`, 'like', like),
      ]),
    );
  }
  return q.orderBy('cp.created_at', 'desc').orderBy('p.id', 'desc').limit(200).execute();
}

/** Whether a query finds a row: the portal's checks that an id is the centre's. */
const found = async (q: { executeTakeFirst(): Promise<unknown> }) => (await q.executeTakeFirst()) !== undefined;

export function isCentrePatient(db: Db, organizationId: number, centreId: number, patientId: number) {
  return found(
    db
      .selectFrom('centre_patients')
      .select('patient_id')
      .where('organization_id', '=', organizationId)
      .where('centre_id', '=', centreId)
      .where('patient_id', '=', patientId),
  );
}

/** Bills on the centre's account (its payer), newest first. */
export function centreBillRows(db: Db, organizationId: number, payerId: number) {
  return billsWithPatient(db, organizationId)
    .select([
      'b.id',
      'b.bill_number',
      'b.patient_id',
      'p.first_name',
      'p.last_name',
      'p.patient_code',
      'b.created_at',
      'b.due_date',
      'b.final_amount_paise',
      'b.paid_paise',
      'b.cancelled_at',
    ])
    .where('b.payer_id', '=', payerId)
    .orderBy('b.created_at', 'desc')
    .orderBy('b.id', 'desc')
    .limit(200)
    .execute();
}

/** Whether the bill is on the centre's account. */
export function isCentreBill(db: Db, organizationId: number, payerId: number, billId: number) {
  return found(labRows(db, 'bills', organizationId).where('payer_id', '=', payerId).where('id', '=', billId));
}

/** Whether the sample is a tube of a bill on the centre's account. */
export function isCentreSample(db: Db, organizationId: number, payerId: number, sampleId: number) {
  return found(sampleWithBill(db, organizationId, sampleId).select('s.id').where('b.payer_id', '=', payerId));
}
