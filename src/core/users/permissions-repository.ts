import type { Db } from '../db/connection.js';
import { labTable, labDelete } from '../db/lab-tables.js';

/** SQL of a lab's permission table (role_permissions): its differences from the defaults. */

export function selectRolePermissionRows(db: Db, organizationId: number) {
  return labTable(db, 'role_permissions', organizationId).select(['role', 'permission', 'granted']).execute();
}

/** The role's differences from its defaults become exactly these rows. */
export async function replaceRolePermissionRows(
  trx: Db,
  organizationId: number,
  role: string,
  rows: { permission: string; granted: boolean }[],
  nowIso: string,
): Promise<void> {
  await labDelete(trx, 'role_permissions', organizationId).where('role', '=', role).execute();
  if (rows.length === 0) return;
  await trx
    .insertInto('role_permissions')
    .values(
      rows.map((r) => ({
        organization_id: organizationId,
        role,
        permission: r.permission,
        granted: r.granted ? 1 : 0,
        updated_at: nowIso,
      })),
    )
    .execute();
}

export async function deleteRolePermissionRows(trx: Db, organizationId: number): Promise<void> {
  await labDelete(trx, 'role_permissions', organizationId).execute();
}
