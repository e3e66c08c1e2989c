import type { Db } from '../db/connection.js';
import type { Actor } from '../context.js';
import { insertPatient } from './service.js';

class Rollback extends Error {}

/** Runs a real patient insert (code, search index, audit row) and rolls it all back. */
export async function checkPatientWrite(
  db: Db,
  actor: Actor,
): Promise<{ ok: boolean; ms: number; patient_code: string | null; error: string | null }> {
  const t0 = performance.now();
  let code: string | null = null;
  try {
    await db.transaction().execute(async (trx) => {
      const row = await insertPatient(trx, actor, {
        first_name: 'Diagnostic',
        last_name: 'Check',
        date_of_birth: '2000-01-01',
        gender: 'Other',
      });
      code = row.patient_code;
      throw new Rollback();
    });
    return { ok: false, ms: 0, patient_code: null, error: 'the check transaction was not rolled back' };
  } catch (e) {
    const ms = Math.round((performance.now() - t0) * 100) / 100;
    if (e instanceof Rollback) return { ok: true, ms, patient_code: code, error: null };
    return { ok: false, ms, patient_code: null, error: e instanceof Error ? e.message : String(e) };
  }
}
