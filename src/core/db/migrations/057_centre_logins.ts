import type Database from 'better-sqlite3';
import { rebuildTable } from '../rebuild.js';

/**
 * A collection centre's own login: users of role `centre`, each bound to one centre
 * (users.centre_id). The portal's routes filter every row by that centre. The role joins the CHECK
 * on users.role; role_permissions needs no change, as the centre role's permissions are fixed and
 * never stored there.
 */
export const sql = /* sql */ `
ALTER TABLE users ADD COLUMN centre_id INTEGER REFERENCES centres(id);
CREATE INDEX users_centre ON users (centre_id) WHERE centre_id IS NOT NULL;
`;

const ROLE_OLD =
  /CHECK \(role IN \('superadmin','admin','lab_manager','doctor','lab_technician','technician','receptionist','billing_staff','collector','validator','inventory_manager','user'\)\)/;
const ROLE_NEW =
  "CHECK (role IN ('superadmin','admin','lab_manager','doctor','lab_technician','technician','receptionist','billing_staff','collector','validator','inventory_manager','user','centre'))";

export function sqliteSteps(sqlite: Database.Database): void {
  rebuildTable(sqlite, 'users', (create) => {
    if (!ROLE_OLD.test(create)) throw new Error('057: users role CHECK not found');
    return create.replace(ROLE_OLD, ROLE_NEW);
  });
}

export const postgres = /* sql */ `
${sql}
ALTER TABLE users DROP CONSTRAINT users_role_check;
ALTER TABLE users ADD CONSTRAINT users_role_check ${ROLE_NEW};
`;
