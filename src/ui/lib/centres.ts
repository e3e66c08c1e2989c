import { useQuery } from '@tanstack/react-query';
import { centresApi } from '@shared/api/centres';
import { call } from './api';

/**
 * The lab's active centres as choices (the Users form binds a centre's login to one). Shared here
 * because the users feature may not import the centres feature.
 */
export function useCentreChoices(enabled: boolean) {
  return useQuery({
    queryKey: ['centres', 'choices'] as const,
    enabled,
    queryFn: ({ signal }) =>
      call(centresApi.list, { query: { status: 'active' } }, signal).then((r) =>
        r.centres.map((c) => ({ value: String(c.id), label: c.name })),
      ),
  });
}
