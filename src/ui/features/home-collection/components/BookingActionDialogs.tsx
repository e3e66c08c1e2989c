import type { z } from 'zod';
import { useWatch } from 'react-hook-form';
import {
  assignSchema,
  reasonSchema,
  rescheduleSchema,
  unlockSchema,
  type Booking,
} from '@shared/schemas/home-collection';
import { Checkbox, FormDialog, FormField, Input, Select } from '@/components';
import { useDialogForm } from '@/lib/dialogForm';
import { formError, topField } from '@/lib/forms';
import { dialogSave } from '@/lib/dialogSave';
import {
  useAssignMutation,
  useCloseBookingMutation,
  usePhlebotomists,
  useRescheduleMutation,
  useSlots,
  useUnlockMutation,
} from '../api';

interface Props {
  booking: Booking | null;
  onOpenChange: (open: boolean) => void;
}

const rescheduleDefaults = (b: Booking | null): z.input<typeof rescheduleSchema> => ({
  slot_date: b?.slot_date ?? '',
  slot_time: '',
  reason: '',
});

/** Reschedule: a new date and slot, with the reason. */
export function RescheduleDialog({ booking, onOpenChange }: Props) {
  const open = booking !== null;
  const mutation = useRescheduleMutation();
  const form = useDialogForm(rescheduleSchema, open, booking, rescheduleDefaults);
  const date = useWatch({ control: form.control, name: 'slot_date' }) as string;
  const slots = useSlots(date, open);
  const { errors } = form.formState;
  const onSubmit = form.handleSubmit((body) =>
    mutation.mutate(
      { id: booking!.id, body },
      dialogSave(form, onOpenChange, topField(['slot_date', 'slot_time', 'reason'] as const), {
        SLOT_FULL: 'slot_time',
        PHLEBOTOMIST_FULL: 'slot_time',
      }),
    ),
  );
  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title={`Reschedule ${booking?.booking_number ?? ''}`}
      description={booking ? `${booking.patient_name}, now ${booking.slot_date} at ${booking.slot_time}` : undefined}
      busy={mutation.isPending}
      form={{ id: 'reschedule-visit-form', onSubmit, columns: 1 }}
      submitLabel="Reschedule"
      error={formError(form)}
    >
      <FormField label="Date" required error={errors.slot_date?.message}>
        <Input type="date" {...form.register('slot_date')} />
      </FormField>
      <FormField label="Slot" required error={errors.slot_time?.message}>
        <Select
          placeholder={slots.isPending ? 'Loading slots...' : 'Select slot'}
          options={(slots.data ?? []).map((s) => ({
            value: s.time,
            label: s.available > 0 ? `${s.time} (${s.available} free)` : `${s.time} (full)`,
            disabled: s.available === 0,
          }))}
          {...form.register('slot_time')}
        />
      </FormField>
      <FormField label="Reason" required error={errors.reason?.message}>
        <Input autoComplete="off" placeholder="e.g. Patient travelling" {...form.register('reason')} />
      </FormField>
    </FormDialog>
  );
}

const reasonDefaults = (): z.input<typeof reasonSchema> => ({ reason: '' });

/** Cancel Visit or Record No-show: the reason, then the visit is closed and its place freed. */
export function CloseVisitDialog({ booking, onOpenChange, kind }: Props & { kind: 'cancel' | 'no_show' }) {
  const open = booking !== null;
  const mutation = useCloseBookingMutation();
  const form = useDialogForm(reasonSchema, open, booking, reasonDefaults);
  const onSubmit = form.handleSubmit(({ reason }) =>
    mutation.mutate({ id: booking!.id, kind, reason }, dialogSave(form, onOpenChange, topField(['reason'] as const))),
  );
  const cancel = kind === 'cancel';
  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title={`${cancel ? 'Cancel Visit' : 'Record No-show'} ${booking?.booking_number ?? ''}`}
      description={
        booking
          ? `${booking.patient_name}, ${booking.slot_date} at ${booking.slot_time}.${cancel ? ' The patient is told by SMS.' : ''}`
          : undefined
      }
      busy={mutation.isPending}
      form={{ id: `${kind}-visit-form`, onSubmit, columns: 1 }}
      submitLabel={cancel ? 'Cancel Visit' : 'Record No-show'}
      submitVariant="destructive"
      cancelLabel="Keep Visit"
      error={formError(form)}
    >
      <FormField label="Reason" required error={form.formState.errors.reason?.message}>
        <Input
          autoComplete="off"
          placeholder={cancel ? 'e.g. Patient unwell' : 'e.g. Door locked, phone switched off'}
          {...form.register('reason')}
        />
      </FormField>
    </FormDialog>
  );
}

