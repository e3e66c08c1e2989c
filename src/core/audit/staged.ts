import { sql } from 'kysely';
import type { Db } from '../db/connection.js';
import type { Actor } from '../context.js';
import { insertRows } from '../db/bulk.js';
import { analyzeStage, createStage, dropStage, indexStage, sha256Hex } from '../db/staging.js';
import { GENESIS_HASH, HASHED_COLUMNS, hashTail, hashedFields, type AuditEntry } from './audit.js';
import { lastAuditHash } from './repository.js';

const STAGE = 'lims_stage_audit';

/**
 * Audit rows of a staged write (db/staging.ts): built and staged before the write lock with the
 * text their hash covers (hashTail), then appended inside the write's transaction in one
 * statement that chains them from the trail's last hash in the database itself, row after row in
 * the order they were staged. The trail is the same as writeAuditBatch's: verifyChain holds.
 */
export class StagedAudit {
  private rows = 0;

  private constructor(private readonly actor: Actor) {}

  static async open(db: Db, actor: Actor): Promise<StagedAudit> {
    await createStage(db, STAGE, 'audit_log', HASHED_COLUMNS, [
      ['n', 'INTEGER'],
      ['tail', 'TEXT'],
    ]);
    await indexStage(db, STAGE, 'n');
    return new StagedAudit(actor);
  }

  async add(db: Db, entries: readonly AuditEntry[], createdAt: string): Promise<void> {
    const rows = entries.map((entry) => {
      const fields = hashedFields(this.actor, entry, createdAt);
      return [...HASHED_COLUMNS.map((c) => fields[c]), ++this.rows, hashTail(fields)];
    });
    if (rows.length) await insertRows(db, STAGE, [...HASHED_COLUMNS, 'n', 'tail'], rows);
  }

  /** After the last add, before the write's transaction. */
  ready(db: Db): Promise<void> {
    return analyzeStage(db, STAGE);
  }

  /** Inside the write's transaction: the staged rows, chained, at the end of the trail. */
  async append(trx: Db): Promise<void> {
    if (!this.rows) return;
    const last = (await lastAuditHash(trx)) ?? GENESIS_HASH;
    const cols = HASHED_COLUMNS.map((c) => sql.ref(c));
    const fromStage = HASHED_COLUMNS.map((c) => sql.ref(`s.${c}`));
    const hashed = sha256Hex(trx, sql<string>`'["' || c.hash || '",' || s.tail`);
    // A recursive query walks the rows in order, each hash made from the one before: the chain is
    // sequential by nature, and this way no row leaves the database to be hashed.
    await sql`WITH RECURSIVE chain (n, prev, hash) AS (
        SELECT CAST(0 AS INTEGER), CAST(NULL AS TEXT), CAST(${last} AS TEXT)
        UNION ALL
        SELECT s.n, c.hash, ${hashed} FROM chain c JOIN ${sql.table(STAGE)} s ON s.n = c.n + 1
      )
      INSERT INTO audit_log (${sql.join(cols)}, prev_hash, hash)
      SELECT ${sql.join(fromStage)}, c.prev, c.hash
      FROM chain c JOIN ${sql.table(STAGE)} s ON s.n = c.n
      ORDER BY c.n`.execute(trx);
  }

  drop(db: Db): Promise<void> {
    return dropStage(db, STAGE);
  }
}
