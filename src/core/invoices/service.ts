import type { Selectable } from 'kysely';
import type { Db } from '../db/connection.js';
import type { Actor } from '../context.js';
import { nowIso } from '../context.js';
import { writeAudit } from '../audit/audit.js';
import { ConflictError, NotFoundError, ValidationError } from '../errors.js';
import { nextSequence } from '../sequences.js';
import { findPatient } from '../patients/repository.js';
import { findPayerRow } from '../payers/repository.js';
import { getOrganization, labSettings, organizationTimezone } from '../settings/service.js';
import { payerState, taxParties } from '../payers/service.js';
import { linesAndTotals } from './lines.js';
import type { BillsTable } from '../billing/tables.js';
import { pageEnvelope } from '../../shared/schemas/common.js';
import { addDays, localDate, startOfLocalDayUtc } from '../../shared/time.js';
import { GSTIN_PATTERN, financialYearOf, invoiceNumberOf, stateOfGstin } from '../../shared/gst.js';
import type { Invoice, InvoiceCreate, InvoiceDetail, InvoiceListQuery } from '../../shared/schemas/invoices.js';
import {
  billForInvoice,
  billsOfInvoice,
  findInvoiceRow,
  insertInvoiceRow,
  invoiceLineRows,
  latestInvoiceDate,
  listInvoiceRows,
  replaceInvoiceLines,
  setBillsInvoice,
  uninvoicedPayerBills,
  updateInvoiceRow,
  type InvoiceRow,
} from './repository.js';

/**
 * GST invoices (docs/decisions.md "Invoices and GST"). A draft gathers bills (a payer's
 * bills of a period, or one patient's bill) and has no number; issuing it numbers it in the
 * financial year's series (INV2627-000001), dates it and fixes the tax split from the lab's and
 * the recipient's states. Mark-paid records the payments on the bills; cancel issues a credit
 * note and frees the bills; an issued invoice is never deleted.
 */

type BillRow = Selectable<BillsTable>;

function statusOf(r: Pick<InvoiceRow, 'status' | 'due_date'>, today: string): Invoice['status'] {
  if (r.status === 'pending' && r.due_date && r.due_date < today) return 'overdue';
  return r.status as Invoice['status'];
}

export function toInvoice(r: InvoiceRow, today: string): Invoice {
  const tax = r.cgst_paise + r.sgst_paise + r.igst_paise;
  return {
    id: r.id,
    invoice_number: r.invoice_number,
    status: statusOf(r, today),
    payer_id: r.payer_id,
    patient_id: r.patient_id,
    period_from: r.period_from,
    period_to: r.period_to,
    recipient_name: r.recipient_name,
    recipient_gstin: r.recipient_gstin,
    recipient_address: r.recipient_address,
    recipient_state_code: r.recipient_state_code,
    lab_gstin: r.lab_gstin,
    lab_state_code: r.lab_state_code,
    lab_name: r.lab_name,
    lab_address: r.lab_address,
    lab_phone: r.lab_phone,
    lab_email: r.lab_email,
    place_of_supply: r.place_of_supply,
    inter_state:
      r.igst_paise > 0 || (!!r.place_of_supply && !!r.lab_state_code && r.place_of_supply !== r.lab_state_code),
    amount: (r.taxable_paise + r.exempt_paise) / 100,
    taxable: r.taxable_paise / 100,
    exempt: r.exempt_paise / 100,
    cgst: r.cgst_paise / 100,
    sgst: r.sgst_paise / 100,
    igst: r.igst_paise / 100,
    tax: tax / 100,
    total: r.total_paise / 100,
    invoice_date: r.invoice_date,
    due_date: r.due_date,
    notes: r.notes,
    issued_at: r.issued_at,
    paid_at: r.paid_at,
    payment_method: r.payment_method,
    payment_reference: r.payment_reference,
    cancelled_at: r.cancelled_at,
    cancel_reason: r.cancel_reason,
    credit_note_number: r.credit_note_number,
    bill_count: r.bill_count,
    created_at: r.created_at,
  };
}

export async function labToday(db: Db, organizationId: number): Promise<{ tz: string; today: string }> {
  const tz = await organizationTimezone(db, organizationId);
  return { tz, today: localDate(tz) };
}

export async function mustFind(db: Db, organizationId: number, id: number): Promise<InvoiceRow> {
  const r = await findInvoiceRow(db, organizationId, id);
  if (!r) throw new NotFoundError('Invoice', id);
  return r;
}

