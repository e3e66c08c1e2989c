import type { Role } from '@shared/roles';
import type { UserStatus } from '@shared/schemas/users';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { usersApi } from '@shared/api/users';
import { call } from './api';

/** GET /api/users filters as the server takes them; empty values stay out of the URL. */
export interface UserFilters {
  search?: string;
  role?: Role | '';
  /** One status only (the server lists inactive and suspended accounts for it without include_inactive). */
  status?: UserStatus | '';
  include_inactive?: boolean;
}

export const usersListKey = (filters: UserFilters) => ['users', 'list', filters] as const;

export function useUsers(filters: UserFilters, opts: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: usersListKey(filters),
    queryFn: () =>
      call(usersApi.list, {
        query: {
          search: filters.search,
          role: filters.role,
          status: filters.status,
          include_inactive: filters.include_inactive ? 'true' : undefined,
        },
      }).then((r) => r.users),
    placeholderData: keepPreviousData,
    enabled: opts.enabled ?? true,
  });
}
