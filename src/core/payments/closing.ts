import type { Db } from '../db/connection.js';
import type { Actor } from '../context.js';
import { nowIso } from '../context.js';
import { auditLabSettings, writeAudit } from '../audit/audit.js';
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '../errors.js';
import { rupeesToPaise } from '../../shared/money.js';
import { addDays, localDate, startOfLocalDayUtc } from '../../shared/time.js';
import type { Closing, ClosingCreate, ClosingSettings } from '../../shared/schemas/payments.js';
import { findUser } from '../users/repository.js';
import { actorHasPermission } from '../users/service.js';
import { getOrganization, labSettings, organizationTimezone, settingsOf } from '../settings/service.js';
import { updateOrganizationRow } from '../settings/repository.js';
import {
  findClosing,
  findClosingById,
  insertClosingRow,
  ledgerTotalsByDay,
  listClosingRows,
  pendingChequesPaise,
  userNames,
  type ClosingRow,
} from './repository.js';

/**
 * Day-end closing: a cashier's closing report per user per lab day. Collections by
 * method and refunds come from the ledger rows that user took, counted on that day (the same rows
 * and days as the revenue report); expected cash = opening float + cash received - cash refunded;
 * difference = counted - expected (negative: the drawer is short). Saved and locked once closed.
 */

const rupees = (paise: number) => Math.round(paise) / 100;

interface Figures {
  cash: number;
  card: number;
  upi: number;
  bank_transfer: number;
  cheque: number;
  insurance: number;
  refunds: number;
  cash_refunds: number;
  payments_count: number;
  pending_cheques: number;
}

async function figures(db: Db, organizationId: number, userId: number, date: string): Promise<Figures> {
  const f: Figures = {
    cash: 0,
    card: 0,
    upi: 0,
    bank_transfer: 0,
    cheque: 0,
    insurance: 0,
    refunds: 0,
    cash_refunds: 0,
    payments_count: 0,
    pending_cheques: 0,
  };
  for (const r of await ledgerTotalsByDay(db, organizationId, date, date, userId)) {
    const amount = Number(r.amount_paise);
    if (r.kind === 'refund') {
      f.refunds += -amount;
      if (r.method === 'cash') f.cash_refunds += -amount;
    } else {
      const m = r.method as keyof Figures;
      if (m in f) f[m] += amount;
      f.payments_count += Number(r.n);
    }
  }
  const timeZone = await organizationTimezone(db, organizationId);
  f.pending_cheques = await pendingChequesPaise(
    db,
    organizationId,
    userId,
    startOfLocalDayUtc(timeZone, date).toISOString(),
    startOfLocalDayUtc(timeZone, addDays(date, 1)).toISOString(),
  );
  return f;
}

function toClosing(
  f: Figures,
  meta: { date: string; userId: number; userName: string },
  saved?: ClosingRow & { closed_by_name: string | null },
): Closing {
  const collections = f.cash + f.card + f.upi + f.bank_transfer + f.cheque + f.insurance;
  return {
    id: saved?.id ?? null,
    closed: Boolean(saved),
    date: meta.date,
    user_id: meta.userId,
    user_name: meta.userName,
    opening_float: saved ? rupees(saved.opening_float_paise) : null,
    cash: rupees(f.cash),
    card: rupees(f.card),
    upi: rupees(f.upi),
    bank_transfer: rupees(f.bank_transfer),
    cheque: rupees(f.cheque),
    insurance: rupees(f.insurance),
    collections: rupees(collections),
    refunds: rupees(f.refunds),
    cash_refunds: rupees(f.cash_refunds),
    net: rupees(collections - f.refunds),
    payments_count: f.payments_count,
    pending_cheques: rupees(f.pending_cheques),
    expected_cash: saved ? rupees(saved.expected_cash_paise) : null,
    counted_cash: saved ? rupees(saved.counted_cash_paise) : null,
    difference: saved ? rupees(saved.difference_paise) : null,
    notes: saved?.notes ?? null,
    closed_by_name: saved?.closed_by_name ?? null,
    closed_at: saved?.closed_at ?? null,
  };
}

function figuresOf(row: ClosingRow): Figures {
  return {
    cash: row.cash_paise,
    card: row.card_paise,
    upi: row.upi_paise,
    bank_transfer: row.bank_transfer_paise,
    cheque: row.cheque_paise,
    insurance: row.insurance_paise,
    refunds: row.refunds_paise,
    cash_refunds: row.cash_refunds_paise,
    payments_count: row.payments_count,
    pending_cheques: row.pending_cheques_paise,
  };
}

/** Whose closing: one's own (create_bills), anyone's in the lab with manage_bills. */
async function cashierOf(db: Db, actor: Actor, userId: number | undefined): Promise<{ id: number; name: string }> {
  const id = userId ?? actor.userId;
  if (id === null || id === undefined) throw ValidationError.field('user_id', 'Name the cashier whose day this is');
  if (id !== actor.userId && !(await actorHasPermission(db, actor, 'manage_bills')))
    throw new ForbiddenError("Another cashier's closing needs the manage_bills permission");
  const user = await findUser(db, actor.organizationId, id);
  if (!user) throw ValidationError.field('user_id', `Unknown user ${id}`);
  return { id: user.id, name: `${user.first_name} ${user.last_name}`.trim() };
}

