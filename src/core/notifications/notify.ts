import type { Db } from '../db/connection.js';
import { nowIso } from '../context.js';
import { getOrganization, settingsOf } from '../settings/service.js';
import { findUser, selectUsers, type UserRow } from '../users/repository.js';
import type { Permission, Role } from '../../shared/roles.js';
import { labPermissions, rolesWith } from '../users/service.js';
import { formatInr, type Paise } from '../../shared/money.js';
import { formatLabDate, type LabDateFormat } from '../../shared/time.js';
import type { NotificationKind, NotificationPriority, NotificationType } from '../../shared/schemas/notifications.js';
import { insertNotificationRows } from './repository.js';
import { toNotification } from './mappers.js';
import { queueAnnouncement, type Announcement } from '../messaging/service.js';

export type { Announcement, Recipient } from '../messaging/service.js';

/**
 * The events lims announces, each with what the text needs. The lab's work names the patient and
 * the test (shown only to that lab's staff; never logged); system events name no patient.
 */
export type NotificationEvent =
  /** A result beyond the critical limits was stored (typed, changed or calculated). */
  | { kind: 'critical_result'; sampleCode: string; testName: string; patientName: string }
  | {
      kind: 'sample_rejected';
      sampleCode: string;
      patientName: string;
      reason: string | null;
      /** Who drew the sample: told so they can draw it again. */
      collectorId: number | null;
    }
  /** A verified result changed: the report may already have left the lab. */
  | {
      kind: 'result_amended';
      sampleCode: string;
      testName: string;
      patientName: string;
      reason: string;
      /** The referring doctor named on the sample's bill, told too. */
      doctorId: number | null;
    }
  | {
      kind: 'bill_overdue';
      billId: number;
      billNumber: string;
      patientName: string;
      balancePaise: Paise;
      dueDate: string;
    }
  | { kind: 'backup_failed'; error: string }
  | { kind: 'import_finished'; what: string; rows: number; startedBy?: number | null; link?: string | null }
  | { kind: 'import_failed'; what: string; error: string; startedBy?: number | null; link?: string | null }
  /**
   * A stock alert that needs the store's action: usable stock at or below the minimum, none left, or
   * stock past its expiry date (the alert's priority: high or critical).
   */
  | { kind: 'stock_alert'; itemName: string; alertType: string; priority: 'high' | 'critical'; message: string }
  /** A temperature or humidity reading outside an instrument's limits. */
  | { kind: 'equipment_reading'; equipmentName: string; serialNumber: string; detail: string }
  /** A calibration or maintenance record past its due date (the overdue sweep, src/core/equipment/overdue.ts). */
  | ({ kind: 'calibration_overdue' } & OverdueWork)
  | ({ kind: 'maintenance_overdue' } & OverdueWork);

interface OverdueWork {
  serviceId: number;
  serviceType: string;
  equipmentName: string;
  serialNumber: string;
  dueDate: string;
}

type EventOf<K extends NotificationKind> = Extract<NotificationEvent, { kind: K }>;

/** Who is told: holders of any of the permissions, the roles, and named users (active ones of the lab only). */
interface Audience {
  permissions?: Permission[];
  roles?: Role[];
  users?: (number | null | undefined)[];
}

interface Text {
  title: string;
  message: string;
  link: string | null;
}

interface EventSpec<E> {
  /** The kind's type, or one read from the event (a stock alert: error when critical, else warning). */
  type: NotificationType | ((e: E) => NotificationType);
  priority: NotificationPriority;
  /** A system event (counted by System Alerts when it warns or fails), not the lab's work on a patient. */
  system: boolean;
  audience: (e: E) => Audience;
  text: (e: E, lab: { dateFormat: LabDateFormat }) => Text;
  /** Events announced once ever: the key a second announcement would repeat. */
  onceKey?: (e: E) => string;
}

const results = (sampleCode: string) => `/result-validation?search=${encodeURIComponent(sampleCode)}`;

