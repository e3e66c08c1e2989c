import type { Selectable } from 'kysely';
import type { Db } from './db/connection.js';
import type { Actor } from './context.js';
import type { BillsTable } from './billing/tables.js';
import type { OrderedLine } from './catalogue/service.js';
import { LISTENERS } from './listeners.js';

/**
 * What one feature announces and others react to, by name. A payload carries ids and the few
 * figures a listener needs, never a row to change: a listener reads what it needs through its own
 * repository, in the same transaction.
 */
export interface CoreEvents {
  /**
   * A saved bill is about to be cancelled, deleted or have its lines changed (`change` says which,
   * as a message would: "cancelled"): a feature that holds the bill refuses by throwing.
   */
  'bill.changing': { bill: { id: number; bill_number: string; invoice_id: number | null }; change: string };
  /** A patient is about to be deleted: a feature holding records of theirs refuses by throwing. */
  'patient.deleting': { patient: { id: number; first_name: string; last_name: string } };
  /** A bill was stored with its lines (a consultation becomes a visit, the tubes are ordered). */
  'bill.created': { bill: Selectable<BillsTable>; lines: OrderedLine[] };
  /** A saved bill's tests changed: `added` and `removed` are test ids. */
  'bill.amended': {
    bill: { id: number; patient_id: number; bill_number: string };
    added: number[];
    removed: number[];
    reason: string;
  };
  /** A bill was cancelled or deleted; `reason` is what the audit rows of the cascade say. */
  'bill.cancelled': { billId: number; billNumber: string; reason: string };
  /** A sample is about to be deleted (`code` is its printed sample id): a feature holding its records refuses. */
  'sample.deleting': { sample: { id: number; code: string } };
  /**
   * A sample's report is about to leave the lab (printed, downloaded, shown in a portal) and staff
   * have not released it by hand: a feature that holds it (a centre on hold) refuses by throwing a
   * ConflictError whose message the screens show as the reason.
   */
  'report.releasing': { sampleId: number; sampleCode: string };
  /** Every ordered test of a sample is verified: its report is released. */
  'sample.completed': { sampleId: number };
  /**
   * A value was stored on a result awaiting verification: typed, re-entered or sent by an analyzer
   * (`instrumentFlag`: the flag or error code the machine sent with it, else null). Calculated
   * results worked out from it are already stored.
   */
  'result.entered': { resultId: number; sampleId: number; instrumentFlag: string | null };
  /** A critical value was telephoned: the report may have waited for that call. */
  'result.critical_called': { sampleId: number; resultId: number };
  /** Money was put on a bill (a payment, an advance used): a report held for its dues may go now. */
  'payment.received': { billId: number };
  /** Staff released a report held for its bill's dues, with a reason: it may go now. */
  'report.hold_released': { sampleId: number };
  /** The lab's time zone changed: its days (and whatever is kept per lab day) moved. */
  'lab.timezone_changed': { organizationId: number; from: string; to: string };
  /**
   * A lab's settings are about to be saved; `turnedOn` names the switches going from off to on. A
   * feature a switch depends on (a mail server, one's own authenticator) refuses it: on an update by
   * throwing, on a reset by `keepAsWas(setting)`, which leaves that switch as it was instead (a reset
   * to the defaults never fails for something not set up yet).
   */
  'settings.changing': {
    organizationId: number;
    turnedOn: readonly string[];
    how: 'update' | 'reset';
    keepAsWas: (setting: string) => void;
  };
  /** A lab was created (the first setup, or Multi-Tenant Setup): a feature that gives every lab rows to start with adds them. */
  'lab.created': { organizationId: number; at: string };
  /** A lab has just made two-factor sign-in mandatory for every staff account. */
  'lab.two_factor_required': { organizationId: number };
  /**
   * A login of role centre is about to be bound to `centreId`: the centres feature refuses a centre
   * the lab does not have (400 naming centre_id) by throwing.
   */
  'user.binding_centre': { centreId: number };
  /** An invitation's link was used: its account has a password now. */
  'invitation.accepted': { organizationId: number; userId: number };
}

export type EventName = keyof CoreEvents;

export type Listener<K extends EventName> = (trx: Db, actor: Actor, event: CoreEvents[K]) => Promise<void>;

/** What a feature listens to: one function per event name, registered in ./listeners.ts. */
export type Listeners = { readonly [K in EventName]?: Listener<K> };

/**
 * Runs every listener of `name`, in the order of the registry (./listeners.ts), one after another,
 * inside the caller's transaction and with its `trx`: what a listener writes commits or rolls back
 * with the change it reacts to, and a listener's error propagates to the caller, so the whole
 * change is refused (nothing is caught here). Listeners must not do network or file I/O: they run
 * inside a database transaction (queue the work, as the outbox and report deliveries do).
 */
export async function announce<K extends EventName>(
  trx: Db,
  actor: Actor,
  name: K,
  event: CoreEvents[K],
): Promise<void> {
  for (const feature of LISTENERS) {
    const listener = feature[name] as Listener<K> | undefined;
    if (listener) await listener(trx, actor, event);
  }
}
