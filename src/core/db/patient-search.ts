import { sql, type Expression, type Selectable, type SqlBool, type Transaction } from 'kysely';
import { fixedQuery, type Db } from './connection.js';
import { createStage } from './staging.js';
import { engineOf } from './dialect.js';
import { insertRows } from './bulk.js';
import type { DB } from './schema.js';

type PatientRow = Selectable<DB['patients']>;

/**
 * Prefix search over patients (name, code, phone, email). Dialect-specific, so it lives in
 * src/core/db: SQLite answers from its FTS5 index (kept by triggers); PostgreSQL from
 * patient_search_words, one row per word, written beside each patient by `indexPatientWords`
 * with the same tokenizer, so both engines give the same answers.
 */

/**
 * Words of the search text, lower-cased; punctuation splits words as the index does. A phone number
 * as staff type it ("+91 98765 43210", "98765-43210") is one word: the index holds a phone's digits run
 * together and its last 10 digits, so a longer number is searched by its last 10.
 */
export function searchTokens(text: string): string[] {
  if (/^[\d\s()+.-]+$/.test(text) && /\d/.test(text)) {
    const digits = text.replace(/\D/g, '');
    return [digits.length > 10 ? digits.slice(-10) : digits];
  }
  return (
    fold(text)
      // Combining marks belong to the word (Devanagari vowel signs, decomposed accents), as in the index.
      .split(/[^\p{L}\p{M}\p{N}]+/u)
      .filter(Boolean)
      .slice(0, 8)
  );
}

/**
 * An FTS5 query: every word must start some indexed word of the patient's name, code, phone or email,
 * within the given organisation. When the database holds no other organisation, `soleOrganization`
 * drops the tenant term (every row is this lab's) and, unless a word could match the tenant column
 * itself, the column filter: both make FTS5 decode position lists, which triples the cost of
 * counting a common prefix over a million patients, for the same answer.
 */
/** Lower case, Latin accents removed (as FTS5's remove_diacritics does); Indian scripts' signs are kept. */
function fold(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .normalize('NFC')
    .toLowerCase();
}

export function ftsQuery(organizationId: number, tokens: string[], opts: { soleOrganization?: boolean } = {}): string {
  const words = tokens.map((t) => `"${t.replace(/"/g, '""')}"*`).join(' AND ');
  const tenant = `org${organizationId}`;
  if (!opts.soleOrganization) return `org : "${tenant}" AND {${SEARCHED_COLUMNS}} : (${words})`;
  return tokens.some((t) => tenant.startsWith(t)) ? `{${SEARCHED_COLUMNS}} : (${words})` : words;
}

const SEARCHED_COLUMNS = 'first_name last_name patient_code phone email';

/** `patients.id IN (matching ids)` for use in a Kysely where clause. */
export function idsMatching(match: string): Expression<SqlBool> {
  return sql<SqlBool>`patients.id IN (SELECT rowid FROM patients_fts WHERE patients_fts MATCH ${match})`;
}

/** Some organisation other than this one; when there is none, every indexed row is this one's. */
export const otherOrganization = fixedQuery((db, organizationId: number) =>
  db.selectFrom('organizations').select('id').where('id', '<>', organizationId).limit(1),
);

/** The lab's number of patients, kept by triggers in entity_counts. */
export const patientCount = fixedQuery((db, organizationId: number) =>
  db
    .selectFrom('entity_counts')
    .select('n')
    .where('organization_id', '=', organizationId)
    .where('entity', '=', 'patients'),
);

/** The exact number of matches, straight from the index. */
export const countMatching = fixedQuery(
  (_db, match: string) => sql<{ n: number }>`SELECT count(*) AS n FROM patients_fts WHERE patients_fts MATCH ${match}`,
);

/**
 * A page of matching patients' rows, newest first, in one statement: FTS5 walks rowids in descending
 * order without sorting, and the page's rows come by primary key.
 */
export const pageOfMatching = fixedQuery(
  (_db, match: string, organizationId: number, limit: number, offset: number) =>
    sql<PatientRow>`SELECT p.* FROM patients p WHERE p.id IN (SELECT rowid FROM patients_fts WHERE patients_fts MATCH ${match} ORDER BY rowid DESC LIMIT ${limit} OFFSET ${offset}) AND p.organization_id = ${organizationId} ORDER BY p.id DESC`,
);

