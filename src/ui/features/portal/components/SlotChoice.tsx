import type { UseFormRegisterReturn } from 'react-hook-form';
import type { Slot } from '@shared/schemas/home-collection';
import { errorMessage } from '@/lib/api';
import { cn } from '@/lib/cn';
import { ChoiceGroup } from './ChoiceGroup';

const placesLeft = (s: Slot) =>
  s.available === 0 ? 'Full' : s.available === 1 ? '1 place left' : `${s.available} places left`;

/**
 * The day's slots as tappable choices, each with the places left; a full slot cannot be chosen.
 * A radio group, so the keyboard moves through it with the arrows like any other.
 */
export function SlotChoice({
  slots,
  register,
  error,
}: {
  slots: { data: Slot[] | undefined; isPending: boolean; isError: boolean; error: unknown; fetchStatus: string };
  register: UseFormRegisterReturn<'slot_time'>;
  error?: string | undefined;
}) {
  const body = () => {
    if (slots.isPending && slots.fetchStatus === 'idle')
      return <p className="text-[13px] text-slate-600">Choose a date first.</p>;
    if (slots.isPending) return <p className="text-[13px] text-slate-600">Loading slots...</p>;
    if (slots.isError)
      return (
        <p className="text-[13px] text-red-700" role="alert">
          {errorMessage(slots.error)}
        </p>
      );
    if (!slots.data?.some((s) => s.available > 0))
      return <p className="text-[13px] text-slate-600">Every slot of this day is full: please choose another date.</p>;
    return (
      <div className="grid grid-cols-2 gap-2 sm:grid-cols-4">
        {slots.data.map((s) => (
          <label
            key={s.time}
            className={cn(
              'flex cursor-pointer flex-col rounded-md border border-slate-300 px-3 py-2 text-sm',
              'has-[:checked]:border-primary-600 has-[:checked]:bg-primary-50 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-primary-500',
              s.available === 0 && 'cursor-not-allowed bg-slate-50 text-slate-500',
            )}
          >
            <input type="radio" className="sr-only" value={s.time} disabled={s.available === 0} {...register} />
            <span className="font-medium tabular-nums">{s.time}</span>
            <span className={cn('text-[12px]', s.available === 0 ? 'text-slate-500' : 'text-green-700')}>
              {placesLeft(s)}
            </span>
          </label>
        ))}
      </div>
    );
  };
  return (
    <ChoiceGroup legend="Slot" errorId="home-slot-error" error={error}>
      {body()}
    </ChoiceGroup>
  );
}
