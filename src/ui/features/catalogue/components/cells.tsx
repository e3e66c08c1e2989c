import type { ReactNode } from 'react';
import { Badge, Dialog, Money, type Column } from '@/components';

/** The spec's Tests Included cell: the first two names, then "+N more"; or "No tests defined". */
export function TestsIncluded({ names }: { names: readonly string[] }) {
  if (names.length === 0) return <span className="text-slate-500 italic">No tests defined</span>;
  const shown = names.slice(0, 2);
  const more = names.length - shown.length;
  return (
    <span className="flex flex-wrap items-center gap-1" title={names.join(', ')}>
      {shown.map((n, i) => (
        <span key={`${n}-${i}`} className="rounded bg-slate-100 px-1.5 py-0.5 text-xs text-slate-800">
          {n}
        </span>
      ))}
      {more > 0 && <span className="text-xs font-medium text-primary-700">+{more} more</span>}
    </span>
  );
}

/** Long descriptions stay one or two lines in the table; the details dialog shows all of it. */
export function Clamp({ text }: { text: string | null }) {
  if (!text) return <span className="text-slate-400">—</span>;
  return (
    <span className="line-clamp-2 max-w-xs text-slate-700" title={text}>
      {text}
    </span>
  );
}

/** Phones hide the Status column: an inactive item says so next to its name instead. */
export function MobileStatus({ status }: { status: string }) {
  if (status === 'active') return null;
  return <Badge status={status} className="mt-0.5 md:hidden" />;
}

export const dash = (v: string | number | null | undefined): ReactNode =>
  v === null || v === undefined || v === '' ? <span className="text-slate-400">—</span> : v;

interface SetItem {
  name: string;
  code: string;
  status: string;
  price: number;
  base_price: number;
  description: string | null;
}

/** The first column of Test Profiles and Test Packages: the name, the code under it, inactive on a phone. */
export function setNameColumn<T extends SetItem>(header: string): Column<T> {
  return {
    key: 'name',
    header,
    cell: (p) => (
      <div className="min-w-36">
        <div className="font-medium text-slate-900">{p.name}</div>
        <div className="font-mono text-xs text-slate-500">{p.code}</div>
        <MobileStatus status={p.status} />
      </div>
    ),
  };
}

export function descriptionColumn<T extends SetItem>(): Column<T> {
  return { key: 'description', header: 'Description', cell: (p) => <Clamp text={p.description} />, hideOnMobile: true };
}

/** The View dialog's first fields of a profile or package: code, status, price, base price. */
export function setPriceFields(p: SetItem): Details['fields'] {
  return [
    { label: 'Code', value: <span className="font-mono">{p.code}</span> },
    { label: 'Status', value: <Badge status={p.status} /> },
    { label: 'Price', value: <Money rupees={p.price} /> },
    { label: 'Base Price', value: <Money rupees={p.base_price} /> },
  ];
}

/** What the View dialog shows of one item. */
export interface Details {
  fields: { label: string; value: ReactNode; wide?: boolean }[];
  lists?: { label: string; items: readonly { id: number; name: string; code: string }[]; empty: string }[];
}

export interface DetailsDialogProps extends Details {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  footer?: ReactNode;
}

/** The View action: every field of one item and what it includes, read-only. */
export function DetailsDialog({ open, onOpenChange, title, fields, lists = [], footer }: DetailsDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title={title} size="lg" footer={footer}>
      <dl className="grid grid-cols-2 gap-x-6 gap-y-3">
        {fields.map((f) => (
          <div key={f.label} className={f.wide ? 'col-span-2' : undefined}>
            <dt className="text-xs font-medium tracking-wide text-slate-500 uppercase">{f.label}</dt>
            <dd className="mt-0.5 text-sm break-words text-slate-900">{f.value}</dd>
          </div>
        ))}
      </dl>
      {lists.map((l) => (
        <section key={l.label} className="mt-4">
          <h3 className="text-xs font-medium tracking-wide text-slate-500 uppercase">
            {l.label} ({l.items.length})
          </h3>
          {l.items.length === 0 ? (
            <p className="mt-1 text-sm text-slate-600">{l.empty}</p>
          ) : (
            <ul className="mt-1 divide-y divide-slate-100 rounded-md border border-slate-200">
              {l.items.map((i) => (
                <li key={i.id} className="flex items-center justify-between gap-3 px-3 py-1.5 text-sm">
                  <span className="text-slate-900">{i.name}</span>
                  <span className="font-mono text-xs text-slate-500">{i.code}</span>
                </li>
              ))}
            </ul>
          )}
        </section>
      ))}
    </Dialog>
  );
}
