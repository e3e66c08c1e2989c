import { z } from 'zod';

/**
 * Instrument profiles: how one analyser's dialect of ASTM E1394 or HL7 v2 is read. Where the
 * specimen ID, the test code, the value, the unit and the flag are (a field, and a component of it),
 * and which records are not results. A connection names a preset and may adjust it with its own
 * settings; a new analyser is then a setting, not a code change. See docs/instruments.md.
 *
 * A location is `SEG-field` or `SEG-field.component` as the standards count (1-based; `O-3` is the
 * order record's specimen ID, `OBX-5.2` the second component of the observation value). ASTM
 * records are one letter (H, P, O, R), HL7 segments three (MSH, PID, SPM, ORC, OBR, OBX). Without a
 * component, the field's first non-empty component is read.
 */
export const LOCATION_PATTERN = /^([A-Z]|[A-Z][A-Z0-9]{2})-(\d{1,2})(?:\.(\d{1,2}))?$/;

const location = (label: string) =>
  z
    .string({ error: `${label} must be a location such as O-3 or OBX-5.1` })
    .trim()
    .toUpperCase()
    .refine((v) => LOCATION_PATTERN.test(v), `${label} must be a location such as O-3 or OBX-5.1`);

export const IGNORE_WHEN = ['empty', 'present', 'equals'] as const;
export type IgnoreWhen = (typeof IGNORE_WHEN)[number];

export const ignoreRuleSchema = z
  .object({
    at: location('Ignore rule location'),
    when: z.enum(IGNORE_WHEN, { error: `Ignore rule must be one of ${IGNORE_WHEN.join(', ')}` }),
    value: z.string().trim().max(40, 'Ignore rule value must be at most 40 characters').optional(),
  })
  .strict()
  .superRefine((r, ctx) => {
    if (r.when === 'equals' && !r.value)
      ctx.addIssue({ code: 'custom', path: ['value'], message: 'An "equals" rule needs the value to compare with' });
  });
export type IgnoreRule = z.infer<typeof ignoreRuleSchema>;

const component = z
  .number({ error: 'A code component must be a number' })
  .int('A code component must be a whole number')
  .min(1, 'A code component is 1 to 30')
  .max(30, 'A code component is 1 to 30');

/** A lab's own settings; anything left out is the protocol's default (INSTRUMENT_DEFAULTS). */
export const profileSettingsSchema = z
  .object({
    /** Where the specimen ID is: tried in order, the first non-empty one is the sample's barcode or code. */
    specimen: z
      .array(location('Specimen location'), { error: 'specimen must be a list of locations' })
      .min(1, 'specimen needs at least one location')
      .max(6, 'specimen takes at most 6 locations')
      .optional(),
    /** The field that carries the test code (R-3, OBX-3; OBX-4 for machines that leave OBX-3 empty). */
    code: location('Code field')
      .refine((v) => !v.includes('.'), 'Code field is a field without a component (its components are code_components)')
      .optional(),
    /** The components of the code field that make the code; [] the usual rule (see docs/instruments.md). */
    code_components: z
      .array(component, { error: 'code_components must be a list of numbers' })
      .max(8, 'code_components takes at most 8')
      .optional(),
    /** `first`: the first non-empty of those components; `join`: the non-empty ones joined by ^. */
    code_pick: z.enum(['first', 'join'], { error: 'code_pick must be first or join' }).optional(),
    value: location('Value location').optional(),
    unit: location('Unit location').optional(),
    flag: location('Flag location').optional(),
    /** A result whose location matches a rule is not a result (a probe row, a mode row, a raw signal). */
    ignore: z
      .array(ignoreRuleSchema, { error: 'ignore must be a list of rules' })
      .max(10, 'ignore takes at most 10 rules')
      .optional(),
    /**
     * HL7: one OBX carries several results as text, names in the code field and values in OBX-5,
     * each separated by two or more spaces (`12.6 %  314.9 md/dl  114.2 mmol/mol↑`).
     */
    split_text: z.boolean({ error: 'split_text must be true or false' }).optional(),
  })
  .strict();
