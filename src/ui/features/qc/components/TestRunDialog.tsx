import { useMemo, useState } from 'react';
import { qcTestRunCreateSchema, type QcMaterial } from '@shared/schemas/qc';
import { WESTGARD_RULES, type WestgardRule } from '@shared/westgard';
import { Button, FormDialog, FormField, Input, MachineSelect, Select, Textarea } from '@/components';
import { useFieldForm } from '@/lib/forms';
import { useRecordTestRunMutation, useSetTestRulesMutation, useTestRules } from '../api';
import { targetText } from '../qcText';

interface RunForm {
  testId: number | null;
  /** The value typed for each control level, by material id. */
  values: Record<number, string>;
  comments: string;
  machine: number | null;
}
const emptyRun = (): RunForm => ({ testId: null, values: {}, comments: '', machine: null });

/**
 * Record a QC run of a test: the value of every active control level measured together, judged
 * together by the server (2-2s and R-4s across the levels of the run), and the test's rule set.
 */
export function TestRunDialog({
  open,
  onOpenChange,
  materials,
  canManage,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  materials: QcMaterial[];
  canManage: boolean;
}) {
  const tests = useMemo(() => {
    const byTest = new Map<number, { id: number; name: string; levels: QcMaterial[] }>();
    for (const m of materials) {
      const t = byTest.get(m.test_id) ?? { id: m.test_id, name: m.test_name, levels: [] };
      t.levels.push(m);
      byTest.set(m.test_id, t);
    }
    return [...byTest.values()].sort((a, b) => a.name.localeCompare(b.name));
  }, [materials]);
  const {
    values: { testId, values, comments, machine },
    set,
    setValues: setForm,
    errors,
    setErrors,
    showErrors,
  } = useFieldForm(emptyRun, { resetFor: open ? 'new' : null });
  const setValues = (update: (v: Record<number, string>) => Record<number, string>) =>
    setForm((f) => ({ ...f, values: update(f.values) }));
  const record = useRecordTestRunMutation();
  const test = tests.find((t) => t.id === testId) ?? null;

  const submit = () => {
    if (!test) {
      setErrors({ test_id: 'Choose the test' });
      return;
    }
    const entered = test.levels.filter((m) => (values[m.id] ?? '').trim() !== '');
    const parsed = qcTestRunCreateSchema.safeParse({
      test_id: test.id,
      values: entered.map((m) => ({ material_id: m.id, value: values[m.id] })),
      comments,
      equipment_id: machine ?? undefined,
    });
    if (!parsed.success) {
      setErrors(Object.fromEntries(parsed.error.issues.map((i) => [i.path.join('.'), i.message])));
      return;
    }
    setErrors({});
    record.mutate(parsed.data, { onSuccess: () => onOpenChange(false), onError: showErrors });
  };

  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title="Record QC Run (all levels)"
      description="Enter each control level measured in this run; the levels are judged together."
      busy={record.isPending}
      onSubmit={submit}
      submitLabel="Record Run"
      busyLabel="Recording..."
      submitDisabled={!test}
      error={errors.form}
    >
      <div className="grid gap-4">
        <FormField label="Test" required error={errors.test_id}>
          <Select
            placeholder="Select the test"
            value={testId === null ? '' : String(testId)}
            onChange={(e) => {
              setForm((f) => ({ ...f, testId: e.target.value ? Number(e.target.value) : null, values: {} }));
              setErrors({});
            }}
            options={tests.map((t) => ({ value: String(t.id), label: `${t.name} (${t.levels.length} levels)` }))}
          />
        </FormField>
        {test && (
          <fieldset className="grid gap-3 sm:grid-cols-2">
            <legend className="sr-only">Control levels</legend>
            {test.levels.map((m, i) => (
              <FormField
                key={m.id}
                label={`${m.level ?? m.name} (${m.control_id})`}
                hint={`Target ${targetText(m)}`}
                error={errors[`values.${i}.value`]}
              >
                <Input
                  inputMode="decimal"
                  autoComplete="off"
                  value={values[m.id] ?? ''}
                  onChange={(e) => setValues((v) => ({ ...v, [m.id]: e.target.value }))}
                />
              </FormField>
            ))}
          </fieldset>
        )}
        {errors.values && <p className="text-[13px] text-red-700">{errors.values}</p>}
        <MachineSelect value={machine} onChange={(m) => set('machine', m)} />
        <FormField label="Comments">
          <Textarea rows={2} value={comments} onChange={(e) => set('comments', e.target.value)} />
        </FormField>
        {test && <RulesEditor testId={test.id} canManage={canManage} />}
      </div>
    </FormDialog>
  );
}

/** The test's Westgard rules: shown to all, changed by QC staff. */
function RulesEditor({ testId, canManage }: { testId: number; canManage: boolean }) {
  const rules = useTestRules(testId);
  const save = useSetTestRulesMutation();
  const [draft, setDraft] = useState<Set<WestgardRule> | null>(null);
  const chosen = draft ?? new Set(rules.data?.rules ?? []);
  if (rules.isPending) return <div className="skeleton h-10" aria-label="Loading QC rules" />;
  if (rules.isError) return <p className="text-[13px] text-red-700">The QC rules could not be loaded.</p>;
  return (
    <fieldset className="rounded-md border border-slate-200 p-3">
      <legend className="px-1 text-[13px] font-semibold text-slate-900">Westgard rules of this test</legend>
      <div className="flex flex-wrap gap-x-4 gap-y-2 text-[13px]">
        {WESTGARD_RULES.map((r) => (
          <label key={r} className="flex items-center gap-1.5">
            <input
              type="checkbox"
              className="size-4 accent-primary-600"
              checked={chosen.has(r)}
              disabled={!canManage}
              onChange={(e) => {
                const next = new Set(chosen);
                if (e.target.checked) next.add(r);
                else next.delete(r);
                setDraft(next);
              }}
            />
            {r}
          </label>
        ))}
      </div>
      <p className="mt-2 text-xs text-slate-600">1-2s warns; every other rule chosen rejects the run.</p>
      {canManage && draft && (
        <Button
          size="sm"
          variant="outline"
          className="mt-2"
          loading={save.isPending}
          loadingText="Saving..."
          disabled={draft.size === 0}
          onClick={() => save.mutate({ id: testId, rules: [...draft] }, { onSuccess: () => setDraft(null) })}
        >
          Save Rules
        </Button>
      )}
    </fieldset>
  );
}
