import type { RuleSet } from '@shared/schemas/autoverify';
import { FormDialog, FormField, Input, Select } from '@/components';
import { useFieldForm } from '@/lib/forms';
import { bindText } from '@/lib/bindText';
import { useActivateRuleSetMutation, versionName } from '../api';

interface ActivateForm {
  mode: 'shadow' | 'live';
  when: 'now' | 'later';
  /** datetime-local, in the browser's zone (the lab's). */
  from: string;
}

const MODE_OPTIONS = [
  { value: 'shadow', label: 'Shadow: judge, release nothing' },
  { value: 'live', label: 'Live: release what passes' },
];
const WHEN_OPTIONS = [
  { value: 'now', label: 'Now (the next result)' },
  { value: 'later', label: 'From a date and time' },
];

const initial = (): ActivateForm => ({ mode: 'shadow', when: 'now', from: '' });

export interface ActivateDialogProps {
  ruleSet: RuleSet | null;
  onOpenChange: (open: boolean) => void;
  /** What is in force now, for the sentence saying what changes. */
  inForce: string | null;
}

/** Put an approved version to work in shadow or live mode, now or from a date, saying what that does. */
export function ActivateDialog({ ruleSet, onOpenChange, inForce }: ActivateDialogProps) {
  const activate = useActivateRuleSetMutation();
  const form = useFieldForm(initial, { resetFor: ruleSet, clearOnEdit: true });
  const v = form.values;
  const text = bindText(v, form.set);
  const save = () => {
    if (!ruleSet) return;
    let active_from: string | undefined;
    if (v.when === 'later') {
      const at = new Date(v.from);
      if (v.from === '' || Number.isNaN(at.getTime())) {
        form.setErrors({ active_from: 'Choose the date and time it starts' });
        return;
      }
      active_from = at.toISOString();
    }
    activate.mutate(
      { id: ruleSet.id, body: { mode: v.mode, ...(active_from ? { active_from } : {}) } },
      { onSuccess: () => onOpenChange(false), onError: form.showErrors },
    );
  };
  const name = ruleSet ? versionName(ruleSet) : '';
  const effect =
    v.mode === 'live'
      ? `${name} will release every result that passes all its rules without a person, and hold the rest with their reasons.`
      : `${name} will judge every result and keep its decision, but release nothing: the Shadow Comparison shows what it would have done.`;
  const replaces = inForce ? ` It replaces ${inForce}.` : '';
  return (
    <FormDialog
      open={ruleSet !== null}
      onOpenChange={onOpenChange}
      title={`Activate ${name}`}
      description={`${effect}${replaces}`}
      busy={activate.isPending}
      onSubmit={save}
      submitLabel={v.mode === 'live' ? 'Activate Live' : 'Run in Shadow'}
      busyLabel="Activating..."
      error={form.errors.form}
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField label="Mode" error={form.errors.mode}>
          <Select options={MODE_OPTIONS} {...text('mode')} />
        </FormField>
        <FormField label="Starts">
          <Select options={WHEN_OPTIONS} {...text('when')} />
        </FormField>
        {v.when === 'later' && (
          <FormField label="Active from" required error={form.errors.active_from} className="sm:col-span-2">
            <Input type="datetime-local" {...text('from')} />
          </FormField>
        )}
      </div>
    </FormDialog>
  );
}
