import { sql, type Expression, type SqlBool } from 'kysely';

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
  return text
    .toLowerCase()
    // Combining marks belong to the word (Devanagari vowel signs, decomposed accents), as in the index.
    .split(/[^\p{L}\p{M}\p{N}]+/u)
    .filter(Boolean)
    .slice(0, 8);
}

/** An FTS5 query: every word must start some indexed word, within the given organisation. */
export function ftsQuery(organizationId: number, tokens: string[]): string {
  const words = tokens.map((t) => `"${t.replace(/"/g, '""')}"*`).join(' AND ');
  return `org : "org${organizationId}" AND {first_name last_name patient_code phone email} : (${words})`;
}

/** `patients.id IN (matching ids)` for use in a Kysely where clause. */
export function idsMatching(match: string): Expression<SqlBool> {
  return sql<SqlBool>`patients.id IN (SELECT rowid FROM patients_fts WHERE patients_fts MATCH ${match})`;
}

export function countMatching(match: string) {
  return sql<{ n: number }>`SELECT count(*) AS n FROM patients_fts WHERE patients_fts MATCH ${match}`;
}

/** Newest first; FTS5 walks rowids in descending order without sorting. */
export function pageOfMatching(match: string, limit: number, offset: number) {
  return sql<{ id: number }>`SELECT rowid AS id FROM patients_fts WHERE patients_fts MATCH ${match} ORDER BY rowid DESC LIMIT ${limit} OFFSET ${offset}`;
}
