import { useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { shellKeys } from '@/lib/session';

/**
 * GET /api/dashboard/stats. A module whose tables do not exist yet answers null: screens show
 * "—" and "not available yet", never a made-up zero.
 */
export interface DashboardCounts {
  patients: number;
  users: number;
  doctors: number;
  tests: number | null;
  test_profiles: number | null;
  test_packages: number | null;
  samples: number | null;
  test_results: number | null;
  bills: number | null;
}

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
