import type { Db } from '../db/connection.js';
import { getOrganization, settingsOf } from '../settings/organization.js';
import { organizationIds } from '../settings/repository.js';
import { notify, onceKeyOf, type NotificationEvent } from '../notifications/notify.js';
import { announcedKeys } from '../notifications/repository.js';
import { localDate } from '../../shared/time.js';
import { equipmentNow } from './clock.js';
import { openServicesOverdue } from './service-repository.js';

/**
 * Announces every calibration and maintenance record that has become overdue (open, due before the
 * lab's today in its time zone, on the equipment clock) to the staff who do that work, once per
 * record and due date: the notification rows are the memory (once-key
 * `calibration_overdue:<id>:<due date>`), so a record rescheduled and missed again is announced
 * again, a record left overdue is not repeated. Each lab in one transaction, like the overdue
 * bills (src/core/notifications/overdue.ts). A lab with pushNotifications off is skipped.
 * Answers how many notifications were written.
 */
export async function sweepOverdueEquipmentWork(db: Db, now: Date = equipmentNow()): Promise<number> {
  let written = 0;
  for (const organizationId of await organizationIds(db)) {
    const org = await getOrganization(db, organizationId);
    if (!settingsOf(org).pushNotifications) continue;
    const today = localDate(org.timezone, now);
    written += await db.transaction().execute(async (trx) => {
      const rows = await openServicesOverdue(trx, organizationId, today);
      const events: NotificationEvent[] = rows.map((r) => ({
        kind: r.kind === 'calibration' ? 'calibration_overdue' : 'maintenance_overdue',
        serviceId: r.id,
        serviceType: r.type,
        equipmentName: r.equipment_name,
        serialNumber: r.serial_number,
        dueDate: r.due_date,
      }));
      const done = await announcedKeys(
        trx,
        organizationId,
        events.map((e) => onceKeyOf(e)!),
      );
      let n = 0;
      for (const e of events) {
        if (done.has(onceKeyOf(e)!)) continue;
        n += (await notify(trx, organizationId, e)).notifications.length;
      }
      return n;
    });
  }
  return written;
}
