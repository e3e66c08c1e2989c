/**
 * A result imported as verified history names who verified it in the lab's previous system as
 * text: that person never acted in lims. The lims user who imported it is the one who released
 * it (verified_by). An amendment keeps the earlier text too, as it keeps the earlier verifier.
 */
export const sql = /* sql */ `
ALTER TABLE test_results ADD COLUMN previous_verifier TEXT;
ALTER TABLE result_amendments ADD COLUMN old_previous_verifier TEXT;
`;