/** The words the index holds for a patient, as the SQLite trigger feeds FTS5 (phone: digits and last 10). */
export function patientWords(p: {
  first_name: string;
  last_name: string;
  patient_code: string;
  phone: string | null;
  email: string | null;
}): string[] {
  const split = (text: string | null) =>
    text
      ? fold(text)
          .split(/[^\p{L}\p{M}\p{N}]+/u)
          .filter(Boolean)
      : [];
  const digits = (p.phone ?? '').replace(/[\s+.-]/g, '');
  const phone = (p.phone ?? '').replace(/[\s+-]/g, '');
  return [
    ...new Set([
      ...split(p.first_name),
      ...split(p.last_name),
      ...split(p.patient_code),
      ...split(digits),
      ...split(phone.slice(-10)),
      ...split(p.email),
    ]),
  ];
}

type Executor = Db | Transaction<DB>;

/**
 * On PostgreSQL, the number of patients having a word that starts with each prefix of up to this
 * many characters is kept in patient_search_prefix_counts, so that counting a short, common prefix
 * ("ram": 68,181 of a million) is one row instead of a distinct count over its range. Longer
 * prefixes match few enough patients to count from the words themselves. Migration 7 made the
 * table with the same number (its own copy: a shipped migration does not follow runtime code).
 */
export const COUNTED_PREFIX = 6;

/** The prefix counts computed from the words in the database (`lims db copy` on PostgreSQL). */
export const REBUILD_PREFIX_COUNTS = /* sql */ `
INSERT INTO patient_search_prefix_counts (organization_id, prefix, n)
SELECT organization_id, prefix, count(DISTINCT patient_id) FROM (
  SELECT w.organization_id, w.patient_id, left(w.word, l) AS prefix
  FROM patient_search_words w, generate_series(1, ${COUNTED_PREFIX}) AS l
  WHERE length(w.word) >= l
) x GROUP BY organization_id, prefix`;

/** The distinct prefixes of up to COUNTED_PREFIX characters (code points, as PostgreSQL's left()) of the words. */
export function wordPrefixes(words: string[]): Set<string> {
  const out = new Set<string>();
  for (const w of words) {
    const chars = Array.from(w);
    for (let l = 1; l <= Math.min(COUNTED_PREFIX, chars.length); l++) out.add(chars.slice(0, l).join(''));
  }
  return out;
}

async function wordsOf(trx: Executor, patientId: number): Promise<string[]> {
  const rows = await trx
    .selectFrom('patient_search_words')
    .select('word')
    .where('patient_id', '=', patientId)
    .execute();
  return rows.map((r) => r.word);
}

/** Moves the prefix counts from a patient's old words to its new ones. */
async function adjustPrefixCounts(trx: Executor, organizationId: number, before: string[], after: string[]) {
  const was = wordPrefixes(before);
  const is = wordPrefixes(after);
  const deltas = [
    ...[...is].filter((p) => !was.has(p)).map((prefix) => ({ prefix, n: 1 })),
    ...[...was].filter((p) => !is.has(p)).map((prefix) => ({ prefix, n: -1 })),
  ];
  if (deltas.length === 0) return;
  await trx
    .insertInto('patient_search_prefix_counts')
    .values(deltas.map((d) => ({ organization_id: organizationId, ...d })))
    .onConflict((oc) =>
      oc
        .columns(['organization_id', 'prefix'])
        .doUpdateSet({ n: sql<number>`patient_search_prefix_counts.n + excluded.n` }),
    )
    .execute();
}

/**
 * Keeps PostgreSQL's search words of one patient, and the prefix counts, in step with its row (call
 * after insert and update, in the same transaction); SQLite's triggers do this themselves.
 */
export async function indexPatientWords(
  trx: Executor,
  p: Parameters<typeof patientWords>[0] & { id: number; organization_id: number },
): Promise<void> {
  if (engineOf(trx) !== 'postgres') return;
  const before = await wordsOf(trx, p.id);
  const words = patientWords(p);
  if (before.length === words.length && before.every((w) => words.includes(w))) return;
  await trx.deleteFrom('patient_search_words').where('patient_id', '=', p.id).execute();
  if (words.length > 0) {
    await trx
      .insertInto('patient_search_words')
      .values(words.map((word) => ({ organization_id: p.organization_id, word, patient_id: p.id })))
      .onConflict((oc) => oc.doNothing())
      .execute();
  }
  await adjustPrefixCounts(trx, p.organization_id, before, words);
}

