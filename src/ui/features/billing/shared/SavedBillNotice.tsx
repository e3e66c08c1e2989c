import { useEffect, useRef, type ReactNode } from 'react';
import { CheckCircle2, X } from 'lucide-react';
import { Card, CardBody, IconButton, Money } from '@/components';
import { BillLinks } from './BillLinks';

interface SavedBill {
  id: number;
  bill_number: string;
  final_amount: number;
  paid_amount: number;
}

export interface SavedBillNoticeProps {
  bill: SavedBill;
  /** The notice's accessible name. */
  label: string;
  heading: ReactNode;
  dismissLabel: string;
  onDismiss: () => void;
  /** What was saved, between the heading and the bill's PDF links. */
  children: ReactNode;
}

/** What a billing screen just saved, with the bill's PDF links (view, print, download). */
export function SavedBillNotice({ bill, label, heading, dismissLabel, onDismiss, children }: SavedBillNoticeProps) {
  // Focus lands on the result so keyboard and screen-reader users hear the new bill number.
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => headingRef.current?.focus(), [bill.id]);
  return (
    <Card className="mb-5 border-green-200 bg-green-50" role="status" aria-label={label}>
      <CardBody className="flex flex-wrap items-start gap-3">
        <CheckCircle2 className="mt-0.5 size-6 shrink-0 text-green-600" aria-hidden="true" />
        <div className="min-w-0 flex-1">
          <h2 ref={headingRef} tabIndex={-1} className="font-semibold text-green-900 focus:outline-none">
            {heading}
          </h2>
          {children}
          <div className="mt-3">
            <BillLinks bill={bill} />
          </div>
        </div>
        <IconButton label={dismissLabel} icon={<X />} onClick={onDismiss} />
      </CardBody>
    </Card>
  );
}

/** " · Paid ₹Y" after a saved bill's total, once something was paid. */
export function PaidNote({ bill }: { bill: SavedBill }) {
  return (
    bill.paid_amount > 0 && (
      <>
        {' '}
        · Paid <Money rupees={bill.paid_amount} />
      </>
    )
  );
}
