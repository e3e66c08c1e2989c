import { moneySymbol } from '@/lib/format';
import { Trash2 } from 'lucide-react';
import { IconButton, Input, Money } from '@/components';
import { cn } from '@/lib/cn';
import { ITEM_TYPE_LABEL, lineErrors, parsePrice, particulars, type DraftLine, type LineField } from './lines';
import type { BillDraft } from './useBillDraft';

const th = 'px-2 py-2 text-left text-[12px] font-semibold tracking-wide text-slate-600 uppercase';

/** A column heading; the last column (the remove buttons) is named for screen readers only. */
interface Column {
  header: string;
  right?: boolean;
}

const EDITS: { field: LineField; header: string; aria: string; width: string; mode: 'numeric' | 'decimal' }[] = [
  { field: 'qty', header: 'Qty', aria: 'Qty', width: 'md:w-16', mode: 'numeric' },
  { field: 'price', header: 'Price', aria: 'Price', width: 'md:w-24', mode: 'decimal' },
  { field: 'discount', header: 'Discount %', aria: 'Discount %', width: 'md:w-16', mode: 'decimal' },
];

export type LineEdits = 'all' | 'qty';

const LAYOUTS: Record<LineEdits, { label: string; columns: Column[] }> = {
  /** OP Bill (spec 2.8, 4): quantity, price, GST and discount are edited in place on each line. */
  all: {
    label: 'Bill items',
    columns: [
      { header: 'Particulars' },
      ...EDITS.map((e) => ({ header: e.field === 'price' ? `Price (${moneySymbol()})` : e.header })),
      { header: 'GST', right: true },
      { header: 'Discount', right: true },
      { header: 'Total', right: true },
    ],
  },
  /** Spec 3 "Combined-screen line item": type, name, price, quantity, total; only the quantity is edited. */
  qty: {
    label: 'Selected tests and services',
    columns: [
      { header: 'Type' },
      { header: 'Name' },
      { header: 'Price', right: true },
      { header: 'Quantity' },
      { header: 'Total', right: true },
    ],
  },
};

interface RowProps {
  draft: BillDraft;
  line: DraftLine;
  index: number;
}

/** A line's number field with its message; on a phone the cell shows the column's name beside it. */
function LineInputCell({
  draft,
  line,
  field,
  header,
  aria,
  mode,
  cellClass,
  inputClass,
}: Omit<RowProps, 'index'> & {
  field: LineField;
  header: string;
  aria: string;
  mode: 'numeric' | 'decimal';
  cellClass: string;
  inputClass: string;
}) {
  const err = lineErrors(line)[field];
  const errId = `${line.key}-${field}-error`;
  return (
    <td className={cellClass}>
      <span className="text-xs text-slate-600 md:hidden" aria-hidden="true">
        {header}
      </span>
      <Input
        aria-label={aria}
        inputMode={mode}
        value={line[field]}
        onChange={(ev) => draft.changeLine(line.key, field, ev.target.value)}
        onBlur={() => draft.blurLine(line.key, field)}
        onFocus={(ev) => ev.target.select()}
        aria-invalid={err ? true : undefined}
        aria-describedby={err ? errId : undefined}
        className={inputClass}
      />
      {err && (
        <span id={errId} className="text-xs text-red-700">
          {err}
        </span>
      )}
    </td>
  );
}

function RemoveLine({ draft, line, name }: { draft: BillDraft; line: DraftLine; name: string }) {
  return <IconButton label={`Remove ${name}`} icon={<Trash2 />} onClick={() => draft.removeLine(line.key)} />;
}

/** The server's message for a line (by position), e.g. an item made inactive meanwhile. */
function ServerError({ draft, index }: { draft: BillDraft; index: number }) {
  const message = draft.lineServerErrors[index];
  return message ? <span className="block text-[13px] font-normal text-red-700">{message}</span> : null;
}

