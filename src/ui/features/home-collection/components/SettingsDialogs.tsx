import type { DefaultValues } from 'react-hook-form';
import { z } from 'zod';
import { PIN_CODE } from '@shared/home-collection';
import {
  areaInputSchema,
  calendarUpdateSchema,
  fastingEntrySchema,
  type Area,
  type Calendar,
  type CalendarUpdate,
} from '@shared/schemas/home-collection';
import { Checkbox, FormDialog, FormField, Input, Select } from '@/components';
import { fieldNamed, formError, topField } from '@/lib/forms';
import { dialogSave } from '@/lib/dialogSave';
import { useDialogForm } from '@/lib/dialogForm';
import { useCatalogueList } from '@/lib/catalogue';
import { useSaveAreaMutation, useUpdateCalendarMutation } from '../api';

/** The calendar as PUT /api/home-collection/calendar takes it, from what GET answered. */
export function calendarBody(c: Calendar): CalendarUpdate {
  return {
    slot_minutes: c.slot_minutes,
    first_slot: c.first_slot,
    last_slot: c.last_slot,
    slot_capacity: c.slot_capacity,
    per_phlebotomist: c.per_phlebotomist,
    portal_booking: c.portal_booking,
    record_temperature: c.record_temperature,
    fasting: c.fasting.map((f) => ({ test_id: f.test_id, hours: f.hours })),
  };
}

// ---- Slot calendar: the server's schema as it is; fasting is kept from what was loaded.
type CalendarIn = z.input<typeof calendarUpdateSchema>;
const CALENDAR_FIELDS = ['slot_minutes', 'first_slot', 'last_slot', 'slot_capacity', 'per_phlebotomist'] as const;

function calendarDefaults(c: Calendar | null): DefaultValues<CalendarIn> {
  return {
    slot_minutes: String(c?.slot_minutes ?? 60),
    first_slot: c?.first_slot ?? '07:00',
    last_slot: c?.last_slot ?? '11:00',
    slot_capacity: String(c?.slot_capacity ?? 6),
    per_phlebotomist: String(c?.per_phlebotomist ?? 2),
    portal_booking: c?.portal_booking ?? false,
    record_temperature: c?.record_temperature ?? false,
    fasting: [],
  };
}

/** The calendar's yes / no settings: the field, its label and what it does. */
const CALENDAR_SWITCHES = [
  ['portal_booking', 'Patients may book from the portal', 'They book for themselves, self-paid, in the same slots.'],
  [
    'record_temperature',
    'Record the temperature of tubes received at the lab',
    "The receive scan then asks for each tube's temperature in °C.",
  ],
] as const;

/** Edit Slot Calendar: slot length, first and last slot, places per slot and per phlebotomist, portal booking. */
export function CalendarFormDialog({
  calendar,
  onOpenChange,
}: {
  calendar: Calendar | null;
  onOpenChange: (open: boolean) => void;
}) {
  const open = calendar !== null;
  const save = useUpdateCalendarMutation();
  const form = useDialogForm(calendarUpdateSchema, open, calendar, calendarDefaults);
  const { errors } = form.formState;
  const onSubmit = form.handleSubmit((v) => {
    const body = { ...v, fasting: calendar ? calendarBody(calendar).fasting : [] };
    save.mutate(
      { body, saved: `Slots of ${v.slot_minutes} minutes from ${v.first_slot} to ${v.last_slot}` },
      dialogSave(form, onOpenChange, fieldNamed(CALENDAR_FIELDS)),
    );
  });
  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title="Edit Slot Calendar"
      description="The slots the desk and the portal offer each day, and how many visits each can take."
      busy={save.isPending}
      form={{ id: 'home-calendar-form', onSubmit }}
      error={formError(form)}
      submitLabel="Save Calendar"
    >
      <FormField label="Slot length (minutes)" required error={errors.slot_minutes?.message}>
        <Input type="number" inputMode="numeric" min={10} max={240} step={1} {...form.register('slot_minutes')} />
      </FormField>
      <FormField label="Visits per slot" required error={errors.slot_capacity?.message}>
        <Input type="number" inputMode="numeric" min={1} step={1} {...form.register('slot_capacity')} />
      </FormField>
      <FormField label="First slot" required error={errors.first_slot?.message} hint="24-hour time, e.g. 06:30">
        <Input inputMode="numeric" placeholder="HH:MM" {...form.register('first_slot')} />
      </FormField>
      <FormField label="Last slot" required error={errors.last_slot?.message} hint="Starts no later than this">
        <Input inputMode="numeric" placeholder="HH:MM" {...form.register('last_slot')} />
      </FormField>
      <FormField
        label="Per phlebotomist in a slot"
        required
        error={errors.per_phlebotomist?.message}
        hint="Assigning refuses a phlebotomist who already has this many."
      >
        <Input type="number" inputMode="numeric" min={1} max={20} step={1} {...form.register('per_phlebotomist')} />
      </FormField>
      {CALENDAR_SWITCHES.map(([name, label, hint]) => (
        <div key={name} className="sm:col-span-2">
          <Checkbox label={label} hint={hint} {...form.register(name)} />
        </div>
      ))}
    </FormDialog>
  );
}

