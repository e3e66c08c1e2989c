import type { ReactNode } from 'react';
import type { LedgerEntry } from '@shared/schemas/payments';
import { Badge, Button, DateText, Dialog, FormDialog, FormField, Input, Money } from '@/components';
import { methodLabel } from '@/lib/billText';
import { useRefund, useSettleCheque } from '../api';
import { STATUS_TONE } from './status';
import { useFieldForm } from '@/lib/forms';

/** A ledger row in full, with its actions: refund (a completed payment), clear or bounce (a pending cheque). */
export function PaymentDetailDialog({
  payment,
  onClose,
  canManage,
}: {
  payment: LedgerEntry | null;
  onClose: () => void;
  canManage: boolean;
}) {
  const {
    values: { amount, reason },
    set,
    errors,
    setErrors,
    showErrors: onError,
  } = useFieldForm(() => ({ amount: '', reason: '' }), { resetFor: payment });
  const refund = useRefund();
  const settle = useSettleCheque();
  const p = payment;
  // An advance spent on this bill (amount 0, advance_amount below 0) is returned to the patient's account.
  const spentAdvance = p?.kind === 'advance' && p.refund_of === null;
  const left = p ? Math.round(((spentAdvance ? -p.advance_amount : p.amount) - p.refunded_amount) * 100) / 100 : 0;
  const refundable = canManage && (p?.kind === 'payment' || spentAdvance) && p?.status === 'completed' && left > 0;
  const pendingCheque = canManage && p?.status === 'pending';

  const close = onClose;

  const bounce = () => {
    if (!p) return;
    if (!reason.trim()) return setErrors({ reason: 'Say why the cheque bounced' });
    settle.mutate({ id: p.id, bounce: reason.trim() }, { onSuccess: close, onError });
  };
  const recordRefund = () => {
    if (!p) return;
    const e: Record<string, string | undefined> = {};
    if (!/^\d+(\.\d{1,2})?$/.test(amount.trim()) || Number(amount) <= 0)
      e.amount = 'Enter an amount in rupees, more than zero';
    else if (Math.round(Number(amount) * 100) > Math.round(left * 100)) e.amount = `At most ₹${left.toFixed(2)}`;
    if (!reason.trim()) e.reason = 'A refund needs a reason';
    setErrors(e);
    if (Object.keys(e).length) return;
    refund.mutate({ id: p.id, body: { amount: Number(amount), reason: reason.trim() } }, { onSuccess: close, onError });
  };

  const rows: [string, ReactNode][] = p
    ? [
        ['Bill', p.bill_number],
        ['Patient', `${p.patient_name}${p.patient_code ? ` (${p.patient_code})` : ''}`],
        ['Amount', <Money key="a" rupees={p.amount} />],
        ['Method', methodLabel(p.method)],
        [
          'Status',
          <Badge key="s" tone={STATUS_TONE[p.status]}>
            {p.status}
          </Badge>,
        ],
        [p.method === 'cheque' ? 'Cheque number' : 'Reference', p.reference ?? '—'],
        ...(p.bank ? ([['Bank', p.bank]] as [string, ReactNode][]) : []),
        [
          'Counted on (lab day)',
          p.payment_date ? <DateText key="d" value={p.payment_date} /> : 'not yet (pending or bounced)',
        ],
        ['Recorded', <DateText key="c" value={p.created_at} withTime />],
        ['Processed by', p.processed_by_name ?? '—'],
        ...(p.advance_amount
          ? ([['Advance kept', <Money key="v" rupees={p.advance_amount} />]] as [string, ReactNode][])
          : []),
        ...(p.refunded_amount
          ? ([['Refunded', <Money key="r" rupees={p.refunded_amount} />]] as [string, ReactNode][])
          : []),
        ...(p.reason ? ([[p.kind === 'refund' ? 'Reason' : 'Note', p.reason]] as [string, ReactNode][]) : []),
      ]
    : [];

  const dialog = {
    open: p !== null,
    onOpenChange: (o: boolean) => !o && close(),
    title: p
      ? `${p.kind === 'refund' ? 'Refund' : p.kind === 'advance' ? 'Advance applied' : 'Payment'} ${p.payment_number}`
      : '',
    size: 'lg' as const,
  };
  const facts = (
    <dl className="grid grid-cols-1 gap-x-6 gap-y-2 text-[13px] sm:grid-cols-2">
      {rows.map(([k, v]) => (
        <div key={k} className="flex justify-between gap-3 border-b border-slate-100 py-1">
          <dt className="text-slate-600">{k}</dt>
          <dd className="text-right font-medium text-slate-900">{v}</dd>
        </div>
      ))}
    </dl>
  );

  // A pending cheque is settled: bounced with a reason (the form), or cleared with one click.
  if (p && pendingCheque)
    return (
      <FormDialog
        {...dialog}
        busy={settle.isPending}
        onSubmit={bounce}
        submitLabel="Mark Bounced"
        submitVariant="destructive"
        cancelLabel="Close"
        error={errors.form}
      >
        <div className="grid gap-5">
          {facts}
          <section className="grid gap-3 rounded-md border border-amber-200 bg-amber-50 p-3">
            <p className="text-[13px] text-amber-900">
              This cheque is pending. Clear it when the bank pays; mark it bounced if it is returned: the bill’s balance
              comes back.
            </p>
            <div>
              <Button
                disabled={settle.isPending}
                onClick={() => settle.mutate({ id: p.id, bounce: null }, { onSuccess: close, onError })}
              >
                Mark Cleared
              </Button>
            </div>
            <FormField label="Bounce reason" error={errors.reason}>
              <Input
                value={reason}
                onChange={(e) => set('reason', e.target.value)}
                placeholder="e.g. Insufficient funds"
              />
            </FormField>
          </section>
        </div>
      </FormDialog>
    );

  if (p && refundable)
    return (
      <FormDialog
        {...dialog}
        busy={refund.isPending}
        onSubmit={recordRefund}
        submitLabel="Record Refund"
        cancelLabel="Close"
        error={errors.form}
      >
        <div className="grid gap-5">
          {facts}
          <section className="grid gap-3 rounded-md border border-slate-200 p-3">
            <h3 className="text-sm font-semibold text-slate-900">
              {spentAdvance ? 'Return to the patient’s account' : 'Refund'} (up to <Money rupees={left} />)
            </h3>
            <div className="grid gap-3 sm:grid-cols-2">
              <FormField label="Refund amount (₹)" error={errors.amount}>
                <Input inputMode="decimal" value={amount} onChange={(e) => set('amount', e.target.value)} />
              </FormField>
              <FormField label="Refund reason" error={errors.reason}>
                <Input value={reason} onChange={(e) => set('reason', e.target.value)} />
              </FormField>
            </div>
          </section>
        </div>
      </FormDialog>
    );

  return <Dialog {...dialog}>{p && facts}</Dialog>;
}
