/**
 * Counted search prefixes. PostgreSQL keeps the number of patients per short search
 * prefix (see ./postgres.ts searchPrefixCounts); SQLite's FTS5 index counts a prefix itself, so on
 * SQLite this migration changes nothing.
 */
export const sql = /* sql */ `
SELECT 1;
`;
