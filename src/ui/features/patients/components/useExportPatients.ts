import { useCallback, useEffect, useRef, useState } from 'react';
import { formatCount } from '@/lib/format';
import { notify } from '@/lib/notify';
import type { PatientQuery } from '@/lib/patients/queries';
import { downloadPatientsCsv } from '../exportCsv';

/**
 * The Export button's work: "Export Started" toast (spec 8), then the server's CSV of every
 * matching patient saved as patients-YYYY-MM-DD.csv. Leaving the page cancels it.
 */
export function useExportPatients() {
  const [busy, setBusy] = useState(false);
  const abort = useRef<AbortController | null>(null);

  useEffect(() => () => abort.current?.abort(), []);

  const start = useCallback(async (filters: Omit<PatientQuery, 'page' | 'limit'>) => {
    if (abort.current) return;
    const controller = new AbortController();
    abort.current = controller;
    setBusy(true);
    notify.info('Export Started', 'Preparing the CSV of the patients matching your filters.');
    try {
      const { fileName, rows } = await downloadPatientsCsv(filters, controller.signal);
      notify.success('Export Complete', `${formatCount(rows)} patients saved to ${fileName}`);
    } catch (err) {
      if (!controller.signal.aborted) notify.error('Export Failed', err);
    } finally {
      abort.current = null;
      setBusy(false);
    }
  }, []);

  return { start, busy };
}
