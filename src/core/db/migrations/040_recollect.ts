/**
 * Recollection: a rejected sample is drawn again as a new sample (a new tube and barcode, the same
 * tests, the same bill and no new charge). The new sample names the one it replaces; at most one
 * recollection per rejected sample.
 */
export const sql = /* sql */ `
ALTER TABLE samples ADD COLUMN recollect_of INTEGER REFERENCES samples(id);
CREATE UNIQUE INDEX samples_recollect_of ON samples (recollect_of);
`;
