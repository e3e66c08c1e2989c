import { useQuery } from '@tanstack/react-query';
import { call } from '@/lib/api';
import { setupApi } from '@shared/api/setup';
import { systemApi } from '@shared/api/system';
import { shellKeys } from '@/lib/session';

/** GET /api/dashboard/stats: the shape is shared with the server. */
export type { Counts as DashboardCounts } from '@shared/schemas/dashboard';
export type { Health } from '@shared/schemas/system';

export function useDashboardStats() {
  return useQuery({
    queryKey: shellKeys.dashboardStats,
    queryFn: () => call(systemApi.dashboardStats, {}).then((r) => r.counts),
  });
}

export function useHealth() {
  return useQuery({
    queryKey: shellKeys.health,
    queryFn: () => call(setupApi.health, {}),
    refetchInterval: 30_000,
  });
}

export const NOT_AVAILABLE = 'not available yet';
