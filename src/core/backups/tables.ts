import type { Generated } from 'kysely';

export interface BackupRunsTable {
  id: Generated<number>;
  started_at: string;
  finished_at: string | null;
  status: 'running' | 'completed' | 'failed';
  reason: 'schedule' | 'manual';
  host: string;
  file: string | null;
  bytes: number | null;
  error: string | null;
}

declare module '../db/schema.js' {
  interface DB {
    backup_runs: BackupRunsTable;
  }
}
