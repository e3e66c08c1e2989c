import { describe, expect, it } from 'vitest';
import {
  foreignLocations,
  INSTRUMENT_DEFAULTS,
  parseLocation,
  profileSettingsSchema,
  resolveProfile,
} from './instrument-profiles.js';

describe('instrument profiles', () => {
  it('reads locations as the standards count them; a component is optional', () => {
    expect(parseLocation('O-4.3')).toEqual({ seg: 'O', field: 4, component: 3 });
    expect(parseLocation('OBX-5')).toEqual({ seg: 'OBX', field: 5, component: 0 });
    expect(profileSettingsSchema.safeParse({ specimen: ['o-4', ' pid-2 '] }).data).toEqual({
      specimen: ['O-4', 'PID-2'],
    });
    const bad = profileSettingsSchema.safeParse({ specimen: ['O4'] });
    expect(bad.error?.issues[0]).toMatchObject({ path: ['specimen', 0] });
    expect(profileSettingsSchema.safeParse({ ignore: [{ at: 'R-3', when: 'equals' }] }).error?.issues[0]?.path).toEqual(
      ['ignore', 0, 'value'],
    );
  });

  it("a preset over the protocol's defaults, the lab's own settings over both", () => {
    expect(resolveProfile('astm', 'standard', null)).toEqual(INSTRUMENT_DEFAULTS.astm);
    const mispa = resolveProfile('astm', 'agappe-mispa', null);
    expect(mispa).toMatchObject({ specimen: ['O-4', 'O-3'], code_components: [1, 2], value: 'R-4' });
    expect(resolveProfile('astm', 'agappe-mispa', { specimen: ['O-3'] }).specimen).toEqual(['O-3']);
    // A folder's HL7 files are not read with an ASTM preset.
    expect(resolveProfile('hl7', 'agappe-mispa', null)).toEqual(INSTRUMENT_DEFAULTS.hl7);
    expect(resolveProfile('astm', 'no-such-preset', null)).toEqual(INSTRUMENT_DEFAULTS.astm);
  });

  it('names the locations that belong to the other protocol', () => {
    expect(foreignLocations('astm', { specimen: ['O-3', 'PID-2'], ignore: [{ at: 'OBX-2', when: 'empty' }] })).toEqual([
      'PID-2',
      'OBX-2',
    ]);
    expect(foreignLocations('hl7', { specimen: ['SPM-2'], code: 'R-3' })).toEqual(['R-3']);
  });
});
