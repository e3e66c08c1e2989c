import { useState } from 'react';
import { useWatch } from 'react-hook-form';
import type { z } from 'zod';
import { portalBookingSchema, type HomeOfferItem } from '@shared/schemas/home-collection';
import { FormDialog, FormField, Input, Textarea } from '@/components';
import { useDialogForm } from '@/lib/dialogForm';
import { applyServerErrors, formError, topField } from '@/lib/forms';
import { useBookHomeVisitMutation, useHomeSlots } from '../homeApi';
import { FastingNotice, HomeOfferPicker, fastingOf, offerKey, type OfferKey } from './HomeOfferPicker';
import { SlotChoice } from './SlotChoice';

type FormIn = z.input<typeof portalBookingSchema>;

const FIELDS = ['address', 'pin_code', 'map_link', 'slot_date', 'slot_time', 'items', 'notes'] as const;

/** Tomorrow on the patient's phone: the first day most labs still have every slot of. */
function defaults(): FormIn {
  const tomorrow = new Date(Date.now() + 86_400_000).toLocaleDateString('en-CA');
  return { address: '', pin_code: '', map_link: '', slot_date: tomorrow, slot_time: '', items: [], notes: '' };
}

/**
 * Book a Home Visit: the patient chooses tests, gives the address and pin code, and picks a slot with
 * places left (POST /api/portal/home-collection/bookings). The server's refusals go under their
 * fields: a pin code the lab does not serve, a slot that filled meanwhile, a day in the past.
 */
export function HomeVisitDialog({
  open,
  onOpenChange,
  items,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  items: readonly HomeOfferItem[];
}) {
  const book = useBookHomeVisitMutation();
  const form = useDialogForm(portalBookingSchema, open, null, defaults);
  const { errors } = form.formState;
  const [chosen, setChosen] = useState<Set<OfferKey>>(new Set());
  const slotDate = useWatch({ control: form.control, name: 'slot_date' });
  const slots = useHomeSlots(slotDate, open);
  const picked = items.filter((i) => chosen.has(offerKey(i)));
  const fasting = fastingOf(picked);

  const choose = (next: Set<OfferKey>) => {
    setChosen(next);
    form.setValue(
      'items',
      items.filter((i) => next.has(offerKey(i))).map((i) => ({ item_type: i.item_type, item_id: i.item_id, qty: 1 })),
      { shouldValidate: form.formState.isSubmitted },
    );
  };

  const onSubmit = form.handleSubmit((body) =>
    book.mutate(body, {
      onSuccess: () => {
        setChosen(new Set());
        onOpenChange(false);
      },
      onError: (e: unknown) => {
        applyServerErrors(e, form.setError, topField(FIELDS), { SLOT_FULL: 'slot_time' });
        // A slot that filled meanwhile: show the places as they are now.
        void slots.refetch();
      },
    }),
  );

  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      size="lg"
      title="Book a Home Visit"
      description="A phlebotomist comes to your home to collect the samples. You get an SMS with the slot and a visit code to give at the door."
      busy={book.isPending}
      form={{ id: 'portal-home-visit-form', onSubmit }}
      submitLabel="Book Visit"
      busyLabel="Booking..."
      error={formError(form)}
    >
      <HomeOfferPicker items={items} chosen={chosen} onChange={choose} error={errors.items?.message} />
      {fasting !== null && (
        <div className="sm:col-span-2">
          <FastingNotice hours={fasting} />
        </div>
      )}
      <FormField label="Address" required error={errors.address?.message} className="sm:col-span-2">
        <Textarea
          rows={2}
          autoComplete="street-address"
          placeholder="House, street, landmark"
          {...form.register('address')}
        />
      </FormField>
      <FormField label="Pin Code" required error={errors.pin_code?.message}>
        <Input
          inputMode="numeric"
          autoComplete="postal-code"
          maxLength={6}
          placeholder="e.g. 560034"
          {...form.register('pin_code')}
        />
      </FormField>
      <FormField label="Map Link" error={errors.map_link?.message} hint="Optional: a maps link to your door">
        <Input type="url" placeholder="https://maps.google.com/..." {...form.register('map_link')} />
      </FormField>
      <FormField label="Date" required error={errors.slot_date?.message}>
        <Input type="date" {...form.register('slot_date', { onChange: () => form.setValue('slot_time', '') })} />
      </FormField>
      <SlotChoice slots={slots} register={form.register('slot_time')} error={errors.slot_time?.message} />
      <FormField label="Notes for the phlebotomist" error={errors.notes?.message} className="sm:col-span-2">
        <Input autoComplete="off" placeholder="e.g. Third floor, no lift" {...form.register('notes')} />
      </FormField>
    </FormDialog>
  );
}
