import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { parse } from 'csv-parse/sync';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLab, tempDir, type TestLab } from '../helpers.js';
import type { Actor } from '../../src/core/context.js';
import { ENTITIES, runExport, runImport, type ImportResult } from '../../src/core/transfer/service.js';
import { describeRowError } from '../../src/core/transfer/errors.js';
import { buildRichLab, type RichLab } from './rich-lab.js';

/**
 * Every entity of `lims export` leaves a busy lab (rich-lab.ts: every kind of row) and enters an
 * empty one; exported again, the file is the same, and the two labs show the same money on every
 * screen. What may differ is listed in ROUND_TRIP_DIFFERS (docs/decisions.md "Payers, prices and
 * money in import/export").
 */

let from: TestLab;
let to: TestLab;
let rich: RichLab;
let dir: string;
const actorOf = (lab: TestLab): Actor => ({
  userId: lab.admin.userId,
  email: lab.admin.email,
  role: 'superadmin',
  organizationId: lab.organizationId,
});

beforeAll(async () => {
  from = await makeLab();
  to = await makeLab();
  rich = await buildRichLab(from);
  dir = tempDir('lims-round-trip-');
}, 120_000);
afterAll(async () => {
  await from?.close();
  await to?.close();
});

async function exportText(lab: TestLab, entity: (typeof ENTITIES)[number]): Promise<string> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  await runExport(lab.database.db, actorOf(lab), {
    entity,
    format: 'csv',
    query: { where: {} },
    out,
    fileName: null,
    origin: 'cli',
  });
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * Columns that differ between the two labs, each for a reason its entity states:
 * - users.last_login: when a user last signed in is the lab's own record of its sign-ins;
 * - suppliers.deliveries: counts receipts; an item's lots arrive as one opening lot (inventory.ts);
 * - results.amended: an amendment's history (the earlier value and its reason) stays in the lab that
 *   made it; the value as amended comes across (results.ts exports the flag for information).
 */
const ROUND_TRIP_DIFFERS: Record<string, string[]> = {
  users: ['last_login'],
  suppliers: ['deliveries'],
  results: ['amended'],
};
/**
 * Entities whose order differs: patients list newest registered first by their number in the lab,
 * and imported patients are numbered in the file's order; compared as sets.
 */
const UNORDERED = new Set(['patients']);

function comparable(entity: string, text: string): Record<string, string>[] {
  const rows = parse(text, { columns: true, bom: true }) as Record<string, string>[];
  for (const r of rows) for (const c of ROUND_TRIP_DIFFERS[entity] ?? []) delete r[c];
  return UNORDERED.has(entity) ? rows.sort((x, y) => JSON.stringify(x).localeCompare(JSON.stringify(y))) : rows;
}

const messages = (r: ImportResult) => r.first_errors.map((e) => describeRowError(e, r.unit));

describe('export, import into an empty lab, export again', () => {
  it('starts from a lab with every kind of row', async () => {
    const count = async (q: string) => Number((await sql.raw<{ n: number }>(q).execute(from.database.db)).rows[0]!.n);
    const kinds = {
      pendingCheques: "SELECT count(*) AS n FROM payments WHERE method = 'cheque' AND status = 'pending'",
      clearedCheques:
        "SELECT count(*) AS n FROM payments WHERE method = 'cheque' AND settled_at IS NOT NULL AND status = 'completed'",
      bouncedCheques: "SELECT count(*) AS n FROM payments WHERE status = 'failed'",
      refunds: "SELECT count(*) AS n FROM payments WHERE kind = 'refund' AND reason IS NOT NULL",
      advancesKept: 'SELECT count(*) AS n FROM payments WHERE advance_paise > 0',
      advancesSpent: "SELECT count(*) AS n FROM payments WHERE kind = 'advance'",
      gstLines: "SELECT count(*) AS n FROM bill_items WHERE tax_category <> 'exempt' AND tax_paise > 0",
      payerBills: 'SELECT count(*) AS n FROM bills WHERE payer_id IS NOT NULL',
      cancelledBills: 'SELECT count(*) AS n FROM bills WHERE cancelled_at IS NOT NULL',
      issuedInvoices: "SELECT count(*) AS n FROM invoices WHERE status <> 'draft'",
      rejectedSamples: "SELECT count(*) AS n FROM samples WHERE status = 'rejected'",
      amendedResults: 'SELECT count(*) AS n FROM result_amendments',
      stockLots: 'SELECT count(*) AS n FROM inventory_lots',
    };
    for (const [kind, q] of Object.entries(kinds)) expect(await count(q), kind).toBeGreaterThan(0);
    expect(await count('SELECT count(*) AS n FROM inventory_lots'), 'lots of one item').toBeGreaterThan(1);
  });

  it('gives the same file for every entity', async () => {
    const problems: string[] = [];
    const exported = new Map<string, string>();
    for (const entity of ENTITIES) {
      const before = await exportText(from, entity);
      exported.set(entity.name, before);
      const sub = join(dir, entity.name);
      mkdirSync(sub);
      const path = join(sub, `${entity.name}.csv`);
      writeFileSync(path, before);
      const r = await runImport(to.database.db, actorOf(to), {
        entity,
        path,
        dryRun: false,
        // Both labs' first administrator has the same email: it is matched, not added.
        update: entity.name === 'users',
        origin: 'cli',
        reportPath: (id) => join(sub, `report-${id}.csv`),
      });
      if (r.status !== 'completed') problems.push(`${entity.name}: ${messages(r).join('; ')}`);
    }
    // Exported again once everything is in (a payer's balance counts its bills).
    for (const entity of ENTITIES) {
      const a = comparable(entity.name, exported.get(entity.name)!);
      if (!a.length) problems.push(`${entity.name}: the busy lab has none`);
      const b = comparable(entity.name, await exportText(to, entity));
      if (JSON.stringify(b) !== JSON.stringify(a))
        problems.push(`${entity.name}:\n  ${JSON.stringify(a)}\n  ${JSON.stringify(b)}`);
    }
    expect(problems).toEqual([]);
  }, 120_000);

  it('shows the same money in both labs', async () => {
    const today = rich.today;
    const figures = async (lab: TestLab) => {
      const get = async (url: string) => {
        const res = await lab.admin.get(url);
        expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
        return res.json<Record<string, unknown>>();
      };
      const report = async (id: string) =>
        (await get(`/api/reports/${id}?from=${today}&to=${today}`)).report as { rows: unknown; totals: unknown };
      return {
        revenue: (await get(`/api/revenue/daily?from=${today}&to=${today}`)).totals,
        payments: (await get('/api/payments')).summary,
        collection: (await report('daily-collection')).totals,
        dues: (await report('dues')).totals,
        bills: (await get('/api/bills/summary')).summary,
        // Each bill's patient's advance on account, by bill number (ids differ between the labs).
        advance: await Promise.all(
          ((await get('/api/bills?limit=200')).bills as { bill_number: string; patient_id: number }[]).map(
            async (b) => [b.bill_number, (await get(`/api/patients/${b.patient_id}/advance`)).advance],
          ),
        ),
      };
    };
    const a = await figures(from);
    const b = await figures(to);
    expect(a.payments).toMatchObject({ pending: 152.16, failed: 300 });
    expect(b).toEqual(a);
  });
});
