import type { Closing } from '@shared/schemas/payments';
import { drawerDifferenceText, rupeesToPaise } from '@shared/money';
import { FormDialog } from '@/components';
import { formatDate, formatMoney, useLabFormat } from '@/lib/format';

/**
 * "Close the day?": a closing is locked once saved, so the cashier sees the day and the figures being
 * closed (collections, refunds, the drawer) before confirming. Money taken later counts on the next day.
 */
export function CloseDayConfirm({
  closing: c,
  day,
  float,
  counted,
  busy,
  refuseLater,
  onConfirm,
  onCancel,
}: {
  closing: Closing;
  day: string;
  float: number;
  counted: number;
  busy: boolean;
  /** The lab refuses money taken after the close (its setting) instead of counting it on the next day. */
  refuseLater: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const f = useLabFormat();
  const expected = Math.round((float + c.cash - c.cash_refunds) * 100) / 100;
  const money = (rupees: number) => formatMoney(rupeesToPaise(rupees));
  const rows: [string, string][] = [
    ['Collections', money(c.collections)],
    ['Refunds', money(c.refunds)],
    ['Net', money(c.net)],
    ['Expected cash', money(expected)],
    ['Counted cash', money(counted)],
    ['Difference', drawerDifferenceText(rupeesToPaise(counted - expected), formatMoney)],
  ];
  return (
    <FormDialog
      open
      onOpenChange={(o) => !o && onCancel()}
      title={`Close ${formatDate(day, f)}?`}
      description={`${c.user_name}'s day: ${c.payments_count} payment${c.payments_count === 1 ? '' : 's'}. Once closed the report is locked; ${refuseLater ? 'money taken later that day is refused (the lab’s setting)' : 'money taken later counts on your next open day'}.`}
      size="sm"
      busy={busy}
      busyLabel="Closing..."
      submitLabel="Close Day"
      onSubmit={onConfirm}
    >
      <dl className="grid grid-cols-2 gap-x-4 gap-y-1 text-sm" data-testid="close-day-figures">
        {rows.map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="text-slate-600">{label}</dt>
            <dd className="text-right font-medium tabular-nums text-slate-900">{value}</dd>
          </div>
        ))}
      </dl>
    </FormDialog>
  );
}
