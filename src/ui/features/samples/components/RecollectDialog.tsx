import { useState } from 'react';
import { RotateCcw } from 'lucide-react';
import type { Sample } from '@shared/schemas/samples';
import { tubeLabel } from '@shared/tubes';
import { Button, Dialog, FormField, Textarea } from '@/components';
import { useRecollectMutation } from '../api';

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
  const close = (o: boolean) => !recollect.isPending && onOpenChange(o);
  const submit = () =>
    recollect.mutate({ id: sample.id, notes: notes.trim() || null }, { onSuccess: (fresh) => onDone(fresh) });
  const tube = tubeLabel(sample.container) ?? `${sample.sample_type.toLowerCase()} tube`;
  const tests = `${sample.tests.length} ${sample.tests.length === 1 ? 'test' : 'tests'}`;
  return (
    <Dialog
      open
      onOpenChange={close}
      title={`Recollect ${sample.sample_id}`}
      description={`A new ${tube} with a new barcode for ${sample.first_name} ${sample.last_name}, for the same ${tests}. It waits to be collected; nothing is charged again.`}
      size="sm"
      footer={
        <>
          <Button variant="outline" onClick={() => close(false)} disabled={recollect.isPending}>
            Cancel
          </Button>
          <Button onClick={submit} loading={recollect.isPending} loadingText="Ordering...">
            <RotateCcw />
            Recollect
          </Button>
        </>
      }
    >
      <form
        noValidate
        className="grid gap-3"
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        {sample.rejection_reason && (
          <p className="rounded-md border border-red-200 bg-red-50 p-2.5 text-[13px] text-red-900">
            <span className="font-semibold">Rejected:</span> {sample.rejection_reason}
          </p>
        )}
        <p className="text-[13px] text-slate-700">{sample.tests.map((t) => t.name).join(', ') || 'No tests'}</p>
        <FormField label="Notes" hint="Kept on the new sample; e.g. when the patient will come back.">
          <Textarea value={notes} onChange={(e) => setNotes(e.target.value)} rows={2} maxLength={1000} />
        </FormField>
      </form>
    </Dialog>
  );
}
