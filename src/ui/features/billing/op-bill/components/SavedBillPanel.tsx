import { useEffect, useRef } from 'react';
import { CheckCircle2, X } from 'lucide-react';
import type { Bill } from '@shared/schemas/bills';
import { Card, CardBody, IconButton, Money } from '@/components';
import { BillLinks } from '../../shared/BillLinks';

/** The last bill saved on this screen: its number, amount and the PDF links (view, print, download). */
export function SavedBillPanel({ bill, onDismiss }: { bill: Bill; onDismiss: () => void }) {
  // Focus lands on the result so keyboard and screen-reader users hear the new bill number.
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), [bill.id]);
  return (
    <Card className="mb-5 border-green-200 bg-green-50" role="status" aria-label="Last saved bill">
      <CardBody className="flex flex-wrap items-start gap-3">
        <CheckCircle2 className="mt-0.5 size-6 shrink-0 text-green-600" aria-hidden="true" />
        <div className="min-w-0 flex-1">
          <h2 ref={heading} tabIndex={-1} className="font-semibold text-green-900 focus:outline-none">
            Bill <span data-testid="saved-bill-number">{bill.bill_number}</span> saved
          </h2>
          <p className="mt-0.5 text-sm text-green-900">
            {bill.patient_first_name} {bill.patient_last_name} ({bill.patient_patient_id}) · Final total{' '}
            <strong data-testid="saved-bill-final">
              <Money rupees={bill.final_amount} />
            </strong>
            {bill.paid_amount > 0 && (
              <>
                {' '}
                · Paid <Money rupees={bill.paid_amount} />
              </>
            )}
          </p>
          <div className="mt-3">
            <BillLinks bill={bill} />
          </div>
        </div>
        <IconButton label="Dismiss saved bill notice" icon={<X />} onClick={onDismiss} />
      </CardBody>
    </Card>
  );
}