/** Before a patient is deleted (its words go with it, ON DELETE CASCADE): takes it out of the prefix counts. */
export async function unindexPatientWords(trx: Executor, organizationId: number, patientId: number): Promise<void> {
  if (engineOf(trx) !== 'postgres') return;
  await adjustPrefixCounts(trx, organizationId, await wordsOf(trx, patientId), []);
}

/** A search for patients whose words start with every token: its count, a page of ids, and a where clause. */
export interface PatientSearch {
  count(): Promise<number>;
  /** A page of the matching patients' rows, newest first. */
  rows(limit: number, offset: number): Promise<PatientRow[]>;
  /** `patients.id IN (matching ids)` for a Kysely where clause. */
  ids: Expression<SqlBool>;
}

export async function patientSearch(db: Db, organizationId: number, tokens: string[]): Promise<PatientSearch> {
  if (engineOf(db) === 'postgres') return postgresSearch(organizationId, tokens, db);
  const soleOrganization = (await otherOrganization.first(db, organizationId)) === undefined;
  const match = ftsQuery(organizationId, tokens, { soleOrganization });
  return {
    count: async () => Number((await countMatching.first(db, match))?.n ?? 0),
    rows: (limit, offset) => pageOfMatching.all(db, match, organizationId, limit, offset),
    ids: idsMatching(match),
  };
}

/** The LIKE pattern of words starting with the token. */
function likePrefix(token: string): string {
  return `${token.replace(/[\\%_]/g, '\\$&')}%`;
}

/** `word LIKE 'tok%'` on the (organization_id, word) primary key: a range, byte-ordered (COLLATE "C"). */
function matchingIds(organizationId: number, tokens: string[]) {
  const sets = tokens.map(
    (t) =>
      sql`SELECT patient_id FROM patient_search_words WHERE organization_id = ${organizationId} AND word LIKE ${likePrefix(t)}`,
  );
  return sql.join(sets, sql` INTERSECT `);
}

function postgresSearch(organizationId: number, tokens: string[], db: Db): PatientSearch {
  const set = matchingIds(organizationId, tokens);
  const distinct = tokens.length === 1 ? sql`SELECT DISTINCT patient_id FROM (${set}) s` : set;
  const counted = tokens.length === 1 && Array.from(tokens[0]!).length <= COUNTED_PREFIX;
  // One round trip answers the number of matches and of the lab's patients (the page needs both).
  let counting: Promise<{ matches: number; patients: number }> | undefined;
  const patientsSql = sql`(SELECT n FROM entity_counts WHERE organization_id = ${organizationId} AND entity = 'patients')`;
  const counts = () =>
    (counting ??= (async () => {
      const matchesSql = counted
        ? sql`(SELECT n FROM patient_search_prefix_counts WHERE organization_id = ${organizationId} AND prefix = ${tokens[0]})`
        : sql`(SELECT count(*) FROM (${distinct}) m)`;
      const r = await sql<{
        matches: number | null;
        patients: number | null;
      }>`SELECT ${matchesSql} AS matches, ${patientsSql} AS patients`.execute(db);
      return { matches: Number(r.rows[0]?.matches ?? 0), patients: Number(r.rows[0]?.patients ?? 0) };
    })());
  const count = async () => (await counts()).matches;
  return {
    count,
    rows: async (limit, offset) => {
      // Two ways to the newest matches, chosen by what each would read: sorting all `matches` ids, or
      // walking the patients newest first until the page is full, about (offset + limit) * patients /
      // matches of them ("ram": 10 of 68,181 matches among a million patients is ~150 patients).
      // Either way the page's rows come in the same statement (one round trip to the server).
      const { matches, patients } = await counts();
      const walk = (offset + limit) * patients < matches * matches;
      const r = walk
        ? await sql<PatientRow>`SELECT p.* FROM patients p WHERE p.organization_id = ${organizationId} AND ${sql.join(
            tokens.map(
              (t) =>
                sql`EXISTS (SELECT 1 FROM patient_search_words w WHERE w.patient_id = p.id AND w.organization_id = ${organizationId} AND w.word LIKE ${likePrefix(t)})`,
            ),
            sql` AND `,
          )} ORDER BY p.id DESC LIMIT ${limit} OFFSET ${offset}`.execute(db)
        : await sql<PatientRow>`SELECT p.* FROM patients p WHERE p.organization_id = ${organizationId} AND p.id IN (SELECT patient_id FROM (${distinct}) m ORDER BY patient_id DESC LIMIT ${limit} OFFSET ${offset}) ORDER BY p.id DESC`.execute(
            db,
          );
      return r.rows;
    },
    ids: sql<SqlBool>`patients.id IN (${set})`,
  };
}

