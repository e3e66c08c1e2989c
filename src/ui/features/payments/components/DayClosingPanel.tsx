import { useState } from 'react';
import { Lock, Printer } from 'lucide-react';
import { closingsApi } from '@shared/api/payments';
import { localDate } from '@shared/time';
import type { Closing } from '@shared/schemas/payments';
import {
  Button,
  FileLinkButton,
  Card,
  CardBody,
  CardHeader,
  DateText,
  ErrorPanel,
  FormField,
  Input,
  LoadingState,
  Money,
  Select,
} from '@/components';
import { contractUrl } from '@/lib/api';
import { formatMoney, useLabFormat } from '@/lib/format';
import { drawerDifferenceText, rupeesToPaise } from '@shared/money';
import { useCurrentUser } from '@/lib/session';
import { can } from '@/lib/roles';
import { CloseDayConfirm } from './CloseDayConfirm';
import { useCloseDay, useClosing, useClosingHistory, useClosingSettings, useUpdateClosingSettings } from '../api';
import { fieldErrors } from '@/lib/forms';

const money = /^\d+(\.\d{1,2})?$/;

/**
 * Day-end closing: the signed-in cashier's collections for a lab day from the ledger,
 * the opening float and the counted cash they enter; saved and locked once closed, with a PDF.
 */
