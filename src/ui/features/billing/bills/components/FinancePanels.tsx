import { useState } from 'react';
import { TAX_CATEGORIES, TAX_CATEGORY_LABELS, GST_STATES, splitTax, taxRateOf } from '@shared/gst';
import { rupeesToPaise } from '@shared/money';
import { ROLES, ROLE_LABELS } from '@shared/roles';
import { localDate } from '@shared/time';
import type { BillingSettings } from '@shared/schemas/billing-settings';
import { Button, Card, CardBody, CardHeader, Checkbox, FormField, Input, Money, Select } from '@/components';
import { methodLabel } from '@/lib/billText';
import { formatMoney, useLabFormat } from '@/lib/format';
import { useBillingSettings, useLedgerPeriod, useUpdateBillingSettings } from '../api';
import { fieldErrors } from '@/lib/forms';

function useThisMonth() {
  const today = localDate(useLabFormat().timeZone);
  return { from: `${today.slice(0, 8)}01`, to: today };
}

/** Financial Overview: this month's money from the ledger (received, refunded, net, pending and bounced cheques). */
export function FinancialOverview() {
  const { from, to } = useThisMonth();
  const q = useLedgerPeriod(from, to);
  const s = q.data?.summary;
  const rows: [string, number | undefined][] = [
    ['Received', s?.received],
    ['Refunded', s?.refunded],
    ['Net', s?.net],
    ['Cheques pending', s?.pending],
    ['Cheques bounced', s?.failed],
  ];
  return (
    <Card>
      <CardHeader title="Financial Overview" as="h2" description="This month, from the payments ledger" />
      <CardBody>
        {q.error ? (
          <p role="alert" className="text-[13px] text-red-700">
            The figures could not be loaded.{' '}
            <button type="button" className="underline" onClick={() => void q.refetch()}>
              Retry
            </button>
          </p>
        ) : (
          <dl className="grid gap-1.5 text-sm">
            {rows.map(([label, v]) => (
              <div key={label} className="flex justify-between gap-3">
                <dt className="text-slate-600">{label}</dt>
                <dd className={label === 'Net' ? 'font-semibold text-slate-900' : 'text-slate-900'}>
                  {v === undefined ? '…' : <Money rupees={v} />}
                </dd>
              </div>
            ))}
          </dl>
        )}
      </CardBody>
    </Card>
  );
}

/** Payment Methods: this month's money received by each method, with its share. */
export function PaymentMethodsPanel() {
  const { from, to } = useThisMonth();
  const q = useLedgerPeriod(from, to);
  const by = q.data?.summary.by_method ?? [];
  const total = by.reduce((a, m) => a + m.amount, 0);
  return (
    <Card>
      <CardHeader title="Payment Methods" as="h2" description="Received this month, by method" />
      <CardBody>
        {q.isPending ? (
          <p className="text-sm text-slate-600">Loading…</p>
        ) : by.length === 0 ? (
          <p className="text-sm text-slate-600">No money received this month yet.</p>
        ) : (
          <ul className="grid gap-2 text-sm" aria-label="Payment methods this month">
            {by.map((m) => {
              const pct = total > 0 ? Math.round((m.amount / total) * 1000) / 10 : 0;
              return (
                <li key={m.method}>
                  <div className="flex justify-between gap-2">
                    <span>
                      {methodLabel(m.method)} <span className="text-slate-500">({m.count})</span>
                    </span>
                    <span>
                      <Money rupees={m.amount} /> <span className="text-slate-500">{pct}%</span>
                    </span>
                  </div>
                  <div className="mt-1 h-1.5 rounded bg-slate-100" aria-hidden>
                    <div className="h-1.5 rounded bg-primary-600" style={{ width: `${pct}%` }} />
                  </div>
                </li>
              );
            })}
          </ul>
        )}
      </CardBody>
    </Card>
  );
}

/** Tax Calculator: the server's own GST rule (src/shared/gst.ts) on an amount and a tax category. */
export function TaxCalculator() {
  const [amount, setAmount] = useState('1000');
  const [category, setCategory] = useState<string>('gst_18');
  const [inter, setInter] = useState(false);
  const valid = /^\d+(\.\d{1,2})?$/.test(amount.trim());
  const t = valid ? splitTax(rupeesToPaise(Number(amount)), taxRateOf(category), inter) : null;
  return (
    <Card>
      <CardHeader title="Tax Calculator" as="h2" description="GST as bills and invoices work it out" />
      <CardBody className="grid gap-3">
        <FormField label="Taxable amount (₹)" error={valid ? undefined : 'Enter rupees, at most 2 decimals'}>
          <Input inputMode="decimal" value={amount} onChange={(e) => setAmount(e.target.value)} />
        </FormField>
        <FormField label="Tax category">
          <Select
            value={category}
            onChange={(e) => setCategory(e.target.value)}
            options={TAX_CATEGORIES.map((c) => ({ value: c, label: TAX_CATEGORY_LABELS[c] }))}
          />
        </FormField>
        <Checkbox
          label="Recipient in another state (IGST)"
          checked={inter}
          onChange={(e) => setInter(e.target.checked)}
        />
        {t && (
          <dl className="grid gap-1 text-sm" aria-label="Tax worked out">
            {(inter
              ? [['IGST', t.igstPaise]]
              : [
                  ['CGST', t.cgstPaise],
                  ['SGST', t.sgstPaise],
                ]
            ).map(([label, paise]) => (
              <div key={label} className="flex justify-between">
                <dt className="text-slate-600">
                  {label} ({inter ? t.ratePercent : t.ratePercent / 2}%)
                </dt>
                <dd>{formatMoney(paise as number)}</dd>
              </div>
            ))}
            <div className="flex justify-between font-semibold">
              <dt>Total with tax</dt>
              <dd>{formatMoney(t.taxablePaise + t.taxPaise)}</dd>
            </div>
          </dl>
        )}
      </CardBody>
    </Card>
  );
}

