import { z } from 'zod';
import { patientCandidateSchema, type PatientCandidate } from '@shared/schemas/patients';
import { ApiError } from '@/lib/api';

const candidatesSchema = z.array(patientCandidateSchema).min(1);

/** The patients a refused registration (409 POSSIBLE_DUPLICATE) offered, or null for any other error. */
export function possibleDuplicates(err: unknown): PatientCandidate[] | null {
  if (!(err instanceof ApiError) || err.code !== 'POSSIBLE_DUPLICATE') return null;
  const parsed = candidatesSchema.safeParse(err.candidates);
  return parsed.success ? parsed.data : null;
}
