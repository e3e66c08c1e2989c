import { useQuery } from '@tanstack/react-query';
import { settingsApi } from '@shared/api/settings';
import { call } from './api';

export const labKeys = { info: ['lab', 'info'] as const };

/**
 * The lab as every signed-in screen needs it (GET /api/lab): name, date format, time zone, currency
 * and maintenance mode. Read again every 30 s, so a change made in System Settings (on this or
 * another server) reaches every open screen without a reload.
 */
export function useLab() {
  return useQuery({
    queryKey: labKeys.info,
    queryFn: async () => (await call(settingsApi.lab, {})).lab,
    staleTime: 15_000,
    refetchInterval: 30_000,
    refetchIntervalInBackground: false,
  });
}
