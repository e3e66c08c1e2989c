import { useState } from 'react';
import { RotateCcw } from 'lucide-react';
import type { Sample } from '@shared/schemas/samples';
import { tubeLabel } from '@shared/tubes';
import { FormDialog, FormField, Textarea } from '@/components';
import { fieldNamed, serverErrors } from '@/lib/forms';
import { useRecollectMutation } from '../api';
import { submitWith } from '@/lib/submitWith';

export interface RecollectDialogProps {
  sample: Sample | null;
  onOpenChange: (open: boolean) => void;
  /** The new tube (pending, with its barcode): the page shows its label next. */
  onDone: (fresh: Sample) => void;
}

/** Recollect: a new tube for the same tests of a rejected sample, on the same bill at no new charge. */
export function RecollectDialog({ sample, onOpenChange, onDone }: RecollectDialogProps) {
  return sample ? <RecollectForm key={sample.id} sample={sample} onOpenChange={onOpenChange} onDone={onDone} /> : null;
}

function RecollectForm({ sample, onOpenChange, onDone }: RecollectDialogProps & { sample: Sample }) {
  const recollect = useRecollectMutation();
  const [notes, setNotes] = useState('');
  const [error, setError] = useState<string>();
  const submit = () =>
    recollect.mutate(
      { id: sample.id, notes: notes.trim() || null },
      {
        onSuccess: (fresh) => onDone(fresh),
        onError: (err) => {
          const { fields, form } = serverErrors(err, fieldNamed(['notes'] as const));
          setError(fields.notes ?? form);
        },
      },
    );
  const tube = tubeLabel(sample.container) ?? `${sample.sample_type.toLowerCase()} tube`;
  const tests = `${sample.tests.length} ${sample.tests.length === 1 ? 'test' : 'tests'}`;
  return (
    <FormDialog
      open
      onOpenChange={onOpenChange}
      title={`Recollect ${sample.sample_id}`}
      description={`A new ${tube} with a new barcode for ${sample.first_name} ${sample.last_name}, for the same ${tests}. It waits to be collected; nothing is charged again.`}
      size="sm"
      busy={recollect.isPending}
      form={{ id: 'recollect-form', columns: 1, onSubmit: submitWith(submit) }}
      submitLabel={
        <>
          <RotateCcw />
          Recollect
        </>
      }
      busyLabel="Ordering..."
    >
      {sample.rejection_reason && (
        <p className="rounded-md border border-red-200 bg-red-50 p-2.5 text-[13px] text-red-900">
          <span className="font-semibold">Rejected:</span> {sample.rejection_reason}
        </p>
      )}
      <p className="text-[13px] text-slate-700">{sample.tests.map((t) => t.name).join(', ') || 'No tests'}</p>
      <FormField label="Notes" error={error} hint="Kept on the new sample; e.g. when the patient will come back.">
        <Textarea value={notes} onChange={(e) => setNotes(e.target.value)} rows={2} maxLength={1000} />
      </FormField>
    </FormDialog>
  );
}