export async function getInvoice(db: Db, organizationId: number, id: number): Promise<InvoiceDetail> {
  const r = await mustFind(db, organizationId, id);
  const { today } = await labToday(db, organizationId);
  const lines = await invoiceLineRows(db, id);
  return {
    ...toInvoice(r, today),
    lines: lines.map((l) => ({
      position: l.position,
      bill_id: l.bill_id,
      bill_number: l.bill_number,
      description: l.description,
      sac_code: l.sac_code,
      qty: l.qty,
      rate_percent: Number(l.rate_percent),
      taxable: l.taxable_paise / 100,
      cgst: l.cgst_paise / 100,
      sgst: l.sgst_paise / 100,
      igst: l.igst_paise / 100,
      total: l.total_paise / 100,
    })),
  };
}

export async function listInvoices(db: Db, organizationId: number, q: InvoiceListQuery) {
  const { today } = await labToday(db, organizationId);
  const { total, rows } = await listInvoiceRows(db, organizationId, q, today);
  return { invoices: rows.map((r) => toInvoice(r, today)), ...pageEnvelope(total, q.page, q.limit) };
}

export async function createInvoice(db: Db, actor: Actor, input: InvoiceCreate): Promise<InvoiceDetail> {
  const id = await db.transaction().execute(async (trx) => {
    const org = actor.organizationId;
    const tz = await organizationTimezone(trx, org);
    let bills: BillRow[];
    let recipient: { name: string; gstin: string | null; address: string | null; state: string | null };
    let payerId: number | null = null;
    let patientId: number | null = null;
    if (input.payer_id !== undefined) {
      const payer = await findPayerRow(trx, org, input.payer_id);
      if (!payer) throw ValidationError.field('payer_id', `Unknown payer ${input.payer_id}`);
      bills = await uninvoicedPayerBills(
        trx,
        org,
        payer.id,
        startOfLocalDayUtc(tz, input.period_from!).toISOString(),
        startOfLocalDayUtc(tz, addDays(input.period_to!, 1)).toISOString(),
      );
      if (!bills.length)
        throw new ConflictError(
          `${payer.name} has no bills from ${input.period_from} to ${input.period_to} that are not on an invoice already`,
          'NOTHING_TO_INVOICE',
        );
      recipient = {
        name: payer.name,
        gstin: payer.gstin,
        address: payer.address,
        state: payerState(payer),
      };
      payerId = payer.id;
    } else {
      const bill = await billForInvoice(trx, org, input.bill_id!);
      if (!bill) throw ValidationError.field('bill_id', `Unknown bill ${input.bill_id}`);
      if (bill.cancelled_at) throw new ConflictError(`Bill ${bill.bill_number} is cancelled`, 'BILL_CANCELLED');
      if (bill.payer_id !== null)
        throw new ConflictError(
          `Bill ${bill.bill_number} is charged to a payer; it goes on the payer’s invoice`,
          'BILL_HAS_PAYER',
        );
      if (bill.invoice_id !== null)
        throw new ConflictError(`Bill ${bill.bill_number} is already on an invoice`, 'BILL_INVOICED');
      const patient = await findPatient(trx, org, bill.patient_id);
      const gstin = input.recipient_gstin ?? null;
      if (gstin && !GSTIN_PATTERN.test(gstin.toUpperCase()))
        throw ValidationError.field(
          'recipient_gstin',
          'GSTIN must be 15 characters: state code, PAN, entity number, Z, check character',
        );
      recipient = {
        name: patient ? `${patient.first_name} ${patient.last_name}` : 'Patient',
        gstin: gstin ? gstin.toUpperCase() : null,
        address: patient?.address ?? null,
        state: stateOfGstin(gstin?.toUpperCase()),
      };
      bills = [bill];
      patientId = bill.patient_id;
    }
    const parties = await taxParties(trx, org, recipient.state);
    const { lines, totals } = await linesAndTotals(trx, bills, parties.interState);
    const now = nowIso();
    const row = await insertInvoiceRow(trx, {
      organization_id: org,
      invoice_number: null,
      status: 'draft',
      payer_id: payerId,
      patient_id: patientId,
      period_from: input.period_from ?? null,
      period_to: input.period_to ?? null,
      recipient_name: recipient.name,
      recipient_gstin: recipient.gstin,
      recipient_address: recipient.address,
      recipient_state_code: recipient.state,
      lab_gstin: parties.labGstin,
      lab_state_code: parties.labState,
      lab_name: null,
      lab_address: null,
      lab_phone: null,
      lab_email: null,
      place_of_supply: parties.place,
      ...totals,
      invoice_date: null,
      due_date: null,
      notes: input.notes ?? null,
      issued_at: null,
      issued_by: null,
      paid_at: null,
      payment_method: null,
      payment_reference: null,
      cancelled_at: null,
      cancel_reason: null,
      credit_note_number: null,
      created_by: actor.userId,
      created_at: now,
      updated_at: now,
    });
    await replaceInvoiceLines(trx, row.id, lines);
    await setBillsInvoice(
      trx,
      org,
      bills.map((b) => b.id),
      row.id,
    );
    await writeAudit(trx, actor, {
      action: 'create',
      entity: 'invoice',
      entityId: row.id,
      newValues: {
        status: 'draft',
        payer_id: payerId,
        patient_id: patientId,
        bills: bills.map((b) => b.bill_number),
        ...totals,
      },
    });
    return row.id;
  });
  return getInvoice(db, actor.organizationId, id);
}

