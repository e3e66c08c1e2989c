/**
 * users.title: a staff member's or doctor's title (Dr, Prof, Mr, Mrs, Ms, Miss) as a field of its
 * own, shown before the name, so that "Dr. Meena Kulkarni" is first name Meena, not "Dr.".
 * Null when none was given (doctors are still called "Dr." then, as before).
 */
export const sql = /* sql */ `
ALTER TABLE users ADD COLUMN title TEXT;
`;
