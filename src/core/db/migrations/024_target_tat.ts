/**
 * The catalogue's target turnaround time per test: minutes from collection to
 * verification the lab promises itself; the Enhanced Dashboard lists the results that pass it.
 * NULL: no target, never a breach.
 */
export const sql = /* sql */ `
ALTER TABLE tests ADD COLUMN target_tat_minutes INTEGER CHECK (target_tat_minutes IS NULL OR target_tat_minutes > 0);
`;
