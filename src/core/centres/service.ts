import type { Db } from '../db/connection.js';
import type { Actor } from '../context.js';
import { nowIso } from '../context.js';
import { diff, auditLabSettings, writeAudit } from '../audit/audit.js';
import { ConflictError, NotFoundError, ValidationError } from '../errors.js';
import { applyPayerUpdate, insertPayerRecord } from '../payers/service.js';
import { findItem } from '../catalogue/repository.js';
import { percentToBp } from '../../shared/billing.js';
import type {
  Centre,
  CentreApproval,
  CentreCreate,
  CentreListQuery,
  CentreSettings,
  CentreUpdate,
  ShareRule,
  ShareRuleCreate,
} from '../../shared/schemas/centres.js';
import { centreHold } from './hold.js';
import { bpToPercent, toCentre } from './mappers.js';
import {
  approvalRows,
  breachMode,
  deleteShareRuleRow,
  findCentreRow,
  findShareRuleRow,
  insertApprovalRow,
  insertCentreRow,
  insertShareRuleRow,
  listCentreRows,
  patientsOfCentre,
  saveBreachMode,
  sameShareRule,
  shareRuleRows,
  updateCentreRow,
  type CentreRow,
} from './repository.js';

/**
 * Collection centres: a centre bills through its own payer (type collection_centre), so billing
 * prices its bills from the payer's list or % off and dates them by its credit days; the centre
 * adds its credit limit, its share and its hold (docs/decisions.md "Collection centres").
 */

export async function mustFindCentre(db: Db, organizationId: number, id: number): Promise<CentreRow> {
  const r = await findCentreRow(db, organizationId, id);
  if (!r) throw new NotFoundError('Centre', id);
  return r;
}

export async function getCentre(db: Db, organizationId: number, id: number): Promise<Centre> {
  const r = await mustFindCentre(db, organizationId, id);
  return toCentre(r, await centreHold(db, r));
}

export async function listCentres(db: Db, organizationId: number, q: CentreListQuery): Promise<Centre[]> {
  const rows = await listCentreRows(db, organizationId, q);
  return Promise.all(rows.map(async (r) => toCentre(r, await centreHold(db, r))));
}

/** The payer's fields of a centre's input (the payer holds name, contact, GSTIN, rates and credit days). */
function payerPart(input: CentreUpdate) {
  const out: Record<string, unknown> = {};
  for (const k of [
    'name',
    'contact_person',
    'phone',
    'email',
    'address',
    'gstin',
    'state_code',
    'discount_percent',
    'status',
  ] as const)
    if (input[k] !== undefined) out[k] = input[k];
  if (input.credit_days !== undefined) out.payment_terms_days = input.credit_days;
  return out;
}

export async function createCentre(db: Db, actor: Actor, input: CentreCreate): Promise<Centre> {
  const id = await db.transaction().execute(async (trx) => {
    const payerId = await insertPayerRecord(trx, actor, {
      name: input.name,
      type: 'collection_centre',
      gstin: input.gstin,
      address: input.address,
      state_code: input.state_code,
      contact_person: input.contact_person,
      phone: input.phone,
      email: input.email,
      // The centre keeps the limit: an approver may let a bill pass it, which billing's own check would not.
      credit_limit: null,
      payment_terms_days: input.credit_days,
      discount_percent: input.discount_percent,
      status: input.status,
    });
    const now = nowIso();
    const row = await insertCentreRow(trx, {
      organization_id: actor.organizationId,
      payer_id: payerId,
      credit_limit_paise: input.credit_limit == null ? null : Math.round(input.credit_limit * 100),
      share_basis: input.share_basis,
      share_bp: percentToBp(input.share_percent),
      created_at: now,
      updated_at: now,
    });
    await writeAudit(trx, actor, { action: 'create', entity: 'centre', entityId: row.id, newValues: row });
    return row.id;
  });
  return getCentre(db, actor.organizationId, id);
}

export async function updateCentre(db: Db, actor: Actor, id: number, input: CentreUpdate): Promise<Centre> {
  await db.transaction().execute(async (trx) => {
    const before = await mustFindCentre(trx, actor.organizationId, id);
    const payer = payerPart(input);
    if (Object.keys(payer).length) await applyPayerUpdate(trx, actor, before.payer_id, payer);
    const patch: Record<string, unknown> = {};
    if (input.credit_limit !== undefined)
      patch.credit_limit_paise = input.credit_limit === null ? null : Math.round(input.credit_limit * 100);
    if (input.share_basis !== undefined) patch.share_basis = input.share_basis;
    if (input.share_percent !== undefined) patch.share_bp = percentToBp(input.share_percent);
    const { oldValues, newValues } = diff(before as unknown as Record<string, unknown>, patch);
    if (!Object.keys(newValues).length) return;
    await updateCentreRow(trx, actor.organizationId, id, { ...patch, updated_at: nowIso() });
    await writeAudit(trx, actor, { action: 'update', entity: 'centre', entityId: id, oldValues, newValues });
  });
  return getCentre(db, actor.organizationId, id);
}

