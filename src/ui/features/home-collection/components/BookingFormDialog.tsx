import { useState } from 'react';
import { useWatch } from 'react-hook-form';
import type { z } from 'zod';
import { bookingCreateSchema } from '@shared/schemas/home-collection';
import { FormDialog, FormField, Input, Select, Textarea } from '@/components';
import { PatientSearchPicker } from '@/components/PatientSearchPicker';
import { useDialogForm } from '@/lib/dialogForm';
import { applyServerErrors, formError, topField } from '@/lib/forms';
import { useCreateBookingMutation, useSlots } from '../api';
import { ItemPicker, type PickedLine } from './ItemPicker';

type FormIn = z.input<typeof bookingCreateSchema>;

const FIELDS = ['patient_id', 'address', 'pin_code', 'map_link', 'slot_date', 'slot_time', 'items', 'notes'] as const;

function defaults(date: string): FormIn {
  return {
    patient_id: undefined,
    address: '',
    pin_code: '',
    map_link: '',
    slot_date: date,
    slot_time: '',
    items: [],
    notes: '',
  };
}

/** Book Visit: POST /api/home-collection/bookings for a registered patient. */
export function BookingFormDialog({
  open,
  onOpenChange,
  date,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The day the list shows: the date the dialog starts with. */
  date: string;
}) {
  const create = useCreateBookingMutation();
  const form = useDialogForm(bookingCreateSchema, open, date, defaults);
  const { errors } = form.formState;
  const [patientQuery, setPatientQuery] = useState('');
  const [patientName, setPatientName] = useState<string | null>(null);
  const [lines, setLines] = useState<PickedLine[]>([]);
  const slotDate = useWatch({ control: form.control, name: 'slot_date' }) as string;
  const slots = useSlots(slotDate, open);

  const setItems = (next: PickedLine[]) => {
    setLines(next);
    form.setValue(
      'items',
      next.map((l) => ({ item_type: l.item_type, item_id: l.item_id, qty: 1 })),
      { shouldValidate: form.formState.isSubmitted },
    );
  };

  const onSubmit = form.handleSubmit((body) =>
    create.mutate(body, {
      onSuccess: () => {
        setLines([]);
        setPatientName(null);
        onOpenChange(false);
      },
      onError: (e: unknown) =>
        applyServerErrors(e, form.setError, topField(FIELDS), { SLOT_FULL: 'slot_time', NOT_CONFIGURED: 'slot_date' }),
    }),
  );

  const slotOptions = (slots.data ?? []).map((s) => ({
    value: s.time,
    label: s.available > 0 ? `${s.time} (${s.available} of ${s.capacity} free)` : `${s.time} (full)`,
    disabled: s.available === 0,
  }));

  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      size="lg"
      title="Book Home Visit"
      description="The patient gets an SMS with the slot, any fasting the tests need and the visit code for the phlebotomist."
      busy={create.isPending}
      form={{ id: 'book-home-visit-form', onSubmit }}
      submitLabel="Book Visit"
      busyLabel="Booking..."
      error={formError(form)}
    >
      <div className="sm:col-span-2">
        {patientName ? (
          <FormField label="Patient" required error={errors.patient_id?.message ?? errors.patient?.message}>
            <div className="flex items-center gap-2">
              <Input readOnly value={patientName} />
              <button
                type="button"
                className="text-sm text-blue-700 underline"
                onClick={() => {
                  setPatientName(null);
                  form.setValue('patient_id', undefined);
                }}
              >
                Change
              </button>
            </div>
          </FormField>
        ) : (
          <PatientSearchPicker
            query={patientQuery}
            onQueryChange={setPatientQuery}
            error={errors.patient_id?.message ?? errors.patient?.message}
            facts={(p) => p.phone ?? null}
            emptySuffix=": register the patient on Patients first"
            onSelect={(p) => {
              form.setValue('patient_id', p.id, { shouldValidate: true });
              setPatientName(`${p.first_name} ${p.last_name} (${p.patient_id})`);
            }}
          />
        )}
      </div>
      <FormField label="Address" required error={errors.address?.message} className="sm:col-span-2">
        <Textarea rows={2} placeholder="House, street, landmark" {...form.register('address')} />
      </FormField>
      <FormField label="Pin Code" required error={errors.pin_code?.message}>
        <Input inputMode="numeric" maxLength={6} placeholder="e.g. 560034" {...form.register('pin_code')} />
      </FormField>
      <FormField label="Map Link" error={errors.map_link?.message}>
        <Input type="url" placeholder="https://maps.google.com/..." {...form.register('map_link')} />
      </FormField>
      <FormField label="Date" required error={errors.slot_date?.message}>
        <Input type="date" {...form.register('slot_date')} />
      </FormField>
      <FormField
        label="Slot"
        required
        error={errors.slot_time?.message}
        hint={slots.isError ? `Could not load the slots: ${slots.error.message}` : undefined}
      >
        <Select
          placeholder={slots.isPending ? 'Loading slots...' : 'Select slot'}
          options={slotOptions}
          {...form.register('slot_time')}
        />
      </FormField>
      <ItemPicker lines={lines} onChange={setItems} error={errors.items?.message} />
      <FormField label="Notes" error={errors.notes?.message} className="sm:col-span-2">
        <Input autoComplete="off" placeholder="e.g. Ring twice; elderly patient" {...form.register('notes')} />
      </FormField>
    </FormDialog>
  );
}
