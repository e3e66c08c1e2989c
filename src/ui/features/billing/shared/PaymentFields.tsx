import type { PaymentMethod } from '@shared/billing';
import { METHOD_REFERENCE } from '@shared/schemas/payments';
import { formatMoney, moneySymbol } from '@/lib/format';
import { FormField, Input, Select } from '@/components';

const METHOD_LABEL: Record<PaymentMethod, string> = {
  cash: 'Cash',
  card: 'Card',
  upi: 'UPI',
  bank_transfer: 'Bank Transfer',
  cheque: 'Cheque',
  insurance: 'Insurance',
};

/** Why the amount received cannot be saved, or undefined (empty means nothing taken yet). */
export function amountPaidError(raw: string, finalPaise: number): string | undefined {
  const t = raw.trim();
  if (t === '') return undefined;
  if (!/^\d+(\.\d{0,2})?$/.test(t)) return 'Enter an amount in rupees, at most 2 decimals';
  if (Math.round(Number(t) * 100) > finalPaise)
    return `Cannot be more than the final total (${formatMoney(finalPaise)})`;
  return undefined;
}

/** The amount received as the API takes it, or undefined when none was entered. */
export function amountPaid(raw: string): number | undefined {
  const t = raw.trim();
  return t === '' ? undefined : Number(t);
}

export interface PaymentFieldsProps<M extends PaymentMethod> {
  methods: readonly M[];
  method: M;
  onMethodChange: (m: M) => void;
  amount: string;
  onAmountChange: (v: string) => void;
  amountError?: string;
  reference: string;
  onReferenceChange: (v: string) => void;
  onReferenceBlur: () => void;
  referenceError?: string;
}

/** Payment method (spec 9: cash default; card, upi; bank transfer on the registration screen) and money taken now. */
export function PaymentFields<M extends PaymentMethod>({
  methods,
  method,
  onMethodChange,
  amount,
  onAmountChange,
  amountError,
  reference,
  onReferenceChange,
  onReferenceBlur,
  referenceError,
}: PaymentFieldsProps<M>) {
  const need = METHOD_REFERENCE[method];
  return (
    <div className="grid items-start gap-3 sm:grid-cols-2">
      <FormField label="Payment Method">
        <Select
          value={method}
          onChange={(e) => {
            const m = methods.find((x) => x === e.target.value);
            if (m) onMethodChange(m);
          }}
          options={methods.map((m) => ({ value: m, label: METHOD_LABEL[m] }))}
        />
      </FormField>
      <FormField
        label={`Amount received now (${moneySymbol()})`}
        error={amountError}
        hint="Optional: leave empty if nothing is paid yet"
      >
        <Input inputMode="decimal" value={amount} onChange={(e) => onAmountChange(e.target.value)} placeholder="0.00" />
      </FormField>
      {method !== 'cash' && (
        <FormField
          label={need.label}
          required={need.required}
          error={referenceError}
          hint={need.required ? 'Required when money is taken now' : 'Optional'}
          className="sm:col-span-2"
        >
          <Input
            value={reference}
            maxLength={100}
            onChange={(e) => onReferenceChange(e.target.value)}
            onBlur={onReferenceBlur}
          />
        </FormField>
      )}
    </div>
  );
}
