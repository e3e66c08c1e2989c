import type { Bill } from '@shared/schemas/bills';
import { Money } from '@/components';
import { PaidNote, SavedBillNotice } from '../../shared/SavedBillNotice';

/** The last bill saved on this screen: its number, patient and amount, with the PDF links. */
export function SavedBillPanel({ bill, onDismiss }: { bill: Bill; onDismiss: () => void }) {
  return (
    <SavedBillNotice
      bill={bill}
      label="Last saved bill"
      heading={
        <>
          Bill <span data-testid="saved-bill-number">{bill.bill_number}</span> saved
        </>
      }
      dismissLabel="Dismiss saved bill notice"
      onDismiss={onDismiss}
    >
      <p className="mt-0.5 text-sm text-green-900">
        {bill.patient_first_name} {bill.patient_last_name} ({bill.patient_patient_id}) · Final total{' '}
        <strong data-testid="saved-bill-final">
          <Money rupees={bill.final_amount} />
        </strong>
        <PaidNote bill={bill} />
      </p>
    </SavedBillNotice>
  );
}
