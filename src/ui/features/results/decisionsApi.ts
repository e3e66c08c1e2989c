import { useQuery } from '@tanstack/react-query';
import type { AutoverifyDecision } from '@shared/schemas/autoverify';
import type { TestResult } from '@shared/schemas/results';
import { autoverifyApi } from '@shared/api/autoverify';
import { call } from '@/lib/api';
import { resultKeys } from './api';

/**
 * What the autoverification rules said about the results on screen. The keys sit under the
 * results' own, so entering, verifying or sending a result back (which invalidate the results)
 * reads the decisions again too.
 */

/** The latest decision of each entered result of a page, by result id: one request for the page. */
export function useLatestDecisions(rows: TestResult[] | undefined) {
  const ids = (rows ?? []).flatMap((r) => (r.id !== null && r.result_value !== null ? [r.id] : []));
  return useQuery({
    queryKey: [...resultKeys.all, 'autoverification', ids] as const,
    queryFn: () =>
      call(autoverifyApi.latest, { query: { result_ids: ids.join(',') } }).then(
        (x) => new Map<number, AutoverifyDecision>(x.decisions.map((d) => [d.result_id, d])),
      ),
    enabled: ids.length > 0,
  });
}

/** Every decision on one result, oldest first (its review shows them all). */
export function useResultDecisions(resultId: number | null) {
  return useQuery({
    queryKey: [...resultKeys.all, 'autoverification', 'one', resultId] as const,
    queryFn: () => call(autoverifyApi.decisions, { params: { id: resultId ?? 0 } }).then((x) => x.decisions),
    enabled: resultId !== null,
  });
}
