export { formatBytes } from '@shared/bytes';
import { useQuery } from '@tanstack/react-query';
import { call } from '@/lib/api';
import { patientsApi } from '@shared/api/patients';
import { setupApi } from '@shared/api/setup';
import { systemApi } from '@shared/api/system';
import { settingsApi } from '@shared/api/settings';
import type { SettingsUpdate } from '@shared/schemas/settings';
import { JOBS_REFRESH_MS } from '@shared/constants';

/** The diagnostics shapes are the server's. */
export type { Settings, SettingsUpdate, BackupRunInfo } from '@shared/schemas/settings';
export type {
  ChainReport as AuditChainReport,
  Diagnostics,
  JobStatus,
  PatientWriteCheck,
} from '@shared/schemas/system';

export const systemKeys = {
  diagnostics: ['system', 'diagnostics'] as const,
  jobs: ['system', 'jobs'] as const,
};

export const fetchDiagnostics = () => call(systemApi.diagnostics, {});

export function useDiagnostics(enabled: boolean) {
  return useQuery({ queryKey: systemKeys.diagnostics, queryFn: fetchDiagnostics, enabled });
}

/** The server's background jobs (the server's operator's), read again while the screen is open. */
export function useBackgroundJobs(enabled: boolean) {
  return useQuery({
    queryKey: systemKeys.jobs,
    queryFn: async () => (await call(systemApi.jobs, {})).jobs,
    enabled,
    refetchInterval: JOBS_REFRESH_MS,
  });
}

/** A period or a run's length: 5 s, 10 min, 1 h; under a second in ms. */
export function formatMs(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  if (ms < 60_000) return `${Number((ms / 1000).toFixed(ms < 10_000 ? 1 : 0))} s`;
  if (ms < 3_600_000) return `${Number((ms / 60_000).toFixed(1))} min`;
  return `${Number((ms / 3_600_000).toFixed(1))} h`;
}

/** The lab's own record counts (what a lab's admin sees where the operator sees the diagnostics). */
export function useLabCounts(enabled: boolean) {
  return useQuery({ queryKey: ['system', 'lab-counts'], queryFn: () => call(systemApi.dashboardStats, {}), enabled });
}

/** Runs a call and measures how long the browser waited for it (what the user feels, network included). */
export async function timed<T>(call: () => Promise<T>): Promise<{ data: T; ms: number }> {
  const t0 = performance.now();
  const data = await call();
  return { data, ms: Math.round((performance.now() - t0) * 10) / 10 };
}

export const checks = {
  health: () => timed(() => call(setupApi.health, {})),
  patients: () => timed(() => call(patientsApi.list, { query: { page: 1, limit: 5 } })),
  database: () => timed(fetchDiagnostics),
  patientWrite: () => timed(() => call(systemApi.patientWriteCheck, {}).then((r) => r.check)),
  auditChain: () => timed(() => call(systemApi.auditChainCheck, {}).then((r) => r.audit)),
};

export function formatUptime(seconds: number): string {
  const d = Math.floor(seconds / 86400);
  const h = Math.floor((seconds % 86400) / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  if (d > 0) return `${d}d ${h}h ${m}m`;
  if (h > 0) return `${h}h ${m}m`;
  return m > 0 ? `${m}m ${s}s` : `${s}s`;
}

export const settingsKeys = {
  settings: ['settings'] as const,
  backups: ['settings', 'backups'] as const,
};

export function useSettings() {
  return useQuery({ queryKey: settingsKeys.settings, queryFn: async () => (await call(settingsApi.get, {})).settings });
}

export function useBackups() {
  return useQuery({ queryKey: settingsKeys.backups, queryFn: () => call(settingsApi.backups, {}) });
}

export const saveSettings = (body: SettingsUpdate) => call(settingsApi.update, { body }).then((r) => r.settings);
export const resetSettings = () => call(settingsApi.reset, {}).then((r) => r.settings);
export const backUpNow = () => call(settingsApi.backupNow, {}).then((r) => r.backup);
