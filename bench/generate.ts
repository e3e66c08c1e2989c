import {
  ALLERGIES,
  CITIES,
  EMAIL_DOMAINS,
  FEMALE_NAMES,
  HISTORIES,
  INSURERS,
  MALE_NAMES,
  NEUTRAL_NAMES,
  STREETS,
  SURNAMES,
} from './names.js';
import { BLOOD_GROUPS, EMERGENCY_RELATIONS } from '../src/shared/constants.js';

/** A small seeded PRNG (mulberry32): the same seed builds the same register on every machine. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The patients columns the generator fills, in insert order. */
export const PATIENT_COLUMNS = [
  'organization_id',
  'patient_code',
  'first_name',
  'last_name',
  'date_of_birth',
  'gender',
  'phone',
  'email',
  'address',
  'city',
  'state',
  'pincode',
  'emergency_contact',
  'emergency_phone',
  'emergency_relation',
  'blood_group',
  'allergies',
  'medical_history',
  'insurance_provider',
  'insurance_number',
  'membership_type',
  'created_by',
  'created_at',
  'updated_at',
] as const;

export type PatientValues = (string | number | null)[];

const DAY_MS = 86_400_000;

/**
 * Builds rows for a register of `total` patients registered evenly over `days` days ending
 * yesterday, oldest first (so ids grow with registration time, as in a real lab). Patient codes
 * follow the server's PAT+YYYYMMDD+NNNN scheme; `perDay` collects the last sequence used per day
 * so the sequences table can continue from it.
 */
export class PatientGenerator {
  readonly perDay = new Map<string, number>();
  private readonly rand: () => number;
  private readonly start: number;
  private readonly stepMs: number;
  private readonly today = new Date();

  constructor(
    private readonly organizationId: number,
    private readonly createdBy: number,
    total: number,
    days: number,
    seed = 20240601,
  ) {
    this.rand = seededRandom(seed);
    const midnight = Date.UTC(this.today.getUTCFullYear(), this.today.getUTCMonth(), this.today.getUTCDate());
    this.start = midnight - days * DAY_MS;
    this.stepMs = (days * DAY_MS) / total;
  }

  private pick<T>(list: readonly T[]): T {
    return list[Math.floor(this.rand() * list.length)] as T;
  }

  private chance(p: number): boolean {
    return this.rand() < p;
  }

  private digits(n: number): string {
    let s = '';
    for (let i = 0; i < n; i++) s += Math.floor(this.rand() * 10);
    return s;
  }

  private mobile(): string {
    const number = `${6 + Math.floor(this.rand() * 4)}${this.digits(9)}`;
    return this.chance(0.3) ? `+91 ${number.slice(0, 5)} ${number.slice(5)}` : number;
  }

  private dateOfBirth(): string {
    // Ages 0-90, weighted towards adults as a lab's register is.
    const years = this.chance(0.15) ? this.rand() * 18 : 18 + this.rand() * 72;
    return new Date(this.today.getTime() - Math.floor(years * 365.25 * DAY_MS)).toISOString().slice(0, 10);
  }

  /** The values of the i-th patient (0-based), in PATIENT_COLUMNS order. */
  row(i: number): PatientValues {
    const registered = new Date(this.start + Math.floor(i * this.stepMs));
    const createdAt = registered.toISOString();
    const day = createdAt.slice(0, 10).replace(/-/g, '');
    const seq = (this.perDay.get(day) ?? 0) + 1;
    this.perDay.set(day, seq);

    const g = this.rand();
    const gender = g < 0.49 ? 'Male' : g < 0.98 ? 'Female' : g < 0.99 ? 'Other' : null;
    const first = this.pick(gender === 'Male' ? MALE_NAMES : gender === 'Female' ? FEMALE_NAMES : NEUTRAL_NAMES);
    const last = this.pick(SURNAMES);
    const place = this.pick(CITIES);
    const m = this.rand();
    const membership = m < 0.7 ? 'none' : m < 0.85 ? 'basic' : m < 0.95 ? 'premium' : 'corporate';
    const emailName = `${first}.${last}`.toLowerCase().replace(/[^a-z.]/g, '');
    const insured = this.chance(0.2);
    const emergency = this.chance(0.4);

    return [
      this.organizationId,
      `PAT${day}${String(seq).padStart(4, '0')}`,
      first,
      last,
      this.dateOfBirth(),
      gender,
      this.chance(0.92) ? this.mobile() : null,
      this.chance(0.55) ? `${emailName}${Math.floor(this.rand() * 1000)}@${this.pick(EMAIL_DOMAINS)}` : null,
      this.chance(0.8) ? `${1 + Math.floor(this.rand() * 300)}, ${this.pick(STREETS)}` : null,
      place.city,
      place.state,
      `${place.pin}${this.digits(3)}`,
      emergency ? `${this.pick(this.chance(0.5) ? MALE_NAMES : FEMALE_NAMES)} ${last}` : null,
      emergency ? this.mobile() : null,
      emergency ? this.pick(EMERGENCY_RELATIONS) : null,
      this.chance(0.6) ? this.pick(BLOOD_GROUPS) : null,
      this.chance(0.1) ? this.pick(ALLERGIES) : null,
      this.chance(0.15) ? this.pick(HISTORIES) : null,
      insured ? this.pick(INSURERS) : null,
      insured ? this.digits(12) : null,
      membership,
      this.createdBy,
      createdAt,
      createdAt,
    ];
  }
}
