import { sql, type Expression, type SqlBool } from 'kysely';
import { fixedQuery } from './connection.js';

/**
 * SQLite FTS5 prefix search over patients (name, code, phone, email). Dialect-specific, so it lives
 * in src/core/db; a PostgreSQL build would answer the same two questions with pg_trgm.
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
    text
      .toLowerCase()
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

/** The exact number of matches, straight from the index. */
export const countMatching = fixedQuery(
  (_db, match: string) => sql<{ n: number }>`SELECT count(*) AS n FROM patients_fts WHERE patients_fts MATCH ${match}`,
);

/** Newest first; FTS5 walks rowids in descending order without sorting. */
export const pageOfMatching = fixedQuery(
  (_db, match: string, limit: number, offset: number) =>
    sql<{
      id: number;
    }>`SELECT rowid AS id FROM patients_fts WHERE patients_fts MATCH ${match} ORDER BY rowid DESC LIMIT ${limit} OFFSET ${offset}`,
);
