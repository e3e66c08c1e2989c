import { useState } from 'react';
import { PAYMENT_METHODS, type PaymentMethod } from '@shared/billing';
import { METHOD_REFERENCE } from '@shared/schemas/payments';
import type { Bill } from '@shared/schemas/bills';
import { Button, Checkbox, FormDialog, FormField, Input, Money, Select } from '@/components';
import { errorMessage } from '@/lib/api';
import { methodLabel } from '@/lib/billText';
import { findBillByNumber, usePatientAdvance, useRecordPayment, useSpendAdvance } from '../api';
import { useFieldForm } from '@/lib/forms';

const METHOD_OPTIONS = PAYMENT_METHODS.map((m) => ({ value: m, label: methodLabel(m) }));

interface Draft {
  billNumber: string;
  bill: Bill | null;
  amount: string;
  method: PaymentMethod;
  reference: string;
  bank: string;
  advance: boolean;
}

/** A fresh form: on the listed bill it was opened for, the amount at its balance; else empty. */
function draftFor(bill: Bill | null): Draft {
  return {
    billNumber: bill?.bill_number ?? '',
    bill,
    amount: bill && bill.balance > 0 ? bill.balance.toFixed(2) : '',
    method: 'cash',
    reference: '',
    bank: '',
    advance: false,
  };
}

/** Record Payment (spec: Payment Management): money received against a bill, with the method's own reference. */
export function RecordPaymentDialog({
  open,
  onOpenChange,
  initialBill = null,
}: {
  open: boolean;
  onOpenChange: (o: boolean) => void;
  /** Collect Payment on a listed bill: the dialog opens on it, the amount at its balance (give the dialog a key per bill). */
  initialBill?: Bill | null;
}) {
  const {
    values: { billNumber, bill, amount, method, reference, bank, advance },
    set,
    setValues,
    errors,
    setErrors,
    showErrors,
  } = useFieldForm(() => draftFor(initialBill), { resetFor: open ? (initialBill ?? 'new') : null });
  const [looking, setLooking] = useState(false);
  const record = useRecordPayment();
  const spend = useSpendAdvance();
  const onAccount = usePatientAdvance(bill?.patient_id ?? null).data?.advance ?? 0;
  const fromAdvance = bill ? Math.min(onAccount, bill.balance) : 0;
  const need = METHOD_REFERENCE[method];

  const lookUp = async () => {
    setLooking(true);
    try {
      const b = await findBillByNumber(billNumber);
      setValues((v) => ({ ...v, bill: b, ...(b ? { amount: b.balance > 0 ? b.balance.toFixed(2) : '' } : {}) }));
      setErrors(b ? {} : { bill: `No bill numbered ${billNumber.trim()}` });
    } catch (e) {
      setErrors({ bill: errorMessage(e) });
    } finally {
      setLooking(false);
    }
  };

  const submit = () => {
    const e: Record<string, string | undefined> = {};
    if (!bill) e.bill = 'Find the bill first';
    if (!/^\d+(\.\d{1,2})?$/.test(amount.trim()) || Number(amount) <= 0)
      e.amount = 'Enter an amount in rupees, more than zero, at most 2 decimals';
    if (need.required && !reference.trim()) e.reference = `${need.label} is required`;
    if (need.bank && !bank.trim()) e.bank = 'Bank is required for a cheque';
    if (bill && !e.amount && Math.round(Number(amount) * 100) > Math.round(bill.balance * 100) && !advance)
      e.amount = `Amount exceeds the balance of ₹${bill.balance.toFixed(2)}: tick "keep the rest as advance" or lower it`;
    setErrors(e);
    if (Object.keys(e).length || !bill) return;
    record.mutate(
      {
        bill_id: bill.id,
        amount: Number(amount),
        method,
        reference: reference.trim() || null,
        bank: need.bank ? bank.trim() : null,
        advance,
        notes: null,
      },
      { onSuccess: () => onOpenChange(false), onError: showErrors },
    );
  };

  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title="Record Payment"
      description="Money received against a bill. A cheque stays pending until it clears."
      busy={record.isPending || spend.isPending}
      onSubmit={submit}
      submitLabel="Record Payment"
      busyLabel="Recording..."
      error={errors.form}
    >
      <div className="grid gap-4">
        <div className="flex items-end gap-2">
          <FormField label="Bill number" className="flex-1" error={errors.bill ?? errors.bill_id}>
            <Input
              value={billNumber}
              onChange={(e) => set('billNumber', e.target.value)}
              onKeyDown={(e) => {
                if (e.key === 'Enter') void lookUp();
              }}
              placeholder="OPB..."
            />
          </FormField>
          <Button variant="outline" onClick={() => void lookUp()} disabled={looking || !billNumber.trim()}>
            Find
          </Button>
        </div>
        {bill && (
          <p className="rounded-md bg-slate-50 px-3 py-2 text-[13px] text-slate-700" data-testid="record-bill">
            {bill.patient_first_name} {bill.patient_last_name} · total <Money rupees={bill.final_amount} /> · paid{' '}
            <Money rupees={bill.paid_amount} /> · balance <Money rupees={bill.balance} className="font-semibold" />
          </p>
        )}
        {bill && fromAdvance > 0 && (
          <div className="flex flex-wrap items-center justify-between gap-2 rounded-md border border-green-200 bg-green-50 px-3 py-2 text-[13px] text-green-900">
            <span>
              The patient has <Money rupees={onAccount} className="font-semibold" /> on account as advance.
            </span>
            <Button
              size="sm"
              variant="outline"
              disabled={spend.isPending}
              onClick={() =>
                spend.mutate(
                  { bill_id: bill.id, amount: fromAdvance, notes: null },
                  {
                    onSuccess: () => onOpenChange(false),
                    onError: showErrors,
                  },
                )
              }
            >
              Pay ₹{fromAdvance.toFixed(2)} from advance
            </Button>
          </div>
        )}
        <div className="grid gap-4 sm:grid-cols-2">
          <FormField label="Amount (₹)" error={errors.amount}>
            <Input inputMode="decimal" value={amount} onChange={(e) => set('amount', e.target.value)} />
          </FormField>
          <FormField label="Method" error={errors.method}>
            <Select
              value={method}
              options={METHOD_OPTIONS}
              onChange={(e) => set('method', e.target.value as PaymentMethod)}
            />
          </FormField>
          <FormField label={need.label} required={need.required} error={errors.reference}>
            <Input value={reference} onChange={(e) => set('reference', e.target.value)} />
          </FormField>
          {need.bank && (
            <FormField label="Bank" required error={errors.bank}>
              <Input value={bank} onChange={(e) => set('bank', e.target.value)} />
            </FormField>
          )}
        </div>
        <Checkbox
          label="Keep any amount beyond the balance as an advance on the patient's account"
          checked={advance}
          onChange={(e) => set('advance', e.target.checked)}
        />
      </div>
    </FormDialog>
  );
}
