import { useMemo, useState } from 'react';
import { ExternalLink, UserCheck } from 'lucide-react';
import { localDate } from '@shared/time';
import type { Booking } from '@shared/schemas/home-collection';
import {
  Card,
  CardBody,
  CardHeader,
  EmptyState,
  ErrorPanel,
  FormField,
  IconButton,
  Input,
  LinkButton,
  LoadingState,
  ScreenHeader,
} from '@/components';
import { useLabFormat } from '@/lib/format';
import { useUrlState } from '@/lib/useUrlState';
import { useDayBoard } from '../api';
import { AssignDialog } from '../components/BookingActionDialogs';
import { BookingStatusBadge, SourceBadge } from '../components/bookingParts';

function Stop({ v, onAssign, showWho }: { v: Booking; onAssign: (b: Booking) => void; showWho: boolean }) {
  return (
    <li className="flex items-start gap-3 px-4 py-2.5">
      <span className="w-12 shrink-0 pt-0.5 font-medium tabular-nums">{v.slot_time}</span>
      <div className="min-w-0 flex-1 text-sm">
        <span className="block font-medium text-slate-900">
          {v.patient_name} <span className="font-normal text-slate-600">· {v.booking_number}</span>{' '}
          <SourceBadge booking={v} />
        </span>
        <span className="block text-[13px] text-slate-600">
          {v.address}, {v.pin_code}
          {v.map_link && (
            <a
              href={v.map_link}
              target="_blank"
              rel="noreferrer noopener"
              className="ml-1 inline-flex items-center gap-0.5 text-blue-700 underline"
            >
              Map <ExternalLink className="size-3" aria-hidden />
            </a>
          )}
        </span>
        <span className="block text-[13px] text-slate-600">
          {v.items.map((i) => i.name).join(', ')}
          {v.fasting_hours ? ` · fasting ${v.fasting_hours} h` : ''}
          {showWho ? ` · ${v.phlebotomist_name ?? 'Unassigned'}` : ''}
        </span>
      </div>
      <BookingStatusBadge status={v.status} />
      {v.status === 'booked' && (
        <IconButton
          label={`${v.phlebotomist_id ? 'Reassign' : 'Assign'} ${v.booking_number}`}
          icon={<UserCheck />}
          onClick={() => onAssign(v)}
        />
      )}
    </li>
  );
}

function Column({
  title,
  hint,
  visits,
  onAssign,
  showWho,
}: {
  title: string;
  hint: string;
  visits: Booking[];
  onAssign: (b: Booking) => void;
  showWho: boolean;
}) {
  return (
    <Card className="min-w-0">
      <CardHeader title={title} description={hint} />
      <CardBody className="p-0">
        <ol className="divide-y divide-slate-100">
          {visits.map((v) => (
            <Stop key={v.id} v={v} onAssign={onAssign} showWho={showWho} />
          ))}
        </ol>
      </CardBody>
    </Card>
  );
}

/** Home Collection Day Board: who goes where today, by area and by phlebotomist. */
export default function DayBoardScreen() {
  const today = localDate(useLabFormat().timeZone);
  const defaults = useMemo(() => ({ date: today }), [today]);
  const [state, setState] = useUrlState(defaults);
  const date = String(state.date);
  const board = useDayBoard(date);
  const [assigning, setAssigning] = useState<Booking | null>(null);
  const b = board.data;
  const count = (n: number) => `${n} visit${n === 1 ? '' : 's'}`;

  return (
    <>
      <ScreenHeader
        actions={
          <LinkButton to={`/home-collection?date=${date}`} variant="outline">
            Bookings
          </LinkButton>
        }
      />
      <div className="mb-4 max-w-48">
        <FormField label="Date">
          <Input type="date" value={date} onChange={(e) => setState({ date: e.target.value })} />
        </FormField>
      </div>
      {board.isPending ? (
        <LoadingState text="Loading the day..." />
      ) : board.isError ? (
        <ErrorPanel title="Error Loading the Day Board" query={board} />
      ) : !b || b.areas.length === 0 ? (
        <EmptyState
          title="No visits on this day"
          hint="Visits booked for this date appear here by area and by phlebotomist."
        />
      ) : (
        <div className="grid gap-5">
          {b.unassigned.length > 0 && (
            <Column
              title="Unassigned"
              hint={`${count(b.unassigned.length)} waiting for a phlebotomist`}
              visits={b.unassigned}
              onAssign={setAssigning}
              showWho={false}
            />
          )}
          <section aria-labelledby="routes-heading">
            <h2 id="routes-heading" className="mb-2 text-base font-semibold text-slate-900">
              Routes by phlebotomist
            </h2>
            {b.routes.length === 0 ? (
              <p className="text-sm text-slate-600">Nobody is assigned yet.</p>
            ) : (
              <div className="grid gap-4 lg:grid-cols-2">
                {b.routes.map((r) => (
                  <Column
                    key={r.phlebotomist_id}
                    title={r.phlebotomist_name}
                    hint={`${count(r.visits.length)}, in slot order`}
                    visits={r.visits}
                    onAssign={setAssigning}
                    showWho={false}
                  />
                ))}
              </div>
            )}
          </section>
          <section aria-labelledby="areas-heading">
            <h2 id="areas-heading" className="mb-2 text-base font-semibold text-slate-900">
              By area
            </h2>
            <div className="grid gap-4 lg:grid-cols-2">
              {b.areas.map((a) => (
                <Column
                  key={a.area_id}
                  title={a.area_name}
                  hint={count(a.visits.length)}
                  visits={a.visits}
                  onAssign={setAssigning}
                  showWho
                />
              ))}
            </div>
          </section>
        </div>
      )}
      <AssignDialog booking={assigning} onOpenChange={(o) => !o && setAssigning(null)} />
    </>
  );
}
