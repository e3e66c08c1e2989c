/**
 * The Users screen's tools. A lab's own permission table: only where it differs from
 * lims's defaults (src/shared/roles.ts ROLE_PERMISSIONS), one row per (role, permission) granted (1)
 * or removed (0); no rows means the defaults. The superadmin is never stored: it has everything.
 * Suspension: an administrator stops an account (when and why); users.is_active stays the one
 * switch that sign-in, billing and the pickers read, and is 0 while suspended.
 */
export const sql = /* sql */ `
CREATE TABLE role_permissions (
  organization_id INTEGER NOT NULL REFERENCES organizations(id),
  role TEXT NOT NULL CHECK (role IN ('admin','lab_manager','doctor','lab_technician','technician','receptionist','billing_staff','collector','validator','inventory_manager','user')),
  permission TEXT NOT NULL,
  granted INTEGER NOT NULL CHECK (granted IN (0, 1)),
  updated_at TEXT NOT NULL,
  PRIMARY KEY (organization_id, role, permission)
);

ALTER TABLE users ADD COLUMN suspended_at TEXT;
ALTER TABLE users ADD COLUMN suspended_reason TEXT;

CREATE INDEX sessions_org ON sessions (organization_id, last_seen_at);
`;
