import type { Db } from '../db/connection.js';
import { overdueBillsSince } from './repository.js';
import { addDays } from '../../shared/time.js';
import type { NotificationEvent } from '../notifications/service.js';
import { announceOncePerLab } from '../notifications/service.js';

/**
 * Bills that fell due longer ago than this are not announced: the first sweep after an upgrade
 * would otherwise bury billing staff under every old unpaid bill.
 */
export const OVERDUE_LOOKBACK_DAYS = 30;

/**
 * Announces every bill that has become overdue (docs/decisions.md: not cancelled, not fully paid,
 * the due date before the lab's today) to billing staff, once per bill ever: the notification rows
 * are the memory (their once-key `bill_overdue:<id>`). Each lab is swept in one transaction, so two
 * servers sweeping at once (PostgreSQL serialises write transactions) cannot both announce a bill.
 * A lab with pushNotifications off is skipped; its bills are announced once it is turned on (if
 * they fell due within OVERDUE_LOOKBACK_DAYS). Answers how many notifications were written.
 */
export function sweepOverdueBills(db: Db, now: Date = new Date()): Promise<number> {
  return announceOncePerLab(db, now, async (trx, organizationId, today) =>
    (await overdueBillsSince(trx, organizationId, today, addDays(today, -OVERDUE_LOOKBACK_DAYS))).map(
      (b): NotificationEvent => ({
        kind: 'bill_overdue',
        billId: b.id,
        billNumber: b.bill_number,
        patientName: `${b.first_name} ${b.last_name}`.trim(),
        balancePaise: Number(b.balance_paise),
        dueDate: b.due_date,
      }),
    ),
  );
}
