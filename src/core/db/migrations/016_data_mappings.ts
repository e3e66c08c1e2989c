/**
 * Saved column mappings of the data screens: a lab names the mapping of another
 * system's headers to lims's columns once ({"their header": "our_column"}, null leaves a column
 * out) and picks it again for the next file of the same kind.
 */
export const sql = /* sql */ `
CREATE TABLE data_mappings (
  id INTEGER PRIMARY KEY,
  organization_id INTEGER NOT NULL REFERENCES organizations(id),
  entity TEXT NOT NULL,
  name TEXT NOT NULL,
  mapping TEXT NOT NULL,
  created_by INTEGER REFERENCES users(id),
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  UNIQUE (organization_id, entity, name)
);
`;
