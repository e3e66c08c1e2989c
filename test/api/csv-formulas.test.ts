import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'csv-parse/sync';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLab, type TestLab } from '../helpers.js';
import { limsInProcess, setUpLab, tempDir } from '../cli/helpers.js';
import { isFileResponse, routeUrl, type RouteContract } from '../../src/shared/api/contract.js';
import type { ReportCatalogue } from '../../src/shared/schemas/reports.js';

/**
 * Text someone typed (a city, a test name, a rejection reason) must never run as a formula when
 * an accountant opens a CSV lims wrote. Every CSV the API serves (found from the contracts: file
 * routes of text/csv, and routes taking `format=csv`, every report of the catalogue among them)
 * and every CLI listing with `--format csv` is read back here on a lab whose rows carry formulas.
 */

const FORMULAS = [
  '=HYPERLINK("http://evil.example","open")',
  "+cmd|' /C calc'!A0",
  '@SUM(1+1)',
  "-2+3+cmd|'/C calc'!A0",
];
const API_DIR = fileURLToPath(new URL('../../src/shared/api/', import.meta.url));

let lab: TestLab;
const today = new Date().toISOString().slice(0, 10);

/** A cell a spreadsheet would run: starts with = @ TAB CR, or + - not followed by a plain number. */
function dangerous(cell: string): boolean {
  return /^[=@\t\r]/.test(cell) || (/^[+-]/.test(cell) && !/^[+-]?[\d\s.-]+$/.test(cell));
}

function badCells(csv: string): string[] {
  const rows = parse(csv.replace(/^\uFEFF/, ''), { relax_column_count: true }) as string[][];
  return rows.flat().filter(dangerous);
}

async function contracts(): Promise<{ name: string; contract: RouteContract }[]> {
  const out: { name: string; contract: RouteContract }[] = [];
  for (const file of readdirSync(API_DIR).filter((f) => f.endsWith('.ts') && f !== 'contract.ts')) {
    const mod = (await import(join(API_DIR, file))) as Record<string, unknown>;
    for (const [exportName, group] of Object.entries(mod)) {
      if (typeof group !== 'object' || group === null) continue;
      for (const [key, c] of Object.entries(group))
        if (c && typeof c === 'object' && 'method' in c && 'path' in c && 'response' in c)
          out.push({ name: `${file}:${exportName}.${key}`, contract: c as RouteContract });
    }
  }
  return out;
}

function takesCsvFormat(c: RouteContract): boolean {
  const q = c.query as unknown;
  if (!(q instanceof z.ZodObject)) return false;
  return 'format' in q.shape && q.shape.format!.safeParse('csv').success;
}

beforeAll(async () => {
  lab = await makeLab();
  const [city, testName, reason, remarks] = FORMULAS;
  const test = await lab.admin.post('/api/tests', { name: testName, code: 'EVIL', price: 250, category: testName });
  expect(test.statusCode, test.body).toBe(201);
  const testId = test.json<{ test: { id: number } }>().test.id;
  const patient = await lab.admin.post('/api/patients', {
    first_name: 'Ravi',
    last_name: 'Kumar',
    date_of_birth: '1980-01-01',
    gender: 'Male',
    city,
    address: remarks,
    confirm_new: true,
  });
  expect(patient.statusCode, patient.body).toBe(201);
  const patientId = patient.json<{ patient: { id: number } }>().patient.id;
  const bill = await lab.admin.post('/api/bills', {
    patient_id: patientId,
    items: [{ item_type: 'test', item_id: testId, qty: 1, discount_percent: 0 }],
    discount_percentage: 0,
    tax_percentage: 0,
    payment_method: 'cash',
    amount_paid: 250,
    notes: remarks,
  });
  expect(bill.statusCode, bill.body).toBe(201);
  const samples = await lab.admin.get(`/api/samples?patient_id=${patientId}`);
  const sample = samples.json<{ samples: { id: number }[] }>().samples[0];
  if (sample) {
    await lab.admin.post(`/api/samples/${sample.id}/collect`, {});
    await lab.admin.post(`/api/samples/${sample.id}/reject`, { reason });
  }
});

afterAll(async () => {
  await lab?.close();
});

describe('no CSV lims writes carries a formula', () => {
  it('every CSV the API serves', async () => {
    const problems: string[] = [];
    let checked = 0;
    const get = async (name: string, url: string) => {
      const res = await lab.admin.get(url);
      if (res.statusCode !== 200 || !String(res.headers['content-type']).includes('csv')) return;
      checked += 1;
      const bad = badCells(res.body);
      if (bad.length) problems.push(`${name} ${url}: ${bad.join(' | ')}`);
    };
    const catalogue = (await lab.admin.get('/api/reports')).json<ReportCatalogue>();
    for (const { name, contract } of await contracts()) {
      if (contract.method !== 'GET') continue;
      const range = `from=${today.slice(0, 8)}01&to=${today}`;
      if (contract.path === '/api/reports/:id') {
        for (const r of catalogue.reports) await get(name, `/api/reports/${r.id}?format=csv&${range}`);
        continue;
      }
      if (contract.path.includes(':')) continue;
      if (isFileResponse(contract.response) && contract.response.file.includes('csv'))
        await get(name, `${routeUrl(contract.path)}?${range}`);
      else if (takesCsvFormat(contract)) await get(name, `${routeUrl(contract.path)}?format=csv&${range}`);
    }
    // The patients, bills and results exports, revenue, and the reports of the catalogue at least.
    expect(checked).toBeGreaterThan(catalogue.reports.length + 3);
    expect(problems).toEqual([]);
  });

  it('every CLI listing with --format csv', async () => {
    const dir = tempDir('lims-csv-');
    await setUpLab(dir);
    // A user whose name the lab typed as a formula would be if names allowed it: the department does.
    const add = await limsInProcess([
      '--data-dir',
      dir,
      'user',
      'add',
      '--email',
      'tech@lab.in',
      '--first-name',
      'Tara',
      '--last-name',
      'Das',
      '--role',
      'lab_technician',
      '--department',
      FORMULAS[0]!,
      '--password',
      'correct-horse-2',
    ]);
    expect(add.code, add.stderr).toBe(0);
    const list = await limsInProcess(['--data-dir', dir, 'user', 'list', '--format', 'csv']);
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toContain('HYPERLINK');
    expect(badCells(list.stdout)).toEqual([]);
  });
});
