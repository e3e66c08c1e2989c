import { sql } from 'kysely';
import type { Db } from '../db/connection.js';
import { nowIso, type Actor } from '../context.js';
import { insertRows } from '../db/bulk.js';
import { analyzeStage, createStage, dropStage, reserveIds } from '../db/staging.js';
import { copyStagedWords, createWordStage, PrefixCounts, stageNewPatientWords } from '../db/patient-search.js';
import { StagedAudit } from '../audit/staged.js';
import { raiseSequence, reserveSequence } from '../sequences.js';
import { PATIENT_INSERT_COLUMNS } from './repository.js';
import { keptCodeCounters, patientInsertRow, type BulkPatient } from './bulk.js';

const STAGE = 'lims_stage_patients';
const WORDS = 'lims_stage_patient_words';
const COLUMNS = ['id', ...PATIENT_INSERT_COLUMNS] as const;

/**
 * New patients of an import staged before the write lock (db/staging.ts): each batch takes its
 * codes from the lab's daily counter and its ids in one short write of its own, and is built as
 * insertPatientsBulk builds it (the same rows, search words and audit rows), into TEMP tables.
 * The import's transaction then checks that no code kept from the file was taken meanwhile and
 * copies everything in. Codes and ids taken for an import that then fails are not handed out
 * again: a gap in the day's numbers, as a cancelled registration leaves.
 */
export class PatientStage {
  private readonly prefixes = new PrefixCounts();
  /** One registration time for the whole file, as insertPatientsBulk gives one to a batch. */
  private readonly now = nowIso();

  private constructor(
    private readonly actor: Actor,
    private readonly today: string,
    private readonly audit: StagedAudit,
  ) {}

  static async open(db: Db, actor: Actor, today: string): Promise<PatientStage> {
    await createStage(db, STAGE, 'patients', COLUMNS, [
      ['file_row', 'INTEGER'],
      ['kept', 'INTEGER'],
    ]);
    await createWordStage(db, WORDS);
    return new PatientStage(actor, today, await StagedAudit.open(db, actor));
  }

  async add(db: Db, batch: readonly { row: number; patient: BulkPatient }[]): Promise<void> {
    if (!batch.length) return;
    const org = this.actor.organizationId;
    const patients = batch.map((b) => b.patient);
    const day = this.today.replace(/-/g, '');
    const fresh = patients.filter((p) => !p.code).length;
    // One short write per batch takes its codes and its ids.
    const taken = await db.transaction().execute(async (trx) => {
      for (const [d, n] of keptCodeCounters(patients)) await raiseSequence(trx, org, `patient:${d}`, n);
      return {
        next: fresh ? (await reserveSequence(trx, org, `patient:${day}`, fresh)) - fresh + 1 : 0,
        ids: await reserveIds(trx, 'patients', batch.length),
      };
    });
    let next = taken.next;
    const ids = taken.ids;
    const rows = batch.map((b, i) => {
      const code = b.patient.code ?? `PAT${day}${String(next++).padStart(4, '0')}`;
      const row = patientInsertRow(this.actor, b.patient, code, this.today, this.now);
      return { id: ids[i]!, fileRow: b.row, kept: b.patient.code ? 1 : 0, row };
    });
    await insertRows(
      db,
      STAGE,
      [...COLUMNS, 'file_row', 'kept'],
      rows.map((r) => [r.id, ...PATIENT_INSERT_COLUMNS.map((c) => r.row[c] ?? null), r.fileRow, r.kept]),
    );
    await stageNewPatientWords(
      db,
      WORDS,
      rows.map((r) => ({ ...r.row, id: r.id })),
      this.prefixes,
    );
    await this.audit.add(
      db,
      rows.map((r) => ({
        action: 'create' as const,
        entity: 'patient',
        entityId: r.id,
        newValues: { id: r.id, ...r.row },
      })),
      this.now,
    );
  }

  /** After the last add, before the write's transaction: the stages' statistics. */
  async ready(db: Db): Promise<void> {
    await analyzeStage(db, STAGE);
    await this.audit.ready(db);
  }

  /** In the write lock: the kept codes someone registered meanwhile; when none, the rows copied in. */
  async commit(trx: Db): Promise<{ inserted: number; taken: { row: number; code: string }[] }> {
    const taken = await sql<{ row: number; code: string }>`SELECT s.file_row AS row, s.patient_code AS code
      FROM ${sql.table(STAGE)} s
      WHERE s.kept = 1 AND EXISTS (SELECT 1 FROM patients p
        WHERE p.organization_id = ${this.actor.organizationId} AND p.patient_code = s.patient_code)
      ORDER BY s.file_row`.execute(trx);
    if (taken.rows.length) return { inserted: 0, taken: taken.rows.map((r) => ({ row: Number(r.row), code: r.code })) };
    const cols = sql.join(COLUMNS.map((c) => sql.ref(c)));
    const copied =
      await sql`INSERT INTO patients (${cols}) SELECT ${cols} FROM ${sql.table(STAGE)} ORDER BY id`.execute(trx);
    await copyStagedWords(trx, WORDS, this.prefixes);
    await this.audit.append(trx);
    return { inserted: Number(copied.numAffectedRows ?? 0), taken: [] };
  }

  async drop(db: Db): Promise<void> {
    await dropStage(db, STAGE);
    await dropStage(db, WORDS);
    await this.audit.drop(db);
  }
}
