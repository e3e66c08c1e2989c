import type { Db } from '../db/connection.js';
import type { Actor } from '../context.js';
import { writeAudit } from '../audit/audit.js';
import type { AccountExportKind, Gstr1CsvSection } from '../../shared/schemas/accounts.js';
import { tallyExport } from './tally.js';
import { gstr1WithNames } from './gstr1.js';
import { gstr1Csv } from './gstr1-csv.js';
import { einvoiceDocuments } from './einvoice.js';

export { getAccountsSettings, updateAccountsSettings } from './settings.js';
export { accountsSummary } from './summary.js';

export interface AccountsFile {
  name: string;
  type: string;
  body: string;
}

/**
 * One month's file for the accountant, the same for the screen and `lims export`: Tally XML,
 * GSTR-1 JSON, its CSV sheets (each a file; `section` keeps one), or IRN-ready JSON. Audited as an
 * export (what and which month, never the figures).
 */
export async function accountsExport(
  db: Db,
  actor: Actor,
  kind: AccountExportKind,
  month: string,
  section?: Gstr1CsvSection,
) {
  const org = actor.organizationId;
  let files: AccountsFile[];
  if (kind === 'tally') {
    const { xml } = await tallyExport(db, org, month);
    files = [{ name: `tally-${month}.xml`, type: 'application/xml', body: xml }];
  } else if (kind === 'einvoice') {
    const docs = await einvoiceDocuments(db, org, month);
    files = [{ name: `einvoice-${month}.json`, type: 'application/json', body: `${JSON.stringify(docs, null, 2)}\n` }];
  } else {
    const { g, names } = await gstr1WithNames(db, org, month);
    files =
      kind === 'gstr1'
        ? [{ name: `gstr1-${month}.json`, type: 'application/json', body: `${JSON.stringify(g, null, 2)}\n` }]
        : Object.entries(gstr1Csv(g, names))
            .filter(([s]) => section === undefined || s === section)
            .map(([s, body]) => ({ name: `gstr1-${month}-${s}.csv`, type: 'text/csv; charset=utf-8', body }));
  }
  await writeAudit(db, actor, {
    action: 'export',
    entity: 'accounts',
    entityId: `${kind}:${month}`,
    newValues: { kind, month, files: files.map((f) => f.name) },
  });
  return files;
}