const STATE_OPTIONS = Object.entries(GST_STATES).map(([code, name]) => ({ value: code, label: `${name} (${code})` }));
const LIMIT_ROLES = ROLES.filter((r) => r !== 'superadmin' && r !== 'admin');

/** Settings: the lab's GSTIN and state, the days a patient's bill is due in, discount limits per role. */
export function BillingSettingsPanel({ canEdit }: { canEdit: boolean }) {
  const q = useBillingSettings();
  return (
    <Card id="billing-settings" className="scroll-mt-4">
      <CardHeader title="Settings" as="h2" description="GST, due dates and discount limits" />
      <CardBody>
        {q.data ? (
          <SettingsForm key={JSON.stringify(q.data)} settings={q.data} canEdit={canEdit} />
        ) : q.error ? (
          <p role="alert" className="text-[13px] text-red-700">
            The settings could not be loaded.
          </p>
        ) : (
          <p className="text-sm text-slate-600">Loading…</p>
        )}
      </CardBody>
    </Card>
  );
}

function SettingsForm({ settings, canEdit }: { settings: BillingSettings; canEdit: boolean }) {
  const save = useUpdateBillingSettings();
  const [gstin, setGstin] = useState(settings.gstin ?? '');
  const [state, setState] = useState(settings.gst_state_code ?? '');
  const [days, setDays] = useState(String(settings.bill_due_days));
  const [limits, setLimits] = useState<Record<string, string>>(
    Object.fromEntries(LIMIT_ROLES.map((r) => [r, String(settings.discount_ceilings[r] ?? '')])),
  );
  const [errors, setErrors] = useState<Record<string, string>>({});
  return (
    <form
      className="grid gap-3"
      onSubmit={(e) => {
        e.preventDefault();
        setErrors({});
        save.mutate(
          {
            gstin: gstin.trim() || null,
            gst_state_code: state || null,
            bill_due_days: days as unknown as number,
            discount_ceilings: Object.fromEntries(
              Object.entries(limits)
                .filter(([, v]) => v.trim() !== '')
                .map(([r, v]) => [r, v as unknown as number]),
            ),
          },
          {
            onError: (err) => setErrors(fieldErrors(err)),
          },
        );
      }}
    >
      <fieldset disabled={!canEdit} className="grid gap-3">
        <FormField label="Lab GSTIN" error={errors.gstin} hint="On every tax invoice; none: invoices cannot be issued">
          <Input value={gstin} onChange={(e) => setGstin(e.target.value)} />
        </FormField>
        <FormField label="Lab state" error={errors.gst_state_code} hint="CGST + SGST inside it, IGST outside">
          <Select
            value={state}
            onChange={(e) => setState(e.target.value)}
            placeholder="From the GSTIN"
            options={STATE_OPTIONS}
          />
        </FormField>
        <FormField label="Patient bills due in (days)" error={errors.bill_due_days}>
          <Input inputMode="numeric" value={days} onChange={(e) => setDays(e.target.value)} />
        </FormField>
        <fieldset className="grid gap-2">
          <legend className="mb-1 text-sm font-medium text-slate-900">Most discount % without an approver</legend>
          {LIMIT_ROLES.map((r) => (
            <FormField
              key={r}
              label={ROLE_LABELS[r]}
              error={errors[`discount_ceilings.${r}`]}
              className="grid grid-cols-[1fr_6rem] items-center gap-2"
            >
              <Input
                inputMode="decimal"
                value={limits[r] ?? ''}
                placeholder="—"
                onChange={(e) => setLimits((l) => ({ ...l, [r]: e.target.value }))}
              />
            </FormField>
          ))}
        </fieldset>
      </fieldset>
      {canEdit ? (
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? 'Saving...' : 'Save Settings'}
        </Button>
      ) : (
        <p className="text-[13px] text-slate-600">Changing these needs the system settings permission.</p>
      )}
    </form>
  );
}