export function DayClosingPanel() {
  const me = useCurrentUser();
  const f = useLabFormat();
  const today = localDate(f.timeZone);
  const [date, setDate] = useState(today);
  const [float, setFloat] = useState('');
  const [counted, setCounted] = useState('');
  const [notes, setNotes] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const closing = useClosing(date);
  const close = useCloseDay();
  const history = useClosingHistory();
  const settings = useClosingSettings();
  const updateSettings = useUpdateClosingSettings();
  const c = closing.data;

  const expected =
    c && money.test(float.trim()) ? Math.round((Number(float) + c.cash - c.cash_refunds) * 100) / 100 : null;

  // The fields are checked first; the close itself waits for the cashier to confirm the day and figures.
  const [confirming, setConfirming] = useState(false);
  const submit = () => {
    const e: Record<string, string> = {};
    if (!money.test(float.trim())) e.opening_float = 'Enter the opening float in rupees (0 if none)';
    if (!money.test(counted.trim())) e.counted_cash = 'Enter the cash counted in the drawer, in rupees';
    setErrors(e);
    if (Object.keys(e).length) return;
    setConfirming(true);
  };

  const confirmClose = () =>
    close.mutate(
      { date, opening_float: Number(float), counted_cash: Number(counted), notes: notes.trim() || null },
      {
        onSuccess: () => {
          setConfirming(false);
          setFloat('');
          setCounted('');
          setNotes('');
        },
        onError: (err) => {
          setConfirming(false);
          setErrors(fieldErrors(err));
        },
      },
    );

  return (
    <section aria-label="Day-end closing" className="grid gap-5">
      {confirming && c && (
        <CloseDayConfirm
          closing={c}
          day={date}
          float={Number(float)}
          counted={Number(counted)}
          busy={close.isPending}
          refuseLater={settings.data?.closed_day_payments === 'refuse'}
          onConfirm={confirmClose}
          onCancel={() => setConfirming(false)}
        />
      )}
      <Card className="min-w-0">
        <CardHeader
          icon={<Lock />}
          title="Day-End Closing"
          description={`${me.first_name} ${me.last_name}: your collections for a lab day, from the ledger. Once closed, the report is locked.`}
        />
        <CardBody className="grid gap-4">
          <FormField label="Day" className="sm:w-44" error={errors.date}>
            <Input type="date" value={date} max={today} onChange={(e) => setDate(e.target.value)} />
          </FormField>
          {closing.isError ? (
            <ErrorPanel title="Error Loading the Closing" query={closing} />
          ) : !c ? (
            <LoadingState text="Loading the day's collections..." />
          ) : (
            <>
              <Figures c={c} expected={c.closed ? c.expected_cash : expected} />
              {c.closed ? (
                <div
                  className="flex flex-wrap items-center gap-3 text-[13px] text-slate-700"
                  data-testid="closing-locked"
                >
                  <span className="inline-flex flex-wrap items-center gap-1.5">
                    <Lock className="size-4 shrink-0" />
                    Closed by {c.closed_by_name} at <DateText value={c.closed_at} withTime />
                  </span>
                  <FileLinkButton
                    href={contractUrl(closingsApi.pdf, { params: { id: c.id! } })}
                    variant="outline"
                    size="sm"
                    icon={<Printer />}
                  >
                    Closing PDF
                  </FileLinkButton>
                </div>
              ) : (
                <div className="grid gap-3 sm:grid-cols-3">
                  <FormField label="Opening float (₹)" error={errors.opening_float}>
                    <Input inputMode="decimal" value={float} onChange={(e) => setFloat(e.target.value)} />
                  </FormField>
                  <FormField label="Counted cash (₹)" error={errors.counted_cash}>
                    <Input inputMode="decimal" value={counted} onChange={(e) => setCounted(e.target.value)} />
                  </FormField>
                  <FormField label="Notes" error={errors.notes}>
                    <Input value={notes} onChange={(e) => setNotes(e.target.value)} />
                  </FormField>
                  <div className="sm:col-span-3">
                    <Button onClick={submit} disabled={close.isPending}>
                      <Lock />
                      Close Day
                    </Button>
                    {errors.form && (
                      <p role="alert" className="mt-2 text-[13px] text-red-700">
                        {errors.form}
                      </p>
                    )}
                  </div>
                </div>
              )}
            </>
          )}
          {settings.data && (
            <div className="grid gap-2 border-t border-slate-100 pt-3 text-[13px] sm:flex sm:items-end sm:gap-4">
              <FormField label="Money taken after the day is closed" className="sm:w-72">
                <Select
                  value={settings.data.closed_day_payments}
                  disabled={!can(me, 'system_settings') || updateSettings.isPending}
                  options={[
                    { value: 'next_day', label: 'Take them, counted on the next day' },
                    { value: 'refuse', label: 'Refuse them' },
                  ]}
                  onChange={(e) => updateSettings.mutate(e.target.value as 'refuse' | 'next_day')}
                />
              </FormField>
              <p className="text-slate-600">
                The lab’s setting{can(me, 'system_settings') ? '' : ' (an administrator changes it)'}.
              </p>
            </div>
          )}
        </CardBody>
      </Card>
      {history.data && history.data.length > 0 && (
        <Card className="min-w-0">
          <CardHeader title="Closed Days" description={can(me, 'manage_bills') ? 'Every cashier' : 'Yours'} />
          <div className="overflow-x-auto">
            <table className="w-full min-w-[640px] text-[13px]" aria-label="Closed days">
              <thead className="bg-slate-50 text-left text-slate-600">
                <tr>
                  <th className="px-3 py-2 font-medium">Day</th>
                  <th className="px-3 py-2 font-medium">Cashier</th>
                  <th className="px-3 py-2 text-right font-medium">Net</th>
                  <th className="px-3 py-2 text-right font-medium">Expected cash</th>
                  <th className="px-3 py-2 text-right font-medium">Counted</th>
                  <th className="px-3 py-2 text-right font-medium">Difference</th>
                  <th className="px-3 py-2 font-medium">PDF</th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {history.data.map((h) => (
                  <tr key={h.id}>
                    <td className="px-3 py-2">
                      <DateText value={h.date} />
                    </td>
                    <td className="px-3 py-2">{h.user_name}</td>
                    <td className="px-3 py-2 text-right">
                      <Money rupees={h.net} />
                    </td>
                    <td className="px-3 py-2 text-right">
                      <Money rupees={h.expected_cash} />
                    </td>
                    <td className="px-3 py-2 text-right">
                      <Money rupees={h.counted_cash} />
                    </td>
                    <td className={`px-3 py-2 text-right ${h.difference && h.difference < 0 ? 'text-red-700' : ''}`}>
                      {h.difference === null ? '—' : drawerDifferenceText(rupeesToPaise(h.difference), formatMoney)}
                    </td>
                    <td className="px-3 py-2">
                      <a
                        className="text-primary-700 underline"
                        href={contractUrl(closingsApi.pdf, { params: { id: h.id! } })}
                        target="_blank"
                        rel="noreferrer"
                      >
                        PDF
                      </a>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </Card>
      )}
    </section>
  );
}

function Figures({ c, expected }: { c: Closing; expected: number | null }) {
  const rows: [string, number | null, string?][] = [
    ['Cash', c.cash, 'closing-cash'],
    ['Card', c.card],
    ['UPI', c.upi],
    ['Bank transfer', c.bank_transfer],
    ['Cheques cleared', c.cheque],
    ['Insurance', c.insurance],
    ['Refunds', c.refunds, 'closing-refunds'],
    ['Net collections', c.net, 'closing-net'],
    ['Cheques pending', c.pending_cheques],
    ['Opening float', c.opening_float],
    ['Expected cash', expected, 'closing-expected'],
    ['Counted cash', c.counted_cash],
    ['Difference', c.difference, 'closing-difference'],
  ];
  return (
    <dl className="grid grid-cols-2 gap-x-6 gap-y-2 text-[13px] sm:grid-cols-3 lg:grid-cols-5">
      {rows.map(([label, v, id]) => (
        <div key={label} className="min-w-0 border-b border-slate-100 py-1">
          <dt className="text-slate-600">{label}</dt>
          <dd
            data-testid={id}
            className={`font-semibold tabular-nums ${label === 'Difference' && v !== null && v < 0 ? 'text-red-700' : 'text-slate-900'}`}
          >
            {v === null ? (
              '—'
            ) : label === 'Difference' ? (
              drawerDifferenceText(rupeesToPaise(v), formatMoney)
            ) : (
              <Money rupees={v} />
            )}
          </dd>
        </div>
      ))}
    </dl>
  );
}
