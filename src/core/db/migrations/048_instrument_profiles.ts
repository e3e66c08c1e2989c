/**
 * connections.profile: the instrument profile (dialect) a connection's messages are read with: a
 * preset's key ('standard' unless chosen). connections.profile_settings: JSON of the lab's own
 * settings when it adjusts a preset (which field and component carry the specimen ID, the test
 * code, the value, the unit, the flag; which records to ignore); NULL: the preset as shipped.
 */
export const sql = /* sql */ `
ALTER TABLE connections ADD COLUMN profile TEXT NOT NULL DEFAULT 'standard';
ALTER TABLE connections ADD COLUMN profile_settings TEXT;
`;
