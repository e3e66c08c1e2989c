import { sql } from 'kysely';
import type { Db } from '../db/connection.js';
import { samplesWithPatient } from '../db/joins.js';
import { rowsByKeys } from '../db/dialect.js';
import { labTable } from '../db/lab-tables.js';

/** SQL of the samples' import and export: look-ups by natural key and the export's pages. */

/** The lab's samples with these codes (upper case): id, patient and status by code. */
export async function samplesByCodes(db: Db, organizationId: number, codes: readonly string[]) {
  const rows = await rowsByKeys(codes, (some) =>
    labTable(db, 'samples', organizationId)
      .select(['id', 'sample_code', 'patient_id', 'status'])
      .where('sample_code', 'in', some)
      .execute(),
  );
  return new Map(rows.map((r) => [r.sample_code, r]));
}

/** Which of these barcodes a sample of the lab has. */
export async function barcodesTaken(db: Db, organizationId: number, barcodes: readonly string[]): Promise<Set<string>> {
  const rows = await rowsByKeys(barcodes, (some) =>
    labTable(db, 'samples', organizationId).select('barcode').where('barcode', 'in', some).execute(),
  );
  return new Set(rows.flatMap((r) => (r.barcode ? [r.barcode] : [])));
}

/** A page of samples for export, oldest first after an id, with the codes and emails that name their references. */
export function sampleExportPage(
  db: Db,
  organizationId: number,
  f: { afterId: number; limit: number; fromIso?: string; beforeIso?: string },
) {
  let q = samplesWithPatient(db, organizationId)
    .leftJoin('users as c', 'c.id', 's.collector_id')
    .leftJoin('bills as b', 'b.id', 's.bill_id')
    .selectAll('s')
    .select(['p.patient_code', 'p.first_name', 'p.last_name', 'c.email as collector_email', 'b.bill_number'])
    .where('s.id', '>', f.afterId);
  if (f.fromIso) q = q.where(sql`coalesce(s.collection_date, s.created_at)`, '>=', f.fromIso);
  if (f.beforeIso) q = q.where(sql`coalesce(s.collection_date, s.created_at)`, '<', f.beforeIso);
  return q.orderBy('s.id').limit(f.limit).execute();
}

/** The codes of the tests ordered on each sample, in order. */
export async function testCodesOfSamples(db: Db, sampleIds: readonly number[]): Promise<Map<number, string[]>> {
  const out = new Map<number, string[]>();
  if (!sampleIds.length) return out;
  const rows = await db
    .selectFrom('sample_tests as st')
    .innerJoin('tests as t', 't.id', 'st.test_id')
    .select(['st.sample_id', 't.code'])
    .where('st.sample_id', 'in', [...sampleIds])
    .orderBy('st.sample_id')
    .orderBy('st.position')
    .execute();
  for (const r of rows) {
    const list = out.get(r.sample_id) ?? [];
    list.push(r.code);
    out.set(r.sample_id, list);
  }
  return out;
}

/** The lab's bills with these numbers: id and patient, by number. */
export async function billsByNumbers(db: Db, organizationId: number, numbers: readonly string[]) {
  const rows = await rowsByKeys(numbers, (some) =>
    labTable(db, 'bills', organizationId)
      .select(['id', 'bill_number', 'patient_id'])
      .where('bill_number', 'in', some)
      .execute(),
  );
  return new Map(rows.map((r) => [r.bill_number, r]));
}
