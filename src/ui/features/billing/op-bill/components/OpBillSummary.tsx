import { Printer, Save } from 'lucide-react';
import type { BillAmounts } from '@shared/billing';
import { OP_BILL_PAYMENT_METHODS } from '@shared/billing';
import { Button, Card, CardBody, CardHeader, FormField, Input } from '@/components';
import { BillFigures } from '../../shared/BillFigures';
import { parsePercent } from '../../shared/lines';
import { PaymentFields } from '../../shared/PaymentFields';

export type OpPaymentMethod = (typeof OP_BILL_PAYMENT_METHODS)[number];

export interface OpBillSummaryProps {
  amounts: BillAmounts;
  hasDoctor: boolean;
  discount: string;
  tax: string;
  onDiscount: (v: string) => void;
  onTax: (v: string) => void;
  onPercentBlur: (which: 'discount' | 'tax') => void;
  discountError?: string;
  taxError?: string;
  method: OpPaymentMethod;
  onMethod: (m: OpPaymentMethod) => void;
  amount: string;
  onAmount: (v: string) => void;
  amountError?: string;
  /** Patient and doctor chosen: Save and Print are disabled until then (spec 2.8). */
  ready: boolean;
  busy: 'save' | 'print' | null;
  onSave: () => void;
  onPrint: () => void;
}

export function OpBillSummary(p: OpBillSummaryProps) {
  return (
    <Card>
      <CardHeader title="Bill Summary" />
      <CardBody className="grid gap-5 md:grid-cols-2">
        <div className="grid content-start gap-3">
          <div className="grid grid-cols-2 gap-3">
            <FormField label="Discount %" error={p.discountError}>
              <Input
                inputMode="decimal"
                value={p.discount}
                onChange={(e) => p.onDiscount(e.target.value)}
                onBlur={() => p.onPercentBlur('discount')}
                onFocus={(e) => e.target.select()}
              />
            </FormField>
            <FormField label="Tax %" error={p.taxError}>
              <Input
                inputMode="decimal"
                value={p.tax}
                onChange={(e) => p.onTax(e.target.value)}
                onBlur={() => p.onPercentBlur('tax')}
                onFocus={(e) => e.target.select()}
              />
            </FormField>
          </div>
          <PaymentFields
            methods={OP_BILL_PAYMENT_METHODS}
            method={p.method}
            onMethodChange={p.onMethod}
            amount={p.amount}
            onAmountChange={p.onAmount}
            amountError={p.amountError}
          />
        </div>
        <div className="grid content-start gap-4">
          <BillFigures
            amounts={p.amounts}
            showConsultation={p.hasDoctor}
            discountPercent={parsePercent(p.discount)}
            taxPercent={parsePercent(p.tax)}
          />
          <div className="grid gap-2">
            <div className="flex flex-wrap justify-end gap-2">
              <Button
                variant="outline"
                onClick={p.onPrint}
                disabled={!p.ready || p.busy !== null}
                loading={p.busy === 'print'}
                loadingText="Saving..."
                aria-describedby={p.ready ? undefined : 'op-bill-ready-hint'}
              >
                <Printer aria-hidden="true" />
                Print
              </Button>
              <Button
                onClick={p.onSave}
                disabled={!p.ready || p.busy !== null}
                loading={p.busy === 'save'}
                loadingText="Saving..."
                aria-describedby={p.ready ? undefined : 'op-bill-ready-hint'}
              >
                <Save aria-hidden="true" />
                Save
              </Button>
            </div>
            {!p.ready && (
              <p id="op-bill-ready-hint" className="text-right text-[13px] text-slate-600">
                Select a patient and a doctor to save or print the bill.
              </p>
            )}
          </div>
        </div>
      </CardBody>
    </Card>
  );
}
