import { useCallback, useEffect, useRef, useState } from 'react';
import { useLabFormat } from '@/lib/format';
import { notify } from '@/lib/notify';
import { formatCount } from '@/lib/format';
import type { PatientQuery } from '../api';
import { downloadText, exportFileName, fetchAllPatients, patientsToCsv, type ExportProgress } from '../exportCsv';

/**
 * The Export button's work: "Export Started" toast (spec 8), then every matching patient fetched
 * page by page and saved as patients-YYYY-MM-DD.csv. Leaving the page cancels it.
 */
export function useExportPatients() {
  const { timeZone } = useLabFormat();
  const [progress, setProgress] = useState<ExportProgress | null>(null);
  const abort = useRef<AbortController | null>(null);

  useEffect(() => () => abort.current?.abort(), []);

  const start = useCallback(
    async (filters: Omit<PatientQuery, 'page' | 'limit'>) => {
      if (abort.current) return;
      const controller = new AbortController();
      abort.current = controller;
      setProgress({ done: 0, total: 0 });
      notify.info('Export Started', 'Preparing the CSV of the patients matching your filters.');
      try {
        const patients = await fetchAllPatients(filters, setProgress, controller.signal);
        const fileName = exportFileName(timeZone);
        downloadText(fileName, patientsToCsv(patients));
        notify.success('Export Complete', `${formatCount(patients.length)} patients saved to ${fileName}`);
      } catch (err) {
        if (!controller.signal.aborted) notify.error('Export Failed', err);
      } finally {
        abort.current = null;
        setProgress(null);
      }
    },
    [timeZone],
  );

  return { start, progress, busy: progress !== null };
}
