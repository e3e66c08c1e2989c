import type { Db } from '../db/connection.js';
import type { Actor } from '../context.js';
import { nowIso } from '../context.js';
import { writeAudit } from '../audit/audit.js';
import { getOrganization } from '../settings/service.js';
import { updateOrganizationRow } from '../settings/repository.js';
import {
  DEFAULT_EINVOICE_THRESHOLD,
  DEFAULT_LEDGERS,
  LEDGER_KEYS,
  SALES_VOUCHER_MODES,
  type AccountsSettings,
  type AccountsSettingsUpdate,
  type SalesVoucherMode,
} from '../../shared/schemas/accounts.js';

/** What the lab's settings JSON keeps under `accounts`: rupees as paise, like every amount stored. */
interface Stored {
  tallyCompany?: string | null;
  salesVoucherMode?: string;
  ledgers?: Record<string, string>;
  annualTurnoverPaise?: number | null;
  einvoiceThresholdPaise?: number;
}

function fromStored(s: Stored): AccountsSettings {
  const turnover = s.annualTurnoverPaise ?? null;
  const threshold = s.einvoiceThresholdPaise ?? DEFAULT_EINVOICE_THRESHOLD * 100;
  return {
    tally_company: s.tallyCompany ?? null,
    sales_voucher_mode: (SALES_VOUCHER_MODES as readonly string[]).includes(s.salesVoucherMode ?? '')
      ? (s.salesVoucherMode as SalesVoucherMode)
      : 'bill',
    ledgers: Object.fromEntries(
      LEDGER_KEYS.map((k) => [k, s.ledgers?.[k] ?? DEFAULT_LEDGERS[k]]),
    ) as AccountsSettings['ledgers'],
    annual_turnover: turnover === null ? null : turnover / 100,
    einvoice_threshold: threshold / 100,
    einvoicing: turnover !== null && turnover > threshold,
  };
}

function storedOf(settingsJson: string): Stored {
  try {
    const all = JSON.parse(settingsJson || '{}') as { accounts?: Stored };
    return all.accounts ?? {};
  } catch {
    return {};
  }
}

export async function getAccountsSettings(db: Db, organizationId: number): Promise<AccountsSettings> {
  return fromStored(storedOf((await getOrganization(db, organizationId)).settings));
}

export async function updateAccountsSettings(
  db: Db,
  actor: Actor,
  patch: AccountsSettingsUpdate,
): Promise<AccountsSettings> {
  return db.transaction().execute(async (trx) => {
    const org = await getOrganization(trx, actor.organizationId);
    const before = storedOf(org.settings);
    const after: Stored = { ...before, ledgers: { ...(before.ledgers ?? {}) } };
    if (patch.tally_company !== undefined) after.tallyCompany = patch.tally_company ?? null;
    if (patch.sales_voucher_mode !== undefined) after.salesVoucherMode = patch.sales_voucher_mode;
    for (const k of LEDGER_KEYS) if (patch.ledgers?.[k] !== undefined) after.ledgers![k] = patch.ledgers[k];
    if (patch.annual_turnover !== undefined)
      after.annualTurnoverPaise = patch.annual_turnover === null ? null : Math.round(patch.annual_turnover * 100);
    if (patch.einvoice_threshold !== undefined)
      after.einvoiceThresholdPaise = Math.round(patch.einvoice_threshold * 100);
    const [was, now] = [fromStored(before), fromStored(after)];
    if (JSON.stringify(was) !== JSON.stringify(now)) {
      const json = { ...(JSON.parse(org.settings || '{}') as Record<string, unknown>), accounts: after };
      await updateOrganizationRow(trx, org.id, { settings: JSON.stringify(json), updated_at: nowIso() });
      await writeAudit(trx, actor, {
        action: 'update',
        entity: 'accounts_settings',
        entityId: org.id,
        oldValues: was as unknown as Record<string, unknown>,
        newValues: now as unknown as Record<string, unknown>,
      });
    }
    return now;
  });
}
