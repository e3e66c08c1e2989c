import type { Db } from '../db/connection.js';
import { getOrganization, settingsOf } from '../settings/service.js';
import { organizationIds } from '../settings/repository.js';
import { localDate } from '../../shared/time.js';
import { notify, onceKeyOf, type NotificationEvent } from './notify.js';
import { announcedKeys } from './repository.js';

/** How often `lims serve` sweeps (src/server/jobs.ts): a bill becomes overdue at the lab's midnight, so within minutes of it. */
export const SWEEP_INTERVAL_MS = 10 * 60_000;

/**
 * A sweep of what the clock makes due (overdue bills, calibration and maintenance): each lab with
 * pushNotifications on, in one transaction per lab, announces the events `eventsOf` finds for the
 * lab's today (in its time zone) whose once-key no notification of the lab has yet. The
 * notification rows are the memory, and a lab's sweep is one transaction, so two servers sweeping
 * at once (PostgreSQL serialises write transactions) cannot both announce an event.
 * Answers how many notifications were written.
 */
export async function announceOncePerLab(
  db: Db,
  now: Date,
  eventsOf: (trx: Db, organizationId: number, today: string) => Promise<NotificationEvent[]>,
): Promise<number> {
  let written = 0;
  for (const organizationId of await organizationIds(db)) {
    const org = await getOrganization(db, organizationId);
    if (!settingsOf(org).pushNotifications) continue;
    const today = localDate(org.timezone, now);
    written += await db.transaction().execute(async (trx) => {
      const events = await eventsOf(trx, organizationId, today);
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
