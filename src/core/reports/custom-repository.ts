import { sql } from 'kysely';
import type { Db } from '../db/connection.js';
import type { CustomEntity } from '../../shared/reports.js';
import { fullName, type Window } from './repository.js';
import { personNameOrNull } from '../db/person-name-sql.js';
import { resultsWithPatient, samplesWithPatient } from '../db/joins.js';
import { billsWithPatient } from '../db/bill-joins.js';

/**
 * The rows of a custom report: one fixed query per entity, selecting every column the entity
 * offers (src/shared/reports.ts CUSTOM_ENTITY_DEFS); the service keeps the columns the report
 * picked. Filters are the entity's known keys only, bound as parameters. At most `limit` rows.
 */

export async function customRows(
  db: Db,
  entity: CustomEntity,
  w: Window,
  filters: Record<string, string>,
  limit: number,
): Promise<Record<string, unknown>[]> {
  if (entity === 'patients') {
    let q = db
      .selectFrom('patients as p')
      .select([
        'p.patient_code',
        fullName('p').as('name'),
        'p.gender',
        'p.date_of_birth',
        'p.phone',
        'p.city',
        'p.created_at as registered_at',
      ])
      .where('p.organization_id', '=', w.organizationId)
      .where('p.created_at', '>=', w.fromUtc)
      .where('p.created_at', '<', w.toUtc);
    if (filters.gender) q = q.where('p.gender', '=', filters.gender);
    return q.orderBy('p.created_at').orderBy('p.id').limit(limit).execute();
  }
  if (entity === 'bills') {
    const status = sql<string>`CASE WHEN b.cancelled_at IS NOT NULL THEN 'cancelled' WHEN b.paid_paise >= b.final_amount_paise THEN 'paid' WHEN b.paid_paise > 0 THEN 'partial' ELSE 'unpaid' END`;
    let q = billsWithPatient(db, w.organizationId)
      .leftJoin('users as d', 'd.id', 'b.doctor_id')
      .select([
        'b.bill_number',
        'b.created_at as billed_at',
        'p.patient_code',
        fullName('p').as('patient_name'),
        personNameOrNull('d').as('doctor_name'),
        'b.final_amount_paise',
        'b.discount_amount_paise',
        'b.paid_paise',
        status.as('status'),
      ])
      .where('b.created_at', '>=', w.fromUtc)
      .where('b.created_at', '<', w.toUtc);
    if (filters.status) q = q.where(status, '=', filters.status);
    return q.orderBy('b.created_at').orderBy('b.id').limit(limit).execute();
  }
  if (entity === 'samples') {
    const day = sql<string>`COALESCE(s.collection_date, s.created_at)`;
    let q = samplesWithPatient(db, w.organizationId)
      .select([
        's.sample_code',
        's.barcode',
        'p.patient_code',
        's.sample_type',
        's.status',
        's.priority',
        's.collection_date as collected_at',
        's.rejection_reason',
      ])
      .where(day, '>=', w.fromUtc)
      .where(day, '<', w.toUtc);
    if (filters.status) q = q.where('s.status', '=', filters.status);
    if (filters.sample_type) q = q.where('s.sample_type', '=', filters.sample_type);
    return q.orderBy(day).orderBy('s.id').limit(limit).execute();
  }
  let q = resultsWithPatient(db, w.organizationId)
    .select([
      's.sample_code',
      'p.patient_code',
      't.name as test_name',
      'r.result_value',
      'r.unit',
      'r.flag',
      sql<string>`CASE WHEN r.is_critical = 1 THEN 'yes' ELSE 'no' END`.as('critical'),
      'r.status',
      'r.entered_at',
      'r.verified_at',
    ])
    .where('r.entered_at', '>=', w.fromUtc)
    .where('r.entered_at', '<', w.toUtc);
  if (filters.status) q = q.where('r.status', '=', filters.status);
  if (filters.flag) q = q.where('r.flag', '=', filters.flag);
  if (filters.critical) q = q.where('r.is_critical', '=', filters.critical === 'yes' ? 1 : 0);
  return q.orderBy('r.entered_at').orderBy('r.id').limit(limit).execute();
}
