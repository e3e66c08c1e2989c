import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { IssuedInvitation, Tenant, TenantCreateInput, TenantUpdate } from '@shared/schemas/tenants';
import { tenantsApi } from '@shared/api/tenants';
import { call } from '@/lib/api';
import { notify } from '@/lib/notify';

/** Query keys of Multi-Tenant Setup. */
export const tenantKeys = {
  all: ['tenants'] as const,
  list: (q: TenantQuery) => ['tenants', 'list', q] as const,
  summary: ['tenants', 'summary'] as const,
};

export interface TenantQuery {
  search: string;
  status?: string;
  plan?: string;
  page: number;
  limit: number;
}

export function useTenantPage(q: TenantQuery) {
  return useQuery({
    queryKey: tenantKeys.list(q),
    queryFn: ({ signal }) =>
      call(
        tenantsApi.list,
        {
          query: {
            search: q.search || undefined,
            status: q.status as Tenant['status'] | undefined,
            plan: q.plan as NonNullable<Tenant['plan']> | undefined,
            page: q.page,
            limit: q.limit,
          },
        },
        signal,
      ),
    placeholderData: keepPreviousData,
  });
}

export function useTenantSummary() {
  return useQuery({
    queryKey: tenantKeys.summary,
    queryFn: ({ signal }) => call(tenantsApi.summary, {}, signal).then((r) => r.summary),
  });
}

function useInvalidateTenants() {
  const qc = useQueryClient();
  return () =>
    Promise.all([qc.invalidateQueries({ queryKey: tenantKeys.all }), qc.invalidateQueries({ queryKey: ['audit'] })]);
}

/** Creates the lab and its admin; the answer's one-time link is shown by the dialog, not in a toast. */
export function useCreateTenantMutation() {
  const invalidate = useInvalidateTenants();
  return useMutation({
    mutationFn: (input: TenantCreateInput) => call(tenantsApi.create, { body: input }),
    onSuccess: (r) => {
      notify.success('Tenant created', `${r.tenant.name} is pending until its admin sets a password.`);
      return invalidate();
    },
    onError: (err) => notify.error('Failed to create tenant', err),
  });
}

export function useUpdateTenantMutation() {
  const invalidate = useInvalidateTenants();
  return useMutation({
    mutationFn: ({ id, patch }: { id: number; patch: TenantUpdate }) =>
      call(tenantsApi.update, { params: { id }, body: patch }).then((r) => r.tenant),
    onSuccess: (t) => {
      notify.success('Tenant updated', t.name);
      return invalidate();
    },
    onError: (err) => notify.error('Failed to update tenant', err),
  });
}

/** Suspend, make inactive, reactivate: the status alone, through PUT. */
export function useTenantStatusMutation() {
  const invalidate = useInvalidateTenants();
  return useMutation({
    mutationFn: ({ tenant, status }: { tenant: Tenant; status: 'active' | 'suspended' | 'inactive' }) =>
      call(tenantsApi.update, { params: { id: tenant.id }, body: { status } }).then((r) => r.tenant),
    onSuccess: (t) => {
      const text: Record<Tenant['status'], [string, string]> = {
        suspended: [
          'Tenant suspended',
          `${t.name}'s staff were signed out and cannot sign in until it is reactivated.`,
        ],
        inactive: ['Tenant made inactive', `${t.name}'s staff were signed out and cannot sign in.`],
        active: ['Tenant reactivated', `${t.name}'s staff can sign in again.`],
        pending: ['Tenant reactivated', `${t.name} is pending until its admin sets a password.`],
      };
      notify.success(...text[t.status]);
      return invalidate();
    },
    onError: (err) => notify.error('Failed to change the tenant’s status', err),
  });
}

/** A new one-time link for a lab's admin who has not set a password yet. */
export function useReinviteMutation() {
  const invalidate = useInvalidateTenants();
  return useMutation({
    mutationFn: (tenant: Tenant): Promise<IssuedInvitation> =>
      call(tenantsApi.invite, { params: { id: tenant.id } }).then((r) => r.invitation),
    onSuccess: () => invalidate(),
    onError: (err) => notify.error('Failed to make a new invitation link', err),
  });
}
