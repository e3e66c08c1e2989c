import type { Unmatched } from '@shared/schemas/connections';
import { FormDialog, FormField, Input, Select, Textarea } from '@/components';
import { useFieldForm } from '@/lib/forms';
import { useCatalogueList } from '@/lib/catalogue';
import { useAssignUnmatched, useDiscardUnmatched } from '../interfaces-api';

/** Assign a value no sample or test took to a sample's ordered test. */
export function AssignDialog({ row, onClose }: { row: Unmatched | null; onClose: () => void }) {
  const assign = useAssignUnmatched();
  const tests = useCatalogueList('test', {}, { enabled: row !== null });
  // Each row opens with the sample and test the server guessed.
  const { values, set, errors, showErrors } = useFieldForm(
    () => ({ sample: row?.sample_code ?? '', test: row?.test_id ? String(row.test_id) : '' }),
    { resetFor: row },
  );
  const { sample, test } = values;
  const chosen = (tests.data ?? []).find((t) => String(t.id) === test);
  // A value in another unit is refused unless the code map converts it: say so before it is tried.
  const unitDiffers = Boolean(
    row?.unit && chosen?.unit && row.unit.trim().toLowerCase() !== chosen.unit.trim().toLowerCase(),
  );
  const submit = () => {
    if (!row) return;
    assign.mutate(
      { id: row.id, body: { sample, test_id: Number(test) || (test as never) } },
      { onSuccess: onClose, onError: showErrors },
    );
  };
  return (
    <FormDialog
      open={row !== null}
      onOpenChange={(o) => !o && onClose()}
      title="Assign Unmatched Result"
      description={
        row
          ? `${row.code} = ${row.value} ${row.unit ?? ''} from ${row.connection_name}, specimen ${row.specimen_id || '(none)'}`
          : ''
      }
      busy={assign.isPending}
      onCancel={onClose}
      onSubmit={submit}
      submitLabel="Enter Result"
      busyLabel="Entering..."
      error={errors.form}
    >
      <div className="grid gap-4">
        <FormField
          label="Sample (barcode or sample ID)"
          required
          error={errors.sample}
          hint={
            row?.sample_code
              ? `The machine's specimen ID ${row.specimen_id} is this sample.`
              : 'No sample has this specimen ID: enter the barcode or sample ID of the tube it came from.'
          }
        >
          <Input value={sample} onChange={(e) => set('sample', e.target.value)} />
        </FormField>
        <FormField
          label="Test"
          required
          error={errors.test_id}
          hint={
            unitDiffers
              ? `The machine sent ${row?.unit}; ${chosen?.name} is in ${chosen?.unit}. It can be assigned once the code map converts it (the code with its factor).`
              : 'It must be ordered on the sample.'
          }
        >
          <Select
            value={test}
            onChange={(e) => set('test', e.target.value)}
            placeholder="Select test"
            options={(tests.data ?? []).map((t) => ({ value: String(t.id), label: `${t.name} (${t.code})` }))}
          />
        </FormField>
      </div>
    </FormDialog>
  );
}

/** Discard a value the lab will not enter, with the reason kept. */
export function DiscardDialog({ row, onClose }: { row: Unmatched | null; onClose: () => void }) {
  const discard = useDiscardUnmatched();
  const { values, set, errors, showErrors } = useFieldForm(() => ({ reason: '' }), { resetFor: row });
  return (
    <FormDialog
      open={row !== null}
      onOpenChange={(o) => !o && onClose()}
      title="Discard Unmatched Result"
      description={row ? `${row.code} = ${row.value} ${row.unit ?? ''}, specimen ${row.specimen_id || '(none)'}` : ''}
      busy={discard.isPending}
      onCancel={onClose}
      onSubmit={() =>
        row && discard.mutate({ id: row.id, reason: values.reason }, { onSuccess: onClose, onError: showErrors })
      }
      submitVariant="destructive"
      submitLabel="Discard"
      busyLabel="Discarding..."
    >
      {/* The reason is the only field: whatever the server says goes under it. */}
      <FormField label="Reason" required error={Object.values(errors)[0]}>
        <Textarea value={values.reason} onChange={(e) => set('reason', e.target.value)} rows={3} />
      </FormField>
    </FormDialog>
  );
}
