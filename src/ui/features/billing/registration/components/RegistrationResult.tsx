import { Money } from '@/components';
import { PaidNote, SavedBillNotice } from '../../shared/SavedBillNotice';
import type { Registration } from '../api';

/** What the registration created: the patient's new code (or the existing patient's) and the bill, with the bill's PDF links. */
export function RegistrationResult({
  result,
  existing = false,
  onDismiss,
}: {
  result: Registration;
  /** The bill is for a patient already registered (picked from the duplicates offered). */
  existing?: boolean;
  onDismiss: () => void;
}) {
  const { patient, bill } = result;
  return (
    <SavedBillNotice
      bill={bill}
      label="Registration result"
      heading={existing ? 'Bill created for the existing patient' : 'Patient registered and bill created'}
      dismissLabel="Dismiss registration result"
      onDismiss={onDismiss}
    >
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
          <PaidNote bill={bill} />
        </dd>
      </dl>
    </SavedBillNotice>
  );
}
