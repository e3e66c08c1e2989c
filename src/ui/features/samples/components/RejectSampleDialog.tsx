import { useState } from 'react';
import type { Sample } from '@shared/schemas/samples';
import { Button, Dialog, FormField, Textarea } from '@/components';
import { useSampleStatusMutation } from '../api';

export interface RejectSampleDialogProps {
  sample: Sample | null;
  onOpenChange: (open: boolean) => void;
}

/** Rejecting closes the sample for good, so it asks for the reason (kept as the rejection reason and in custody). */
export function RejectSampleDialog({ sample, onOpenChange }: RejectSampleDialogProps) {
  return sample ? <RejectForm key={sample.id} sample={sample} onOpenChange={onOpenChange} /> : null;
}

function RejectForm({ sample, onOpenChange }: { sample: Sample; onOpenChange: (open: boolean) => void }) {
  const status = useSampleStatusMutation();
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string>();
  const close = (o: boolean) => !status.isPending && onOpenChange(o);

  const reject = () => {
    if (!reason.trim()) {
      setError('Give the reason for rejecting the sample');
      return;
    }
    status.mutate(
      { id: sample.id, status: 'rejected', notes: reason.trim() },
      { onSuccess: () => onOpenChange(false) },
    );
  };

  return (
    <Dialog
      open
      onOpenChange={close}
      title="Reject Sample"
      description={`Sample ${sample.sample_id} of ${sample.first_name} ${sample.last_name} will be closed as rejected. This cannot be undone.`}
      size="sm"
      footer={
        <>
          <Button variant="outline" onClick={() => close(false)} disabled={status.isPending}>
            Cancel
          </Button>
          <Button variant="destructive" onClick={reject} loading={status.isPending} loadingText="Rejecting...">
            Reject Sample
          </Button>
        </>
      }
    >
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          reject();
        }}
      >
        <FormField label="Reason" required error={error}>
          <Textarea
            autoFocus
            value={reason}
            onChange={(e) => {
              setReason(e.target.value);
              setError(undefined);
            }}
            rows={3}
            placeholder="e.g. Haemolysed, clotted, wrong tube, unlabelled"
            maxLength={1000}
          />
        </FormField>
      </form>
    </Dialog>
  );
}
