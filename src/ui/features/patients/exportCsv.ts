import type { Patient } from '@shared/schemas/patients';
import { todayIn } from '@shared/age';
import { fetchPatientPage, type PatientQuery } from './api';

/**
 * All Patients > Export: every patient matching the current filters, as CSV.
 * The server pages at most 200 rows per call, so we walk the pages and build the file here.
 * Columns use the API's field names, the names scripts and imports use.
 */
export const EXPORT_COLUMNS = [
  'patient_id',
  'first_name',
  'last_name',
  'date_of_birth',
  'age',
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
  'status',
  'created_at',
] as const satisfies readonly (keyof Patient)[];

const PAGE = 200;

/**
 * One CSV cell (RFC 4180): quoted when it holds a comma, quote or line break. A text that a
 * spreadsheet would run as a formula (=, @, or +/- not followed by a plain number such as a phone
 * number) gets a leading apostrophe, so opening an export never executes patient-typed text.
 */
export function csvCell(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  let s = String(value);
  if (/^[=@\t\r]/.test(s) || (/^[+-]/.test(s) && !/^[+-]?[\d\s-]+$/.test(s))) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function patientsToCsv(patients: readonly Patient[]): string {
  const lines = [EXPORT_COLUMNS.join(',')];
  for (const p of patients) lines.push(EXPORT_COLUMNS.map((c) => csvCell(p[c])).join(','));
  // CRLF per RFC 4180; the BOM makes Excel read UTF-8 names (Hindi, accents) correctly.
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}

export interface ExportProgress {
  done: number;
  total: number;
}

/** Fetches every page of the filtered list. Ids already seen are skipped (a patient added meanwhile shifts the pages). */
export async function fetchAllPatients(
  filters: Omit<PatientQuery, 'page' | 'limit'>,
  onProgress?: (p: ExportProgress) => void,
  signal?: AbortSignal,
): Promise<Patient[]> {
  const seen = new Set<number>();
  const out: Patient[] = [];
  let page = 1;
  for (;;) {
    const res = await fetchPatientPage({ ...filters, page, limit: PAGE }, signal);
    for (const p of res.patients) {
      if (seen.has(p.id)) continue;
      seen.add(p.id);
      out.push(p);
    }
    onProgress?.({ done: out.length, total: res.total });
    if (!res.hasNextPage || res.patients.length === 0) return out;
    page += 1;
  }
}

/** patients-YYYY-MM-DD.csv, dated in the lab's time zone. */
export function exportFileName(timeZone: string, now = new Date()): string {
  return `patients-${todayIn(timeZone, now)}.csv`;
}

/** Hands the text to the browser as a file download. */
export function downloadText(fileName: string, content: string, type = 'text/csv;charset=utf-8'): void {
  const url = URL.createObjectURL(new Blob([content], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.style.display = 'none';
  document.body.append(a);
  a.click();
  a.remove();
  // Revoke after the click has been handled; revoking at once can cancel the download in some browsers.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
