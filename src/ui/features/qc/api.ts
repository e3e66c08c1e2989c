import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  QcMaterial,
  QcMaterialCreate,
  QcMaterialUpdate,
  QcRun,
  QcRunCreate,
  QcTestRunCreate,
} from '@shared/schemas/qc';
import type { WestgardRule } from '@shared/westgard';
import { qcApi } from '@shared/api/qc';
import { testsApi } from '@shared/api/catalogue';
import { call } from '@/lib/api';
import { notify } from '@/lib/notify';
import { toast } from 'sonner';

/** Screen filters: status is the latest run's outcome (the spec's status filter), test a test id. */
export interface QcFilters {
  search?: string;
  last_status?: string;
  test_id?: string;
}

export const qcKeys = {
  all: ['qc'] as const,
  summary: ['qc', 'summary'] as const,
  list: (f: QcFilters) => ['qc', 'materials', f] as const,
  runs: (id: number) => ['qc', 'runs', id] as const,
  tests: ['qc', 'tests'] as const,
};

export function useQcSummary() {
  return useQuery({
    queryKey: qcKeys.summary,
    queryFn: () => call(qcApi.summary, {}).then((r) => r.summary),
  });
}

export function useQcMaterials(f: QcFilters) {
  return useQuery({
    queryKey: qcKeys.list(f),
    queryFn: () =>
      call(qcApi.materials, {
        query: {
          search: f.search?.trim() || undefined,
          last_status: f.last_status && f.last_status !== 'all' ? f.last_status : undefined,
          test_id: f.test_id && f.test_id !== 'all' ? f.test_id : undefined,
        },
      }).then((r) => r.materials),
    placeholderData: keepPreviousData,
  });
}

export function useQcRuns(id: number | null) {
  return useQuery({
    queryKey: qcKeys.runs(id ?? 0),
    queryFn: () => call(qcApi.runs, { params: { id: id ?? 0 } }),
    enabled: id !== null,
  });
}

/** Active tests for the Add Control Material picker (the catalogue's own list, view_tests). */
export function useActiveTests(enabled: boolean) {
  return useQuery({
    queryKey: qcKeys.tests,
    queryFn: () => call(testsApi.list, { query: { status: 'active' } }).then((r) => r.tests),
    enabled,
    staleTime: 60_000,
  });
}

function useInvalidateQc() {
  const qc = useQueryClient();
  return () => qc.invalidateQueries({ queryKey: qcKeys.all });
}

export function useCreateQcMaterialMutation() {
  const invalidate = useInvalidateQc();
  return useMutation({
    mutationFn: (body: QcMaterialCreate) => call(qcApi.createMaterial, { body }).then((r) => r.material),
    onSuccess: (m) => {
      notify.success('Control material added', `${m.control_id} · ${m.test_name} · lot ${m.lot_number}`);
      return invalidate();
    },
    onError: (err) => notify.error('Failed to add control material', err),
  });
}

export function useUpdateQcMaterialMutation() {
  const invalidate = useInvalidateQc();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: QcMaterialUpdate }) =>
      call(qcApi.updateMaterial, { params: { id }, body }).then((r) => r.material),
    onSuccess: (m, { body }) => {
      const what = body.is_active === undefined ? 'updated' : body.is_active ? 'activated' : 'deactivated';
      notify.success(`Control material ${what}`, m.control_id);
      return invalidate();
    },
    onError: (err) => notify.error('Failed to update control material', err),
  });
}

export function useDeleteQcMaterialMutation() {
  const invalidate = useInvalidateQc();
  return useMutation({
    mutationFn: (m: QcMaterial) => call(qcApi.deleteMaterial, { params: { id: m.id } }).then(() => m),
    onSuccess: (m) => {
      notify.success('Control material deleted', m.control_id);
      return invalidate();
    },
    onError: (err) => notify.error('Failed to delete control material', err),
  });
}

/** The run's verdict is the news: a rejected run toasts in the destructive style, naming the broken rules. */
function announceRun(run: QcRun, m: QcMaterial) {
  // A rejected run names the rules that rejected it; 1-2s only triggered the check.
  const rejecting = run.rules.filter((r) => r !== '1-2s');
  const rules = (run.status === 'failed' && rejecting.length ? rejecting : run.rules).join(', ');
  const where = `${m.control_id} · ${m.test_name} · value ${run.value} (z ${run.z_score.toFixed(2)})`;
  if (run.status === 'failed') {
    toast.error(`QC run rejected: ${rules}`, { description: where, duration: 10_000, closeButton: true });
  } else if (run.status === 'warning') {
    toast.warning(`QC run accepted with warning: ${rules}`, { description: where, duration: 8_000, closeButton: true });
  } else {
    notify.success('QC run passed', where);
  }
  machineWarning(run.equipment_warning);
}

/** The server's word on the machine of a run (past its calibration, not operational), kept on the run. */
function machineWarning(warning: string | null | undefined) {
  if (warning) notify.warning('Machine warning', `${warning}. The QC run carries this warning.`);
}

export function useRecordQcRunMutation() {
  const invalidate = useInvalidateQc();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: QcRunCreate }) => call(qcApi.recordRun, { params: { id }, body }),
    onSuccess: ({ run, material }) => {
      announceRun(run, material);
      return invalidate();
    },
    onError: (err) => notify.error('Failed to record QC run', err),
  });
}

/** A run of every level of a test at once; the verdict is announced like a single run's. */
export function useRecordTestRunMutation() {
  const invalidate = useInvalidateQc();
  return useMutation({
    mutationFn: (body: QcTestRunCreate) => call(qcApi.recordTestRun, { body }),
    onSuccess: (out) => {
      const rejecting = out.rules.filter((r) => r !== '1-2s');
      const where = out.runs.map((r) => `z ${r.z_score.toFixed(2)}`).join(' · ');
      if (out.status === 'failed')
        toast.error(`QC run rejected: ${rejecting.join(', ')}`, {
          description: where,
          duration: 10_000,
          closeButton: true,
        });
      else if (out.status === 'warning')
        toast.warning(`QC run accepted with warning: ${out.rules.join(', ')}`, { description: where, duration: 8_000 });
      else notify.success('QC run passed', where);
      machineWarning(out.runs.find((r) => r.equipment_warning)?.equipment_warning);
      return invalidate();
    },
    onError: (err) => notify.error('Failed to record QC run', err),
  });
}

export function useOverrideRunMutation() {
  const invalidate = useInvalidateQc();
  return useMutation({
    mutationFn: ({ id, reason }: { id: number; reason: string }) =>
      call(qcApi.overrideRun, { params: { id }, body: { reason } }),
    onSuccess: () => {
      notify.success('QC rejection overridden', 'Results of this test can be verified again');
      return invalidate();
    },
    onError: (err) => notify.error('Failed to override the QC run', err),
  });
}

export function useTestRules(testId: number | null) {
  return useQuery({
    queryKey: ['qc', 'rules', testId] as const,
    queryFn: () => call(qcApi.testRules, { params: { id: testId ?? 0 } }),
    enabled: testId !== null && testId > 0,
  });
}

export function useSetTestRulesMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, rules }: { id: number; rules: WestgardRule[] }) =>
      call(qcApi.setTestRules, { params: { id }, body: { rules } }),
    onSuccess: (r) => {
      notify.success(`QC rules of ${r.test_name} saved`, r.rules.join(', '));
      return qc.invalidateQueries({ queryKey: ['qc', 'rules', r.test_id] });
    },
    onError: (err) => notify.error('Failed to save the QC rules', err),
  });
}