const assignDefaults = (b: Booking | null): z.input<typeof assignSchema> => ({
  phlebotomist_id: b?.phlebotomist_id ?? ('' as unknown as number),
});

/** Assign or reassign the phlebotomist; the patient is told the name. */
export function AssignDialog({ booking, onOpenChange }: Props) {
  const open = booking !== null;
  const mutation = useAssignMutation();
  const people = usePhlebotomists(open);
  const form = useDialogForm(assignSchema, open, booking, assignDefaults);
  const onSubmit = form.handleSubmit(({ phlebotomist_id }) =>
    mutation.mutate(
      { id: booking!.id, phlebotomist_id },
      dialogSave(form, onOpenChange, topField(['phlebotomist_id'] as const), {
        PHLEBOTOMIST_FULL: 'phlebotomist_id',
      }),
    ),
  );
  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title={`${booking?.phlebotomist_id ? 'Reassign' : 'Assign'} ${booking?.booking_number ?? ''}`}
      description={booking ? `${booking.area_name}, ${booking.slot_date} at ${booking.slot_time}` : undefined}
      busy={mutation.isPending}
      form={{ id: 'assign-visit-form', onSubmit, columns: 1 }}
      submitLabel="Assign"
      error={formError(form)}
    >
      <FormField
        label="Phlebotomist"
        required
        error={form.formState.errors.phlebotomist_id?.message}
        hint={people.data?.length === 0 ? 'No user holds collect_at_home: give a collector account first.' : undefined}
      >
        <Select
          placeholder={people.isPending ? 'Loading...' : 'Select phlebotomist'}
          options={(people.data ?? []).map((p) => ({ value: String(p.id), label: p.name }))}
          {...form.register('phlebotomist_id')}
        />
      </FormField>
    </FormDialog>
  );
}

const unlockDefaults = (): z.input<typeof unlockSchema> => ({ new_code: true });

/**
 * Unlock Visit: a visit five wrong codes locked opens again at the door; with a new code (the
 * default) the patient is texted it and the old one stops working.
 */
export function UnlockDialog({ booking, onOpenChange }: Props) {
  const open = booking !== null;
  const mutation = useUnlockMutation();
  const form = useDialogForm(unlockSchema, open, booking, unlockDefaults);
  const onSubmit = form.handleSubmit(({ new_code }) =>
    mutation.mutate({ id: booking!.id, new_code }, dialogSave(form, onOpenChange, topField(['new_code'] as const))),
  );
  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title={`Unlock Visit ${booking?.booking_number ?? ''}`}
      description={
        booking
          ? `${booking.patient_name}, ${booking.slot_date} at ${booking.slot_time}: five wrong visit codes locked it. Unlocking lets the phlebotomist try again.`
          : undefined
      }
      busy={mutation.isPending}
      busyLabel="Unlocking..."
      form={{ id: 'unlock-visit-form', onSubmit, columns: 1 }}
      submitLabel="Unlock Visit"
      error={formError(form)}
    >
      <FormField label="Visit code" error={form.formState.errors.new_code?.message}>
        <Checkbox
          label="Send the patient a new visit code"
          hint="By SMS or email. The old code stops working; staff never see the new one."
          {...form.register('new_code')}
        />
      </FormField>
    </FormDialog>
  );
}
