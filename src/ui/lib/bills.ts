import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { BillCreate } from '@shared/schemas/bills';
import type { User } from '@shared/schemas/users';
import { billsApi } from '@shared/api/bills';
import { doctorsApi } from '@shared/api/doctors';
import { ApiError, call, contractUrl } from '@/lib/api';
import { notify } from '@/lib/notify';
import { shellKeys } from '@/lib/session';

/** Query keys of the billing screens (OP Bill, Register Patient with Bill, Bills List). */
export const billKeys = {
  all: ['bills'] as const,
  lists: () => ['bills', 'list'] as const,
  detail: (id: number) => ['bills', 'detail', id] as const,
  summary: () => ['bills', 'summary'] as const,
  doctors: ['doctors'] as const,
};

/** A doctor or lab technician as GET /api/doctors/options answers (consultation_fee in rupees). */
export type Doctor = User;

/** GET /api/doctors/options: only active doctors and lab technicians (spec 2.8, 6). */
export function useDoctors() {
  return useQuery({
    queryKey: billKeys.doctors,
    queryFn: ({ signal }) => call(doctorsApi.options, {}, signal).then((r) => r.doctors),
    staleTime: 60_000,
  });
}

/** The server's PDF of a bill: inline (for viewing and printing) or as a download. */
export function billPdfUrl(billId: number, download = false, portalPin = false): string {
  return contractUrl(billsApi.pdf, {
    params: { id: billId },
    query: { download: download ? '1' : undefined, portal_pin: portalPin ? '1' : undefined },
  });
}

/** After a bill is created every bill list and figure is stale, and so is the dashboard. */
export function useInvalidateBills() {
  const qc = useQueryClient();
  return () =>
    Promise.all([
      qc.invalidateQueries({ queryKey: billKeys.all }),
      qc.invalidateQueries({ queryKey: shellKeys.dashboardStats }),
    ]);
}

/**
 * POST /api/bills. The server computes every amount; the toasts are the spec's (8). The caller puts
 * the server's field errors next to the lines, so the failure toast carries only the message.
 */
/** The server asks for a discount approver, or refused the one given: the billing screen's dialog says so. */
export const isDiscountApprovalAnswer = (err: unknown): err is ApiError =>
  err instanceof ApiError && (err.code === 'DISCOUNT_APPROVAL_REQUIRED' || err.code === 'APPROVAL_REFUSED');

export function useCreateBillMutation() {
  const invalidate = useInvalidateBills();
  return useMutation({
    mutationFn: (body: BillCreate) => call(billsApi.create, { body }).then((r) => r.bill),
    onSuccess: (bill) => {
      notify.success(`Bill ${bill.bill_number} saved successfully`);
      return invalidate();
    },
    // A discount above the biller's limit is not a failure: the page asks for an approver.
    onError: (err) => {
      if (!isDiscountApprovalAnswer(err)) notify.error('Failed to save bill', err);
    },
  });
}