/** Overdue calibration and maintenance: the same routing, once per record and due date. */
function overdueWork(kind: 'calibration_overdue' | 'maintenance_overdue'): EventSpec<OverdueWork> {
  const what = kind === 'calibration_overdue' ? 'Calibration' : 'Maintenance';
  const page = kind === 'calibration_overdue' ? '/calibration' : '/maintenance';
  return {
    type: 'warning',
    priority: kind === 'calibration_overdue' ? 'high' : 'medium',
    system: true,
    audience: () => ({ permissions: ['manage_equipment'], roles: ['lab_manager'] }),
    text: (e, lab) => ({
      title: `${what} overdue: ${e.equipmentName}`,
      message: `${e.serviceType} ${what.toLowerCase()} of ${e.equipmentName} (${e.serialNumber}) was due ${formatLabDate(e.dueDate, { dateFormat: lab.dateFormat, timeZone: 'UTC', hour12: false })}.${kind === 'calibration_overdue' ? ' Results and QC entered on it carry a warning until it is calibrated.' : ''}`,
      link: `${page}?status=overdue&search=${encodeURIComponent(e.serialNumber)}`,
    }),
    onceKey: (e) => `${kind}:${e.serviceId}:${e.dueDate}`,
  };
}

const STOCK_ALERT_TITLES: Record<string, string> = {
  low_stock: 'Low stock',
  out_of_stock: 'Out of stock',
  expiry_warning: 'Expired stock',
};

/** The routing and wording of every event (docs/decisions.md, "Notifications"). */
const EVENTS: { [K in NotificationKind]: EventSpec<EventOf<K>> } = {
  critical_result: {
    type: 'error',
    priority: 'high',
    system: false,
    audience: () => ({ permissions: ['verify_results'], roles: ['lab_manager'] }),
    text: (e) => ({
      title: `Critical result: ${e.testName}`,
      message: `${e.patientName}, sample ${e.sampleCode}: ${e.testName} is beyond the critical limits. Call it in and log the call.`,
      link: results(e.sampleCode),
    }),
  },
  sample_rejected: {
    type: 'warning',
    priority: 'medium',
    system: false,
    audience: (e) => ({ roles: ['lab_manager'], users: [e.collectorId] }),
    text: (e) => ({
      title: `Sample rejected: ${e.sampleCode}`,
      message: `${e.patientName}, sample ${e.sampleCode} was rejected${e.reason ? `: ${e.reason}` : ''}. A new sample is needed.`,
      link: `/samples?search=${encodeURIComponent(e.sampleCode)}`,
    }),
  },
  result_amended: {
    type: 'warning',
    priority: 'high',
    system: false,
    audience: (e) => ({ permissions: ['verify_results'], roles: ['lab_manager'], users: [e.doctorId] }),
    text: (e) => ({
      title: `Verified result amended: ${e.testName}`,
      message: `${e.patientName}, sample ${e.sampleCode}: the verified ${e.testName} result was changed (${e.reason}). It needs verifying again.`,
      link: results(e.sampleCode),
    }),
  },
  bill_overdue: {
    type: 'warning',
    priority: 'low',
    system: false,
    audience: () => ({ permissions: ['manage_bills'] }),
    text: (e, lab) => ({
      title: `Bill overdue: ${e.billNumber}`,
      message: `${e.patientName} owes ${formatInr(e.balancePaise)} on bill ${e.billNumber}, due ${formatLabDate(e.dueDate, { dateFormat: lab.dateFormat, timeZone: 'UTC', hour12: false })}.`,
      link: `/bills-list?search=${encodeURIComponent(e.billNumber)}`,
    }),
    onceKey: (e) => `bill_overdue:${e.billId}`,
  },
  backup_failed: {
    type: 'error',
    priority: 'high',
    system: true,
    audience: () => ({ permissions: ['system_settings'] }),
    text: (e) => ({ title: 'Backup failed', message: `The automatic backup did not complete: ${e.error}`, link: null }),
  },
  import_finished: {
    type: 'success',
    priority: 'low',
    system: true,
    audience: (e) => (e.startedBy ? { users: [e.startedBy] } : { permissions: ['system_settings'] }),
    text: (e) => ({
      title: `Import finished: ${e.what}`,
      message: `${e.rows.toLocaleString('en-IN')} ${e.rows === 1 ? 'record was' : 'records were'} imported.`,
      link: e.link ?? null,
    }),
  },
  import_failed: {
    type: 'error',
    priority: 'medium',
    system: true,
    audience: (e) => (e.startedBy ? { users: [e.startedBy] } : { permissions: ['system_settings'] }),
    text: (e) => ({ title: `Import failed: ${e.what}`, message: e.error, link: e.link ?? null }),
  },
  stock_alert: {
    // Critical (none left, expired) an error; low stock a warning. Both high priority for the store.
    type: (e) => (e.priority === 'critical' ? 'error' : 'warning'),
    priority: 'high',
    system: true,
    audience: () => ({ permissions: ['manage_inventory'] }),
    text: (e) => ({
      title: `${STOCK_ALERT_TITLES[e.alertType] ?? 'Stock alert'}: ${e.itemName}`,
      message: `${e.itemName}: ${e.message}.`,
      link: `/stock-alerts?search=${encodeURIComponent(e.itemName)}`,
    }),
  },
  equipment_reading: {
    type: 'warning',
    priority: 'high',
    system: true,
    audience: () => ({ permissions: ['manage_equipment'], roles: ['lab_manager'] }),
    text: (e) => ({
      title: `Reading out of range: ${e.equipmentName}`,
      message: `${e.equipmentName} (${e.serialNumber}): ${e.detail}. Check the instrument and what it holds.`,
      link: `/instruments?search=${encodeURIComponent(e.serialNumber)}`,
    }),
  },
  calibration_overdue: overdueWork('calibration_overdue'),
  maintenance_overdue: overdueWork('maintenance_overdue'),
};

