import type { RuleSet } from '@shared/schemas/autoverify';
import { FormDialog, FormField, Input, Select, Textarea } from '@/components';
import { useFieldForm } from '@/lib/forms';
import { bindText } from '@/lib/bindText';
import { useCatalogueTests, useCreateRuleSetMutation, useUpdateRuleSetMutation, versionName } from '../api';
import { ruleSetBody, ruleSetForm, type RuleSetForm } from '../ruleForm';
import { ConditionsFields } from './ConditionsFields';
import { ExtraSections, OverrideSections } from './RuleSections';

export interface RuleSetEditorDialogProps {
  /** 'new': a draft from the lab's default rules; a draft rule set: edit it. */
  subject: RuleSet | 'new' | null;
  onOpenChange: (open: boolean) => void;
}

/**
 * The rule-set editor: the defaults every covered test is judged by, per-department and per-test
 * rules, excluded patient groups and consistency checks. POST or PUT /api/autoverification/rule-sets.
 */
export function RuleSetEditorDialog({ subject, onOpenChange }: RuleSetEditorDialogProps) {
  const open = subject !== null;
  const editing = subject !== null && subject !== 'new' ? subject : null;
  const create = useCreateRuleSetMutation();
  const update = useUpdateRuleSetMutation();
  const tests = useCatalogueTests(open);
  const form = useFieldForm<RuleSetForm>(() => ruleSetForm(editing), { resetFor: subject });
  const errors = form.errors;
  const change = (fn: (f: RuleSetForm) => RuleSetForm) => form.setValues(fn);

  const save = () => {
    const departmentOf = (id: number) => tests.data?.find((t) => t.id === id)?.category ?? undefined;
    const parsed = ruleSetBody(form.values, departmentOf);
    if (!parsed.ok) {
      form.setErrors({ ...parsed.errors, form: 'Some fields need attention: see the messages under them.' });
      return;
    }
    form.setErrors({});
    const done = { onSuccess: () => onOpenChange(false), onError: form.showErrors };
    if (editing) update.mutate({ id: editing.id, body: parsed.body }, done);
    else create.mutate(parsed.body, done);
  };

  const v = form.values;
  const text = bindText(v, form.set);
  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      size="xl"
      title={editing ? `Edit Rule Set: ${versionName(editing)}` : 'New Rule Set'}
      description="A result is released without a person only if every condition that applies to its test holds. Nothing runs until the rule set is approved and activated."
      busy={create.isPending || update.isPending}
      onSubmit={save}
      submitLabel={editing ? 'Save Draft' : 'Create Draft'}
      error={errors.form}
    >
      <div className="grid gap-5">
        <div className="grid gap-4 sm:grid-cols-2">
          <FormField label="Name" required error={errors.name}>
            <Input {...text('name')} placeholder="e.g. Chemistry" />
          </FormField>
          <FormField label="Applies to" error={errors['document.applies_to']}>
            <Select
              options={[
                { value: 'all', label: 'Every test (but those switched off below)' },
                { value: 'listed', label: 'Only the tests listed below' },
              ]}
              {...text('applies_to')}
            />
          </FormField>
          <FormField label="Notes" error={errors.notes} className="sm:col-span-2">
            <Textarea rows={2} {...text('notes')} placeholder="Why these rules, what the validation study showed" />
          </FormField>
        </div>
        <section aria-label="Default conditions" className="grid gap-3 border-t border-slate-100 pt-4">
          <div>
            <h3 className="text-sm font-semibold text-slate-900">Default conditions</h3>
            <p className="text-[13px] text-slate-600">
              Every covered test, unless its department or the test itself has conditions of its own.
            </p>
          </div>
          <ConditionsFields
            value={v.defaults}
            onChange={(c) => form.set('defaults', c)}
            path="document.defaults"
            errors={errors}
          />
        </section>
        <OverrideSections form={v} change={change} errors={errors} tests={tests.data ?? []} />
        <ExtraSections form={v} change={change} errors={errors} tests={tests.data ?? []} />
      </div>
    </FormDialog>
  );
}
