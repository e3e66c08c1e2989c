/**
 * The most one transmission from a machine may hold, per connection, in KiB (NULL: the default of
 * src/shared/schemas/connections.ts, 4 MiB). A link past it is refused (ASTM: NAK and the line
 * closed; HL7: the block dropped) so one sender cannot grow the server's memory without bound.
 */
export const sql = /* sql */ `
ALTER TABLE connections ADD COLUMN max_message_kib INTEGER;
`;
