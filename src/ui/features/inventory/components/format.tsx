import type { ReactNode } from 'react';
import { formatLabDate } from '@shared/time';
import type { AlertPriority, AlertStatus, ExpiryState } from '@shared/inventory';
import { Badge, type BadgeTone } from '@/components';
import { humanize, useLabFormat } from '@/lib/format';

/** A YYYY-MM-DD day (an expiry) in the lab's date format; the day itself, not shifted by a time zone. */
export function DayText({ value }: { value: string | null }) {
  const f = useLabFormat();
  if (!value) return <span className="text-slate-500">—</span>;
  return (
    <time dateTime={value} className="tabular-nums whitespace-nowrap">
      {formatLabDate(value, { ...f, timeZone: 'UTC' })}
    </time>
  );
}

/** One colour per meaning (docs/ui.md): green fine, amber needs attention, red act now, grey inactive. */
const TONES: Record<string, BadgeTone> = {
  in_stock: 'green',
  good: 'green',
  normal: 'green',
  active: 'green',
  resolved: 'green',
  low_stock: 'amber',
  reorder: 'amber',
  expiring_soon: 'amber',
  approaching_minimum: 'amber',
  acknowledged: 'blue',
  high: 'amber',
  overstocked: 'blue',
  overstock: 'blue',
  out_of_stock: 'red',
  expired: 'red',
  low: 'red',
  critical: 'red',
  inactive: 'grey',
  discontinued: 'grey',
};

export function StatusBadge({ value, label }: { value: string; label?: ReactNode }) {
  return <Badge tone={TONES[value] ?? 'grey'}>{label ?? humanize(value)}</Badge>;
}

const PRIORITY_TONES: Record<AlertPriority, BadgeTone> = { critical: 'red', high: 'red', medium: 'amber', low: 'grey' };
export function PriorityBadge({ value }: { value: AlertPriority }) {
  return <Badge tone={PRIORITY_TONES[value]}>{humanize(value)}</Badge>;
}

const ALERT_STATUS_TONES: Record<AlertStatus, BadgeTone> = { active: 'red', acknowledged: 'amber', resolved: 'green' };
export function AlertStatusBadge({ value }: { value: AlertStatus }) {
  return <Badge tone={ALERT_STATUS_TONES[value]}>{humanize(value)}</Badge>;
}

export const EXPIRY_LABELS: Record<ExpiryState, string> = {
  expired: 'Expired',
  expiring_soon: 'Expiring soon',
  good: 'Good',
};

/** "120 tests" with Indian grouping. */
export function qty(n: number, unit: string): string {
  return `${n.toLocaleString('en-IN')} ${unit}`;
}

/** An item's stock in its unit, and the usable part under it when some of it is not usable. */
export function StockCell({ item: i }: { item: { current_stock: number; usable_stock: number; unit: string } }) {
  return (
    <span className="whitespace-nowrap tabular-nums">
      {qty(i.current_stock, i.unit)}
      {i.usable_stock !== i.current_stock && (
        <span className="block text-[12px] text-red-700">{i.usable_stock} usable</span>
      )}
    </span>
  );
}
