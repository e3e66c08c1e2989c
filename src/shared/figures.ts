/**
 * What a figure means, once, for every screen, report and export that shows it, and the line each
 * prints beside it (docs/decisions.md "One meaning per figure").
 */

/** Samples "registered" on a day: entered in lims that day (created), whenever they were collected. */
export const SAMPLE_REGISTERED_DEFINITION =
  'Registered: samples entered in lims that day, whenever they were collected. Completed: reports released that day.';

/**
 * Discounts: "Bill discounts" is the discount given on a bill as a whole; "Line discounts" those on
 * its lines; "Total discount" both. Revenue and the monthly report show bill discounts (their day
 * summaries keep those); Discounts Given shows all three.
 */
export const BILL_DISCOUNTS_DEFINITION =
  'Bill discounts: the discount on each bill as a whole (bills made that day, cancelled bills left out); discounts on single lines are not in it. Discounts Given (Reports) shows line and bill discounts and their total.';

/**
 * Stock: low at or below the minimum (PRODUCT.md, the stock status), out-of-stock items included;
 * out of stock when nothing usable is left (a part of low stock).
 */
export const LOW_STOCK_DEFINITION = 'Low stock: at or below the minimum, out-of-stock items included.';
export const OUT_OF_STOCK_DEFINITION = 'Out of stock: nothing usable left (also counted in Low stock).';
/** The same, as a card's hint under its label. */
export const LOW_STOCK_HINT = 'at or below the minimum, out of stock included';
export const OUT_OF_STOCK_HINT = 'nothing usable left (also in Low Stock)';

/**
 * A test's turnaround target, the one meaning every screen uses (Turnaround Time by Test, the
 * Enhanced Dashboard's breaches, the catalogue): collection to verification, in minutes. A test
 * keeps it as Target TAT (minutes); one with only the older Turnaround Time (hours) has that many
 * hours as its target. A result is over target when it was verified later than that after its
 * sample was collected.
 */
export const TURNAROUND_TARGET_DEFINITION =
  'Target: collection to verification, the test’s Target TAT (minutes), else its Turnaround Time (hours). Over target: verified later than that.';

export function targetMinutesOf(t: {
  target_tat_minutes: number | null;
  turnaround_hours: number | null;
}): number | null {
  if (t.target_tat_minutes !== null && t.target_tat_minutes !== undefined) return Number(t.target_tat_minutes);
  if (t.turnaround_hours !== null && t.turnaround_hours !== undefined) return Number(t.turnaround_hours) * 60;
  return null;
}
