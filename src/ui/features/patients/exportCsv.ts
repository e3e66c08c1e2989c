import { contractUrl } from '@/lib/api';
import { patientsApi } from '@shared/api/patients';
import type { PatientQuery } from '@/lib/patients/queries';

/**
 * All Patients > Export: the server streams every patient matching the filters as CSV
 * (GET /api/patients/export: formula-safe cells, UTF-8 BOM, recorded in the audit trail).
 * It is fetched rather than linked so failures are shown and completion is known.
 */
export async function downloadPatientsCsv(
  filters: Omit<PatientQuery, 'page' | 'limit'>,
  signal?: AbortSignal,
): Promise<{ fileName: string; rows: number }> {
  const res = await fetch(contractUrl(patientsApi.export, { query: filters }), { credentials: 'same-origin', signal });
  if (!res.ok) {
    const body = (await res.json().catch(() => null)) as { message?: string } | null;
    throw new Error(body?.message ?? `Export failed: ${res.status} ${res.statusText}`);
  }
  const fileName = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? 'patients.csv';
  const blob = await res.blob();
  const text = await blob.text();
  const rows = Math.max(0, text.trimEnd().split('\r\n').length - 1);
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.style.display = 'none';
  document.body.append(a);
  a.click();
  a.remove();
  // Revoke after the click has been handled; revoking at once can cancel the download in some browsers.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return { fileName, rows };
}
