import type { Db } from '../db/connection.js';
import { PossibleDuplicateError } from '../errors.js';
import { similarNames } from '../../shared/name-key.js';
import type { PatientCandidate } from '../../shared/schemas/patients.js';
import { patientIdentity, type PatientRow } from './mappers.js';
import { lastBilled, likelySamePeople } from './merge-repository.js';

/** Birth dates this many days apart or less are a close age (two years: ages told at the desk are rough). */
const CLOSE_AGE_DAYS = 2 * 366;
/** At most this many patients are read per look-up (a mobile shared by a large family, a common birthday). */
const LOOK_UP = 200;
/** At most this many candidates are offered. */
const OFFERED = 10;

function daysApart(a: string, b: string): number {
  return Math.abs(Date.parse(`${a}T00:00:00Z`) - Date.parse(`${b}T00:00:00Z`)) / 86_400_000;
}

export interface NewPerson {
  first_name: string;
  last_name: string;
  date_of_birth: string;
  dob_estimated: number;
  gender: string | null;
  phone: string | null;
}

/**
 * The lab's patients who may be this person: a similar name (any script, see shared/name-key.ts),
 * not of another sex, and either the same mobile and an age within two years, or the same known
 * birth date. A mobile alone is not enough (a family shares one), nor is a name and age alone (a
 * city has many Ravi Kumars of 40).
 */
export async function likelyDuplicates(
  db: Db,
  organizationId: number,
  p: NewPerson,
  today: string,
): Promise<PatientCandidate[]> {
  const known = p.dob_estimated === 0 ? p.date_of_birth : null;
  const rows = await likelySamePeople(db, organizationId, { phone: p.phone, dateOfBirth: known }, LOOK_UP);
  const name = `${p.first_name} ${p.last_name}`;
  const matches: { row: PatientRow; on: PatientCandidate['matched_on'] }[] = [];
  for (const r of rows) {
    if (p.gender && r.gender && p.gender !== r.gender) continue;
    if (!similarNames(name, `${r.first_name} ${r.last_name}`)) continue;
    const on: PatientCandidate['matched_on'] = [];
    if (p.phone && r.phone === p.phone && daysApart(r.date_of_birth, p.date_of_birth) <= CLOSE_AGE_DAYS)
      on.push('mobile');
    if (known && r.dob_estimated === 0 && r.date_of_birth === known) on.push('date_of_birth');
    if (on.length) matches.push({ row: r, on });
  }
  const offered = matches.slice(0, OFFERED);
  const last = await lastBilled(
    db,
    organizationId,
    offered.map((m) => m.row.id),
  );
  return offered.map(({ row: r, on }) => ({
    ...patientIdentity(r, today),
    last_visit: last.get(r.id) ?? null,
    matched_on: on,
  }));
}

/** Refuses a registration that looks like a patient already registered, unless the desk confirmed it is someone new. */
export async function refuseLikelyDuplicate(
  db: Db,
  organizationId: number,
  p: NewPerson,
  today: string,
): Promise<void> {
  const candidates = await likelyDuplicates(db, organizationId, p, today);
  if (!candidates.length) return;
  const first = candidates[0]!;
  const more = candidates.length > 1 ? ` and ${candidates.length - 1} more` : '';
  throw new PossibleDuplicateError(
    `This may be a patient already registered: ${first.first_name} ${first.last_name} (${first.patient_id})${more}. ` +
      'Use the existing patient, or confirm this is a new patient (confirm_new).',
    candidates,
  );
}
