import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { primaryOrganization } from '../../src/core/settings/organization.js';
import { listPatients } from '../../src/core/patients/service.js';
import { cleanup, limsInProcess, openLabDatabase, setUpLab, tempDir } from './helpers.js';

afterAll(cleanup);

const ROWS = 5000;
const HEADER = [
  'Patient ID',
  'First Name',
  'Last Name',
  'Date of Birth',
  'Gender',
  'Phone',
  'Email',
  'Address',
  'City',
];

/** The number written in letters (names take letters only). */
const letters = (i: number) => [...String(i)].map((d) => 'abcdefghij'[Number(d)]).join('');
const oldId = (i: number) => `MH/${String(i).padStart(5, '0')}`;

/**
 * A patient list as a lab's old system exports it and Excel on Windows saves it: the header in
 * words, an old patient ID column, DD/MM/YYYY dates, M/F (and m/f), mobiles as "+91 98220 12345",
 * addresses with commas. `bad` puts the 8 real mistakes in (9 problems: one row has two).
 */
function legacyRows(bad: boolean): string[][] {
  const rows: string[][] = [];
  for (let i = 1; i <= ROWS; i++) {
    const day = String((i % 28) + 1).padStart(2, '0');
    const month = String((i % 12) + 1).padStart(2, '0');
    rows.push([
      oldId(i),
      `Asha ${letters(i)}`,
      i % 3 === 0 ? 'Rao' : 'Menon',
      `${day}/${month}/${1950 + (i % 60)}`,
      ['M', 'F', 'm', 'f'][i % 4]!,
      `+91 98${String(i % 1000).padStart(3, '0')} ${String(10000 + i).slice(-5)}`,
      i % 10 === 0 ? `asha${letters(i)}@example.in` : '',
      `${i} MG Road, Shivajinagar`,
      'Pune',
    ]);
  }
  if (bad) {
    const at = (row: number) => rows[row - 2]!; // spreadsheet row (the header is row 1)
    at(7)[3] = '31/02/1988'; // not a date ...
    at(7)[5] = '+91 12345 67890'; // ... and not a mobile: two problems on one row
    at(120)[3] = '01/01/2099'; // born in the future
    at(400)[4] = 'X';
    at(999)[1] = '';
    at(1500)[1] = 'R2D2';
    at(2500)[0] = oldId(2400); // an old ID given twice
    at(2500)[6] = 'not-an-email'; // and, on the same row, an email
    at(4001)[6] = 'asha@';
  }
  return rows;
}

