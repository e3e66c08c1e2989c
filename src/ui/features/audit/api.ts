import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { AuditLog } from '@shared/schemas/audit';
import type { Paged } from '@shared/schemas/common';
import { api } from '@/lib/api';

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

export type AuditPage = Paged & { logs: AuditLog[] };

export const auditKeys = {
  all: ['audit'] as const,
  list: (filters: AuditFilters) => ['audit', 'list', filters] as const,
};

export function useAuditLogs(filters: AuditFilters, enabled: boolean) {
  return useQuery({
    queryKey: auditKeys.list(filters),
    queryFn: () =>
      api.get<AuditPage>('/api/audit', {
        ...filters,
        action: filters.action === 'all' ? '' : filters.action,
        user_id: filters.user_id === 'all' ? '' : filters.user_id,
      }),
    placeholderData: keepPreviousData,
    enabled,
  });
}
