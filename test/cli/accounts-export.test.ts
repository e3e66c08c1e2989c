import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localDate } from '../../src/shared/time.js';
import { ADMIN, cleanup, limsInProcess, tempDir } from './helpers.js';

/** `lims export tally|gstr1|einvoice --month`: the accountant's files for cron, and its flag errors. */
let dir: string;
const month = localDate('Asia/Kolkata').slice(0, 7);

beforeAll(async () => {
  dir = tempDir();
  const r = await limsInProcess([
    '--data-dir',
    dir,
    'setup',
    '--yes',
    '--lab-name',
    'City Diagnostics',
    '--admin-name',
    'Asha Rao',
    '--admin-email',
    ADMIN.email,
    '--admin-password',
    ADMIN.password,
  ]);
  expect(r.code, r.stderr).toBe(0);
}, 120_000);
afterAll(() => cleanup());

describe('lims export for the accountant', () => {
  it('writes the Tally XML of a month to a file and to standard output', async () => {
    const out = join(tempDir(), 'tally.xml');
    const r = await limsInProcess(['--data-dir', dir, 'export', 'tally', '--month', month, '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`wrote ${out}`);
    expect(readFileSync(out, 'utf8')).toMatch(/<ENVELOPE>[\s\S]*<TALLYREQUEST>Import Data<\/TALLYREQUEST>/);
    const piped = await limsInProcess(['--data-dir', dir, 'export', 'tally', '--month', month]);
    expect(piped.code, piped.stderr).toBe(0);
    expect(piped.stdout).toContain('<REPORTNAME>Vouchers</REPORTNAME>');
    // Its own format said out loud, as a script may: the same file.
    const said = await limsInProcess(['--data-dir', dir, 'export', 'tally', '--month', month, '--format', 'xml']);
    expect(said.code, said.stderr).toBe(0);
    expect(said.stdout).toBe(piped.stdout);
  });

  it('writes GSTR-1 as JSON, or its sheets as CSV files in a folder', async () => {
    const out = join(tempDir(), 'gstr1.json');
    const r = await limsInProcess(['--data-dir', dir, 'export', 'gstr1', '--month', month, '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    const g = JSON.parse(readFileSync(out, 'utf8')) as { fp: string; b2b: unknown[] };
    expect(g.fp).toBe(`${month.slice(5)}${month.slice(0, 4)}`);
    const folder = join(tempDir(), 'sheets');
    const c = await limsInProcess([
      '--data-dir',
      dir,
      'export',
      'gstr1',
      '--month',
      month,
      '--format',
      'csv',
      '--out',
      folder,
    ]);
    expect(c.code, c.stderr).toBe(0);
    expect(readdirSync(folder).sort()).toEqual(
      ['b2b', 'b2cl', 'b2cs', 'cdnr', 'cdnur', 'docs', 'exemp', 'hsn-b2b', 'hsn-b2c'].map(
        (s) => `gstr1-${month}-${s}.csv`,
      ),
    );
  });

  it('writes valid empty files for a month with no rows', async () => {
    const empty = '2024-02';
    const out = join(tempDir(), 'empty.xml');
    const t = await limsInProcess(['--data-dir', dir, 'export', 'tally', '--month', empty, '--out', out]);
    expect(t.code, t.stderr).toBe(0);
    const xml = readFileSync(out, 'utf8');
    expect(xml).toMatch(/<ENVELOPE>[\s\S]*<REQUESTDATA>[\s\S]*<\/REQUESTDATA>[\s\S]*<\/ENVELOPE>\s*$/);
    expect(xml).not.toContain('<VOUCHER');
    const g = await limsInProcess(['--data-dir', dir, 'export', 'gstr1', '--month', empty]);
    expect(g.code, g.stderr).toBe(0);
    expect(JSON.parse(g.stdout)).toMatchObject({ fp: '022024', b2b: [], b2cl: [], b2cs: [], cdnr: [], cdnur: [] });
    const folder = join(tempDir(), 'empty-sheets');
    const c = await limsInProcess([
      '--data-dir',
      dir,
      'export',
      'gstr1',
      '--month',
      empty,
      '--format',
      'csv',
      '--out',
      folder,
    ]);
    expect(c.code, c.stderr).toBe(0);
    // Every sheet is its header line alone (exemp keeps its four fixed rows at nothing).
    for (const s of ['b2b', 'b2cl', 'b2cs', 'cdnr', 'cdnur', 'hsn-b2b', 'hsn-b2c', 'docs'])
      expect(
        readFileSync(join(folder, `gstr1-${empty}-${s}.csv`), 'utf8')
          .trim()
          .split('\r\n'),
        s,
      ).toHaveLength(1);
  });

  it('refuses a bad flag or value with exit 2, naming the flag and the value', async () => {
    const cases: [string[], RegExp][] = [
      [['tally'], /--month is required/],
      [['tally', '--month', '2026-13'], /--month: 2026-13 is not a month/],
      [['gstr1', '--month', 'nov'], /--month: nov/],
      [['gstr1', '--month', '2026-11-05'], /--month: 2026-11-05/],
      [['einvoice', '--month', month, '--where', 'gstin=29'], /--where gstin=29/],
      [['gstr1', '--month', month, '--format', 'xlsx'], /--format xlsx/],
      [['tally', '--month', month, '--from', '2026-11-01'], /--from 2026-11-01/],
      [['tally', '--month', month, '--format', 'json'], /--format json/],
      [['gstr1', '--month', month, '--format', 'csv'], /--format csv: give --out/],
      [['patients', '--month', month], new RegExp(`--month ${month}`)],
      [['einvoice', '--month', month, '--format', 'xml'], /--format xml: einvoice is JSON/],
      [['patients', '--format', 'xml'], /--format xml: export patients writes csv, xlsx or json/],
    ];
    for (const [args, message] of cases) {
      const r = await limsInProcess(['--data-dir', dir, 'export', ...args]);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(message);
    }
  });

  it('says e-invoicing is not required below the turnover threshold (exit 1)', async () => {
    const out = join(tempDir(), 'irn.json');
    const r = await limsInProcess(['--data-dir', dir, 'export', 'einvoice', '--month', month, '--out', out]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/turnover/);
    expect(existsSync(out)).toBe(false);
  });
});
