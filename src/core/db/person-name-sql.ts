import { sql } from 'kysely';

/**
 * A person's (a user's) name from a left join as one text, null where the join found no one; `MAX`
 * of it where the rows are grouped by the person's id.
 */
export const personNameOrNull = (alias: string) =>
  sql<
    string | null
  >`CASE WHEN ${sql.ref(`${alias}.id`)} IS NULL THEN NULL ELSE ${sql.ref(`${alias}.first_name`)} || ' ' || ${sql.ref(`${alias}.last_name`)} END`;
export const groupedPersonName = (alias: string) => sql<string | null>`MAX(${personNameOrNull(alias)})`;
