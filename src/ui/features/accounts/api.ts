import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { accountsApi } from '@shared/api/accounts';
import type { AccountsSettingsUpdate, Gstr1CsvSection } from '@shared/schemas/accounts';
import { call, contractUrl } from '@/lib/api';
import { notify } from '@/lib/notify';

/** Query keys of Accounts. Under ['accounts']; the settings change what every month's files say. */
export const accountsKeys = {
  all: ['accounts'] as const,
  summary: (month: string) => ['accounts', 'summary', month] as const,
  settings: ['accounts', 'settings'] as const,
};

export function useAccountsSummary(month: string, enabled: boolean) {
  return useQuery({
    queryKey: accountsKeys.summary(month),
    enabled,
    queryFn: ({ signal }) => call(accountsApi.summary, { query: { month } }, signal).then((r) => r.summary),
  });
}

export function useAccountsSettings() {
  return useQuery({
    queryKey: accountsKeys.settings,
    queryFn: ({ signal }) => call(accountsApi.settings, {}, signal).then((r) => r.settings),
  });
}

export function useUpdateAccountsSettingsMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: AccountsSettingsUpdate) => call(accountsApi.updateSettings, { body }).then((r) => r.settings),
    onSuccess: () => {
      notify.success('Accounts settings saved', 'The next files are written with them');
      return qc.invalidateQueries({ queryKey: accountsKeys.all });
    },
  });
}

/** The month's files, as links the browser downloads. */
export const accountsFileUrls = (month: string) => ({
  tally: contractUrl(accountsApi.tally, { query: { month } }),
  gstr1: contractUrl(accountsApi.gstr1, { query: { month } }),
  einvoice: contractUrl(accountsApi.einvoice, { query: { month } }),
  sheet: (section: Gstr1CsvSection) => contractUrl(accountsApi.gstr1Csv, { query: { month, section } }),
});
