import type { Generated } from 'kysely';

/** Kysely table types of this feature. Timestamps are ISO-8601 UTC strings. */

export interface NotificationsTable {
  id: Generated<number>;
  organization_id: number;
  /** The recipient. */
  user_id: number;
  kind: string;
  type: string;
  priority: string;
  /** 1 for system events (backup, import...), 0 for the lab's work. */
  is_system: Generated<number>;
  title: string;
  message: string;
  link: string | null;
  /** Set on events announced once (`bill_overdue:42`): the overdue sweep's memory. */
  dedupe_key: string | null;
  read: Generated<number>;
  read_at: string | null;
  created_at: string;
}

/** Merged into the database type (src/core/db/schema.ts) wherever this module is compiled. */
declare module '../db/schema.js' {
  interface DB {
    notifications: NotificationsTable;
  }
}