/** On a phone each line becomes a small card with the same labelled fields. */
function EditableRow({ draft, line: l, index: i }: RowProps) {
  const name = particulars(l);
  const a = draft.amounts.lines[i];
  return (
    <tr className="grid grid-cols-2 gap-x-3 gap-y-2 border-b border-slate-100 py-3 md:table-row md:py-0">
      <th
        scope="row"
        className="col-span-2 flex items-start justify-between gap-2 text-left font-medium text-slate-900 md:table-cell md:px-2 md:py-2 md:align-top"
      >
        <span className="min-w-0">
          <span className="block">{name}</span>
          <span className="font-mono text-xs font-normal text-slate-500">{l.code}</span>
          <ServerError draft={draft} index={i} />
        </span>
        <span className="md:hidden">
          <RemoveLine draft={draft} line={l} name={name} />
        </span>
      </th>
      {EDITS.map((e) => (
        <LineInputCell
          key={e.field}
          draft={draft}
          line={l}
          field={e.field}
          header={e.field === 'price' ? `Price (${moneySymbol()})` : e.header}
          aria={`${e.aria} for ${name}`}
          mode={e.mode}
          cellClass="grid gap-1 md:table-cell md:px-2 md:py-2 md:align-top"
          inputClass={cn('h-8 text-right tabular-nums', e.width)}
        />
      ))}
      <td className="flex items-baseline justify-between md:table-cell md:px-2 md:py-2 md:text-right md:align-top">
        <span className="text-xs text-slate-600 md:hidden">GST</span>
        <span className="whitespace-nowrap md:leading-8">{Number(l.gst) > 0 ? `${l.gst}%` : 'Exempt'}</span>
      </td>
      <td className="flex items-baseline justify-between md:table-cell md:px-2 md:py-2 md:text-right md:align-top">
        <span className="text-xs text-slate-600 md:hidden">Discount</span>
        <Money paise={a?.discountPaise ?? 0} className="md:leading-8" />
      </td>
      <td className="flex items-baseline justify-between font-medium md:table-cell md:px-2 md:py-2 md:text-right md:align-top">
        <span className="text-xs font-normal text-slate-600 md:hidden">Total</span>
        <Money paise={a?.totalPaise ?? 0} className="md:leading-8" />
      </td>
      <td className="hidden md:table-cell md:px-1 md:py-2 md:align-top">
        <RemoveLine draft={draft} line={l} name={name} />
      </td>
    </tr>
  );
}

/** The catalogue's price stands; on a phone the line is a three-column card. */
function QuantityRow({ draft, line: l, index: i }: RowProps) {
  return (
    <tr className="grid grid-cols-[1fr_auto_auto] items-center gap-x-3 gap-y-1.5 border-b border-slate-100 py-3 md:table-row md:py-0">
      <td className="col-span-3 text-xs text-slate-600 md:table-cell md:px-2 md:py-2 md:text-sm md:text-slate-700">
        {ITEM_TYPE_LABEL[l.item_type]}
      </td>
      <th
        scope="row"
        className="col-start-1 row-start-2 text-left font-medium text-slate-900 md:table-cell md:px-2 md:py-2"
      >
        {l.name}
        <ServerError draft={draft} index={i} />
      </th>
      <td className="col-start-2 row-start-2 text-right md:table-cell md:px-2 md:py-2">
        <Money rupees={parsePrice(l.price)} />
        <span className="text-xs text-slate-600 md:hidden"> each</span>
      </td>
      <LineInputCell
        draft={draft}
        line={l}
        field="qty"
        header="Quantity"
        aria={`Quantity for ${l.name}`}
        mode="numeric"
        cellClass="col-start-1 row-start-3 flex items-center gap-2 md:table-cell md:px-2 md:py-2"
        inputClass="h-8 w-16 text-right tabular-nums"
      />
      <td className="col-start-2 row-start-3 text-right font-medium md:table-cell md:px-2 md:py-2">
        <span className="text-xs font-normal text-slate-600 md:hidden">Total </span>
        <Money paise={draft.amounts.lines[i]?.totalPaise ?? 0} />
      </td>
      <td className="col-start-3 row-span-2 row-start-2 md:table-cell md:px-1 md:py-2">
        <RemoveLine draft={draft} line={l} name={l.name} />
      </td>
    </tr>
  );
}

/**
 * The lines of a bill being written: a table on wide screens; on a phone each line becomes a card,
 * so nothing needs sideways scrolling. `edits` says which fields a line edits.
 */
export function BillLines({ draft, edits }: { draft: BillDraft; edits: LineEdits }) {
  const { label, columns } = LAYOUTS[edits];
  const Row = edits === 'all' ? EditableRow : QuantityRow;
  return (
    <table className="block w-full text-sm md:table" aria-label={label}>
      <thead className="hidden border-b border-slate-200 md:table-header-group">
        <tr>
          {columns.map((c) => (
            <th key={c.header} scope="col" className={c.right ? cn(th, 'text-right') : th}>
              {c.header}
            </th>
          ))}
          <th scope="col" className={th}>
            <span className="sr-only">Remove</span>
          </th>
        </tr>
      </thead>
      <tbody className="block md:table-row-group">
        {draft.lines.map((l, i) => (
          <Row key={l.key} draft={draft} line={l} index={i} />
        ))}
      </tbody>
    </table>
  );
}
