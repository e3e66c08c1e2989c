import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { homeCollectionApi } from '@shared/api/home-collection';
import type { ReceiveInput } from '@shared/schemas/home-collection';
import { ApiError, call, fieldErrorMessage } from '@/lib/api';
import { notify } from '@/lib/notify';
import { sampleKeys } from './api';

/** The lab's receive bench for tubes drawn at home: what is on its way, and the scan that takes one in. */
export const homeReceiveKeys = { inTransit: ['samples', 'home-in-transit'] as const };

export function useHomeTubesInTransit() {
  return useQuery({
    queryKey: homeReceiveKeys.inTransit,
    queryFn: ({ signal }) => call(homeCollectionApi.inTransit, {}, signal),
  });
}

/**
 * Receives one scanned tube. A refusal (unknown, not a home tube, not drawn, already in) is the
 * server's own sentence in an error toast; a missing or bad temperature goes to its field instead.
 */
export function useReceiveHomeTubeMutation(onFieldError: (field: 'barcode' | 'temperature', message: string) => void) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: ReceiveInput) => call(homeCollectionApi.receive, { body }).then((r) => r.tube),
    onSuccess: (tube) => {
      notify.success('Tube Received', `Tube ${tube.barcode} received at the lab`);
      // The in-transit list is under the samples' keys too: one refresh covers both.
      void qc.invalidateQueries({ queryKey: sampleKeys.all });
    },
    onError: (err) => {
      const field = err instanceof ApiError ? err.details[0]?.path : undefined;
      if (field === 'barcode' || field === 'temperature') onFieldError(field, fieldErrorMessage(err));
      else notify.error('Tube Not Received', err);
    },
  });
}