async function notFuture(db: Db, organizationId: number, date: string): Promise<void> {
  const today = localDate(await organizationTimezone(db, organizationId));
  if (date > today) throw ValidationError.field('date', `The day ${date} has not come yet (today is ${today})`);
}

async function withNames(db: Db, organizationId: number, rows: ClosingRow[]) {
  const names = await userNames(
    db,
    organizationId,
    rows.flatMap((r) => [r.user_id, r.closed_by]),
  );
  return rows.map((r) => ({
    row: { ...r, closed_by_name: names.get(r.closed_by) ?? null },
    userName: names.get(r.user_id) ?? `User ${r.user_id}`,
  }));
}

/** The closing of a cashier's day: the saved, locked report, or the figures so far when not closed yet. */
export async function getClosing(db: Db, actor: Actor, q: { date: string; user_id?: number }): Promise<Closing> {
  const cashier = await cashierOf(db, actor, q.user_id);
  await notFuture(db, actor.organizationId, q.date);
  const saved = await findClosing(db, actor.organizationId, cashier.id, q.date);
  if (saved) {
    const [n] = await withNames(db, actor.organizationId, [saved]);
    return toClosing(figuresOf(saved), { date: q.date, userId: cashier.id, userName: cashier.name }, n!.row);
  }
  const f = await figures(db, actor.organizationId, cashier.id, q.date);
  return toClosing(f, { date: q.date, userId: cashier.id, userName: cashier.name });
}

export async function closeDay(db: Db, actor: Actor, body: ClosingCreate): Promise<Closing> {
  const cashier = await cashierOf(db, actor, body.user_id);
  await notFuture(db, actor.organizationId, body.date);
  const id = await db.transaction().execute(async (trx) => {
    if (await findClosing(trx, actor.organizationId, cashier.id, body.date))
      throw new ConflictError(`${cashier.name}'s day ${body.date} is already closed`, 'DAY_CLOSED');
    const f = await figures(trx, actor.organizationId, cashier.id, body.date);
    const float = rupeesToPaise(body.opening_float);
    const counted = rupeesToPaise(body.counted_cash);
    const expected = float + f.cash - f.cash_refunds;
    const row = await insertClosingRow(trx, {
      organization_id: actor.organizationId,
      user_id: cashier.id,
      business_date: body.date,
      opening_float_paise: float,
      cash_paise: f.cash,
      card_paise: f.card,
      upi_paise: f.upi,
      bank_transfer_paise: f.bank_transfer,
      cheque_paise: f.cheque,
      insurance_paise: f.insurance,
      refunds_paise: f.refunds,
      cash_refunds_paise: f.cash_refunds,
      payments_count: f.payments_count,
      pending_cheques_paise: f.pending_cheques,
      expected_cash_paise: expected,
      counted_cash_paise: counted,
      difference_paise: counted - expected,
      notes: body.notes ?? null,
      closed_by: actor.userId!,
      closed_at: nowIso(),
    });
    await writeAudit(trx, actor, { action: 'create', entity: 'day_closing', entityId: row.id, newValues: row });
    return row.id;
  });
  return getClosingById(db, actor, id);
}

export async function getClosingById(db: Db, actor: Actor, id: number): Promise<Closing> {
  const row = await findClosingById(db, actor.organizationId, id);
  if (!row) throw new NotFoundError('Closing', id);
  if (row.user_id !== actor.userId && !(await actorHasPermission(db, actor, 'manage_bills')))
    throw new NotFoundError('Closing', id);
  const [n] = await withNames(db, actor.organizationId, [row]);
  return toClosing(figuresOf(row), { date: row.business_date, userId: row.user_id, userName: n!.userName }, n!.row);
}

/** Saved closings: one's own, or everyone's with manage_bills. */
export async function listClosings(db: Db, actor: Actor, q: { from?: string; to?: string }): Promise<Closing[]> {
  const all = await actorHasPermission(db, actor, 'manage_bills');
  const rows = await listClosingRows(db, actor.organizationId, {
    ...q,
    ...(all ? {} : { userId: actor.userId ?? -1 }),
  });
  return (await withNames(db, actor.organizationId, rows)).map((n) =>
    toClosing(figuresOf(n.row), { date: n.row.business_date, userId: n.row.user_id, userName: n.userName }, n.row),
  );
}

export async function getClosingSettings(db: Db, organizationId: number): Promise<ClosingSettings> {
  return { closed_day_payments: (await labSettings(db, organizationId)).closedDayPayments };
}

export async function updateClosingSettings(db: Db, actor: Actor, body: ClosingSettings): Promise<ClosingSettings> {
  await db.transaction().execute(async (trx) => {
    const org = await getOrganization(trx, actor.organizationId);
    const before = settingsOf(org).closedDayPayments;
    if (before === body.closed_day_payments) return;
    let parsed: Record<string, unknown> = {};
    try {
      parsed = JSON.parse(org.settings) as Record<string, unknown>;
    } catch {
      parsed = {};
    }
    await updateOrganizationRow(trx, actor.organizationId, {
      settings: JSON.stringify({ ...parsed, closedDayPayments: body.closed_day_payments }),
    });
    await auditLabSettings(
      trx,
      actor,
      'settings',
      { closedDayPayments: before },
      { closedDayPayments: body.closed_day_payments },
    );
  });
  return getClosingSettings(db, actor.organizationId);
}
