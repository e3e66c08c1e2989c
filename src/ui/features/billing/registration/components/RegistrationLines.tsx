import type { LineAmounts } from '@shared/billing';
import { Trash2 } from 'lucide-react';
import { IconButton, Input, Money } from '@/components';
import { cn } from '@/lib/cn';
import { ITEM_TYPE_LABEL, parsePrice, qtyError, type DraftLine } from '../../shared/lines';

export interface RegistrationLinesProps {
  lines: readonly DraftLine[];
  amounts: readonly LineAmounts[];
  onQty: (key: string, value: string) => void;
  onQtyBlur: (key: string) => void;
  onRemove: (key: string) => void;
  serverErrors: Readonly<Record<number, string>>;
}

const th = 'px-2 py-2 text-left text-[12px] font-semibold tracking-wide text-slate-600 uppercase';

/**
 * Spec 3 "Combined-screen line item": type, name, price, quantity, total. The price is the
 * catalogue's; only the quantity is edited here. On a phone each line becomes a small card.
 */
export function RegistrationLines({
  lines,
  amounts,
  onQty,
  onQtyBlur,
  onRemove,
  serverErrors,
}: RegistrationLinesProps) {
  return (
    <table className="block w-full text-sm md:table" aria-label="Selected tests and services">
      <thead className="hidden border-b border-slate-200 md:table-header-group">
        <tr>
          <th scope="col" className={th}>
            Type
          </th>
          <th scope="col" className={th}>
            Name
          </th>
          <th scope="col" className={cn(th, 'text-right')}>
            Price
          </th>
          <th scope="col" className={th}>
            Quantity
          </th>
          <th scope="col" className={cn(th, 'text-right')}>
            Total
          </th>
          <th scope="col" className={th}>
            <span className="sr-only">Remove</span>
          </th>
        </tr>
      </thead>
      <tbody className="block md:table-row-group">
        {lines.map((l, i) => {
          const err = qtyError(l.qty);
          const errId = `${l.key}-qty-error`;
          return (
            <tr
              key={l.key}
              className="grid grid-cols-[1fr_auto_auto] items-center gap-x-3 gap-y-1.5 border-b border-slate-100 py-3 md:table-row md:py-0"
            >
              <td className="col-span-3 text-xs text-slate-600 md:table-cell md:px-2 md:py-2 md:text-sm md:text-slate-700">
                {ITEM_TYPE_LABEL[l.item_type]}
              </td>
              <th
                scope="row"
                className="col-start-1 row-start-2 text-left font-medium text-slate-900 md:table-cell md:px-2 md:py-2"
              >
                {l.name}
                {serverErrors[i] && (
                  <span className="block text-[13px] font-normal text-red-700">{serverErrors[i]}</span>
                )}
              </th>
              <td className="col-start-2 row-start-2 text-right md:table-cell md:px-2 md:py-2">
                <Money rupees={parsePrice(l.price)} />
                <span className="text-xs text-slate-600 md:hidden"> each</span>
              </td>
              <td className="col-start-1 row-start-3 flex items-center gap-2 md:table-cell md:px-2 md:py-2">
                <span className="text-xs text-slate-600 md:hidden" aria-hidden="true">
                  Quantity
                </span>
                <Input
                  aria-label={`Quantity for ${l.name}`}
                  inputMode="numeric"
                  value={l.qty}
                  onChange={(e) => onQty(l.key, e.target.value)}
                  onBlur={() => onQtyBlur(l.key)}
                  onFocus={(e) => e.target.select()}
                  aria-invalid={err ? true : undefined}
                  aria-describedby={err ? errId : undefined}
                  className="h-8 w-16 text-right tabular-nums"
                />
                {err && (
                  <span id={errId} className="text-xs text-red-700">
                    {err}
                  </span>
                )}
              </td>
              <td className="col-start-2 row-start-3 text-right font-medium md:table-cell md:px-2 md:py-2">
                <span className="text-xs font-normal text-slate-600 md:hidden">Total </span>
                <Money paise={amounts[i]?.totalPaise ?? 0} />
              </td>
              <td className="col-start-3 row-span-2 row-start-2 md:table-cell md:px-1 md:py-2">
                <IconButton label={`Remove ${l.name}`} icon={<Trash2 />} onClick={() => onRemove(l.key)} />
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