/**
 * draft -> pending: the next number of the financial year's series, taken in this transaction (the
 * counter row is locked until it commits, so two issues never share a number; the unique index is
 * the backstop). The invoice date is today unless given (not in the future, not before the lab's
 * latest invoice, so numbers and dates run together).
 */
export async function issueInvoice(db: Db, actor: Actor, id: number, invoiceDate?: string): Promise<InvoiceDetail> {
  await db.transaction().execute(async (trx) => {
    const org = actor.organizationId;
    const inv = await mustFind(trx, org, id);
    if (inv.status !== 'draft')
      throw new ConflictError(`Invoice ${inv.invoice_number ?? id} is already issued`, 'INVOICE_ISSUED');
    const { today } = await labToday(trx, org);
    const date = invoiceDate ?? today;
    if (date > today) throw ValidationError.field('invoice_date', 'The invoice date cannot be in the future');
    const latest = await latestInvoiceDate(trx, org);
    if (latest && date < latest)
      throw ValidationError.field(
        'invoice_date',
        `The lab’s latest invoice is dated ${latest}; a new one cannot be dated before it`,
      );
    const parties = await taxParties(trx, org, inv.recipient_state_code);
    if (!parties.labGstin || !parties.labState)
      throw new ConflictError(
        'A GST invoice carries the lab’s GSTIN and state: set them in Billing Management (Settings) first',
        'LAB_GSTIN_MISSING',
      );
    // A tax invoice names the supplier's address beside its GSTIN (CGST Rules, rule 46).
    const lab = await getOrganization(trx, org);
    if (!lab.address?.trim())
      throw new ConflictError(
        'A GST invoice carries the lab’s address: set it in System Settings (General, Lab Address) first',
        'LAB_ADDRESS_MISSING',
      );
    const bills = await billsOfInvoice(trx, org, id);
    const { lines, totals } = await linesAndTotals(trx, bills, parties.interState);
    let terms = (await labSettings(trx, org)).billDueDays;
    if (inv.payer_id) terms = (await findPayerRow(trx, org, inv.payer_id))?.payment_terms_days ?? terms;
    const n = await nextSequence(trx, org, `invoice:${financialYearOf(date)}`);
    const number = invoiceNumberOf('INV', financialYearOf(date), n);
    await replaceInvoiceLines(trx, id, lines);
    const patch = {
      invoice_number: number,
      status: 'pending',
      lab_gstin: parties.labGstin,
      lab_state_code: parties.labState,
      // The supplier as it is today, kept: a later change of the lab's settings leaves the invoice as issued.
      lab_name: lab.name,
      lab_address: lab.address,
      lab_phone: lab.phone,
      lab_email: lab.email,
      place_of_supply: parties.place,
      ...totals,
      invoice_date: date,
      due_date: addDays(date, terms),
      issued_at: nowIso(),
      issued_by: actor.userId,
      updated_at: nowIso(),
    };
    await updateInvoiceRow(trx, org, id, patch);
    await writeAudit(trx, actor, {
      action: 'update',
      entity: 'invoice',
      entityId: id,
      oldValues: { status: 'draft', invoice_number: null },
      newValues: {
        status: 'pending',
        invoice_number: number,
        invoice_date: date,
        due_date: patch.due_date,
        total_paise: totals.total_paise,
      },
    });
  });
  return getInvoice(db, actor.organizationId, id);
}
