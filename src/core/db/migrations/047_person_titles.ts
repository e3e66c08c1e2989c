/**
 * users.title: a staff member's or doctor's title (Dr, Prof, Mr, Mrs, Ms, Miss) as a field of its
 * own, shown before the name, so that "Dr. Meena Kulkarni" is first name Meena, not "Dr.".
 * Null when none was given (doctors are still called "Dr." then, as before).
 *
 * Accounts saved before the field existed with their title typed into the first name ("Dr. Meena")
 * move it to the title, as a new one would be stored. A title alone (a first name "Dr") stays a name.
 */
const TITLES = ['Dr', 'Prof', 'Mrs', 'Mr', 'Ms', 'Miss'];

export const moveTitlesSql = TITLES.flatMap((title) =>
  [`${title}. `, `${title} `].map((typed) => {
    const rest = `TRIM(SUBSTR(first_name, ${typed.length + 1}))`;
    return `UPDATE users SET title = '${title}', first_name = ${rest} WHERE title IS NULL AND LOWER(first_name) LIKE '${typed.toLowerCase()}%' AND LENGTH(${rest}) > 0;`;
  }),
).join('\n');

export const sql = /* sql */ `
ALTER TABLE users ADD COLUMN title TEXT;
${moveTitlesSql}
`;
