import { useState } from 'react';
import { PAYMENT_METHODS, PAYMENT_METHOD_LABELS } from '@shared/billing';
import type { Centre, CentreBill } from '@shared/schemas/centres';
import { Button, DataTable, Dialog, FormField, Input, Money, Select, queryState, type Column } from '@/components';
import { Tabs } from '@/components/Tabs';
import { useFieldForm } from '@/lib/forms';
import { formatDate, useLabFormat } from '@/lib/format';
import { useCurrentUser } from '@/lib/session';
import { can } from '@/lib/roles';
import { useApproveNextBillMutation, useCentreBills, useCentreSettings, useReceiveCentrePaymentMutation } from '../api';
import { CentreStatementTab } from './CentreStatementTab';
import { ShareRulesTab } from './ShareRulesTab';
import { bindText } from '@/lib/bindText';

type Tab = 'bills' | 'statement' | 'share';

/** A centre's account: its unpaid bills and a payment against them, its statement, its share rules. */
export function CentreAccountDialog({ centre, onClose }: { centre: Centre | null; onClose: () => void }) {
  const [tab, setTab] = useState<Tab>('bills');
  return (
    <Dialog
      open={centre !== null}
      onOpenChange={(o) => !o && onClose()}
      size="xl"
      title={centre?.name ?? ''}
      description={
        centre
          ? `${centre.credit_days} credit days · ${centre.credit_limit === null ? 'no credit limit' : `credit limit ₹${centre.credit_limit.toLocaleString('en-IN')}`} · ${centre.discount_percent}% off the lab’s prices`
          : undefined
      }
    >
      {centre && (
        <>
          {centre.hold.on_hold && (
            <p role="alert" className="mx-4 mt-3 rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-900">
              <strong>On hold.</strong> {centre.hold.reason} New bills are refused and its reports held.
            </p>
          )}
          <Tabs
            label={`${centre.name}: account`}
            value={tab}
            onValueChange={(v) => setTab(v as Tab)}
            tabs={[
              { value: 'bills', label: 'Bills & Payment', content: tab === 'bills' ? <Bills centre={centre} /> : null },
              {
                value: 'statement',
                label: 'Statement',
                content: tab === 'statement' ? <CentreStatementTab centre={centre} /> : null,
              },
              { value: 'share', label: 'Share', content: tab === 'share' ? <ShareRulesTab centre={centre} /> : null },
            ]}
          />
        </>
      )}
    </Dialog>
  );
}

function Bills({ centre }: { centre: Centre }) {
  const fmt = useLabFormat();
  const me = useCurrentUser();
  const bills = useCentreBills(centre.id);
  const columns: Column<CentreBill>[] = [
    {
      key: 'bill',
      header: 'Bill',
      cell: (b) => (
        <div className="min-w-0">
          <span className="block font-mono text-[13px]">{b.bill_number}</span>
          <span className="block text-[13px] text-slate-600">{b.patient_name}</span>
        </div>
      ),
    },
    { key: 'date', header: 'Date', cell: (b) => formatDate(b.created_at, fmt), hideOnMobile: true },
    {
      key: 'due_date',
      header: 'Due',
      cell: (b) =>
        b.days_overdue > 0 ? (
          <span className="text-red-700">{b.days_overdue} days late</span>
        ) : (
          formatDate(b.due_date, fmt)
        ),
    },
    { key: 'due', header: 'Owed', align: 'right', cell: (b) => <Money rupees={b.due} /> },
  ];
  return (
    <div className="grid gap-4 pt-3">
      <DataTable
        columns={columns}
        rows={bills.data}
        getRowId={(b) => b.id}
        caption={`Unpaid bills of ${centre.name}`}
        {...queryState(bills)}
        errorTitle="Error Loading Bills"
        empty={{ title: 'Nothing owed', hint: 'Every bill of this centre is paid.' }}
      />
      {can(me, 'manage_bills') && centre.balance > 0 && <PaymentForm centre={centre} bills={bills.data ?? []} />}
      {can(me, 'manage_lab') && <Approve centre={centre} />}
    </div>
  );
}

