import { useState, type FormEvent, type ReactNode } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { IndianRupee, Undo2 } from 'lucide-react';
import { PAYMENT_METHODS, type PaymentMethod } from '@shared/billing';
import { METHOD_REFERENCE, requireMethodReference, type Bill } from '@shared/schemas/bills';
import { rupeesToPaise } from '@shared/money';
import { formatMoney, moneySymbol } from '@/lib/format';
import { Button, FormField, Input, Select } from '@/components';
import { useRecordPaymentMutation } from '../api';
import { isPaymentMethod, METHOD_OPTIONS, paiseOf } from '@/lib/billText';
import { applyServerErrors, fieldNamed } from '@/lib/forms';

/** Rupees typed by hand: positive, at most 2 decimals, not above `maxPaise` (the server checks the same). */
function amountField(maxPaise: number, tooMuch: string) {
  return z
    .string()
    .trim()
    .min(1, 'Amount is required')
    .regex(/^\d+(\.\d{1,2})?$/, 'Enter an amount in rupees, at most 2 decimals')
    .refine((v) => Number(v) > 0, 'Amount must be more than zero')
    .refine((v) => rupeesToPaise(Number(v)) <= maxPaise, tooMuch);
}

const methodField = z.enum(PAYMENT_METHODS, { error: 'Choose a payment method' });

const paymentSchema = (balancePaise: number) =>
  z
    .object({
      amount: amountField(balancePaise, `Amount exceeds the balance of ${formatMoney(balancePaise)}`),
      method: methodField,
      reference: z.string().trim().max(100, 'Reference must be at most 100 characters'),
      bank: z.string().trim().max(100, 'Bank must be at most 100 characters'),
    })
    .superRefine((p, ctx) => requireMethodReference(p, ctx, { reference: 'reference', bank: 'bank' }));

const refundSchema = (paidPaise: number) =>
  z.object({
    amount: amountField(paidPaise, `A refund cannot exceed the ${formatMoney(paidPaise)} paid`),
    method: methodField,
    reason: z.string().trim().min(1, 'A refund needs a reason').max(300, 'Reason must be at most 300 characters'),
  });

type PaymentValues = z.infer<ReturnType<typeof paymentSchema>>;
type RefundValues = z.infer<ReturnType<typeof refundSchema>>;

const rupeeText = (paise: number) => (paise / 100).toFixed(2);

/** Record Payment: the amount starts at the balance (the usual case: the patient settles the bill). */
export function RecordPaymentForm({ bill }: { bill: Bill }) {
  const balancePaise = paiseOf(bill.balance);
  const pay = useRecordPaymentMutation(bill.id);
  const method: PaymentMethod = isPaymentMethod(bill.payment_method) ? bill.payment_method : 'cash';
  const form = useForm<PaymentValues>({
    resolver: zodResolver(paymentSchema(balancePaise)),
    defaultValues: { amount: rupeeText(balancePaise), method, reference: '', bank: '' },
    mode: 'onBlur',
  });
  const errors = form.formState.errors;
  const need = METHOD_REFERENCE[useWatch({ control: form.control, name: 'method' })];
  const submit = form.handleSubmit((v) =>
    pay.mutate(
      {
        amount: Number(v.amount),
        method: v.method,
        reference: v.reference || undefined,
        bank: need.bank ? v.bank || undefined : undefined,
      },
      {
        onError: (err) =>
          applyServerErrors(err, form.setError, fieldNamed(['amount', 'method', 'reference', 'bank'] as const)),
      },
    ),
  );
  return (
    <PaymentFormBox
      titleId="record-payment-title"
      title="Record Payment"
      against={`Balance ${formatMoney(balancePaise)}`}
      onSubmit={submit}
    >
      <div className="grid items-start gap-3 sm:grid-cols-3">
        <FormField label={`Amount (${moneySymbol()})`} required error={errors.amount?.message}>
          <Input inputMode="decimal" autoComplete="off" {...form.register('amount')} />
        </FormField>
        <FormField label="Method" required error={errors.method?.message}>
          <Select options={METHOD_OPTIONS} {...form.register('method')} />
        </FormField>
        <FormField label={need.label} required={need.required} error={errors.reference?.message}>
          <Input autoComplete="off" {...form.register('reference')} />
        </FormField>
        {need.bank && (
          <FormField label="Bank" required error={errors.bank?.message}>
            <Input autoComplete="off" {...form.register('bank')} />
          </FormField>
        )}
      </div>
      <div className="mt-3 flex justify-end">
        <Button type="submit" loading={pay.isPending} loadingText="Recording...">
          <IndianRupee />
          Record Payment
        </Button>
      </div>
    </PaymentFormBox>
  );
}

