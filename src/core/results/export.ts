import { writeAudit } from '../audit/audit.js';
import type { Actor } from '../context.js';
import { csvHeader, csvRows } from '../export/csv.js';
import type { Db } from '../db/connection.js';
import { resultCode, type ResultListQuery } from '../../shared/schemas/results.js';
import { toResult } from './mappers.js';
import { organizationTimezone } from '../settings/service.js';
import { allResults, type ResultFilter } from './repository.js';
import { resultScope } from './scope.js';

const COLUMNS = [
  'result_id',
  'patient_name',
  'patient_number',
  'test_name',
  'sample_number',
  'result_value',
  'unit',
  'normal_range',
  'flag',
  'critical',
  'review_required',
  'status',
  'validation_status',
  'priority',
  'entered_by',
  'entered_at',
  'validated_by',
  'validated_at',
  'rejection_reason',
  'amended',
] as const;

/** The validation queue (or any filtered result list) as CSV: Result Validation's Export Report. */
export async function resultsCsv(
  db: Db,
  organizationId: number,
  f: ResultFilter,
  found?: Awaited<ReturnType<typeof allResults>>,
): Promise<string> {
  const tz = await organizationTimezone(db, organizationId);
  const rows = (found ?? (await allResults(db, organizationId, f))).map((r) => toResult(r, tz));
  return (
    csvHeader(COLUMNS) +
    csvRows(
      rows.map((r) => [
        resultCode(r.id),
        `${r.first_name} ${r.last_name}`,
        r.patient_number,
        r.test_name,
        r.sample_number,
        r.result_value,
        r.unit,
        r.normal_range,
        r.flag,
        r.is_critical ? 'yes' : 'no',
        r.review_required ? 'yes' : 'no',
        r.status,
        r.validation_status,
        r.priority,
        r.technician_name,
        r.entered_at,
        r.verified_by_name,
        r.verified_at,
        r.rejection_reason,
        r.amended ? 'yes' : 'no',
      ]),
    )
  );
}

/** Export Report: the CSV of the results matching the filters, recorded in the audit trail. */
export async function exportResultsCsv(db: Db, actor: Actor, q: ResultListQuery): Promise<string> {
  const { search, status, validation, priority, critical, sample_id, entered } = q;
  const filters = { search, status, validation, priority, critical, sample_id, entered };
  const scope = await resultScope(db, actor);
  const rows = await allResults(db, actor.organizationId, { ...filters, doctor_id: scope.doctorId });
  const csv = await resultsCsv(db, actor.organizationId, { ...filters, doctor_id: scope.doctorId }, rows);
  await writeAudit(db, actor, {
    action: 'export',
    entity: 'test_result',
    newValues: { format: 'csv', ...filters, rows: rows.length, complete: true },
  });
  return csv;
}
