import {
  profileSettingsSchema,
  resolveProfile,
  type ProfileSettings,
  type ResolvedProfile,
} from '../../shared/schemas/instrument-profiles.js';
import type { ConnectionRow } from './repository.js';

/** The lab's own profile settings of a connection, as stored (null: the preset's). */
export function profileSettingsOf(row: Pick<ConnectionRow, 'profile_settings'>): ProfileSettings | null {
  if (!row.profile_settings) return null;
  try {
    const parsed = profileSettingsSchema.safeParse(JSON.parse(row.profile_settings));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** How this connection's messages in `protocol` are read: its preset, adjusted by its own settings. */
export function profileOf(
  row: Pick<ConnectionRow, 'profile' | 'profile_settings'>,
  protocol: 'astm' | 'hl7',
): ResolvedProfile {
  return resolveProfile(protocol, row.profile, profileSettingsOf(row));
}
