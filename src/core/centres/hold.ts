import type { Db } from '../db/connection.js';
import type { CentreHold } from '../../shared/schemas/centres.js';
import { formatInr } from '../../shared/money.js';
import { labToday } from '../settings/service.js';
import { unpaidBillsOfPayer, type CentreRow } from './repository.js';

const DAY_MS = 86_400_000;
const daysFrom = (from: string, to: string) => Math.round((Date.parse(to) - Date.parse(from)) / DAY_MS);

/**
 * Whether a centre is on hold now, and why, from its bill rows: its balance past its credit limit,
 * or a bill unpaid past its due date (the bill's date plus the centre's credit days, in the lab's
 * days). `exceptBillId` leaves one bill out of the overdue check (the bill being made is not late).
 */
export async function centreHold(db: Db, centre: CentreRow, exceptBillId?: number): Promise<CentreHold> {
  const today = await labToday(db, centre.organization_id);
  const unpaid = await unpaidBillsOfPayer(db, centre.organization_id, centre.payer_id);
  const overdue = unpaid.filter((b) => b.due_date < today && b.id !== exceptBillId);
  const limit = centre.credit_limit_paise;
  const overLimit = limit !== null && centre.balance_paise > limit;
  const reasons: string[] = [];
  if (overLimit)
    reasons.push(
      `${centre.name} owes ${formatInr(centre.balance_paise)}, past its credit limit of ${formatInr(limit)}`,
    );
  const oldest = overdue[0];
  if (oldest) {
    const late = daysFrom(oldest.due_date, today);
    reasons.push(
      `bill ${oldest.bill_number} (${formatInr(oldest.final_amount_paise - oldest.paid_paise)} due) is ${late} day${late === 1 ? '' : 's'} past its ${centre.payment_terms_days} credit days` +
        (overdue.length > 1 ? `, with ${overdue.length - 1} more bill${overdue.length > 2 ? 's' : ''} overdue` : ''),
    );
  }
  const reason = reasons.length ? `${reasons.join('; ')}. Pay the statement to lift the hold.` : null;
  return {
    on_hold: reasons.length > 0,
    reason: reason ? reason.charAt(0).toUpperCase() + reason.slice(1) : null,
    over_limit: overLimit,
    overdue_bills: overdue.length,
    oldest_due_date: oldest?.due_date ?? null,
  };
}

export { daysFrom };
