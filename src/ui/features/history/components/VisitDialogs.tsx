import type { UseFormRegisterReturn } from 'react-hook-form';
import { VISIT_TYPES, visitCreateSchema, visitUpdateSchema, type Visit } from '@shared/schemas/history';
import type { Patient } from '@shared/schemas/patients';
import { FormDialog, FormField, Input, Select, Textarea } from '@/components';
import { useDoctors } from '@/lib/bills';
import { applyServerErrors, fieldNamed, formError } from '@/lib/forms';
import { useDialogForm } from '@/lib/dialogForm';
import { humanize } from '@/lib/format';
import { useScheduleVisitMutation, useUpdateVisitMutation } from '../api';

export const VISIT_TYPE_OPTIONS = VISIT_TYPES.map((t) => ({ value: t, label: humanize(t) }));

const BOOK_FIELDS = ['doctor_id', 'visit_date', 'visit_time', 'visit_type', 'chief_complaint'] as const;
const UPDATE_FIELDS = ['status', 'chief_complaint', 'diagnosis', 'treatment', 'follow_up_date'] as const;

function todayLocal(): string {
  const n = new Date();
  return `${n.getFullYear()}-${String(n.getMonth() + 1).padStart(2, '0')}-${String(n.getDate()).padStart(2, '0')}`;
}

/** The doctors are asked for only while the dialog is open (its body is mounted then). */
function DoctorField({ error, ...select }: { error: string | undefined } & UseFormRegisterReturn) {
  const doctors = useDoctors();
  const options = (doctors.data ?? []).map((d) => ({
    value: String(d.id),
    label: `${d.first_name} ${d.last_name}${d.specialization ? ` (${d.specialization})` : ''}`,
  }));
  return (
    <FormField label="Doctor" required error={error ?? (doctors.isError ? 'Could not load the doctors' : undefined)}>
      <Select placeholder={doctors.isPending ? 'Loading doctors...' : 'Select doctor'} options={options} {...select} />
    </FormField>
  );
}

/** A new booking starts today, with no doctor chosen. */
const bookDefaults = () => ({
  doctor_id: '' as unknown as number,
  visit_date: todayLocal(),
  visit_time: '',
  visit_type: 'consultation' as const,
  chief_complaint: '',
});

/** Book Appointment (manage_appointments): a scheduled visit with a doctor. */
export function BookVisitDialog({
  patient,
  open,
  onOpenChange,
}: {
  patient: Patient;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const schedule = useScheduleVisitMutation(patient.id);
  const form = useDialogForm(visitCreateSchema, open, null, bookDefaults);
  const errors = form.formState.errors;
  const submit = form.handleSubmit((body) =>
    schedule.mutate(body, {
      onSuccess: () => onOpenChange(false),
      onError: (err) => applyServerErrors(err, form.setError, fieldNamed(BOOK_FIELDS)),
    }),
  );
  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title="Book Appointment"
      description={`${patient.first_name} ${patient.last_name} · ${patient.patient_id}`}
      busy={schedule.isPending}
      form={{ id: 'book-visit-form', onSubmit: submit, columns: 1 }}
      submitLabel="Book Appointment"
      busyLabel="Booking..."
      error={formError(form)}
    >
      <DoctorField error={errors.doctor_id?.message} {...form.register('doctor_id')} />
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField label="Date" required error={errors.visit_date?.message}>
          <Input type="date" min={todayLocal()} {...form.register('visit_date')} />
        </FormField>
        <FormField label="Time" error={errors.visit_time?.message}>
          <Input type="time" {...form.register('visit_time')} />
        </FormField>
      </div>
      <FormField label="Visit type" required error={errors.visit_type?.message}>
        <Select options={VISIT_TYPE_OPTIONS} {...form.register('visit_type')} />
      </FormField>
      <FormField label="Chief complaint" error={errors.chief_complaint?.message}>
        <Textarea rows={2} {...form.register('chief_complaint')} />
      </FormField>
    </FormDialog>
  );
}

/** The visit's findings as recorded; a scheduled visit's status is left unchosen (no change). */
const updateDefaults = (visit: Visit | null) => ({
  status:
    visit?.status === 'completed' || visit?.status === 'cancelled'
      ? (visit.status as 'completed' | 'cancelled')
      : undefined,
  chief_complaint: visit?.chief_complaint ?? '',
  diagnosis: visit?.diagnosis ?? '',
  treatment: visit?.treatment ?? '',
  follow_up_date: visit?.follow_up_date ?? '',
});

/** Update Visit (manage_appointments): complete or cancel it, and record diagnosis, treatment and follow-up. */
export function UpdateVisitDialog({
  patientId,
  visit,
  onOpenChange,
}: {
  patientId: number;
  visit: Visit | null;
  onOpenChange: (open: boolean) => void;
}) {
  const update = useUpdateVisitMutation(patientId);
  const form = useDialogForm(visitUpdateSchema, visit !== null, visit, updateDefaults);
  const errors = form.formState.errors;
  const submit = form.handleSubmit(
    (body) =>
      visit &&
      update.mutate(
        { id: visit.id, body },
        {
          onSuccess: () => onOpenChange(false),
          onError: (err) => applyServerErrors(err, form.setError, fieldNamed(UPDATE_FIELDS)),
        },
      ),
  );
  // A scheduled visit may be completed or cancelled; a completed one keeps its status (findings only).
  const statusOptions =
    visit?.status === 'scheduled'
      ? [
          { value: 'completed', label: 'Completed' },
          { value: 'cancelled', label: 'Cancelled' },
        ]
      : [{ value: 'completed', label: 'Completed' }];
  return (
    <FormDialog
      open={visit !== null}
      onOpenChange={onOpenChange}
      title="Update Visit"
      description={
        visit
          ? `${humanize(visit.visit_type)} on ${visit.visit_date}${visit.doctor_name ? ` with ${visit.doctor_name}` : ''}`
          : undefined
      }
      busy={update.isPending}
      form={{ id: 'update-visit-form', onSubmit: submit, columns: 1 }}
      submitLabel="Save"
      error={formError(form)}
    >
      <FormField label="Status" error={errors.status?.message}>
        <Select
          placeholder={visit?.status === 'scheduled' ? 'Scheduled (no change)' : undefined}
          options={statusOptions}
          {...form.register('status', { setValueAs: (v: string) => (v === '' ? undefined : v) })}
        />
      </FormField>
      <FormField label="Chief complaint" error={errors.chief_complaint?.message}>
        <Textarea rows={2} {...form.register('chief_complaint')} />
      </FormField>
      <FormField label="Diagnosis" error={errors.diagnosis?.message}>
        <Textarea rows={2} {...form.register('diagnosis')} />
      </FormField>
      <FormField label="Treatment" error={errors.treatment?.message}>
        <Textarea rows={2} {...form.register('treatment')} />
      </FormField>
      <FormField label="Follow-up date" error={errors.follow_up_date?.message}>
        <Input type="date" min={visit?.visit_date} {...form.register('follow_up_date')} />
      </FormField>
    </FormDialog>
  );
}
