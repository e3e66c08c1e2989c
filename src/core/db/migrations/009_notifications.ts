/**
 * In-app notifications: one row per recipient, with its read state. Written by
 * notify() (src/core/notifications/notify.ts) in the transaction of the event it is about.
 * `dedupe_key` marks events that must be announced once (an overdue bill): the sweep skips a bill
 * whose key the lab already has, and the unique index refuses a second row for the same user.
 * Version 8 is another branch's settings migration; this one is 9 (the runner applies any version
 * it has not applied, in order, so 8 arriving later still runs).
 */
export const sql = /* sql */ `
CREATE TABLE notifications (
  id INTEGER PRIMARY KEY,
  organization_id INTEGER NOT NULL REFERENCES organizations(id),
  user_id INTEGER NOT NULL REFERENCES users(id),
  kind TEXT NOT NULL,
  type TEXT NOT NULL CHECK (type IN ('success','info','warning','error')),
  priority TEXT NOT NULL CHECK (priority IN ('high','medium','low')),
  is_system INTEGER NOT NULL DEFAULT 0,
  title TEXT NOT NULL,
  message TEXT NOT NULL,
  link TEXT,
  dedupe_key TEXT,
  read INTEGER NOT NULL DEFAULT 0,
  read_at TEXT,
  created_at TEXT NOT NULL
);
CREATE INDEX notifications_inbox ON notifications (organization_id, user_id, read, created_at);
CREATE INDEX notifications_dedupe ON notifications (organization_id, dedupe_key) WHERE dedupe_key IS NOT NULL;
CREATE UNIQUE INDEX notifications_once ON notifications (user_id, dedupe_key) WHERE dedupe_key IS NOT NULL;
`;