// Share rules: the centre's commission (or the lab's share) for one test or one category

function toRule(r: Awaited<ReturnType<typeof shareRuleRows>>[number]): ShareRule {
  return {
    id: r.id,
    test_id: r.test_id,
    test_name: r.test_name ?? null,
    category: r.category,
    share_percent: bpToPercent(r.share_bp),
  };
}

export async function listShareRules(db: Db, organizationId: number, centreId: number): Promise<ShareRule[]> {
  await mustFindCentre(db, organizationId, centreId);
  return (await shareRuleRows(db, organizationId, centreId)).map(toRule);
}

export async function addShareRule(db: Db, actor: Actor, centreId: number, input: ShareRuleCreate) {
  await db.transaction().execute(async (trx) => {
    await mustFindCentre(trx, actor.organizationId, centreId);
    const testId = input.test_id ?? null;
    const category = input.category ?? null;
    if (testId) {
      const known = await findItem<{ id: number }>(trx, 'tests', actor.organizationId, testId);
      if (!known) throw ValidationError.field('test_id', `Unknown test ${testId}`);
    }
    if (await sameShareRule(trx, centreId, testId, category))
      throw new ConflictError(
        testId ? 'This test already has a share rule for this centre' : `Category ${category} already has a share rule`,
        'SHARE_RULE_EXISTS',
      );
    const row = await insertShareRuleRow(trx, {
      organization_id: actor.organizationId,
      centre_id: centreId,
      test_id: testId,
      category,
      share_bp: percentToBp(input.share_percent),
      created_at: nowIso(),
    });
    await writeAudit(trx, actor, { action: 'create', entity: 'centre_share_rule', entityId: row.id, newValues: row });
  });
  return listShareRules(db, actor.organizationId, centreId);
}

export async function removeShareRule(db: Db, actor: Actor, centreId: number, ruleId: number) {
  await db.transaction().execute(async (trx) => {
    const row = await findShareRuleRow(trx, actor.organizationId, centreId, ruleId);
    if (!row) throw new NotFoundError('Share rule', ruleId);
    await deleteShareRuleRow(trx, actor.organizationId, ruleId);
    await writeAudit(trx, actor, { action: 'delete', entity: 'centre_share_rule', entityId: ruleId, oldValues: row });
  });
  return listShareRules(db, actor.organizationId, centreId);
}

// The lab's choice on a breach, and approvals

export async function getCentreSettings(db: Db, organizationId: number): Promise<CentreSettings> {
  return { on_breach: (await breachMode(db, organizationId)) as CentreSettings['on_breach'] };
}

export async function updateCentreSettings(db: Db, actor: Actor, input: CentreSettings): Promise<CentreSettings> {
  await db.transaction().execute(async (trx) => {
    const before = await breachMode(trx, actor.organizationId);
    if (before === input.on_breach) return;
    await saveBreachMode(trx, actor.organizationId, input.on_breach, nowIso());
    await auditLabSettings(trx, actor, 'centre_settings', { on_breach: before }, { on_breach: input.on_breach });
  });
  return getCentreSettings(db, actor.organizationId);
}

export async function listApprovals(db: Db, organizationId: number, centreId: number): Promise<CentreApproval[]> {
  await mustFindCentre(db, organizationId, centreId);
  return (await approvalRows(db, organizationId, centreId)).map((a) => ({
    id: a.id,
    reason: a.reason,
    approved_by: a.first_name ? `${a.first_name} ${a.last_name ?? ''}`.trim() : null,
    approved_at: a.approved_at,
    bill_number: a.bill_number ?? null,
    used_at: a.used_at,
  }));
}

/**
 * A manager lets the next bill of a centre that breaches its limit or credit days through (the
 * lab's setting is 'approver'); the approval is used by that one bill (a bill that breaches nothing
 * leaves it waiting). Refused when the lab refuses breaches outright.
 */
export async function approveNextBill(db: Db, actor: Actor, centreId: number, reason: string) {
  await db.transaction().execute(async (trx) => {
    await mustFindCentre(trx, actor.organizationId, centreId);
    if ((await breachMode(trx, actor.organizationId)) !== 'approver')
      throw new ConflictError(
        'This lab refuses bills of a centre on hold; set "On a breach" to "An approver may allow a bill" first',
        'APPROVALS_OFF',
      );
    const row = await insertApprovalRow(trx, {
      organization_id: actor.organizationId,
      centre_id: centreId,
      reason,
      approved_by: actor.userId,
      approved_at: nowIso(),
      bill_id: null,
      used_at: null,
    });
    await writeAudit(trx, actor, { action: 'create', entity: 'centre_approval', entityId: row.id, newValues: row });
  });
  return listApprovals(db, actor.organizationId, centreId);
}

export async function listCentrePatients(db: Db, organizationId: number, centreId: number) {
  await mustFindCentre(db, organizationId, centreId);
  return (await patientsOfCentre(db, organizationId, centreId)).map((p) => ({
    id: p.id,
    patient_code: p.patient_code,
    name: `${p.first_name} ${p.last_name}`.trim(),
    registered_at: p.created_at,
  }));
}