/** Refund: a negative payment with a reason, up to what was paid. Folded away: refunds are rare. */
export function RefundForm({ bill }: { bill: Bill }) {
  const [open, setOpen] = useState(false);
  const paidPaise = paiseOf(bill.paid_amount);
  const refund = useRecordPaymentMutation(bill.id);
  const method: PaymentMethod = isPaymentMethod(bill.payment_method) ? bill.payment_method : 'cash';
  const form = useForm<RefundValues>({
    resolver: zodResolver(refundSchema(paidPaise)),
    defaultValues: { amount: '', method, reason: '' },
    mode: 'onBlur',
  });
  const errors = form.formState.errors;
  if (!open) {
    return (
      <Button variant="outline" size="sm" onClick={() => setOpen(true)}>
        <Undo2 />
        Refund
      </Button>
    );
  }
  const submit = form.handleSubmit((v) =>
    refund.mutate(
      { amount: -Number(v.amount), method: v.method, reason: v.reason },
      {
        onError: (err) => applyServerErrors(err, form.setError, fieldNamed(['amount', 'method', 'reason'] as const)),
      },
    ),
  );
  return (
    <PaymentFormBox
      titleId="refund-title"
      title="Refund"
      against={`Paid so far ${formatMoney(paidPaise)}`}
      onSubmit={submit}
    >
      <div className="grid items-start gap-3 sm:grid-cols-[10rem_10rem_1fr]">
        <FormField label={`Refund amount (${moneySymbol()})`} required error={errors.amount?.message}>
          <Input inputMode="decimal" autoComplete="off" {...form.register('amount')} />
        </FormField>
        <FormField label="Refund method" required error={errors.method?.message}>
          <Select options={METHOD_OPTIONS} {...form.register('method')} />
        </FormField>
        <FormField label="Reason" required error={errors.reason?.message}>
          <Input autoComplete="off" {...form.register('reason')} />
        </FormField>
      </div>
      <div className="mt-3 flex justify-end gap-2">
        <Button variant="outline" onClick={() => setOpen(false)} disabled={refund.isPending}>
          Cancel
        </Button>
        <Button type="submit" variant="destructive" loading={refund.isPending} loadingText="Recording...">
          <Undo2 />
          Record Refund
        </Button>
      </div>
    </PaymentFormBox>
  );
}

/** A money form on the bill: bordered, titled by what it records and the figure it is checked against. */
function PaymentFormBox({
  titleId,
  title,
  against,
  onSubmit,
  children,
}: {
  titleId: string;
  title: string;
  against: string;
  onSubmit: (e: FormEvent<HTMLFormElement>) => unknown;
  children: ReactNode;
}) {
  return (
    <form
      onSubmit={(e) => void onSubmit(e)}
      noValidate
      aria-labelledby={titleId}
      className="rounded-lg border border-slate-200 p-3"
    >
      <h3 id={titleId} className="mb-2 text-sm font-semibold text-slate-900">
        {title}
        <span className="ml-2 font-normal text-slate-600">{against}</span>
      </h3>
      {children}
    </form>
  );
}
