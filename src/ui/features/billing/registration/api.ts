import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { RegisterWithBill } from '@shared/schemas/bills';
import { billsApi } from '@shared/api/bills';
import type { CallOutput } from '@shared/api/contract';
import { call } from '@/lib/api';
import { notify } from '@/lib/notify';
import { patientKeys } from '@/lib/patients/queries';
import { possibleDuplicates } from '@/lib/patients/duplicates';
import { isDiscountApprovalAnswer, useInvalidateBills } from '@/lib/bills';

export type Registration = CallOutput<typeof billsApi.registerWithBill>;

/** POST /api/registrations: the patient and the bill in one transaction (both or neither). */
export function useRegisterWithBillMutation() {
  const qc = useQueryClient();
  const invalidateBills = useInvalidateBills();
  return useMutation({
    mutationFn: (body: RegisterWithBill) => call(billsApi.registerWithBill, { body }),
    onSuccess: ({ patient, bill }, body) => {
      notify.success(
        body.patient_id ? 'Bill created for the existing patient' : 'Patient registered and bill created',
        `${patient.first_name} ${patient.last_name} (${patient.patient_id}) · Bill ${bill.bill_number}`,
      );
      return Promise.all([invalidateBills(), qc.invalidateQueries({ queryKey: patientKeys.all })]);
    },
    onError: (err) => {
      if (!isDiscountApprovalAnswer(err) && !possibleDuplicates(err))
        notify.error('Failed to register patient and create bill. Please try again.', err);
    },
  });
}
