import { sql } from 'kysely';
import type { Db } from '../../db/connection.js';
import type { LabDay } from './rebuild.js';

/**
 * The money rollups of one lab day (migration 51), from the live bills made in the day's UTC bounds:
 * discounts per user who made the bill, the day's bills, and the day's bills per referring doctor.
 * Called by rebuildDay after it has deleted the day's rows; a missing user or doctor is key 0.
 */
export async function rebuildMoneyDay(trx: Db, org: number, d: LabDay): Promise<void> {
  const dayBills = sql`bills b WHERE b.organization_id = ${org} AND b.created_at >= ${d.start} AND b.created_at < ${d.end}
    AND b.cancelled_at IS NULL`;

  // Each bill's line discounts summed once by its own lines, then per user (as discountsByUser).
  await sql`INSERT INTO rollup_discounts (organization_id, day, created_by, bills, discounted_bills, line_paise, bill_paise, gross_paise)
    SELECT ${org}, ${d.day}, x.created_by, COUNT(*),
      SUM(CASE WHEN x.line_paise > 0 OR x.discount_amount_paise > 0 THEN 1 ELSE 0 END),
      SUM(x.line_paise), SUM(x.discount_amount_paise), SUM(x.total_before_discount_paise + x.line_paise)
    FROM (SELECT COALESCE(b.created_by, 0) AS created_by, b.discount_amount_paise, b.total_before_discount_paise,
        COALESCE((SELECT SUM(i.discount_amount_paise) FROM bill_items i WHERE i.bill_id = b.id), 0) AS line_paise
      FROM ${dayBills}) x
    GROUP BY x.created_by`.execute(trx);

  await sql`INSERT INTO rollup_revenue (organization_id, day, bills, patients, discount_paise, billed_paise, lines_paise)
    SELECT ${org}, ${d.day}, COUNT(*), COUNT(DISTINCT b.patient_id), SUM(b.discount_amount_paise), SUM(b.final_amount_paise),
      SUM(COALESCE((SELECT SUM(i.total_paise) FROM bill_items i WHERE i.bill_id = b.id), 0))
    FROM ${dayBills} GROUP BY b.organization_id`.execute(trx);

  await sql`INSERT INTO rollup_doctor (organization_id, day, doctor_id, bills, discount_paise, billed_paise)
    SELECT ${org}, ${d.day}, COALESCE(b.doctor_id, 0), COUNT(*), SUM(b.discount_amount_paise), SUM(b.final_amount_paise)
    FROM ${dayBills} GROUP BY COALESCE(b.doctor_id, 0)`.execute(trx);
}