const csvCell = (v: string) => (/[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
const excelCsv = (rows: string[][]) =>
  `\uFEFF${[HEADER, ...rows].map((r) => r.map(csvCell).join(',')).join('\r\n')}\r\n`;

let dir: string;
let files: string;
beforeAll(async () => {
  dir = tempDir();
  files = tempDir();
  await setUpLab(dir);
}, 60_000);

describe('a legacy patient list saved by Excel on Windows', () => {
  it('one pass names every problem of every row, by kind; after one round of fixes it imports', async () => {
    const file = join(files, 'old-system.csv');
    writeFileSync(file, excelCsv(legacyRows(true)));
    const first = await limsInProcess(['--data-dir', dir, 'import', 'patients', file]);
    expect(first.code).toBe(1);
    const lines = first.stderr.trimEnd().split('\n');
    // Nine problems on eight rows, each named, grouped by kind: not 5,000 about the old ID, not M/F refused.
    expect(lines.slice(0, -1)).toEqual([
      '  email: 2 rows, e.g. rows 2,500, 4,001: Enter a valid email address (got "not-an-email")',
      "  date_of_birth: 1 row, row 7: 31/02/1988 is not a date (write YYYY-MM-DD, or DD/MM/YYYY as the lab's dates are set)",
      '  phone: 1 row, row 7: Mobile number must be a 10-digit Indian mobile number starting with 6, 7, 8 or 9 (got "+91 12345 67890")',
      '  date_of_birth: 1 row, row 120: Date of birth cannot be in the future (got "2099-01-01")',
      '  gender: 1 row, row 400: Gender must be Male, Female or Other (got "X")',
      '  first_name: 1 row, row 999: First name is required',
      '  first_name: 1 row, row 1,500: First name may contain only letters (any script), spaces, dots, apostrophes and hyphens (got "R2D2")',
      '  patient_id: 1 row, row 2,500: MH/02400 is also on row 2,401; each patient may appear once in a file',
    ]);
    expect(lines.at(-1)).toMatch(
      /^lims: old-system\.csv: 9 errors of 8 kinds \(above\) in 5,000 rows; nothing was stored; every error is listed in (.+)$/,
    );
    const report = readFileSync(/listed in (.+)$/.exec(lines.at(-1)!)![1]!, 'utf8');
    // The report starts with one line per kind (the two emails are one kind), then every row.
    expect(report.split('\r\n').slice(0, 3)).toEqual([
      '\uFEFFrow,column,problem',
      ',email,"2 rows, e.g. rows 2,500, 4,001: Enter a valid email address (got ""not-an-email"")"',
      expect.stringMatching(/^,date_of_birth,"1 row, row 7: /),
    ]);
    expect(report).toContain('7,phone,');

    // One round of fixes: the eight rows corrected.
    writeFileSync(file, excelCsv(legacyRows(false)));
    const second = await limsInProcess(['--data-dir', dir, 'import', 'patients', file]);
    expect(second.stderr).toBe('');
    expect(second.code).toBe(0);
    expect(second.stdout).toMatch(/^imported 5,000 patients from old-system\.csv \(5,000 new, 0 updated/);

    const database = await openLabDatabase(dir);
    try {
      const org = (await primaryOrganization(database.db))!;
      // The front desk finds a patient by the old ID, as the old system printed it.
      const found = await listPatients(database.db, org.id, { search: oldId(1234), page: 1, limit: 10 });
      expect(found.patients.map((p) => [p.first_name, p.legacy_id, p.gender, p.phone])).toEqual([
        [`Asha ${letters(1234)}`, oldId(1234), 'Male', '9823411234'],
      ]);
      expect(found.patients[0]!.patient_id).toMatch(/^PAT\d{12}$/);
    } finally {
      await database.close();
    }
  }, 120_000);

  it('the export carries the old IDs, and another lab reads them back', async () => {
    const exported = await limsInProcess(['--data-dir', dir, 'export', 'patients']);
    expect(exported.code).toBe(0);
    const header = exported.stdout.split('\r\n')[0]!;
    expect(header.split(',').at(-1)).toBe('legacy_id');
    expect(exported.stdout).toContain(`,${oldId(77)}\r\n`);
    const file = join(files, 'round-trip.csv');
    writeFileSync(file, exported.stdout);
    const other = tempDir();
    await setUpLab(other);
    const imported = await limsInProcess(['--data-dir', other, 'import', 'patients', file]);
    expect(imported.code, imported.stderr).toBe(0);
    const again = await limsInProcess(['--data-dir', other, 'export', 'patients']);
    // The same patients, codes and old IDs (listed newest first: the file's order is reversed by the import).
    const lines = (csv: string) => csv.trimEnd().split('\r\n').sort();
    expect(lines(again.stdout)).toEqual(lines(exported.stdout));
  }, 120_000);

  it('a Windows-1252 copy is refused quoting its first bad character as itself', async () => {
    const rows = legacyRows(false);
    rows[2]![7] = '12 O’Brien Lane, Pune';
    const file = join(files, 'ansi.csv');
    // Excel's "CSV (Comma delimited)": Windows-1252, no byte order mark; ’ is the byte 0x92.
    const text = [HEADER, ...rows].map((r) => r.map(csvCell).join(',')).join('\r\n');
    writeFileSync(file, Buffer.from(text.replace('’', '\u0092'), 'latin1'));
    const r = await limsInProcess(['--data-dir', dir, 'import', 'patients', file]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('line 4 has the byte 0x92 (Windows-1252 reads it as "’")');
  });
});