/** A payment by the centre: the oldest bills first, or only the bills ticked. */
function PaymentForm({ centre, bills }: { centre: Centre; bills: CentreBill[] }) {
  const receive = useReceiveCentrePaymentMutation();
  const { values, set, errors, showErrors } = useFieldForm(
    () => ({ amount: '', method: 'bank_transfer', reference: '', billIds: [] as number[] }),
    { resetFor: centre.id },
  );
  const text = bindText(values, set);
  const toggle = (id: number) =>
    set('billIds', values.billIds.includes(id) ? values.billIds.filter((b) => b !== id) : [...values.billIds, id]);
  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    receive.mutate(
      {
        id: centre.id,
        body: {
          amount: values.amount as unknown as number,
          method: values.method as (typeof PAYMENT_METHODS)[number],
          reference: values.reference || null,
          ...(values.billIds.length ? { bill_ids: values.billIds } : {}),
        },
      },
      { onSuccess: () => set('amount', ''), onError: showErrors },
    );
  };
  return (
    <form onSubmit={submit} className="grid gap-3 rounded-md border border-slate-200 p-3 sm:grid-cols-3">
      <h3 className="text-sm font-semibold text-slate-900 sm:col-span-3">Payment received from the centre</h3>
      {errors.form && (
        <p role="alert" className="text-sm text-red-700 sm:col-span-3">
          {errors.form}
        </p>
      )}
      <FormField label="Amount (₹)" error={errors.amount} required>
        <Input inputMode="decimal" {...text('amount')} />
      </FormField>
      <FormField label="Method" error={errors.method}>
        <Select
          {...text('method')}
          options={PAYMENT_METHODS.filter((m) => m !== 'insurance').map((m) => ({
            value: m,
            label: PAYMENT_METHOD_LABELS[m],
          }))}
        />
      </FormField>
      <FormField label="Reference" error={errors.reference} hint="UTR, cheque number">
        <Input {...text('reference')} />
      </FormField>
      <fieldset className="sm:col-span-3">
        <legend className="text-[13px] text-slate-700">
          Settle {values.billIds.length ? 'these bills, in this order' : 'the oldest bills first, or tick bills'}
        </legend>
        <div className="mt-1 flex flex-wrap gap-x-4 gap-y-1">
          {bills.map((b) => (
            <label key={b.id} className="inline-flex items-center gap-1.5 text-[13px]">
              <input type="checkbox" checked={values.billIds.includes(b.id)} onChange={() => toggle(b.id)} />
              <span className="font-mono">{b.bill_number}</span>
            </label>
          ))}
        </div>
        {errors.bill_ids && <p className="text-[13px] text-red-700">{errors.bill_ids}</p>}
      </fieldset>
      <div className="sm:col-span-3">
        <Button type="submit" disabled={receive.isPending}>
          {receive.isPending ? 'Recording...' : 'Record Payment'}
        </Button>
      </div>
    </form>
  );
}

/** When the lab lets an approver pass a breach: approve this centre's next bill, with a reason. */
function Approve({ centre }: { centre: Centre }) {
  const settings = useCentreSettings();
  const approve = useApproveNextBillMutation();
  const { values, set, errors, showErrors } = useFieldForm(() => ({ reason: '' }), { resetFor: centre.id });
  if (settings.data?.on_breach !== 'approver') return null;
  return (
    <form
      className="grid gap-3 rounded-md border border-amber-200 bg-amber-50 p-3 sm:grid-cols-[1fr_auto] sm:items-end"
      onSubmit={(e) => {
        e.preventDefault();
        approve.mutate(
          { id: centre.id, reason: values.reason },
          { onSuccess: () => set('reason', ''), onError: showErrors },
        );
      }}
    >
      <FormField label="Approve the next bill past a breach: reason" error={errors.reason ?? errors.form}>
        <Input value={values.reason} onChange={(e) => set('reason', e.target.value)} />
      </FormField>
      <Button type="submit" variant="outline" disabled={approve.isPending}>
        {approve.isPending ? 'Approving...' : 'Approve Next Bill'}
      </Button>
    </form>
  );
}
