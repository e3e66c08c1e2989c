import { useState } from 'react';
import type { Sample } from '@shared/schemas/samples';
import { FormDialog, FormField, Textarea } from '@/components';
import { fieldNamed, serverErrors } from '@/lib/forms';
import { useSampleStatusMutation } from '../api';
import { submitWith } from '@/lib/submitWith';

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
  const reject = () => {
    if (!reason.trim()) {
      setError('Give the reason for rejecting the sample');
      return;
    }
    status.mutate(
      { id: sample.id, status: 'rejected', notes: reason.trim() },
      {
        onSuccess: () => onOpenChange(false),
        onError: (err) => {
          const { fields, form } = serverErrors(err, fieldNamed(['notes'] as const));
          setError(fields.notes ?? form);
        },
      },
    );
  };

  return (
    <FormDialog
      open
      onOpenChange={onOpenChange}
      title="Reject Sample"
      description={`Sample ${sample.sample_id} of ${sample.first_name} ${sample.last_name} will be closed as rejected. This cannot be undone.`}
      size="sm"
      busy={status.isPending}
      form={{ id: 'reject-sample-form', columns: 1, onSubmit: submitWith(reject) }}
      submitVariant="destructive"
      submitLabel="Reject Sample"
      busyLabel="Rejecting..."
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
    </FormDialog>
  );
}
