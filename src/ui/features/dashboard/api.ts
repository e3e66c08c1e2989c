import { useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { shellKeys } from '@/lib/session';

/** GET /api/dashboard/stats: the shape is shared with the server. */
export type { Counts as DashboardCounts } from '@shared/schemas/dashboard';
import type { Counts as DashboardCounts } from '@shared/schemas/dashboard';

export interface Health {
  status: string;
  version: string | null;
  database: { status: string; latency_ms: number };
  setup_complete: boolean;
  time: string;
}

export function useDashboardStats() {
  return useQuery({
    queryKey: shellKeys.dashboardStats,
    queryFn: () => api.get<{ counts: DashboardCounts }>('/api/dashboard/stats').then((r) => r.counts),
  });
}

export function useHealth() {
  return useQuery({
    queryKey: shellKeys.health,
    queryFn: () => api.get<Health>('/api/health'),
    refetchInterval: 30_000,
  });
}

export const NOT_AVAILABLE = 'not available yet';