export type ProfileSettings = z.infer<typeof profileSettingsSchema>;

/** Profile settings as the API returns them (already checked when stored). */
export const profileSettingsOutSchema = z.object({
  specimen: z.array(z.string()).optional(),
  code: z.string().optional(),
  code_components: z.array(z.number().int()).optional(),
  code_pick: z.enum(['first', 'join']).optional(),
  value: z.string().optional(),
  unit: z.string().optional(),
  flag: z.string().optional(),
  ignore: z.array(z.object({ at: z.string(), when: z.enum(IGNORE_WHEN), value: z.string().optional() })).optional(),
  split_text: z.boolean().optional(),
});

/** The settings in force: every one given. */
export interface ResolvedProfile {
  specimen: string[];
  code: string;
  code_components: number[];
  code_pick: 'first' | 'join';
  value: string;
  unit: string;
  flag: string;
  ignore: IgnoreRule[];
  split_text: boolean;
}

export const INSTRUMENT_DEFAULTS: Record<'astm' | 'hl7', ResolvedProfile> = {
  astm: {
    specimen: ['O-3', 'O-4'],
    code: 'R-3',
    code_components: [],
    code_pick: 'first',
    value: 'R-4',
    unit: 'R-5',
    flag: 'R-7',
    ignore: [],
    split_text: false,
  },
  hl7: {
    specimen: ['SPM-2', 'OBR-3', 'OBR-2'],
    code: 'OBX-3',
    code_components: [1],
    code_pick: 'first',
    value: 'OBX-5',
    unit: 'OBX-6',
    flag: 'OBX-8',
    ignore: [],
    split_text: false,
  },
};

export interface InstrumentPreset {
  label: string;
  /** The protocol its machines speak; null: either. */
  protocol: 'astm' | 'hl7' | null;
  /** The machines it is known to read (from their captures or manuals). */
  instruments: string;
  settings: ProfileSettings;
}

export const INSTRUMENT_PRESETS = {
  standard: {
    label: 'Standard (ASTM E1394 / HL7 v2)',
    protocol: null,
    instruments:
      'Roche cobas c111 and c311 (Hitachi 7600 mode), Sysmex XP-100 and XN, Horiba Pentra XL R and Yumizen H500, Siemens Atellica HEMA 580, Beckman Access 2, Snibe MAGLUMI (OUL^R22), Tisenc AccRe8, Mindray (codes of IS rows mapped or ignored by the lab)',
    settings: {},
  },
  'mindray-hl7': {
    label: 'Mindray BC / BS (HL7)',
    protocol: 'hl7',
    instruments:
      'Mindray BC-5130 and other BC/BS analysers: their mode rows (OBX-2 IS: take mode, blood mode, ref group) are not results',
    settings: { ignore: [{ at: 'OBX-2', when: 'equals', value: 'IS' }] },
  },
  'abbott-architect': {
    label: 'Abbott ARCHITECT',
    protocol: 'astm',
    instruments:
      'Abbott ARCHITECT: one assay sends its final (F), interpretation (I) and raw RLU (P) results; the code is the assay number and the result type (0021^F), the raw signal is ignored',
    settings: { code_components: [4, 11], code_pick: 'join', ignore: [{ at: 'R-3.11', when: 'equals', value: 'P' }] },
  },
  'abbott-afinion': {
    label: 'Abbott Afinion 2',
    protocol: 'astm',
    instruments: 'Abbott Afinion 2 (point of care): the ID typed at the device is the patient ID, P-4',
    settings: { specimen: ['P-4', 'O-3'] },
  },
  'agappe-mispa': {
    label: 'Agappe Mispa (and analysers that name tests in R-3.1 or R-3.2)',
    protocol: 'astm',
    instruments:
      'Agappe Mispa Nano: the test name in the 1st or 2nd component of R-3, the tube ID in O-4 (O-3 is a run number)',
    settings: { specimen: ['O-4', 'O-3'], code_components: [1, 2], code_pick: 'first' },
  },
  'cepheid-genexpert': {
    label: 'Cepheid GeneXpert',
    protocol: 'astm',
    instruments:
      'Cepheid GeneXpert: the code is test^analyte^result name^qualifier (MTB-RIF^Xpert^MTB); the probe rows (Ct, end point) are ignored',
    settings: {
      code_components: [2, 4, 7, 8],
      code_pick: 'join',
      ignore: [{ at: 'R-3.5', when: 'empty' }],
    },
  },
  'siemens-dca-vantage': {
    label: 'Siemens DCA Vantage',
    protocol: 'astm',
    instruments: 'Siemens DCA Vantage: O-3 empty, the ID typed at the device in P-3',
    settings: { specimen: ['O-3', 'P-3'] },
  },
  'pixcell-hemoscreen': {
    label: 'PixCell HemoScreen',
    protocol: 'hl7',
    instruments: 'PixCell HemoScreen (point of care): the sample ID is PID-2 only',
    settings: { specimen: ['PID-2', 'SPM-2', 'OBR-3'] },
  },
  'wondfo-finecare': {
    label: 'Wondfo Finecare',
    protocol: 'hl7',
    instruments:
      'Wondfo Finecare Plus (FS-113): the ID typed at the device is PID-5; OBX-3 is empty and one OBX carries every value as text',
    settings: { specimen: ['PID-5'], code: 'OBX-4', split_text: true },
  },
} satisfies Record<string, InstrumentPreset>;

