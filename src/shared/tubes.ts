import type { SampleType } from './samples.js';

/**
 * Tubes and containers a test is collected in. Billing groups a visit's tests by tube: one pending
 * sample (one label) per tube, so a lipid profile and a blood sugar on one bill are two tubes
 * (serum and fluoride) and a CBC a third (EDTA).
 */
export const TUBES = [
  { id: 'edta', label: 'EDTA (lavender top)', sample_type: 'Blood' },
  { id: 'serum', label: 'Plain / serum (red or yellow top)', sample_type: 'Blood' },
  { id: 'fluoride', label: 'Fluoride (grey top)', sample_type: 'Blood' },
  { id: 'citrate', label: 'Citrate (light blue top)', sample_type: 'Blood' },
  { id: 'heparin', label: 'Heparin (green top)', sample_type: 'Blood' },
  { id: 'blood-culture', label: 'Blood culture bottle', sample_type: 'Blood' },
  { id: 'urine', label: 'Urine container', sample_type: 'Urine' },
  { id: 'sterile-urine', label: 'Sterile urine container', sample_type: 'Urine' },
  { id: 'stool', label: 'Stool container', sample_type: 'Stool' },
  { id: 'sputum', label: 'Sputum container', sample_type: 'Sputum' },
  { id: 'tissue', label: 'Tissue container (formalin)', sample_type: 'Tissue' },
  { id: 'other', label: 'Other container', sample_type: 'Other' },
] as const satisfies readonly { id: string; label: string; sample_type: SampleType }[];

export type TubeId = (typeof TUBES)[number]['id'];
export const TUBE_IDS = TUBES.map((t) => t.id) as [TubeId, ...TubeId[]];

const BY_ID = new Map<string, (typeof TUBES)[number]>(TUBES.map((t) => [t.id, t]));

/** The tube of a test: its own, else the usual one for its sample type (serum for blood). */
export function tubeOf(test: { container: string | null; sample_type: string | null }): TubeId {
  if (test.container && BY_ID.has(test.container)) return test.container as TubeId;
  switch (test.sample_type) {
    case 'Urine':
      return 'urine';
    case 'Stool':
      return 'stool';
    case 'Sputum':
      return 'sputum';
    case 'Tissue':
      return 'tissue';
    case 'Other':
      return 'other';
    default:
      return 'serum';
  }
}

export function tubeLabel(id: string | null | undefined): string | null {
  return id ? (BY_ID.get(id)?.label ?? id) : null;
}

export function tubeSampleType(id: TubeId): SampleType {
  return BY_ID.get(id)!.sample_type;
}
