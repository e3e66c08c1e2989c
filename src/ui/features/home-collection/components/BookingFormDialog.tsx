import { useState, type FormEvent } from 'react';
import { useWatch } from 'react-hook-form';
import type { z } from 'zod';
import { bookingCreateSchema, type BookingCreate } from '@shared/schemas/home-collection';
import type { PatientCreate } from '@shared/schemas/patients';
import { FormDialog, FormField, Input, Select, Textarea } from '@/components';
import { useDuplicatePrompt } from '@/components/PossibleDuplicatesDialog';
import {
  NEW_PATIENT_DEFAULTS,
  newPatientField,
  useNewPatientForm,
  type NewPatientValues,
} from '@/components/NewPatientFields';
import { useDialogForm } from '@/lib/dialogForm';
import { applyServerErrors, formError, topField } from '@/lib/forms';
import { useCreateBookingMutation, useSlots } from '../api';
import { BookingPatientField } from './BookingPatientField';
import { ItemPicker, type PickedLine } from './ItemPicker';

type FormIn = z.input<typeof bookingCreateSchema>;

const FIELDS = [
  'patient_id',
  'patient',
  'address',
  'pin_code',
  'map_link',
  'slot_date',
  'slot_time',
  'items',
  'notes',
] as const;

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

/** Fields of the visit itself, checked while the new patient's fields are not yet right. */
const VISIT_FIELDS = ['address', 'pin_code', 'map_link', 'slot_date', 'slot_time', 'items', 'notes'] as const;

/** A server message on `patient.first_name` belongs under the new patient's First Name. */
const inNewPatient = (p: string) =>
  p.startsWith('patient.') ? newPatientField(p.slice('patient.'.length)) : undefined;
const visitField = (p: string) => (p.startsWith('patient.') ? ('patient' as const) : topField(FIELDS)(p));

/**
 * Book Visit: POST /api/home-collection/bookings for a registered patient, or a new one registered
 * in the same request (one transaction: a refused booking leaves no patient behind). A new patient
 * like one already registered comes back as POSSIBLE_DUPLICATE: the desk books the registered one
 * or confirms someone new, as on OP Bill.
 */
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
  const newPatient = useNewPatientForm();
  const duplicates = useDuplicatePrompt({ useLabel: 'Book for this patient', busy: create.isPending });
  const { errors } = form.formState;
  const [patientName, setPatientName] = useState<string | null>(null);
  const [adding, setAdding] = useState(false);
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

  const choose = (id: number, name: string) => {
    form.setValue('patient_id', id, { shouldValidate: form.formState.isSubmitted });
    form.setValue('patient', undefined);
    setPatientName(name);
    setAdding(false);
  };

  const send = (body: BookingCreate) =>
    create.mutate(body, {
      onSuccess: () => {
        setLines([]);
        setPatientName(null);
        setAdding(false);
        newPatient.reset(NEW_PATIENT_DEFAULTS);
        onOpenChange(false);
      },
      onError: (e: unknown) => {
        const offered = duplicates.intercept(e, {
          onUse: (c) => {
            choose(c.id, `${c.first_name} ${c.last_name} (${c.patient_id})`);
            send({ ...body, patient: undefined, patient_id: c.id });
          },
          onConfirmNew: () => send({ ...body, patient: { ...body.patient!, confirm_new: true } }),
        });
        if (offered) return;
        applyServerErrors(e, newPatient.setError, inNewPatient);
        applyServerErrors(e, form.setError, visitField, { SLOT_FULL: 'slot_time', NOT_CONFIGURED: 'slot_date' });
      },
    });

  const onSubmit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    let patient: NewPatientValues | undefined;
    if (adding) {
      await newPatient.handleSubmit((v) => {
        patient = v;
      })();
      // Every wrong field shows at once: the visit's too, while the patient's are put right.
      if (!patient) return void form.trigger([...VISIT_FIELDS]);
      form.setValue('patient_id', undefined);
    }
    form.setValue('patient', patient as PatientCreate | undefined);
    await form.handleSubmit(send)(e);
  };

  const slotOptions = (slots.data ?? []).map((s) => ({
    value: s.time,
    label: s.available > 0 ? `${s.time} (${s.available} of ${s.capacity} free)` : `${s.time} (full)`,
    disabled: s.available === 0,
  }));

  return (
    <>
      {duplicates.dialog}
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
          <BookingPatientField
            chosen={patientName}
            onSelect={(p) => choose(p.id, `${p.first_name} ${p.last_name} (${p.patient_id})`)}
            onClear={() => {
              setPatientName(null);
              form.setValue('patient_id', undefined);
            }}
            adding={adding}
            onAddingChange={setAdding}
            newPatient={newPatient}
            error={errors.patient_id?.message ?? (adding ? undefined : errors.patient?.message)}
          />
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
    </>
  );
}
