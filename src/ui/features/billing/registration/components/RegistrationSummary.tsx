import type { BillAmounts, PaymentMethod } from '@shared/billing';
import { Card, CardBody, CardHeader, FormField, Input } from '@/components';
import { BillFigures } from '../../shared/BillFigures';
import { parsePercent } from '../../shared/lines';
import { PaymentFields } from '../../shared/PaymentFields';

/** Spec 9: the combined registration screen adds netbanking to cash, card and upi. */
export const REGISTRATION_PAYMENT_METHODS = [
  'cash',
  'card',
  'upi',
  'netbanking',
] as const satisfies readonly PaymentMethod[];
export type RegistrationPaymentMethod = (typeof REGISTRATION_PAYMENT_METHODS)[number];

export interface RegistrationSummaryProps {
  amounts: BillAmounts;
  doctorVisit: boolean;
  discount: string;
  tax: string;
  onDiscount: (v: string) => void;
  onTax: (v: string) => void;
  onPercentBlur: (which: 'discount' | 'tax') => void;
  discountError?: string;
  taxError?: string;
  method: RegistrationPaymentMethod;
  onMethod: (m: RegistrationPaymentMethod) => void;
  amount: string;
  onAmount: (v: string) => void;
  amountError?: string;
}

/** Bill Summary of spec 2.11: whole-number discount and tax (0-100), figures by the shared bill rule. */
export function RegistrationSummary(p: RegistrationSummaryProps) {
  return (
    <Card>
      <CardHeader title="Bill Summary" />
      <CardBody className="grid gap-5 md:grid-cols-2">
        <div className="grid content-start gap-3">
          <div className="grid grid-cols-2 gap-3">
            <FormField label="Discount %" error={p.discountError} hint="Whole number, 0 to 100">
              <Input
                inputMode="numeric"
                value={p.discount}
                onChange={(e) => p.onDiscount(e.target.value)}
                onBlur={() => p.onPercentBlur('discount')}
                onFocus={(e) => e.target.select()}
              />
            </FormField>
            <FormField label="Tax %" error={p.taxError} hint="Whole number, 0 to 100">
              <Input
                inputMode="numeric"
                value={p.tax}
                onChange={(e) => p.onTax(e.target.value)}
                onBlur={() => p.onPercentBlur('tax')}
                onFocus={(e) => e.target.select()}
              />
            </FormField>
          </div>
          <PaymentFields
            methods={REGISTRATION_PAYMENT_METHODS}
            method={p.method}
            onMethodChange={p.onMethod}
            amount={p.amount}
            onAmountChange={p.onAmount}
            amountError={p.amountError}
          />
        </div>
        <BillFigures
          amounts={p.amounts}
          showConsultation={p.doctorVisit}
          discountPercent={parsePercent(p.discount)}
          taxPercent={parsePercent(p.tax)}
        />
      </CardBody>
    </Card>
  );
}
