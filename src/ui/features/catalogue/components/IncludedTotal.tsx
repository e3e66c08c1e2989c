import { formatMoney } from '@/lib/format';

export interface IncludedTotalProps {
  ids: readonly number[];
  items: readonly { id: number; price: number }[] | undefined;
  /** More chosen items from another list (a package's profiles). */
  extra?: { ids: readonly number[]; items: readonly { id: number; price: number }[] | undefined };
  /** The price box's current text. */
  price: unknown;
}

function sumPaise(ids: readonly number[], items: readonly { id: number; price: number }[] | undefined): number {
  const byId = new Map((items ?? []).map((i) => [i.id, i.price]));
  return ids.reduce((s, id) => s + Math.round((byId.get(id) ?? 0) * 100), 0);
}

/**
 * What the chosen items cost when billed one by one, next to the price being set, so whoever
 * prices a profile or package sees the saving it offers (or that it costs more).
 */
export function IncludedTotal({ ids, items, extra, price }: IncludedTotalProps) {
  const count = ids.length + (extra?.ids.length ?? 0);
  if (count === 0) return null;
  const separately = sumPaise(ids, items) + (extra ? sumPaise(extra.ids, extra.items) : 0);
  const p = typeof price === 'string' && price.trim() !== '' ? Number(price) : NaN;
  const pricePaise = Number.isFinite(p) ? Math.round(p * 100) : null;
  const diff = pricePaise === null ? null : separately - pricePaise;
  return (
    <p className="mt-2 text-[13px] text-slate-600" aria-live="polite">
      Billed separately: <span className="font-medium text-slate-900 tabular-nums">{formatMoney(separately)}</span>
      {diff !== null && diff > 0 && <> · this price saves the patient {formatMoney(diff)}</>}
      {diff !== null && diff < 0 && <> · this price is {formatMoney(-diff)} more than billing them separately</>}
    </p>
  );
}
