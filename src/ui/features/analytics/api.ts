import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { analyticsApi } from '@shared/api/analytics';
import type { Analytics, AnalyticsRange, LiveBoard } from '@shared/schemas/analytics';
import { LIVE_REFRESH_MS } from '@shared/constants';
import { call } from '@/lib/api';

export { LIVE_REFRESH_MS };

export const analyticsKeys = {
  all: ['analytics'] as const,
  range: (days: AnalyticsRange) => ['analytics', 'range', days] as const,
  live: ['analytics', 'live'] as const,
};

export function useAnalytics(days: AnalyticsRange) {
  return useQuery<Analytics>({
    queryKey: analyticsKeys.range(days),
    queryFn: ({ signal }) => call(analyticsApi.get, { query: { days } }, signal).then((r) => r.analytics),
    placeholderData: keepPreviousData,
  });
}

export function useLiveBoard() {
  return useQuery<LiveBoard>({
    queryKey: analyticsKeys.live,
    queryFn: ({ signal }) => call(analyticsApi.live, {}, signal).then((r) => r.live),
    refetchInterval: LIVE_REFRESH_MS,
    refetchIntervalInBackground: false,
  });
}