export type InstrumentPresetKey = keyof typeof INSTRUMENT_PRESETS;
export const INSTRUMENT_PRESET_KEYS = Object.keys(INSTRUMENT_PRESETS) as [
  InstrumentPresetKey,
  ...InstrumentPresetKey[],
];

export const profileKeySchema = z.enum(INSTRUMENT_PRESET_KEYS, {
  error: `Profile must be one of ${INSTRUMENT_PRESET_KEYS.join(', ')}`,
});

/** A location's parts: segment or record, field, component (0: the first non-empty). */
export function parseLocation(loc: string): { seg: string; field: number; component: number } {
  const m = LOCATION_PATTERN.exec(loc)!;
  return { seg: m[1]!, field: Number(m[2]), component: m[3] ? Number(m[3]) : 0 };
}

/**
 * The settings in force for a protocol: the preset's (when it is for this protocol) over the
 * protocol's defaults, the lab's own over both. A setting for the other protocol's records (an HL7
 * location on an ASTM line) reads nothing; the connection form refuses it.
 */
export function resolveProfile(
  protocol: 'astm' | 'hl7',
  preset: string,
  own: ProfileSettings | null | undefined,
): ResolvedProfile {
  const base = INSTRUMENT_DEFAULTS[protocol];
  const found = (INSTRUMENT_PRESETS as Record<string, InstrumentPreset>)[preset];
  // A folder takes ASTM and HL7 files alike: an ASTM preset does not read its HL7 files.
  const p = found && (!found.protocol || found.protocol === protocol) ? found.settings : {};
  const pick = <K extends keyof ResolvedProfile>(k: K): ResolvedProfile[K] =>
    (own?.[k as keyof ProfileSettings] ?? p[k as keyof ProfileSettings] ?? base[k]) as ResolvedProfile[K];
  return {
    specimen: pick('specimen'),
    code: pick('code'),
    code_components: pick('code_components'),
    code_pick: pick('code_pick'),
    value: pick('value'),
    unit: pick('unit'),
    flag: pick('flag'),
    ignore: pick('ignore'),
    split_text: pick('split_text'),
  };
}

/** Locations in `s` that do not belong to `protocol`: ASTM records are one letter, HL7 segments three. */
export function foreignLocations(protocol: 'astm' | 'hl7', s: ProfileSettings): string[] {
  const all = [
    ...(s.specimen ?? []),
    ...[s.code, s.value, s.unit, s.flag].filter((x): x is string => !!x),
    ...(s.ignore ?? []).map((r) => r.at),
  ];
  // Malformed ones are refused on their own field; only well-formed ones are judged here.
  return all.filter((l) => LOCATION_PATTERN.test(l) && (parseLocation(l).seg.length === 1) !== (protocol === 'astm'));
}
