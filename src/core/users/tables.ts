/** Kysely table types of the Users screen's tools (migration 014_user_admin). Timestamps are ISO-8601 UTC. */

export interface RolePermissionsTable {
  organization_id: number;
  role: string;
  permission: string;
  /** 1: granted beyond the role's defaults; 0: removed from them. */
  granted: number;
  updated_at: string;
}

/** Merged into the database type (src/core/db/schema.ts) wherever this module is compiled. */
declare module '../db/schema.js' {
  interface DB {
    role_permissions: RolePermissionsTable;
  }
  interface UsersTable {
    /** When an administrator suspended the account; null unless suspended (is_active is then 0). */
    suspended_at: string | null;
    suspended_reason: string | null;
  }
}
