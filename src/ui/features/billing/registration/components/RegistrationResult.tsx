import { useEffect, useRef } from 'react';
import { CheckCircle2, X } from 'lucide-react';
import { Card, CardBody, IconButton, Money } from '@/components';
import { BillLinks } from '../../shared/BillLinks';
import type { Registration } from '../api';

/** What the registration created: the patient's new code and the bill, with the bill's PDF links. */
export function RegistrationResult({ result, onDismiss }: { result: Registration; onDismiss: () => void }) {
  const { patient, bill } = result;
  const heading = useRef<HTMLHeadingElement>(null);
  // Focus lands on the result so keyboard and screen-reader users hear the new codes.
  useEffect(() => heading.current?.focus(), [bill.id]);
  return (
    <Card className="mb-5 border-green-200 bg-green-50" role="status" aria-label="Registration result">
      <CardBody className="flex flex-wrap items-start gap-3">
        <CheckCircle2 className="mt-0.5 size-6 shrink-0 text-green-600" aria-hidden="true" />
        <div className="min-w-0 flex-1">
          <h2 ref={heading} tabIndex={-1} className="font-semibold text-green-900 focus:outline-none">
            Patient registered and bill created
          </h2>
          <dl className="mt-2 grid gap-x-6 gap-y-1 text-sm text-green-900 sm:grid-cols-[auto_1fr]">
            <dt>Patient</dt>
            <dd>
              {patient.first_name} {patient.last_name} · Patient ID{' '}
              <strong className="font-mono" data-testid="registered-patient-id">
                {patient.patient_id}
              </strong>
            </dd>
            <dt>Bill</dt>
            <dd>
              <strong className="font-mono" data-testid="registered-bill-number">
                {bill.bill_number}
              </strong>{' '}
              · Final total{' '}
              <strong data-testid="registered-bill-final">
                <Money rupees={bill.final_amount} />
              </strong>
              {bill.paid_amount > 0 && (
                <>
                  {' '}
                  · Paid <Money rupees={bill.paid_amount} />
                </>
              )}
            </dd>
          </dl>
          <div className="mt-3">
            <BillLinks bill={bill} />
          </div>
        </div>
        <IconButton label="Dismiss registration result" icon={<X />} onClick={onDismiss} />
      </CardBody>
    </Card>
  );
}
