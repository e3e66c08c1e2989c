/**
 * What the lab has released prints as it was released (docs/decisions.md "Printing"): the letterhead,
 * signatories and footers of a report at its release, and the header of a bill at its issue, are kept
 * here and a reprint draws from them instead of today's settings. An amended report that is released
 * again takes a new version with the settings of that moment. Signature images are kept once per lab
 * and content (print_images), not once per report.
 *
 * report_settings gains the lab's stationery: its own letterhead printed on plain paper, or paper with
 * a pre-printed letterhead (the report leaves that many millimetres blank at the top of each page).
 */
export const sql = /* sql */ `
ALTER TABLE report_settings ADD COLUMN stationery TEXT NOT NULL DEFAULT 'letterhead' CHECK (stationery IN ('letterhead','preprinted'));
ALTER TABLE report_settings ADD COLUMN preprinted_header_mm INTEGER NOT NULL DEFAULT 40 CHECK (preprinted_header_mm BETWEEN 0 AND 120);

CREATE TABLE print_snapshots (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  organization_id INTEGER NOT NULL REFERENCES organizations(id),
  kind TEXT NOT NULL CHECK (kind IN ('report','bill')),
  entity_id INTEGER NOT NULL,
  version INTEGER NOT NULL,
  taken_at TEXT NOT NULL,
  content TEXT NOT NULL
);
CREATE UNIQUE INDEX print_snapshots_entity ON print_snapshots (organization_id, kind, entity_id, version);

CREATE TABLE print_images (
  organization_id INTEGER NOT NULL REFERENCES organizations(id),
  digest TEXT NOT NULL,
  mime TEXT NOT NULL,
  data_base64 TEXT NOT NULL,
  created_at TEXT NOT NULL,
  PRIMARY KEY (organization_id, digest)
);
`;
