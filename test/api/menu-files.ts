import ExcelJS from 'exceljs';

/**
 * A lab's test menu as another system exports it ("import a test menu of 300 tests with
 * profiles referencing them by code"): 300 tests and 30 profiles of 10 tests each, named by code,
 * as CSV text and as an XLSX workbook. `prefix` keeps the codes of one test apart from another's.
 */

export interface MenuFiles {
  testCodes: string[];
  /** Each profile's code and its tests' codes, in order. */
  members: Map<string, string[]>;
  testsCsv: string;
  testsXlsx: Buffer;
  profilesCsv: string;
  profilesXlsx: Buffer;
  /** The profiles with one test code that is not on the menu (row 7, the 6th profile). */
  badProfilesCsv: string;
  badCode: string;
}

const TEST_HEADER = ['code', 'name', 'category', 'price', 'unit', 'normal_range', 'sample_type'];
const PROFILE_HEADER = ['code', 'name', 'category', 'price', 'test_codes'];
const CATEGORIES = ['Biochemistry', 'Haematology', 'Serology', 'Microbiology', 'Immunology'];

const csvCell = (v: string | number) => {
  const s = String(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};
const csv = (rows: (string | number)[][]) => `${rows.map((r) => r.map(csvCell).join(',')).join('\r\n')}\r\n`;

async function xlsx(rows: (string | number)[][]): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('Sheet1');
  for (const r of rows) sheet.addRow(r);
  return Buffer.from(await book.xlsx.writeBuffer());
}

export async function menuFiles(prefix: string): Promise<MenuFiles> {
  const testCodes = Array.from({ length: 300 }, (_, i) => `${prefix}${String(i + 1).padStart(3, '0')}`);
  const tests: (string | number)[][] = [TEST_HEADER];
  testCodes.forEach((code, i) =>
    tests.push([
      code,
      `Menu test ${i + 1} (${code})`,
      CATEGORIES[i % CATEGORIES.length]!,
      100 + i,
      'mg/dL',
      `${10 + (i % 7)}-${40 + (i % 11)}`,
      i % 3 ? 'Blood' : 'Urine',
    ]),
  );
  const members = new Map<string, string[]>();
  const profiles: (string | number)[][] = [PROFILE_HEADER];
  for (let p = 0; p < 30; p++) {
    const code = `${prefix}P${String(p + 1).padStart(2, '0')}`;
    // Ten tests each, spread over the menu and out of code order (the order is the profile's).
    const codes = Array.from({ length: 10 }, (_, k) => testCodes[(p * 37 + k * 29) % 300]!);
    members.set(code, codes);
    profiles.push([code, `Menu panel ${p + 1}`, CATEGORIES[p % CATEGORIES.length]!, 900 + p * 10, codes.join(', ')]);
  }
  const badCode = `${prefix}999X`;
  const bad = profiles.map((r, i) =>
    i === 6 ? [...r.slice(0, 4), [...String(r[4]).split(', ').slice(0, 9), badCode].join(', ')] : r,
  );
  return {
    testCodes,
    members,
    testsCsv: csv(tests),
    testsXlsx: await xlsx(tests),
    profilesCsv: csv(profiles),
    profilesXlsx: await xlsx(profiles),
    badProfilesCsv: csv(bad),
    badCode,
  };
}
