import { useState } from 'react';
import type { PaymentMethod } from '@shared/billing';
import { METHOD_REFERENCE } from '@shared/schemas/payments';
import { ApiError } from '@/lib/api';
import { lineErrorPath, toItems } from './lines';
import { amountPaid, amountPaidError } from './PaymentFields';
import { useBillDraft } from './useBillDraft';
import { useOverlaps } from './Overlaps';

export type PercentField = 'discount';
type BillField = PercentField | 'amount' | 'reference';

/** Where the server's 400 messages for the bill's own fields go. */
const FIELD_OF_PATH: Record<string, BillField> = {
  discount_percentage: 'discount',
  amount_paid: 'amount',
  amount: 'amount',
  payment_reference: 'reference',
};

export interface ServerDetail {
  path: string;
  message: string;
}

/**
 * The bill part of a billing screen (OP Bill, Register Patient with Bill): the draft lines, the bill
 * discount and tax, the payment method and the amount received, with the messages for each. The
 * screen adds who the bill is for. `methods[0]` is the default method (spec 9: cash).
 */
export function useBillEntry<M extends PaymentMethod>({
  consultationFee,
  integerPercents = false,
  interState = false,
  methods,
}: {
  consultationFee: number;
  integerPercents?: boolean;
  /** Charged to a payer in another state than the lab's (IGST). */
  interState?: boolean;
  methods: readonly [M, ...M[]];
}) {
  const draft = useBillDraft({ consultationFee, integerPercents, interState });
  const [method, setMethod] = useState<M>(methods[0]);
  const [amount, setAmount] = useState('');
  const [serverErrors, setServerErrors] = useState<Partial<Record<BillField, string>>>({});
  const [reference, setReference] = useState('');
  const amountError = amountPaidError(amount, draft.amounts.finalPaise);
  // Money taken by a method with a reference (UPI, bank transfer) needs it, as POST /api/payments does.
  const need = METHOD_REFERENCE[method];
  const taking = amountPaid(amount) !== undefined && (amountPaid(amount) ?? 0) > 0;
  const referenceError =
    taking && need.required && !reference.trim() ? `${need.label} is required for money taken by ${method}` : undefined;
  const [referenceTouched, setReferenceTouched] = useState(false);
  // Lines that charge a test twice: shown as they appear; sent only when the biller confirms them.
  const overlaps = useOverlaps(draft.lines);
  const [confirmDuplicates, setConfirmDuplicates] = useState(false);
  const clearServerError = (f: BillField) => setServerErrors((e) => ({ ...e, [f]: undefined }));

  return {
    draft,
    overlaps,
    confirmDuplicates,
    setConfirmDuplicates,
    /** Lines share tests and the biller has not said to charge them anyway. */
    unconfirmedDuplicates: overlaps.length > 0 && !confirmDuplicates,
    integerPercents,
    methods,
    method,
    setMethod,
    amount,
    setAmount(v: string) {
      setAmount(v);
      clearServerError('amount');
    },
    reference,
    setReference(v: string) {
      setReference(v);
      clearServerError('reference');
    },
    /** The reference's message shows once the field was left, or a save was tried (touchReference). */
    touchReference() {
      setReferenceTouched(true);
    },
    setPercent(which: PercentField, v: string) {
      draft.setDiscount(v);
      clearServerError(which);
    },
    /** The message under each bill field: the screen's own check first, then the server's. */
    errors: {
      discount: draft.discountError ?? serverErrors.discount,
      amount: amountError ?? serverErrors.amount,
      reference: (referenceTouched ? referenceError : undefined) ?? serverErrors.reference,
    } satisfies Partial<Record<BillField, string>>,
    /** Anything the server would refuse: percentages, quantities, or more received than the total. */
    invalid: draft.hasErrors || amountError !== undefined || referenceError !== undefined,
    /** The bill's fields of the request body. */
    request() {
      return {
        items: toItems(draft.lines),
        discount_percentage: draft.discountPercent,
        // GST is per line from each test's tax category; the bill carries no rate of its own.
        tax_percentage: 0 as const,
        payment_method: method,
        amount_paid: amountPaid(amount),
        payment_reference: reference.trim() || null,
        ...(overlaps.length > 0 && confirmDuplicates ? { confirm_duplicates: true } : {}),
      };
    },
    /**
     * Puts a 400's messages for the lines, discount, tax and amount under their fields and returns
     * the other messages for the screen to place; null (and nothing changed) for any other error.
     */
    placeServerErrors(err: unknown): ServerDetail[] | null {
      if (!(err instanceof ApiError) || err.status !== 400) return null;
      const lines: Record<number, string> = {};
      const fields: Partial<Record<BillField, string>> = {};
      const rest: ServerDetail[] = [];
      for (const d of err.details) {
        const line = lineErrorPath(d.path);
        const field = FIELD_OF_PATH[d.path];
        if (line) lines[line.index] = d.message;
        else if (field) fields[field] = d.message;
        else rest.push(d);
      }
      draft.setLineServerErrors(lines);
      setServerErrors(fields);
      return rest;
    },
    reset() {
      draft.reset();
      setMethod(methods[0]);
      setAmount('');
      setReference('');
      setReferenceTouched(false);
      setConfirmDuplicates(false);
      setServerErrors({});
    },
  };
}

export type BillEntryState<M extends PaymentMethod = PaymentMethod> = ReturnType<typeof useBillEntry<M>>;
