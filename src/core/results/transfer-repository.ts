import type { Db } from '../db/connection.js';
import { resultsWithPatient } from '../db/joins.js';
import { labTable } from '../db/lab-tables.js';

/** SQL of the results' import and export: look-ups by natural key and the export's pages. */

/** The samples of the lab with these codes, each with the codes of the tests ordered on it and those with a result. */
export async function samplesForResults(db: Db, organizationId: number, codes: readonly string[]) {
  const out = new Map<
    string,
    {
      id: number;
      code: string;
      status: string;
      patient_id: number;
      ordered: Map<string, number>;
      withResult: Set<string>;
    }
  >();
  for (let i = 0; i < codes.length; i += 500) {
    const samples = await labTable(db, 'samples', organizationId)
      .select(['id', 'sample_code', 'patient_id', 'status'])
      .where('sample_code', 'in', codes.slice(i, i + 500))
      .execute();
    if (!samples.length) continue;
    const ids = samples.map((s) => s.id);
    const ordered = await db
      .selectFrom('sample_tests as st')
      .innerJoin('tests as t', 't.id', 'st.test_id')
      .select(['st.sample_id', 't.id', 't.code'])
      .where('st.sample_id', 'in', ids)
      .execute();
    const results = await db
      .selectFrom('test_results as r')
      .innerJoin('tests as t', 't.id', 'r.test_id')
      .select(['r.sample_id', 't.code'])
      .where('r.sample_id', 'in', ids)
      .execute();
    const byId = new Map(
      samples.map((s) => [
        s.id,
        {
          id: s.id,
          code: s.sample_code,
          status: s.status,
          patient_id: s.patient_id,
          ordered: new Map<string, number>(),
          withResult: new Set<string>(),
        },
      ]),
    );
    for (const o of ordered) byId.get(o.sample_id)!.ordered.set(o.code.toUpperCase(), o.id);
    for (const r of results) byId.get(r.sample_id)!.withResult.add(r.code.toUpperCase());
    for (const s of samples) out.set(s.sample_code, byId.get(s.id)!);
  }
  return out;
}

/** A page of results for export, oldest first after an id, with the codes and emails that name their references. */
export function resultExportPage(
  db: Db,
  organizationId: number,
  f: { afterId: number; limit: number; fromIso?: string; beforeIso?: string },
) {
  let q = resultsWithPatient(db, organizationId)
    .leftJoin('users as e', 'e.id', 'r.technician_id')
    .leftJoin('users as v', 'v.id', 'r.verified_by')
    .selectAll('r')
    .select([
      's.sample_code',
      't.code as test_code',
      't.name as test_name',
      'p.patient_code',
      'e.email as entered_by_email',
      'v.email as verified_by_email',
    ])
    .where('r.id', '>', f.afterId);
  if (f.fromIso) q = q.where('r.created_at', '>=', f.fromIso);
  if (f.beforeIso) q = q.where('r.created_at', '<', f.beforeIso);
  return q.orderBy('r.id').limit(f.limit).execute();
}
