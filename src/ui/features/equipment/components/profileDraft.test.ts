import { describe, expect, it } from 'vitest';
import { draftErrors, draftOf, presetProfile, settingsOf, shownOf } from './profileDraft';

describe("the connection form's profile adjustments", () => {
  const mispa = presetProfile('astm', 'agappe-mispa');

  it('shows the preset where the lab changed nothing, and saves nothing then', () => {
    expect(shownOf({}, mispa)).toMatchObject({ specimen: 'O-4, O-3', code_components: '1, 2', code: 'R-3' });
    expect(settingsOf({}, mispa)).toBeNull();
  });

  it('saves only what differs from the preset, as the API takes it', () => {
    const draft = { specimen: 'o-3,  O-4', code: 'r-3', code_components: '2', unit: 'R-6' };
    expect(settingsOf(draft, mispa)).toEqual({ specimen: ['O-3', 'O-4'], code_components: [2], unit: 'R-6' });
    // Typed back to the preset's: the preset's again.
    expect(settingsOf({ specimen: 'O-4, O-3' }, mispa)).toBeNull();
  });

  it('an emptied rule list differs from a preset that has rules', () => {
    const genexpert = presetProfile('astm', 'cepheid-genexpert');
    expect(settingsOf({ ignore: [] }, genexpert)).toEqual({ ignore: [] });
    expect(settingsOf({ ignore: [{ at: 'r-3.5', when: 'empty', value: 'x' }] }, genexpert)).toBeNull();
  });

  it('reads stored settings back into the inputs', () => {
    const d = draftOf({
      specimen: ['P-4'],
      code_components: [4, 11],
      ignore: [{ at: 'R-3.11', when: 'equals', value: 'P' }],
    });
    expect(d).toEqual({
      specimen: 'P-4',
      code_components: '4, 11',
      ignore: [{ at: 'R-3.11', when: 'equals', value: 'P' }],
    });
  });

  it("names each bad input by the API's path and message", () => {
    const standard = presetProfile('astm', 'standard');
    const bad = settingsOf(
      { value: 'R4', code_components: 'x', ignore: [{ at: 'R-2', when: 'equals', value: '' }] },
      standard,
    );
    expect(draftErrors('astm', 'standard', bad)).toEqual({
      'profile_settings.value': 'Value location must be a location such as O-3 or OBX-5.1',
      'profile_settings.code_components.0': 'A code component must be a number',
      'profile_settings.ignore.0.value': 'An "equals" rule needs the value to compare with',
    });
    expect(draftErrors('astm', 'standard', settingsOf({ specimen: 'O-3, PID-2' }, standard))).toEqual({
      'profile_settings.specimen.1': 'PID-2 is not a location of ASTM (records are one letter: O-3, R-4)',
    });
  });
});
