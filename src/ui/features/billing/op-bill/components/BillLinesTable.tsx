import type { LineAmounts } from '@shared/billing';
import { Trash2 } from 'lucide-react';
import { IconButton, Input, Money } from '@/components';
import { cn } from '@/lib/cn';
import { lineErrors, particulars, type DraftLine, type LineField } from '../../shared/lines';

export interface BillLinesTableProps {
  lines: readonly DraftLine[];
  amounts: readonly LineAmounts[];
  onChange: (key: string, field: LineField, value: string) => void;
  onBlur: (key: string, field: LineField) => void;
  onRemove: (key: string) => void;
  /** The server's message for a line (by position), e.g. an item made inactive meanwhile. */
  serverErrors: Readonly<Record<number, string>>;
}

const EDITS: { field: LineField; header: string; aria: string; width: string; mode: 'numeric' | 'decimal' }[] = [
  { field: 'qty', header: 'Qty', aria: 'Qty', width: 'md:w-16', mode: 'numeric' },
  { field: 'price', header: 'Price (₹)', aria: 'Price', width: 'md:w-24', mode: 'decimal' },
  { field: 'gst', header: 'GST %', aria: 'GST %', width: 'md:w-16', mode: 'decimal' },
  { field: 'discount', header: 'Discount %', aria: 'Discount %', width: 'md:w-16', mode: 'decimal' },
];

const th = 'px-2 py-2 text-left text-[12px] font-semibold tracking-wide text-slate-600 uppercase';

/**
 * The OP Bill lines, editable in place (spec 2.8, 4): a table on wide screens; on a phone each line
 * becomes a small card with the same labelled fields, so nothing needs sideways scrolling.
 */
export function BillLinesTable({ lines, amounts, onChange, onBlur, onRemove, serverErrors }: BillLinesTableProps) {
  return (
    <table className="block w-full text-sm md:table" aria-label="Bill items">
      <thead className="hidden border-b border-slate-200 md:table-header-group">
        <tr>
          <th scope="col" className={th}>
            Particulars
          </th>
          {EDITS.map((e) => (
            <th key={e.field} scope="col" className={th}>
              {e.header}
            </th>
          ))}
          <th scope="col" className={cn(th, 'text-right')}>
            Discount
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
          const name = particulars(l);
          const errs = lineErrors(l);
          const a = amounts[i];
          return (
            <tr
              key={l.key}
              className="grid grid-cols-2 gap-x-3 gap-y-2 border-b border-slate-100 py-3 md:table-row md:py-0"
            >
              <th
                scope="row"
                className="col-span-2 flex items-start justify-between gap-2 text-left font-medium text-slate-900 md:table-cell md:px-2 md:py-2 md:align-top"
              >
                <span className="min-w-0">
                  <span className="block">{name}</span>
                  <span className="font-mono text-xs font-normal text-slate-500">{l.code}</span>
                  {serverErrors[i] && (
                    <span className="block text-[13px] font-normal text-red-700">{serverErrors[i]}</span>
                  )}
                </span>
                <span className="md:hidden">
                  <IconButton label={`Remove ${name}`} icon={<Trash2 />} onClick={() => onRemove(l.key)} />
                </span>
              </th>
              {EDITS.map((e) => {
                const err = errs[e.field];
                const errId = `${l.key}-${e.field}-error`;
                return (
                  <td key={e.field} className="grid gap-1 md:table-cell md:px-2 md:py-2 md:align-top">
                    <span className="text-xs text-slate-600 md:hidden" aria-hidden="true">
                      {e.header}
                    </span>
                    <Input
                      aria-label={`${e.aria} for ${name}`}
                      inputMode={e.mode}
                      value={l[e.field]}
                      onChange={(ev) => onChange(l.key, e.field, ev.target.value)}
                      onBlur={() => onBlur(l.key, e.field)}
                      onFocus={(ev) => ev.target.select()}
                      aria-invalid={err ? true : undefined}
                      aria-describedby={err ? errId : undefined}
                      className={cn('h-8 text-right tabular-nums', e.width)}
                    />
                    {err && (
                      <span id={errId} className="text-xs text-red-700">
                        {err}
                      </span>
                    )}
                  </td>
                );
              })}
              <td className="flex items-baseline justify-between md:table-cell md:px-2 md:py-2 md:text-right md:align-top">
                <span className="text-xs text-slate-600 md:hidden">Discount</span>
                <Money paise={a?.discountPaise ?? 0} className="md:leading-8" />
              </td>
              <td className="flex items-baseline justify-between font-medium md:table-cell md:px-2 md:py-2 md:text-right md:align-top">
                <span className="text-xs font-normal text-slate-600 md:hidden">Total</span>
                <Money paise={a?.totalPaise ?? 0} className="md:leading-8" />
              </td>
              <td className="hidden md:table-cell md:px-1 md:py-2 md:align-top">
                <IconButton label={`Remove ${name}`} icon={<Trash2 />} onClick={() => onRemove(l.key)} />
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
