import { useEffect, useRef } from 'react';
import { TestTube } from 'lucide-react';
import type { Patient } from '@shared/schemas/patients';
import { sampleCreateSchema, type Sample } from '@shared/schemas/samples';
import type { SamplePriority, SampleType } from '@shared/samples';
import { Checkbox, FormDialog, FormField, Select, Textarea } from '@/components';
import { notify } from '@/lib/notify';
import { useCurrentUser } from '@/lib/session';
import { usePatient } from '@/lib/patients/queries';
import { useCollectSampleMutation } from '../api';
import { PRIORITY_CHOICES, TYPE_CHOICES } from '../text';
import { PatientField } from './PatientField';
import { CollectorField, LocationField, fieldErrors } from './SampleFields';
import { TestsField } from './TestsField';
import { PendingTubes } from './PendingTubes';
import { useFieldForm } from '@/lib/forms';
import { bindText } from '@/lib/bindText';

export interface CollectSampleDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The saved sample (with its barcode): the page shows its barcode dialog next. */
  onCollected: (sample: Sample) => void;
  /** A scanned pending tube: the dialog opens on its patient with that tube ticked. */
  tube?: Sample | null;
}

interface Draft {
  patient: Patient | null;
  sample_type: string;
  test_ids: number[];
  collector_id: string;
  location: string;
  priority: SamplePriority;
  notes: string;
  later: boolean;
}

const blank = (collector: string): Draft => ({
  patient: null,
  sample_type: '',
  test_ids: [],
  collector_id: collector,
  location: '',
  priority: 'normal',
  notes: '',
  later: false,
});

/** Collect Sample (spec 001, sections 3 and 5): patient and sample type required, the rest optional. */
export function CollectSampleDialog({ open, onOpenChange, onCollected, tube = null }: CollectSampleDialogProps) {
  const me = useCurrentUser();
  const {
    values: d,
    setValues: setD,
    errors,
    setErrors,
    showErrors,
  } = useFieldForm(() => blank(String(me.id)), { resetFor: open ? 'new' : null });
  // The scanned tube's patient is filled in once, when it loads; Change still picks another.
  const scanned = usePatient(open && tube ? tube.patient_id : null);
  const filled = useRef(false);
  useEffect(() => {
    if (!open || !scanned.data || filled.current) return;
    filled.current = true;
    setD((prev) => ({ ...prev, patient: scanned.data }));
  }, [open, scanned.data, setD]);
  const collect = useCollectSampleMutation();
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => {
    setD((prev) => ({ ...prev, [key]: value }));
    setErrors((prev) => ({ ...prev, [key === 'patient' ? 'patient_id' : key]: undefined }));
  };
  const text = bindText(d, set);

  const submit = () => {
    const missing: Record<string, string> = {};
    if (!d.patient) missing.patient_id = 'Choose the patient';
    if (!d.sample_type) missing.sample_type = 'Choose the sample type';
    if (Object.keys(missing).length) {
      setErrors(missing);
      notify.error('Please fill in all required fields');
      return;
    }
    const body = {
      patient_id: d.patient!.id,
      sample_type: d.sample_type as SampleType,
      collector_id: d.collector_id ? Number(d.collector_id) : null,
      location: d.location || null,
      notes: d.notes.trim() || null,
      priority: d.priority,
      test_ids: d.test_ids,
      status: d.later ? ('pending' as const) : ('collected' as const),
    };
    // The server validates with the same schema; checking here names the field before a round trip.
    const parsed = sampleCreateSchema.safeParse(body);
    if (!parsed.success) {
      setErrors(fieldErrors(parsed.error.issues.map((i) => ({ path: String(i.path[0] ?? ''), message: i.message }))));
      notify.error('Please fill in all required fields');
      return;
    }
    collect.mutate(body, {
      onSuccess: (sample) => {
        setD(() => blank(String(me.id)));
        setErrors({});
        onCollected(sample);
      },
      onError: showErrors,
    });
  };

  return (
    <FormDialog
      open={open}
      onOpenChange={(o) => {
        // The next opening fills in the scanned tube's patient again.
        if (!o) filled.current = false;
        onOpenChange(o);
      }}
      title="Collect Sample"
      description="Record a sample taken from a patient; it gets its sample ID and barcode when saved."
      size="lg"
      busy={collect.isPending}
      onSubmit={submit}
      submitLabel={
        <>
          <TestTube />
          {d.later ? 'Register Sample' : 'Collect Sample'}
        </>
      }
      error={errors.form}
    >
      {/* No <form>: Enter in the patient search or the test filter must not save the sample. */}
      <div className="grid gap-4">
        {tube && !d.patient && scanned.isPending ? (
          <div className="skeleton h-14" aria-label="Loading the patient of the scanned tube" />
        ) : (
          <PatientField value={d.patient} onChange={(p) => set('patient', p)} error={errors.patient_id || undefined} />
        )}
        <div className="grid gap-4 sm:grid-cols-2">
          <CollectorField
            value={d.collector_id}
            onChange={(v) => set('collector_id', v)}
            error={errors.collector_id || undefined}
          />
          <LocationField value={d.location} onChange={(v) => set('location', v)} error={errors.location || undefined} />
        </div>
        {d.patient && (
          <PendingTubes
            key={`${d.patient.id}-${tube?.id ?? 0}`}
            patientId={d.patient.id}
            focusId={tube && tube.patient_id === d.patient.id ? tube.id : null}
            collectorId={d.collector_id ? Number(d.collector_id) : null}
            location={d.location || null}
            onCollected={(samples) => {
              setD(() => blank(String(me.id)));
              setErrors({});
              if (samples[0]) onCollected(samples[0]);
            }}
          />
        )}
        <div className="grid gap-4 sm:grid-cols-2">
          <FormField label="Sample Type" required error={errors.sample_type || undefined}>
            <Select {...text('sample_type')} options={TYPE_CHOICES} placeholder="Select sample type" />
          </FormField>
          <FormField label="Priority" error={errors.priority || undefined}>
            <Select {...text('priority')} options={PRIORITY_CHOICES} />
          </FormField>
        </div>
        <TestsField
          sampleType={d.sample_type}
          value={d.test_ids}
          onChange={(ids) => set('test_ids', ids)}
          error={errors.test_ids || undefined}
        />
        <FormField label="Notes" error={errors.notes || undefined}>
          <Textarea {...text('notes')} rows={2} placeholder="e.g. fasting 12 h, left arm" />
        </FormField>
        <Checkbox
          label="Not drawn yet: register as pending"
          hint="The sample gets its barcode when it is marked collected."
          checked={d.later}
          onChange={(e) => set('later', e.target.checked)}
        />
      </div>
    </FormDialog>
  );
}