/** The key of an event announced once ever (an overdue bill), else null. */
export function onceKeyOf(event: NotificationEvent): string | null {
  return (EVENTS[event.kind] as EventSpec<NotificationEvent>).onceKey?.(event) ?? null;
}

async function audienceOf(trx: Db, organizationId: number, a: Audience): Promise<UserRow[]> {
  const roles = new Set<Role>(a.roles ?? []);
  if (a.permissions?.length) {
    const table = await labPermissions(trx, organizationId);
    for (const p of a.permissions) for (const r of rolesWith(table, p)) roles.add(r);
  }
  const users = roles.size ? await selectUsers(trx, organizationId, { roles: [...roles] }) : [];
  for (const id of a.users ?? []) {
    if (id == null || users.some((u) => u.id === id)) continue;
    const u = await findUser(trx, organizationId, id);
    if (u && u.is_active === 1) users.push(u);
  }
  return users;
}

/**
 * Announces an event of a lab to the staff who act on it: the one way notifications are made.
 * Call it with the transaction that writes the event, so a rolled-back entry leaves no notification.
 * Recipients follow the event's audience (permissions of src/shared/roles.ts, roles, named users),
 * active users of this lab only; `by` (the user who caused it) is not told of their own act. With
 * the lab's `pushNotifications` setting off no row is written, but the answer still names the
 * recipients and the text, for other channels. Nothing here is logged.
 */
export async function notify(
  trx: Db,
  organizationId: number,
  event: NotificationEvent,
  opts: { by?: number | null } = {},
): Promise<Announcement> {
  const spec = EVENTS[event.kind] as EventSpec<NotificationEvent>;
  const type = typeof spec.type === 'function' ? spec.type(event) : spec.type;
  const priority = spec.priority;
  const org = await getOrganization(trx, organizationId);
  const text = spec.text(event, { dateFormat: org.date_format as LabDateFormat });
  const recipients = (await audienceOf(trx, organizationId, spec.audience(event)))
    .filter((u) => u.id !== opts.by)
    .map((u) => ({ id: u.id, first_name: u.first_name, last_name: u.last_name, email: u.email, phone: u.phone }));
  const announcement: Announcement = {
    kind: event.kind,
    type,
    priority,
    ...text,
    recipients,
    notifications: [],
  };
  // Email and SMS (emailNotifications, smsNotifications): queued in this transaction, sent after commit.
  await queueAnnouncement(trx, org, announcement);
  if (!settingsOf(org).pushNotifications || !recipients.length) return announcement;
  const now = nowIso();
  const rows = await insertNotificationRows(
    trx,
    recipients.map((r) => ({
      organization_id: organizationId,
      user_id: r.id,
      kind: event.kind,
      type,
      priority,
      is_system: spec.system ? 1 : 0,
      title: text.title,
      message: text.message,
      link: text.link,
      dedupe_key: onceKeyOf(event),
      read: 0,
      read_at: null,
      created_at: now,
    })),
  );
  announcement.notifications = rows.map((r) => ({ ...toNotification(r), user_id: r.user_id }));
  return announcement;
}
