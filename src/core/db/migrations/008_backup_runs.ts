/**
 * Scheduled backups (System Settings): one row per backup `lims serve` takes on the lab's
 * schedule, so every server of a chain sees the last one and only one server takes each.
 */
export const sql = /* sql */ `
CREATE TABLE backup_runs (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  started_at TEXT NOT NULL,
  finished_at TEXT,
  status TEXT NOT NULL CHECK (status IN ('running', 'completed', 'failed')),
  reason TEXT NOT NULL CHECK (reason IN ('schedule', 'manual')),
  host TEXT NOT NULL,
  file TEXT,
  bytes INTEGER,
  error TEXT
);
CREATE INDEX backup_runs_started ON backup_runs (started_at);
`;
