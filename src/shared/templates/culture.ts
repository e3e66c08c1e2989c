import { z } from 'zod';
import { optionalText, requiredText, strictNumber } from '../schemas/common.js';
import type { CultureTemplate } from './types.js';

/**
 * Culture and sensitivity: the specimen, what grew (no growth after the incubation, a mixed growth,
 * or one or more organisms with their colony count) and, per organism, the antibiogram: each
 * antibiotic Sensitive, Intermediate or Resistant, with its MIC (mg/L) or zone diameter (mm).
 */
export const INTERPRETATIONS = ['S', 'I', 'R'] as const;
export const INTERPRETATION_WORDS: Record<(typeof INTERPRETATIONS)[number], string> = {
  S: 'Sensitive',
  I: 'Intermediate',
  R: 'Resistant',
};
export const GROWTH = ['no_growth', 'growth', 'mixed'] as const;
export const GROWTH_WORDS: Record<(typeof GROWTH)[number], string> = {
  no_growth: 'No growth',
  growth: 'Growth',
  mixed: 'Mixed growth (probable contamination)',
};

const emptyToNull = (v: unknown) => (v === '' ? null : v);
const num = (label: string, min: number, max: number, int = false) =>
  z.preprocess(
    emptyToNull,
    strictNumber(
      (int
        ? z.number({ error: `${label} must be a number` }).int(`${label} must be a whole number`)
        : z.number({ error: `${label} must be a number` })
      )
        .min(min, `${label} must be ${min} to ${max}`)
        .max(max, `${label} must be ${min} to ${max}`)
        .nullable()
        .optional(),
    ),
  );

export const antibioticSchema = z.object({
  name: requiredText('Antibiotic', 80),
  interpretation: z.enum(INTERPRETATIONS, { error: 'Interpretation must be S, I or R' }),
  mic: num('MIC (mg/L)', 0, 1024),
  zone: num('Zone (mm)', 0, 60, true),
});

export const organismSchema = z.object({
  name: requiredText('Organism', 120),
  /** CFU/mL; urine cultures report it, blood cultures usually do not. */
  colony_count: num('Colony count (CFU/mL)', 0, 1e12, true),
  antibiotics: z
    .array(antibioticSchema, { error: 'antibiotics must be a list' })
    .max(60, 'At most 60 antibiotics')
    .superRefine((abs, ctx) => {
      abs.forEach((a, i) => {
        if (abs.findIndex((b) => b.name.toLowerCase() === a.name.toLowerCase()) !== i)
          ctx.addIssue({ code: 'custom', path: [i, 'name'], message: `${a.name} is listed twice` });
      });
    })
    .default([]),
});

export const cultureValueSchema = z
  .object({
    specimen: requiredText('Specimen', 120),
    incubation_hours: num('Incubation (hours)', 1, 720, true),
    growth: z.enum(GROWTH, { error: 'Growth must be no_growth, growth or mixed' }),
    organisms: z.array(organismSchema, { error: 'organisms must be a list' }).max(5, 'At most 5 organisms').default([]),
    comment: optionalText(500, 'Comment'),
  })
  .strict()
  .superRefine((v, ctx) => {
    if (v.growth === 'growth' && !v.organisms.length)
      ctx.addIssue({
        code: 'custom',
        path: ['organisms'],
        message: 'Name the organism isolated (or choose No growth)',
      });
    if (v.growth !== 'growth' && v.organisms.length)
      ctx.addIssue({
        code: 'custom',
        path: ['organisms'],
        message: 'No organism is listed when nothing significant grew',
      });
    if (v.growth === 'no_growth' && v.incubation_hours == null)
      ctx.addIssue({
        code: 'custom',
        path: ['incubation_hours'],
        message: 'Say after how many hours there was no growth',
      });
  });
export type CultureValue = z.infer<typeof cultureValueSchema>;

export const urineCulture: CultureTemplate = {
  kind: 'culture',
  id: 'culture',
  name: 'Culture & Sensitivity',
  defaultSpecimen: 'Urine (midstream, clean catch)',
};

/** Organisms and antibiotics the entry screen offers as suggestions; any other name may be typed. */
export const COMMON_ORGANISMS = [
  'Escherichia coli',
  'Klebsiella pneumoniae',
  'Proteus mirabilis',
  'Pseudomonas aeruginosa',
  'Enterococcus faecalis',
  'Staphylococcus aureus',
  'Staphylococcus saprophyticus',
  'Acinetobacter baumannii',
  'Citrobacter species',
  'Enterobacter species',
  'Salmonella Typhi',
  'Streptococcus pneumoniae',
  'Candida albicans',
];
export const COMMON_ANTIBIOTICS = [
  'Amikacin',
  'Amoxicillin-clavulanate',
  'Ampicillin',
  'Cefazolin',
  'Cefixime',
  'Cefoperazone-sulbactam',
  'Ceftazidime',
  'Ceftriaxone',
  'Cefuroxime',
  'Ciprofloxacin',
  'Colistin',
  'Cotrimoxazole',
  'Ertapenem',
  'Fosfomycin',
  'Gentamicin',
  'Imipenem',
  'Levofloxacin',
  'Linezolid',
  'Meropenem',
  'Nitrofurantoin',
  'Norfloxacin',
  'Piperacillin-tazobactam',
  'Tetracycline',
  'Vancomycin',
];
