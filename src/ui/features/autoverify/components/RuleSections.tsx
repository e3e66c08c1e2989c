import { useState } from 'react';
import { Plus, Trash2 } from 'lucide-react';
import type { CatalogueTest } from '@shared/schemas/catalogue-items';
import { Button, Checkbox, FormField, IconButton, Input, Select } from '@/components';
import type { OverrideForm, RuleSetForm } from '../ruleForm';
import { ConditionsFields } from './ConditionsFields';

type Errors = Record<string, string | undefined>;

export interface SectionProps {
  form: RuleSetForm;
  change: (update: (f: RuleSetForm) => RuleSetForm) => void;
  errors: Errors;
  tests: CatalogueTest[];
}

function Section({ title, hint, children }: { title: string; hint: string; children: React.ReactNode }) {
  return (
    <section aria-label={title} className="grid gap-3 border-t border-slate-100 pt-4">
      <div>
        <h3 className="text-sm font-semibold text-slate-900">{title}</h3>
        <p className="text-[13px] text-slate-600">{hint}</p>
      </div>
      {children}
    </section>
  );
}

/** One department's or test's line: released by the rules or not, and its own conditions. */
function OverrideRow({
  name,
  value,
  onChange,
  onRemove,
  path,
  errors,
  unit,
}: {
  name: string;
  value: OverrideForm;
  onChange: (o: OverrideForm) => void;
  onRemove: () => void;
  path: string;
  errors: Errors;
  unit?: string | null;
}) {
  return (
    <li className="rounded-md border border-slate-200 p-3">
      <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
        <p className="min-w-0 flex-1 font-medium text-slate-900">{name}</p>
        <Checkbox
          label={`Released by the rules (${name})`}
          checked={value.enabled}
          onChange={(e) => onChange({ ...value, enabled: e.target.checked })}
        />
        <Checkbox
          label={`Own conditions (${name})`}
          checked={value.own && value.enabled}
          disabled={!value.enabled}
          onChange={(e) => onChange({ ...value, own: e.target.checked })}
        />
        <IconButton label={`Remove ${name}`} icon={<Trash2 />} onClick={onRemove} />
      </div>
      {!value.enabled && <p className="mt-1 text-[13px] text-slate-600">Always waits for a person.</p>}
      {value.enabled && value.own && (
        <div className="mt-3 border-t border-slate-100 pt-3">
          <ConditionsFields
            value={value.conditions}
            onChange={(c) => onChange({ ...value, conditions: c })}
            path={`${path}.conditions`}
            errors={errors}
            unit={unit}
            label={name}
          />
        </div>
      )}
    </li>
  );
}

/** Per-department and per-test rules: each on or off, with its own conditions when the lab wants. */
export function OverrideSections({ form, change, errors, tests }: SectionProps) {
  const [dept, setDept] = useState('');
  const [test, setTest] = useState('');
  const categories = [...new Set(tests.map((t) => t.category).filter((c): c is string => !!c))].sort();
  // A new override starts from the defaults as they stand on the form.
  const freshOverride = () => ({ enabled: true, own: false, conditions: { ...form.defaults } });
  const byId = new Map(tests.map((t) => [String(t.id), t]));
  return (
    <>
      <Section
        title="Departments"
        hint="A department (the test's category) can be left to people, or judged by conditions of its own."
      >
        {form.departments.length > 0 && (
          <ul className="grid gap-2">
            {form.departments.map((d, i) => (
              <OverrideRow
                key={d.department}
                name={d.department}
                value={d}
                path={`document.departments.${i}`}
                errors={errors}
                onChange={(o) =>
                  change((f) => ({ ...f, departments: f.departments.map((x, j) => (j === i ? { ...x, ...o } : x)) }))
                }
                onRemove={() => change((f) => ({ ...f, departments: f.departments.filter((_, j) => j !== i) }))}
              />
            ))}
          </ul>
        )}
        <div className="flex flex-wrap items-end gap-2">
          <FormField label="Add department" className="w-full sm:w-64">
            <Select
              placeholder="Select department"
              options={categories
                .filter((c) => !form.departments.some((d) => d.department === c))
                .map((c) => ({ value: c, label: c }))}
              value={dept}
              onChange={(e) => setDept(e.target.value)}
            />
          </FormField>
          <Button
            variant="outline"
            disabled={!dept}
            onClick={() => {
              change((f) => ({ ...f, departments: [...f.departments, { department: dept, ...freshOverride() }] }));
              setDept('');
            }}
          >
            <Plus />
            Add Department
          </Button>
        </div>
      </Section>
      <Section
        title="Tests"
        hint={
          form.applies_to === 'listed'
            ? 'Only the tests listed here are judged; every other test waits for a person.'
            : 'A test listed here overrides its department and the defaults.'
        }
      >
        {form.tests.length > 0 && (
          <ul className="grid gap-2">
            {form.tests.map((t, i) => {
              const known = byId.get(t.test_id);
              return (
                <OverrideRow
                  key={t.test_id}
                  name={known ? known.name : `Test ${t.test_id}`}
                  unit={known?.unit}
                  value={t}
                  path={`document.tests.${i}`}
                  errors={errors}
                  onChange={(o) =>
                    change((f) => ({ ...f, tests: f.tests.map((x, j) => (j === i ? { ...x, ...o } : x)) }))
                  }
                  onRemove={() => change((f) => ({ ...f, tests: f.tests.filter((_, j) => j !== i) }))}
                />
              );
            })}
          </ul>
        )}
        <div className="flex flex-wrap items-end gap-2">
          <FormField label="Add test" className="w-full sm:w-64">
            <Select
              placeholder="Select test"
              options={tests
                .filter((t) => !form.tests.some((x) => x.test_id === String(t.id)))
                .map((t) => ({ value: String(t.id), label: `${t.name} (${t.code})` }))}
              value={test}
              onChange={(e) => setTest(e.target.value)}
            />
          </FormField>
          <Button
            variant="outline"
            disabled={!test}
            onClick={() => {
              change((f) => ({ ...f, tests: [...f.tests, { test_id: test, ...freshOverride() }] }));
              setTest('');
            }}
          >
            <Plus />
            Add Test
          </Button>
        </div>
      </Section>
    </>
  );
}

