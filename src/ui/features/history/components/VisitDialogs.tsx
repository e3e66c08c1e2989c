import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import { VISIT_TYPES, visitCreateSchema, visitUpdateSchema, type Visit } from '@shared/schemas/history';
import type { Patient } from '@shared/schemas/patients';
import { Button, Dialog, FormField, Input, Select, Textarea } from '@/components';
import { useDoctors } from '@/lib/bills';
import { applyServerErrors } from '@/lib/forms';
import { humanize } from '@/lib/format';
import { useScheduleVisitMutation, useUpdateVisitMutation } from '../api';

export const VISIT_TYPE_OPTIONS = VISIT_TYPES.map((t) => ({ value: t, label: humanize(t) }));

type CreateIn = z.input<typeof visitCreateSchema>;
type CreateOut = z.output<typeof visitCreateSchema>;

function todayLocal(): string {
  const n = new Date();
  return `${n.getFullYear()}-${String(n.getMonth() + 1).padStart(2, '0')}-${String(n.getDate()).padStart(2, '0')}`;
}

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
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="Book Appointment"
      description={`${patient.first_name} ${patient.last_name} · ${patient.patient_id}`}
    >
      {open && <BookVisitForm patient={patient} onDone={() => onOpenChange(false)} />}
    </Dialog>
  );
}

function BookVisitForm({ patient, onDone }: { patient: Patient; onDone: () => void }) {
  const doctors = useDoctors();
  const schedule = useScheduleVisitMutation(patient.id);
  const form = useForm<CreateIn, unknown, CreateOut>({
    resolver: zodResolver(visitCreateSchema),
    defaultValues: {
      doctor_id: '' as unknown as number,
      visit_date: todayLocal(),
      visit_time: '',
      visit_type: 'consultation',
      chief_complaint: '',
    },
    mode: 'onBlur',
  });
  const errors = form.formState.errors;
  const submit = form.handleSubmit((body) =>
    schedule.mutate(body, {
      onSuccess: onDone,
      onError: (err) =>
        applyServerErrors(err, form.setError, (p) =>
          (['doctor_id', 'visit_date', 'visit_time', 'visit_type', 'chief_complaint'] as const).find((k) => k === p),
        ),
    }),
  );
  const doctorOptions = (doctors.data ?? []).map((d) => ({
    value: String(d.id),
    label: `${d.first_name} ${d.last_name}${d.specialization ? ` (${d.specialization})` : ''}`,
  }));
  return (
    <form onSubmit={submit} noValidate className="grid gap-4">
      <FormField
        label="Doctor"
        required
        error={errors.doctor_id?.message ?? (doctors.isError ? 'Could not load the doctors' : undefined)}
      >
        <Select
          placeholder={doctors.isPending ? 'Loading doctors...' : 'Select doctor'}
          options={doctorOptions}
          {...form.register('doctor_id')}
        />
      </FormField>
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
      <div className="flex justify-end gap-2">
        <Button variant="outline" onClick={onDone}>
          Cancel
        </Button>
        <Button type="submit" loading={schedule.isPending} loadingText="Booking...">
          Book Appointment
        </Button>
      </div>
    </form>
  );
}

type UpdateIn = z.input<typeof visitUpdateSchema>;
type UpdateOut = z.output<typeof visitUpdateSchema>;

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
  return (
    <Dialog
      open={visit !== null}
      onOpenChange={onOpenChange}
      title="Update Visit"
      description={
        visit
          ? `${humanize(visit.visit_type)} on ${visit.visit_date}${visit.doctor_name ? ` with ${visit.doctor_name}` : ''}`
          : undefined
      }
    >
      {visit && (
        <UpdateVisitForm key={visit.id} patientId={patientId} visit={visit} onDone={() => onOpenChange(false)} />
      )}
    </Dialog>
  );
}

function UpdateVisitForm({ patientId, visit, onDone }: { patientId: number; visit: Visit; onDone: () => void }) {
  const update = useUpdateVisitMutation(patientId);
  const form = useForm<UpdateIn, unknown, UpdateOut>({
    resolver: zodResolver(visitUpdateSchema),
    defaultValues: {
      status: visit.status === 'scheduled' ? undefined : (visit.status as 'completed' | 'cancelled'),
      chief_complaint: visit.chief_complaint ?? '',
      diagnosis: visit.diagnosis ?? '',
      treatment: visit.treatment ?? '',
      follow_up_date: visit.follow_up_date ?? '',
    },
    mode: 'onBlur',
  });
  const errors = form.formState.errors;
  const submit = form.handleSubmit((body) =>
    update.mutate(
      { id: visit.id, body },
      {
        onSuccess: onDone,
        onError: (err) =>
          applyServerErrors(err, form.setError, (p) =>
            (['status', 'chief_complaint', 'diagnosis', 'treatment', 'follow_up_date'] as const).find((k) => k === p),
          ),
      },
    ),
  );
  // A scheduled visit may be completed or cancelled; a completed one keeps its status (findings only).
  const statusOptions =
    visit.status === 'scheduled'
      ? [
          { value: 'completed', label: 'Completed' },
          { value: 'cancelled', label: 'Cancelled' },
        ]
      : [{ value: 'completed', label: 'Completed' }];
  return (
    <form onSubmit={submit} noValidate className="grid gap-4">
      <FormField label="Status" error={errors.status?.message}>
        <Select
          placeholder={visit.status === 'scheduled' ? 'Scheduled (no change)' : undefined}
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
        <Input type="date" min={visit.visit_date} {...form.register('follow_up_date')} />
      </FormField>
      <div className="flex justify-end gap-2">
        <Button variant="outline" onClick={onDone}>
          Cancel
        </Button>
        <Button type="submit" loading={update.isPending} loadingText="Saving...">
          Save
        </Button>
      </div>
    </form>
  );
}
