import { useQuery } from '@tanstack/react-query';
import type { PatientPage } from '@shared/schemas/patients';
import type { DashboardCounts, Health } from '@/features/dashboard/api';
import { api } from '@/lib/api';

/** GET /api/system/diagnostics (system_settings): the server, its database file and the lab's counts. */
export interface Diagnostics {
  server: {
    version: string | null;
    node: string;
    platform: string;
    uptime_seconds: number;
    memory_mb: number;
    demo: boolean;
  };
  database: {
    type: string;
    file: string;
    size_bytes: number;
    sqlite_version: string;
    journal_mode: string;
    synchronous: string;
    foreign_keys: boolean;
    schema_version: number;
    quick_check: string;
    latency_ms: number;
  };
  counts: DashboardCounts;
}

export interface PatientWriteCheck {
  ok: boolean;
  ms: number;
  patient_code: string | null;
  error: string | null;
}

export interface AuditChainReport {
  ok: boolean;
  checked: number;
  firstBrokenId: number | null;
  reason: string | null;
}

export const systemKeys = {
  diagnostics: ['system', 'diagnostics'] as const,
};

export const fetchDiagnostics = () => api.get<Diagnostics>('/api/system/diagnostics');

export function useDiagnostics(enabled: boolean) {
  return useQuery({ queryKey: systemKeys.diagnostics, queryFn: fetchDiagnostics, enabled });
}

/** Runs a call and measures how long the browser waited for it (what the user feels, network included). */
export async function timed<T>(call: () => Promise<T>): Promise<{ data: T; ms: number }> {
  const t0 = performance.now();
  const data = await call();
  return { data, ms: Math.round((performance.now() - t0) * 10) / 10 };
}

export const checks = {
  health: () => timed(() => api.get<Health>('/api/health')),
  patients: () => timed(() => api.get<PatientPage>('/api/patients', { page: 1, limit: 5 })),
  database: () => timed(fetchDiagnostics),
  patientWrite: () =>
    timed(() => api.post<{ check: PatientWriteCheck }>('/api/system/checks/patient-write').then((r) => r.check)),
  auditChain: () =>
    timed(() => api.post<{ audit: AuditChainReport }>('/api/system/checks/audit-chain').then((r) => r.audit)),
};

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  if (n < 1024 ** 3) return `${(n / 1024 / 1024).toFixed(1)} MB`;
  return `${(n / 1024 ** 3).toFixed(2)} GB`;
}

export function formatUptime(seconds: number): string {
  const d = Math.floor(seconds / 86400);
  const h = Math.floor((seconds % 86400) / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  if (d > 0) return `${d}d ${h}h ${m}m`;
  if (h > 0) return `${h}h ${m}m`;
  return m > 0 ? `${m}m ${s}s` : `${s}s`;
}
