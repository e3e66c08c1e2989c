import type { Db } from '../db/connection.js';
import type { Actor } from '../context.js';
import { nowIso } from '../context.js';
import { writeAudit } from '../audit/audit.js';
import { ValidationError } from '../errors.js';
import { GST_STATES, GSTIN_STATE_MISMATCH, gstinFitsState, stateOfGstin } from '../../shared/gst.js';
import { ROLES } from '../../shared/roles.js';
import type { BillingSettings, BillingSettingsUpdate } from '../../shared/schemas/billing-settings.js';
import { getOrganization, settingsOf, type LabSettings } from './organization.js';
import { updateOrganizationRow } from './repository.js';

/** Billing settings: GST registration, bill due days, discount limits per role; kept in the lab's settings JSON. */

function toBillingSettings(s: LabSettings): BillingSettings {
  const state = s.gstStateCode ?? stateOfGstin(s.gstin);
  return {
    gstin: s.gstin,
    gst_state_code: state,
    gst_state: state ? (GST_STATES[state] ?? null) : null,
    bill_due_days: s.billDueDays,
    discount_ceilings: Object.fromEntries(ROLES.map((r) => [r, s.discountCeilings[r] ?? 0])),
  };
}

export async function getBillingSettings(db: Db, organizationId: number): Promise<BillingSettings> {
  return toBillingSettings(settingsOf(await getOrganization(db, organizationId)));
}

export async function updateBillingSettings(
  db: Db,
  actor: Actor,
  patch: BillingSettingsUpdate,
): Promise<BillingSettings> {
  return db.transaction().execute(async (trx) => {
    const org = await getOrganization(trx, actor.organizationId);
    const before = settingsOf(org);
    const after: LabSettings = { ...before, discountCeilings: { ...before.discountCeilings } };
    if (patch.gstin !== undefined) {
      after.gstin = patch.gstin ?? null;
      if (patch.gst_state_code === undefined) after.gstStateCode = stateOfGstin(after.gstin);
    }
    if (patch.gst_state_code !== undefined) after.gstStateCode = patch.gst_state_code ?? null;
    if (!gstinFitsState(after.gstin, after.gstStateCode))
      throw ValidationError.field('gst_state_code', GSTIN_STATE_MISMATCH);
    if (patch.bill_due_days !== undefined) after.billDueDays = patch.bill_due_days;
    for (const [role, pct] of Object.entries(patch.discount_ceilings ?? {})) after.discountCeilings[role] = pct;
    const oldValues: Record<string, unknown> = {};
    const newValues: Record<string, unknown> = {};
    for (const k of ['gstin', 'gstStateCode', 'billDueDays'] as const)
      if (before[k] !== after[k]) {
        oldValues[k] = before[k];
        newValues[k] = after[k];
      }
    for (const r of ROLES)
      if ((before.discountCeilings[r] ?? 0) !== (after.discountCeilings[r] ?? 0)) {
        oldValues[`discountCeilings.${r}`] = before.discountCeilings[r] ?? 0;
        newValues[`discountCeilings.${r}`] = after.discountCeilings[r] ?? 0;
      }
    if (Object.keys(newValues).length) {
      const json = { ...(JSON.parse(org.settings || '{}') as Record<string, unknown>) };
      json.gstin = after.gstin;
      json.gstStateCode = after.gstStateCode;
      json.billDueDays = after.billDueDays;
      json.discountCeilings = after.discountCeilings;
      await updateOrganizationRow(trx, org.id, { settings: JSON.stringify(json), updated_at: nowIso() });
      await writeAudit(trx, actor, {
        action: 'update',
        entity: 'billing_settings',
        entityId: org.id,
        oldValues,
        newValues,
      });
    }
    return toBillingSettings(after);
  });
}
