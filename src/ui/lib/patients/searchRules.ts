import type { Patient } from '@shared/schemas/patients';
import { ageBounds } from '@/lib/patients/options';

/**
 * Patient Search (spec 2.12) over the server's search. The server matches every word of the text
 * as a prefix of a name, patient code, phone (digits) or email; it has no "search type" and no age
 * filter. So the screen:
 *  1. rewrites the text for the chosen type (a mobile number loses its spaces and dashes, a patient
 *     ID is upper-cased) and sends it to GET /api/patients/search with gender and membership;
 *  2. narrows the returned page to the chosen field and age range. That second step only sees the
 *     page it was given, which the screen says in plain words whenever it applies.
 */
export type SearchType = 'all' | 'name' | 'patient_id' | 'mobile' | 'email';

const PHONE_LIKE = /^\+?[\d\s().-]+$/;

/** The text to send to the server for this search type. */
export function serverSearchText(text: string, type: SearchType): string {
  const t = text.trim();
  if (!t) return '';
  if (type === 'mobile') return t.replace(/\D/g, '');
  if (type === 'patient_id') return t.replace(/\s+/g, '').toUpperCase();
  if (type === 'email') return t.toLowerCase();
  // "All fields": a typed phone number ("98765 43210") is matched as one number, as the index stores it.
  if (type === 'all' && PHONE_LIKE.test(t) && /\d{3}/.test(t.replace(/\D/g, ''))) return t.replace(/\D/g, '');
  return t;
}

/** Why the typed text cannot be searched for this type, if so (e.g. letters in a mobile search). */
export function searchTextProblem(text: string, type: SearchType): string | null {
  const t = text.trim();
  if (!t) return null;
  if (type === 'mobile' && !/\d/.test(t)) return 'A mobile number search needs digits.';
  return null;
}

const words = (s: string) =>
  s
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);

/** True when the patient matches the text in the chosen field (the server already matched some field). */
export function matchesType(p: Patient, text: string, type: SearchType): boolean {
  const q = serverSearchText(text, type);
  if (!q || type === 'all') return true;
  if (type === 'name') {
    const nameWords = words(`${p.first_name} ${p.last_name}`);
    return words(q).every((w) => nameWords.some((n) => n.startsWith(w)));
  }
  if (type === 'patient_id') return p.patient_id.toUpperCase().includes(q);
  if (type === 'mobile') return (p.phone ?? '').replace(/\D/g, '').includes(q);
  return (p.email ?? '').toLowerCase().includes(q);
}

export function matchesAge(p: Patient, range: string): boolean {
  const b = ageBounds(range);
  if (!b) return true;
  return p.age !== null && p.age >= b.min && p.age <= b.max;
}

/** Whether step 2 (narrowing the page on this screen) is in play for these filters. */
export function narrowsLocally(text: string, type: SearchType, ageRange: string): boolean {
  return (type !== 'all' && serverSearchText(text, type) !== '') || ageBounds(ageRange) !== null;
}
