import type { Db } from '../db/connection.js';
import type { NotificationEvent } from '../notifications/service.js';
import { announceOncePerLab } from '../notifications/service.js';
import { equipmentNow } from './clock.js';
import { openServicesOverdue } from './service-repository.js';

/**
 * Announces every calibration and maintenance record that has become overdue (open, due before the
 * lab's today in its time zone, on the equipment clock) to the staff who do that work, once per
 * record and due date: the notification rows are the memory (once-key
 * `calibration_overdue:<id>:<due date>`), so a record rescheduled and missed again is announced
 * again, a record left overdue is not repeated. Each lab in one transaction, like the overdue
 * bills (src/core/billing/overdue.ts). A lab with pushNotifications off is skipped.
 * Answers how many notifications were written.
 */
export function sweepOverdueEquipmentWork(db: Db, now: Date = equipmentNow()): Promise<number> {
  return announceOncePerLab(db, now, async (trx, organizationId, today) =>
    (await openServicesOverdue(trx, organizationId, today)).map((r): NotificationEvent => ({
      kind: r.kind === 'calibration' ? 'calibration_overdue' : 'maintenance_overdue',
      serviceId: r.id,
      serviceType: r.type,
      equipmentName: r.equipment_name,
      serialNumber: r.serial_number,
      dueDate: r.due_date,
    })),
  );
}
