/**
 * An email of the outbox may carry one file (a centre's monthly statement PDF). The file is kept
 * with the message, base64 text so both engines store it alike, because the message may be sent
 * by another server or after a restart and must send what was queued; the outbox keeps a message
 * 30 days, then removes it with its file.
 */
export const sql = /* sql */ `
ALTER TABLE outbox ADD COLUMN attachment_name TEXT;
ALTER TABLE outbox ADD COLUMN attachment_type TEXT;
ALTER TABLE outbox ADD COLUMN attachment_base64 TEXT;
`;
