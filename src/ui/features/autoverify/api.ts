import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  ActivationInput,
  ComparisonQuery,
  ResumeInput,
  RuleSet,
  RuleSetCreate,
  RuleSetUpdate,
  StopInput,
} from '@shared/schemas/autoverify';
import { autoverifyApi } from '@shared/api/autoverify';
import { testsApi } from '@shared/api/catalogue';
import { call } from '@/lib/api';
import { notify } from '@/lib/notify';

export const autoverifyKeys = {
  all: ['autoverify'] as const,
  state: ['autoverify', 'state'] as const,
  ruleSets: ['autoverify', 'rule-sets'] as const,
  comparison: (q: ComparisonQuery) => ['autoverify', 'comparison', q] as const,
  tests: ['autoverify', 'tests'] as const,
};

export function useAutoverifyState() {
  return useQuery({
    queryKey: autoverifyKeys.state,
    queryFn: () => call(autoverifyApi.state, {}).then((r) => r.state),
  });
}

export function useRuleSets() {
  return useQuery({
    queryKey: autoverifyKeys.ruleSets,
    queryFn: () => call(autoverifyApi.list, {}).then((r) => r.rule_sets),
  });
}

/** The shadow comparison of a period; not asked while the period is backwards. */
export function useComparison(q: ComparisonQuery, enabled: boolean) {
  return useQuery({
    queryKey: autoverifyKeys.comparison(q),
    queryFn: () => call(autoverifyApi.comparison, { query: q }).then((r) => r.comparison),
    enabled,
    placeholderData: keepPreviousData,
  });
}

/** The active tests, for the per-test rules, the per-test stops and the departments (their categories). */
export function useCatalogueTests(enabled: boolean) {
  return useQuery({
    queryKey: autoverifyKeys.tests,
    queryFn: () => call(testsApi.list, { query: { status: 'active' } }).then((r) => r.tests),
    enabled,
    staleTime: 60_000,
  });
}

function useInvalidate() {
  const qc = useQueryClient();
  return () => qc.invalidateQueries({ queryKey: autoverifyKeys.all });
}

/** The version's name as people say it: "Chemistry v3". */
export const versionName = (r: Pick<RuleSet, 'name' | 'version'>) => `${r.name} v${r.version}`;

export function useCreateRuleSetMutation() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (body: RuleSetCreate) => call(autoverifyApi.create, { body }).then((r) => r.rule_set),
    onSuccess: (r) => {
      notify.success('Rule set drafted', `${versionName(r)}: approve it before it can run`);
      return invalidate();
    },
  });
}

export function useUpdateRuleSetMutation() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: RuleSetUpdate }) =>
      call(autoverifyApi.update, { params: { id }, body }).then((r) => r.rule_set),
    onSuccess: (r) => {
      notify.success('Rule set saved', versionName(r));
      return invalidate();
    },
  });
}

export function useNewVersionMutation() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (r: RuleSet) => call(autoverifyApi.newVersion, { params: { id: r.id } }).then((x) => x.rule_set),
    onSuccess: (r) => {
      notify.success('New version drafted', `${versionName(r)}: edit it, then approve it`);
      return invalidate();
    },
    onError: (err) => notify.error('Failed to draft a new version', err),
  });
}

export function useApproveRuleSetMutation() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (r: RuleSet) => call(autoverifyApi.approve, { params: { id: r.id } }).then((x) => x.rule_set),
    onSuccess: (r) => {
      notify.success('Rule set approved', `${versionName(r)}, approved by ${r.approved_by_name ?? 'you'}`);
      return invalidate();
    },
    onError: (err) => notify.error('Failed to approve the rule set', err),
  });
}

export function useActivateRuleSetMutation() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: ActivationInput }) =>
      call(autoverifyApi.activate, { params: { id }, body }).then((r) => r.rule_set),
    onSuccess: (r, { body }) => {
      notify.success(
        body.mode === 'live' ? 'Rule set activated live' : 'Rule set running in shadow',
        body.mode === 'live'
          ? `${versionName(r)} releases results that pass every rule`
          : `${versionName(r)} judges results and releases nothing`,
      );
      return invalidate();
    },
  });
}

export function useStopMutation() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (body: StopInput) => call(autoverifyApi.stop, { body }).then((r) => r.state),
    onSuccess: (_s, body) => {
      notify.success(
        body.test_id === undefined ? 'Autoverification stopped' : 'Autoverification stopped for the test',
        'The next result waits for a person',
      );
      return invalidate();
    },
  });
}

export function useResumeMutation() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (body: ResumeInput) => call(autoverifyApi.resume, { body }).then((r) => r.state),
    onSuccess: () => {
      notify.success('Autoverification resumed', 'The rule set in force judges the next result again');
      return invalidate();
    },
    onError: (err) => notify.error('Failed to resume autoverification', err),
  });
}
