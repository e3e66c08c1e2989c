import { formatDate, formatDateTime, formatMoney, useLabFormat } from '@/lib/format';
import { cn } from '@/lib/cn';

export interface MoneyProps {
  /** Integer paise (the server's unit inside); pass `rupees` instead for API amounts in rupees. */
  paise?: number | null;
  rupees?: number | null;
  className?: string;
}

/** ₹1,23,456.00 in the lab's currency (System Settings). Tabular digits so columns of amounts line up. */
export function Money({ paise, rupees, className }: MoneyProps) {
  const value = paise ?? (rupees === null || rupees === undefined ? null : Math.round(rupees * 100));
  return (
    <span className={cn('tabular-nums whitespace-nowrap', className)}>{value === null ? '—' : formatMoney(value)}</span>
  );
}

export interface DateTextProps {
  value: string | Date | null | undefined;
  /** Also show the time (24 h unless the lab chose 12 h). */
  withTime?: boolean;
  className?: string;
}

/** A date in the lab's format and timezone, with the full ISO value as a tooltip for precision. */
export function DateText({ value, withTime = false, className }: DateTextProps) {
  const f = useLabFormat();
  const text = withTime ? formatDateTime(value, f) : formatDate(value, f);
  const iso = value instanceof Date ? value.toISOString() : (value ?? undefined);
  return (
    <time dateTime={iso} className={cn('tabular-nums whitespace-nowrap', className)}>
      {text}
    </time>
  );
}
