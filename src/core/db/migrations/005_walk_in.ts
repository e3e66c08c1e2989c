/**
 * Walk-in registration: a title, and whether the birth date was worked out from an age
 * told at the desk. Mobile numbers already stored are normalised to their 10 digits where they are
 * Indian mobiles written with +91 or 91 and spaces or dashes; others (a 0-prefixed number may be a
 * landline with its STD code) are left as they were.
 */
export const sql = /* sql */ `
ALTER TABLE patients ADD COLUMN title TEXT;
ALTER TABLE patients ADD COLUMN dob_estimated INTEGER NOT NULL DEFAULT 0 CHECK (dob_estimated IN (0,1));

UPDATE patients SET phone = substr(d, -10) FROM (
  SELECT id AS pid, replace(replace(replace(phone, ' ', ''), '-', ''), '+', '') AS d FROM patients WHERE phone IS NOT NULL
) WHERE patients.id = pid
  AND d NOT GLOB '*[^0-9]*'
  -- 0 + 10 digits is left alone: it may be a landline with its STD code (080 4000 1234).
  AND (length(d) = 10 OR (length(d) = 12 AND substr(d, 1, 2) = '91'))
  AND substr(d, -10, 1) IN ('6', '7', '8', '9')
  -- Rows already stored as 10 digits are left alone: no rewrite, no search-index trigger.
  AND patients.phone <> substr(d, -10);
`;
