/**
 * Import and export jobs: one row per `lims import` / `lims export` (and, later, per job
 * of the data screens), with the spec's job fields (document 001, section 3: name, type, format,
 * status, records, processed, errors, startedAt, completedAt, fileSize, requestedBy, requestedAt,
 * downloadCount). The row is written outside the import's own transaction, so a failed or killed
 * import still leaves its job behind (failed, with its first errors). `worker` names the process
 * that runs a job ("cli:<host>:<pid>"), so a job whose process died can be marked failed later.
 */
export const sql = /* sql */ `
CREATE TABLE data_jobs (
  id INTEGER PRIMARY KEY,
  organization_id INTEGER NOT NULL REFERENCES organizations(id),
  name TEXT NOT NULL,
  type TEXT NOT NULL CHECK (type IN ('import','export')),
  entity TEXT NOT NULL,
  format TEXT NOT NULL CHECK (format IN ('csv','xlsx','json','pdf')),
  status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending','in_progress','completed','failed','cancelled')),
  origin TEXT NOT NULL DEFAULT 'cli' CHECK (origin IN ('cli','web')),
  dry_run INTEGER NOT NULL DEFAULT 0 CHECK (dry_run IN (0,1)),
  file_name TEXT,
  file_size INTEGER,
  records INTEGER,
  processed INTEGER NOT NULL DEFAULT 0,
  inserted INTEGER NOT NULL DEFAULT 0,
  updated INTEGER NOT NULL DEFAULT 0,
  errors INTEGER NOT NULL DEFAULT 0,
  options TEXT,
  error_message TEXT,
  error_report TEXT,
  error_file TEXT,
  output_file TEXT,
  worker TEXT,
  requested_by INTEGER REFERENCES users(id),
  requested_by_name TEXT,
  download_count INTEGER NOT NULL DEFAULT 0,
  requested_at TEXT NOT NULL,
  started_at TEXT,
  completed_at TEXT,
  updated_at TEXT NOT NULL
);
CREATE INDEX data_jobs_org ON data_jobs (organization_id, id);
CREATE INDEX data_jobs_org_status ON data_jobs (organization_id, status, id);
`;
