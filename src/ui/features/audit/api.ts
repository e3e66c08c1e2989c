import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { auditApi } from '@shared/api/users';
import { call } from '@/lib/api';

export type { AuditPage } from '@shared/schemas/audit';

/** GET /api/audit filters, as in the URL of the Audit Trail screen. */
export interface AuditFilters {
  user_id: string;
  action: string;
  entity: string;
  from: string;
  to: string;
  search: string;
  page: number;
  limit: number;
}

export const auditKeys = {
  all: ['audit'] as const,
  list: (filters: AuditFilters) => ['audit', 'list', filters] as const,
};

export function useAuditLogs(filters: AuditFilters, enabled: boolean) {
  return useQuery({
    queryKey: auditKeys.list(filters),
    queryFn: () =>
      call(auditApi.list, {
        query: {
          ...filters,
          action: filters.action === 'all' ? '' : filters.action,
          user_id: filters.user_id === 'all' ? '' : filters.user_id,
        },
      }),
    placeholderData: keepPreviousData,
    enabled,
  });
}