// ---- Areas: pin codes typed as a list; each one checked, a bad one named.
const areaFormSchema = areaInputSchema.extend({
  pin_codes: z
    .string()
    .transform((t) => t.split(/[\s,;]+/).filter(Boolean))
    .superRefine((pins, ctx) => {
      if (!pins.length) ctx.addIssue({ code: 'custom', message: 'Give at least one pin code' });
      const bad = pins.find((p) => !PIN_CODE.test(p));
      if (bad) ctx.addIssue({ code: 'custom', message: `Pin code ${bad} must be six digits (not starting with 0)` });
    }),
});
type AreaIn = z.input<typeof areaFormSchema>;
const AREA_FIELDS = ['name', 'pin_codes', 'is_active'] as const;

function areaDefaults(a: Area | null): DefaultValues<AreaIn> {
  return { name: a?.name ?? '', pin_codes: a?.pin_codes.join(', ') ?? '', is_active: a?.is_active ?? true };
}

/** Add Area and Edit Area: a name and the pin codes it serves; a pin code belongs to one area. */
export function AreaFormDialog({
  area,
  open,
  onOpenChange,
}: {
  area: Area | null;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const save = useSaveAreaMutation();
  const form = useDialogForm(areaFormSchema, open, area, areaDefaults);
  const { errors } = form.formState;
  const onSubmit = form.handleSubmit((body) =>
    save.mutate({ id: area?.id ?? null, body }, dialogSave(form, onOpenChange, topField(AREA_FIELDS))),
  );
  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title={area ? `Edit Area: ${area.name}` : 'Add Area'}
      description="Bookings are taken for the pin codes of active areas; the day board groups visits by area."
      busy={save.isPending}
      form={{ id: 'home-area-form', onSubmit, columns: 1 }}
      error={formError(form)}
      submitLabel={area ? 'Save Area' : 'Add Area'}
    >
      <FormField label="Area name" required error={errors.name?.message}>
        <Input placeholder="e.g. Jayanagar" {...form.register('name')} />
      </FormField>
      <FormField
        label="Pin codes"
        required
        error={errors.pin_codes?.message}
        hint="Separated by commas or spaces, e.g. 560004, 560011"
      >
        <Input inputMode="numeric" {...form.register('pin_codes')} />
      </FormField>
      <Checkbox label="Active (bookings taken)" {...form.register('is_active')} />
    </FormDialog>
  );
}

// ---- Fasting: one test's hours, saved into the calendar's list.
const fastingFormSchema = fastingEntrySchema.extend({
  test_id: z.string().min(1, 'Choose the test that needs fasting'),
});
type FastingIn = z.input<typeof fastingFormSchema>;
export type FastingRow = Calendar['fasting'][number];

function fastingDefaults(f: FastingRow | null): DefaultValues<FastingIn> {
  return { test_id: f ? String(f.test_id) : '', hours: f ? String(f.hours) : '10' };
}

/** Add or edit the fasting a test needs before a home draw; the patient's SMS names the longest. */
export function FastingDialog({
  calendar,
  row,
  open,
  onOpenChange,
}: {
  calendar: Calendar;
  row: FastingRow | null;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const save = useUpdateCalendarMutation();
  const tests = useCatalogueList('test', { status: 'active' }, { enabled: open && row === null });
  const form = useDialogForm(fastingFormSchema, open, row, fastingDefaults);
  const { errors } = form.formState;
  const listed = new Set(calendar.fasting.map((f) => f.test_id));
  // Editing keeps the test (even one made inactive since); adding offers the active tests not listed yet.
  const options = row
    ? [{ id: row.test_id, name: row.test_name }]
    : (tests.data ?? []).filter((t) => !listed.has(t.id));
  const onSubmit = form.handleSubmit((v) => {
    const testId = Number(v.test_id);
    const rest = calendarBody(calendar).fasting.filter((f) => f.test_id !== (row?.test_id ?? testId));
    const fasting = [...rest, { test_id: testId, hours: v.hours }];
    const name = options.find((t) => t.id === testId)?.name ?? `Test ${testId}`;
    save.mutate(
      { body: { ...calendarBody(calendar), fasting }, saved: `${name}: fasting ${v.hours} h` },
      // The list's entries come back as fasting.N.test_id / fasting.N.hours.
      dialogSave(form, onOpenChange, (p) =>
        p.endsWith('.hours') ? 'hours' : p.startsWith('fasting') ? 'test_id' : undefined,
      ),
    );
  });
  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title={row ? `Edit Fasting: ${row.test_name}` : 'Add Fasting Test'}
      description="Patients booked for this test are told to fast, and for how long."
      busy={save.isPending}
      form={{ id: 'home-fasting-form', onSubmit, columns: 1 }}
      error={formError(form)}
      submitLabel="Save Fasting"
    >
      <FormField label="Test" required error={errors.test_id?.message}>
        <Select
          placeholder={row ? undefined : tests.isLoading ? 'Loading tests...' : 'Choose a test'}
          options={options.map((t) => ({ value: String(t.id), label: t.name }))}
          {...form.register('test_id')}
        />
      </FormField>
      <FormField label="Fasting hours" required error={errors.hours?.message}>
        <Input type="number" inputMode="numeric" min={1} max={24} step={1} {...form.register('hours')} />
      </FormField>
    </FormDialog>
  );
}
