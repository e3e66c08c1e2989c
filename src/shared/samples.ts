/** Samples: types, codes, statuses and the status machine (spec 001 sections 4, 5, 9; PRODUCT.md). */
export const SAMPLE_TYPES = ['Blood', 'Urine', 'Stool', 'Sputum', 'Tissue', 'Other'] as const;
export type SampleType = (typeof SAMPLE_TYPES)[number];

export const SAMPLE_TYPE_CODES: Record<SampleType, string> = {
  Blood: 'BL',
  Urine: 'UR',
  Stool: 'ST',
  Sputum: 'SP',
  Tissue: 'TS',
  Other: 'OT',
};

export const SAMPLE_STATUSES = ['pending', 'collected', 'processing', 'completed', 'rejected'] as const;
export type SampleStatus = (typeof SAMPLE_STATUSES)[number];

export const SAMPLE_PRIORITIES = ['urgent', 'high', 'normal', 'low'] as const;
export type SamplePriority = (typeof SAMPLE_PRIORITIES)[number];

/** pending -> collected -> processing -> completed; rejected from any open state. Nothing else. */
const NEXT: Record<SampleStatus, readonly SampleStatus[]> = {
  pending: ['collected', 'rejected'],
  collected: ['processing', 'rejected'],
  processing: ['completed', 'rejected'],
  completed: [],
  rejected: [],
};

export function canMoveSample(from: SampleStatus, to: SampleStatus): boolean {
  return NEXT[from].includes(to);
}

export function nextStatuses(from: SampleStatus): readonly SampleStatus[] {
  return NEXT[from];
}

/** Spec: BC + two uppercase letters + 8 digits + 3 digits. */
export const BARCODE_PATTERN = /^BC[A-Z]{2}\d{8}\d{3}$/;

export function isValidBarcode(code: string): boolean {
  return BARCODE_PATTERN.test(code);
}

/** BC + the sample type's code + the last 8 digits of the timestamp + 3 digits. */
export function makeBarcode(type: SampleType, timestampMs: number, threeDigits: number): string {
  const ts = String(Math.floor(timestampMs)).slice(-8).padStart(8, '0');
  return `BC${SAMPLE_TYPE_CODES[type]}${ts}${String(threeDigits % 1000).padStart(3, '0')}`;
}

/** Sample tracking ETA: collection time plus 2 hours (spec 001 section 9). */
export const SAMPLE_ETA_HOURS = 2;

export function sampleEta(collectionIso: string): string {
  return new Date(Date.parse(collectionIso) + SAMPLE_ETA_HOURS * 3600_000).toISOString();
}

/** Completion rate: completed over total, rounded; 0 when there are none. */
export function completionRate(completed: number, total: number): number {
  return total > 0 ? Math.round((completed / total) * 100) : 0;
}

/** The 15 collection locations the spec counts: home, the main lab, two centres, external chains, other. */
export const DEFAULT_COLLECTION_LOCATIONS: { name: string; kind: 'home' | 'lab' | 'centre' | 'external' | 'other' }[] =
  [
    { name: 'Home Collection', kind: 'home' },
    { name: 'Main Lab', kind: 'lab' },
    { name: 'Downtown Collection Centre', kind: 'centre' },
    { name: 'Mall Road Collection Centre', kind: 'centre' },
    { name: 'Dr Lal PathLabs', kind: 'external' },
    { name: 'SRL Diagnostics', kind: 'external' },
    { name: 'Metropolis Healthcare', kind: 'external' },
    { name: 'Thyrocare', kind: 'external' },
    { name: 'Apollo Diagnostics', kind: 'external' },
    { name: 'Neuberg Diagnostics', kind: 'external' },
    { name: 'Vijaya Diagnostic Centre', kind: 'external' },
    { name: 'Redcliffe Labs', kind: 'external' },
    { name: 'Healthians', kind: 'external' },
    { name: 'Suburban Diagnostics', kind: 'external' },
    { name: 'Other', kind: 'other' },
  ];