/**
 * Prefix counts of patients indexed by an import, kept until its store pass ends and written then
 * in one statement per 2,000 prefixes: written batch by batch, the same prefix rows were updated
 * again and again inside one transaction, and each update of a row walks the versions that
 * transaction already made of it (a quarter of a 20,000-patient import's time on PostgreSQL).
 */
export class PrefixCounts {
  readonly counts = new Map<string, number>();
  organizationId: number | null = null;
}

/**
 * PostgreSQL: the search words and prefix counts of many new patients at once (an import's batch),
 * in a few multi-row statements instead of several per patient. SQLite's triggers index each row.
 * With `later`, the prefix counts are added to it for writePrefixCounts instead of written now.
 */
export async function indexNewPatients(
  trx: Db,
  patients: readonly (Parameters<typeof patientWords>[0] & { id: number; organization_id: number })[],
  later?: PrefixCounts,
): Promise<void> {
  if (engineOf(trx) !== 'postgres' || patients.length === 0) return;
  const pending = later ?? new PrefixCounts();
  const words = newPatientWords(patients, pending);
  if (words.length) await insertRows(trx, 'patient_search_words', WORD_COLUMNS, words);
  if (!later) await writePrefixCounts(trx, pending);
}

/** The columns of patient_search_words, in the order newPatientWords gives their values. */
export const WORD_COLUMNS = ['organization_id', 'word', 'patient_id'] as const;

/** PostgreSQL's search words of new patients (WORD_COLUMNS), their prefixes counted into `pending`. */
export function newPatientWords(
  patients: readonly (Parameters<typeof patientWords>[0] & { id: number; organization_id: number })[],
  pending: PrefixCounts,
): unknown[][] {
  const words: unknown[][] = [];
  const counts = pending.counts;
  for (const p of patients) {
    pending.organizationId = p.organization_id;
    const own = patientWords(p);
    for (const w of own) words.push([p.organization_id, w, p.id]);
    for (const prefix of wordPrefixes(own)) counts.set(prefix, (counts.get(prefix) ?? 0) + 1);
  }
  return words;
}

/** Adds the kept prefix counts to patient_search_prefix_counts (PostgreSQL; nothing on SQLite). */
export async function writePrefixCounts(trx: Db, pending: PrefixCounts): Promise<void> {
  if (engineOf(trx) !== 'postgres' || pending.organizationId === null) return;
  const organizationId = pending.organizationId;
  const deltas = [...pending.counts].map(([prefix, n]) => ({ organization_id: organizationId, prefix, n }));
  pending.counts.clear();
  for (let i = 0; i < deltas.length; i += 2000) {
    await trx
      .insertInto('patient_search_prefix_counts')
      .values(deltas.slice(i, i + 2000))
      .onConflict((oc) =>
        oc
          .columns(['organization_id', 'prefix'])
          .doUpdateSet({ n: sql<number>`patient_search_prefix_counts.n + excluded.n` }),
      )
      .execute();
  }
}

/**
 * A staged write of new patients (patients/staged.ts) keeps PostgreSQL's search words in a stage
 * of its own; SQLite's triggers index the rows as they are copied in, so there is none.
 */
export async function createWordStage(db: Db, name: string): Promise<void> {
  if (engineOf(db) === 'postgres') await createStage(db, name, 'patient_search_words', WORD_COLUMNS, []);
}

/** Stages the search words of new patients (PostgreSQL), their prefixes counted into `pending`. */
export async function stageNewPatientWords(
  db: Db,
  name: string,
  patients: Parameters<typeof newPatientWords>[0],
  pending: PrefixCounts,
): Promise<void> {
  if (engineOf(db) !== 'postgres') return;
  const words = newPatientWords(patients, pending);
  if (words.length) await insertRows(db, name, WORD_COLUMNS, words);
}

/** Inside the write's transaction: the staged words copied in and the prefix counts added (PostgreSQL). */
export async function copyStagedWords(trx: Db, name: string, pending: PrefixCounts): Promise<void> {
  if (engineOf(trx) !== 'postgres') return;
  const cols = sql.join(WORD_COLUMNS.map((c) => sql.ref(c)));
  await sql`INSERT INTO patient_search_words (${cols}) SELECT ${cols} FROM ${sql.table(name)}`.execute(trx);
  await writePrefixCounts(trx, pending);
}
