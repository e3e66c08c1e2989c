import { useMemo, useState } from 'react';
import { notify } from '@/lib/notify';
import type { PickedItem } from './CataloguePickers';
import {
  draftAmounts,
  hasLineErrors,
  newLine,
  normalizeField,
  normalizePercent,
  parsePercent,
  percentError,
  type DraftLine,
  type LineField,
} from './lines';

/**
 * A bill being written on a billing screen: its lines, bill discount, and the figures (GST per line) by the
 * shared rule. `integerPercents` is the registration screen's rule (spec 5: whole numbers 0-100).
 */
export function useBillDraft({
  consultationFee,
  integerPercents = false,
  interState = false,
}: {
  consultationFee: number;
  integerPercents?: boolean;
  /** The recipient (a payer) is in another state than the lab: GST is IGST, as the server taxes it. */
  interState?: boolean;
}) {
  const [lines, setLines] = useState<DraftLine[]>([]);
  const [discount, setDiscount] = useState('0');
  // The server's messages for lines, by position; cleared on any change because positions shift.
  const [lineServerErrors, setLineServerErrors] = useState<Record<number, string>>({});
  // Bumped on reset: the pickers are keyed by it, so what was typed in them goes too.
  const [generation, setGeneration] = useState(0);

  const amounts = useMemo(
    () => draftAmounts(lines, consultationFee, discount, interState),
    [lines, consultationFee, discount, interState],
  );
  const opts = { integer: integerPercents };
  const discountError = percentError(discount, opts);

  const edit = (next: (ls: DraftLine[]) => DraftLine[]) => {
    setLines(next);
    setLineServerErrors({});
  };

  // Set when the bill is charged to a payer: each line's price comes from it (see reprice).
  const [pricer, setPricer] = useState<((l: DraftLine) => number) | null>(null);

  return {
    generation,
    lines,
    amounts,
    discount,
    discountError,
    lineServerErrors,
    setLineServerErrors,
    /** Adds a catalogue item with the spec's "Item Added" toast; the same item twice is refused. */
    addItem(item: PickedItem) {
      if (lines.some((l) => l.item_type === item.item_type && l.item_id === item.id)) {
        notify.info('Already on the bill', `${item.name} is already on this bill: change its quantity instead`);
        return;
      }
      const line = newLine(item);
      edit((ls) => [...ls, pricer ? { ...line, price: String(pricer(line)) } : line]);
      notify.success('Item Added', `${item.name} added to bill`);
    },
    changeLine(key: string, field: LineField, value: string) {
      edit((ls) => ls.map((l) => (l.key === key ? { ...l, [field]: value } : l)));
    },
    /** Leaving a field applies the spec's defaults (qty 1, price 0, percentage 0) to unusable text. */
    blurLine(key: string, field: LineField) {
      setLines((ls) => ls.map((l) => (l.key === key ? { ...l, [field]: normalizeField(field, l[field]) } : l)));
    },
    /**
     * Prices every line (and every line added later) by `price` (rupees from the line), or back at
     * the catalogue's price when null: the bill charged to a payer, or to the patient again.
     */
    reprice(price: ((l: DraftLine) => number) | null) {
      setPricer(() => price);
      edit((ls) => ls.map((l) => ({ ...l, price: String(price ? price(l) : l.lab_price) })));
    },
    removeLine(key: string) {
      edit((ls) => ls.filter((l) => l.key !== key));
    },
    setDiscount,
    blurPercent() {
      setDiscount(normalizePercent);
    },
    /** Anything on the bill the server would refuse: percentages out of range, quantities over the limit. */
    hasErrors: hasLineErrors(lines) || discountError !== undefined,
    discountPercent: parsePercent(discount),
    reset() {
      setLines([]);
      setDiscount('0');
      setPricer(null);
      setLineServerErrors({});
      setGeneration((g) => g + 1);
    },
  };
}

export type BillDraft = ReturnType<typeof useBillDraft>;