const OPS = ['>=', '<=', '>', '<'] as const;

/** Excluded patient groups and the consistency checks between two tests of one sample. */
export function ExtraSections({ form, change, errors, tests }: SectionProps) {
  const testOptions = tests.map((t) => ({ value: String(t.id), label: t.name }));
  return (
    <>
      <Section
        title="Excluded patient groups"
        hint="Results of patients younger than the age given always wait for a person (newborns, say)."
      >
        {form.excluded_groups.map((g, i) => (
          <div key={i} className="flex flex-wrap items-end gap-3">
            <FormField
              label={`Group ${i + 1}`}
              error={errors[`document.excluded_groups.${i}.label`]}
              className="w-full sm:w-56"
            >
              <Input
                value={g.label}
                onChange={(e) =>
                  change((f) => ({
                    ...f,
                    excluded_groups: f.excluded_groups.map((x, j) => (j === i ? { ...x, label: e.target.value } : x)),
                  }))
                }
              />
            </FormField>
            <FormField
              label={`Younger than (group ${i + 1})`}
              hint="days"
              error={errors[`document.excluded_groups.${i}.max_age_days`]}
              className="w-full sm:w-40"
            >
              <Input
                inputMode="numeric"
                value={g.max_age_days}
                onChange={(e) =>
                  change((f) => ({
                    ...f,
                    excluded_groups: f.excluded_groups.map((x, j) =>
                      j === i ? { ...x, max_age_days: e.target.value } : x,
                    ),
                  }))
                }
              />
            </FormField>
            <IconButton
              label={`Remove group ${g.label || i + 1}`}
              icon={<Trash2 />}
              onClick={() => change((f) => ({ ...f, excluded_groups: f.excluded_groups.filter((_, j) => j !== i) }))}
            />
          </div>
        ))}
        <div>
          <Button
            variant="outline"
            onClick={() =>
              change((f) => ({ ...f, excluded_groups: [...f.excluded_groups, { label: '', max_age_days: '' }] }))
            }
          >
            <Plus />
            Add Group
          </Button>
        </div>
      </Section>
      <Section
        title="Consistency checks"
        hint="Between two tests of the same sample (total bilirubin >= direct bilirubin): both wait until both have a value and the check holds."
      >
        {form.consistency.map((c, i) => {
          const at = (k: string) => errors[`document.consistency.${i}.${k}`];
          const set = (patch: Partial<RuleSetForm['consistency'][number]>) =>
            change((f) => ({ ...f, consistency: f.consistency.map((x, j) => (j === i ? { ...x, ...patch } : x)) }));
          return (
            <div
              key={i}
              className="grid gap-3 rounded-md border border-slate-200 p-3 sm:grid-cols-[1fr_1fr_6rem_1fr_auto] sm:items-end"
            >
              <FormField label={`Check ${i + 1}`} error={at('label')}>
                <Input
                  value={c.label}
                  onChange={(e) => set({ label: e.target.value })}
                  placeholder="e.g. Total >= direct"
                />
              </FormField>
              <FormField label={`First test (check ${i + 1})`} error={at('left_test_id')}>
                <Select
                  placeholder="Select test"
                  options={testOptions}
                  value={c.left_test_id}
                  onChange={(e) => set({ left_test_id: e.target.value })}
                />
              </FormField>
              <FormField label={`Operator (check ${i + 1})`}>
                <Select
                  options={OPS.map((o) => ({ value: o, label: o }))}
                  value={c.op}
                  onChange={(e) => set({ op: e.target.value as (typeof OPS)[number] })}
                />
              </FormField>
              <FormField label={`Second test (check ${i + 1})`} error={at('right_test_id')}>
                <Select
                  placeholder="Select test"
                  options={testOptions}
                  value={c.right_test_id}
                  onChange={(e) => set({ right_test_id: e.target.value })}
                />
              </FormField>
              <IconButton
                label={`Remove check ${c.label || i + 1}`}
                icon={<Trash2 />}
                onClick={() => change((f) => ({ ...f, consistency: f.consistency.filter((_, j) => j !== i) }))}
              />
            </div>
          );
        })}
        <div>
          <Button
            variant="outline"
            onClick={() =>
              change((f) => ({
                ...f,
                consistency: [...f.consistency, { label: '', left_test_id: '', op: '>=', right_test_id: '' }],
              }))
            }
          >
            <Plus />
            Add Check
          </Button>
        </div>
      </Section>
    </>
  );
}
