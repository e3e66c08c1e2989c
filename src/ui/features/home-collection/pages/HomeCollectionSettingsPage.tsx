import { useState } from 'react';
import { Clock, MapPin, Pencil, Plus, Trash2, UtensilsCrossed } from 'lucide-react';
import type { Area, Calendar } from '@shared/schemas/home-collection';
import {
  Badge,
  Card,
  ConfirmDialog,
  DataTable,
  EmptyState,
  ErrorPanel,
  LoadingState,
  queryState,
  ScreenHeader,
  type Column,
  type RowAction,
} from '@/components';
import { SectionHeader } from '../components/SectionHeader';
import { useAreas, useCalendar, useUpdateCalendarMutation } from '../api';
import {
  AreaFormDialog,
  CalendarFormDialog,
  calendarBody,
  FastingDialog,
  type FastingRow,
} from '../components/SettingsDialogs';

const areaColumns: Column<Area>[] = [
  { key: 'name', header: 'Area', cell: (a) => <span className="font-medium text-slate-900">{a.name}</span> },
  { key: 'pins', header: 'Pin codes', cell: (a) => <span className="tabular-nums">{a.pin_codes.join(', ')}</span> },
  {
    key: 'status',
    header: 'Status',
    cell: (a) => <Badge tone={a.is_active ? 'green' : 'grey'}>{a.is_active ? 'Active' : 'Inactive'}</Badge>,
  },
];

const fastingColumns: Column<FastingRow>[] = [
  { key: 'test', header: 'Test', cell: (f) => <span className="font-medium text-slate-900">{f.test_name}</span> },
  { key: 'hours', header: 'Fasting', align: 'right', cell: (f) => `${f.hours} h` },
];

function CalendarFacts({ c }: { c: Calendar }) {
  const facts: [string, string][] = [
    ['Slots', `${c.first_slot} to ${c.last_slot}, every ${c.slot_minutes} min`],
    ['Visits per slot', String(c.slot_capacity)],
    ['Per phlebotomist in a slot', String(c.per_phlebotomist)],
    ['Portal booking', c.portal_booking ? 'Patients may book' : 'Off'],
    ['Temperature at receipt', c.record_temperature ? 'Recorded (°C)' : 'Not recorded'],
  ];
  return (
    <dl className="grid gap-x-6 gap-y-3 px-4 py-3 text-sm sm:grid-cols-2">
      {facts.map(([k, v]) => (
        <div key={k}>
          <dt className="text-[13px] text-slate-600">{k}</dt>
          <dd className="font-medium text-slate-900">{v}</dd>
        </div>
      ))}
    </dl>
  );
}

type FastingOpen = { row: FastingRow | null } | null;

/** Home Collection Settings: the slot calendar, the areas served by pin code, fasting per test. */
export default function SettingsScreen() {
  const calendar = useCalendar();
  const areas = useAreas();
  const removeFasting = useUpdateCalendarMutation();
  const [editCalendar, setEditCalendar] = useState<Calendar | null>(null);
  const [area, setArea] = useState<{ area: Area | null } | null>(null);
  const [fasting, setFasting] = useState<FastingOpen>(null);
  const [removing, setRemoving] = useState<FastingRow | null>(null);
  const c = calendar.data;

  const areaActions: RowAction<Area>[] = [
    { label: (a) => `Edit ${a.name}`, icon: <Pencil />, onClick: (a) => setArea({ area: a }) },
  ];
  const fastingActions: RowAction<FastingRow>[] = [
    { label: (f) => `Edit fasting for ${f.test_name}`, icon: <Pencil />, onClick: (f) => setFasting({ row: f }) },
    { label: (f) => `Remove fasting for ${f.test_name}`, icon: <Trash2 />, onClick: setRemoving, destructive: true },
  ];

  return (
    <>
      <ScreenHeader />
      <div className="grid gap-4">
        <Card className="min-w-0">
          <SectionHeader
            icon={<Clock />}
            title="Slot calendar"
            description={
              c && !c.configured
                ? 'Not set up yet: no visit can be booked until the calendar is saved.'
                : 'The slots offered each day and the visits each can take.'
            }
            action={{ label: 'Edit Calendar', icon: <Pencil />, disabled: !c, onClick: () => c && setEditCalendar(c) }}
          />
          {c?.configured ? (
            <CalendarFacts c={c} />
          ) : c ? (
            <EmptyState
              icon={<Clock />}
              title="No slot calendar yet"
              hint="Set the slots, and how many visits each can take, before the first booking."
            />
          ) : calendar.isError ? (
            <ErrorPanel className="m-4" title="Error Loading the Calendar" query={calendar} />
          ) : (
            <LoadingState text="Loading the calendar..." />
          )}
        </Card>
        <Card className="min-w-0">
          <SectionHeader
            icon={<MapPin />}
            title="Areas by pin code"
            description="A booking’s pin code must be in an active area."
            action={{ label: 'Add Area', icon: <Plus />, onClick: () => setArea({ area: null }) }}
          />
          <DataTable
            caption="Areas"
            columns={areaColumns}
            rows={areas.data}
            getRowId={(a) => a.id}
            {...queryState(areas)}
            errorTitle="Error Loading Areas"
            empty={{
              title: 'No areas yet',
              hint: 'Add the areas the lab’s phlebotomists go to, with their pin codes.',
            }}
            rowActions={areaActions}
          />
        </Card>
        <Card className="min-w-0">
          <SectionHeader
            icon={<UtensilsCrossed />}
            title="Fasting instructions"
            description="The patient’s booking message says the longest fasting of the visit’s tests."
            action={{
              label: 'Add Fasting Test',
              icon: <Plus />,
              disabled: !c,
              onClick: () => setFasting({ row: null }),
            }}
          />
          <DataTable
            caption="Fasting per test"
            columns={fastingColumns}
            rows={c?.fasting}
            getRowId={(f) => f.test_id}
            {...queryState(calendar)}
            errorTitle="Error Loading the Calendar"
            empty={{ title: 'No fasting tests', hint: 'Add the tests that need the patient to fast before the draw.' }}
            rowActions={fastingActions}
          />
        </Card>
      </div>
      <CalendarFormDialog calendar={editCalendar} onOpenChange={() => setEditCalendar(null)} />
      <AreaFormDialog area={area?.area ?? null} open={area !== null} onOpenChange={() => setArea(null)} />
      {c && (
        <FastingDialog
          calendar={c}
          row={fasting?.row ?? null}
          open={fasting !== null}
          onOpenChange={() => setFasting(null)}
        />
      )}
      <ConfirmDialog
        open={removing !== null}
        onOpenChange={() => setRemoving(null)}
        title="Remove Fasting"
        message={removing ? `Are you sure you want to remove the fasting for ${removing.test_name}?` : ''}
        confirmLabel="Remove"
        busyLabel="Removing..."
        busy={removeFasting.isPending}
        onConfirm={() => {
          if (!c || !removing) return;
          const body = calendarBody(c);
          removeFasting.mutate(
            {
              body: { ...body, fasting: body.fasting.filter((f) => f.test_id !== removing.test_id) },
              saved: `${removing.test_name}: no fasting`,
            },
            { onSuccess: () => setRemoving(null) },
          );
        }}
      />
    </>
  );
}
