import { useMutation } from '@tanstack/react-query';
import type { Sample } from '@shared/schemas/samples';
import { isValidBarcode } from '@shared/samples';
import { ApiError, call } from '@/lib/api';
import { samplesApi } from '@shared/api/samples';
import { notify } from '@/lib/notify';

/** Scanners and people type the code; barcodes are upper case, so "bcbl..." typed by hand still matches. */
export function normaliseBarcode(raw: string): string {
  return raw.trim().toUpperCase();
}

/**
 * Looks a scanned or typed barcode up (GET /api/samples/by-barcode/{barcode}) with the spec's
 * messages: blank -> "Please enter a barcode" (title Error); malformed -> Invalid Barcode; unknown
 * -> Barcode Not Found; found -> Barcode Found, "Sample {id} found", and onFound(sample).
 * Returns false when nothing was looked up, so scan fields can keep the text for correction.
 */
export function useBarcodeLookup(onFound: (sample: Sample) => void) {
  const m = useMutation({
    mutationFn: (barcode: string) => call(samplesApi.byBarcode, { params: { barcode } }).then((r) => r.sample),
    onSuccess: (sample) => {
      notify.success('Barcode Found', `Sample ${sample.sample_id} found`);
      onFound(sample);
    },
    onError: (err) => {
      if (err instanceof ApiError && err.status === 404)
        notify.error('Barcode Not Found', 'No sample found with this barcode');
      else if (err instanceof ApiError && err.status === 400)
        notify.error('Invalid Barcode', 'The scanned barcode format is invalid');
      else notify.error('Failed to lookup barcode', err);
    },
  });

  const lookup = (raw: string): boolean => {
    const code = normaliseBarcode(raw);
    if (!code) {
      notify.error('Error', 'Please enter a barcode');
      return false;
    }
    if (!isValidBarcode(code)) {
      notify.error('Invalid Barcode', 'The scanned barcode format is invalid');
      return false;
    }
    m.mutate(code);
    return true;
  };

  return { lookup, pending: m.isPending };
}
