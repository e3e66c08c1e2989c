import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLab, tempDir, type TestLab } from '../helpers.js';
import { systemActor, type Actor } from '../../src/core/context.js';
import { entityNamed, runExport, runImport, type TransferFormat } from '../../src/core/transfer/service.js';
import { describeRowError } from '../../src/core/transfer/errors.js';
import type { CatalogueTest } from '../../src/shared/schemas/catalogue.js';

/**
 * Reference bands by sex and age in the tests' import and export: one cell of "who: range" bands,
 * a wrong band named by row and column, and what is exported imports again to the same bands.
 */
let lab: TestLab;
let actor: Actor;
let dir: string;
let n = 0;

beforeAll(async () => {
  lab = await makeLab();
  actor = systemActor(lab.organizationId);
  dir = tempDir('lims-bands-');
});
afterAll(() => lab.close());

async function importFile(name: string, content: string | Buffer, update = false) {
  const sub = join(dir, String((n += 1)));
  mkdirSync(sub);
  writeFileSync(join(sub, name), content);
  return runImport(lab.database.db, actor, {
    entity: entityNamed('tests')!,
    path: join(sub, name),
    dryRun: false,
    update,
    origin: 'cli',
    reportPath: (id) => join(sub, `report-${id}.csv`),
  });
}

async function exportBytes(format: TransferFormat): Promise<Buffer> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  await runExport(lab.database.db, actor, {
    entity: entityNamed('tests')!,
    format,
    query: { where: {} },
    out,
    fileName: null,
    origin: 'cli',
  });
  return Buffer.concat(chunks);
}

async function testByCode(code: string): Promise<CatalogueTest> {
  const list = (await lab.admin.get('/api/tests')).json<{ tests: CatalogueTest[] }>().tests;
  return list.find((t) => t.code === code)!;
}

const HB_BANDS =
  '0-7 days: 14.5-22.5; 1-24 months: 10.5-13.5; 2-6 years: 11.5-13.5; ' +
  'Female 18+ years: 12.0-15.0 [critical <=7 >=20]; M 18+ y: 13.0-17.0';

describe('reference bands in a tests file', () => {
  it('reads "who: range" bands into the API’s bands, in order', async () => {
    const csv = `code,name,price,unit,normal_range,reference_ranges\nHBX,Haemoglobin X,150,g/dL,12.0-17.0,"${HB_BANDS}"\n`;
    const r = await importFile('tests.csv', csv);
    expect(r.errors, JSON.stringify(r.first_errors)).toBe(0);
    expect((await testByCode('HBX')).reference_ranges).toEqual([
      { age_min: 0, age_max: 7, age_unit: 'days', range: '14.5-22.5' },
      { age_min: 1, age_max: 24, age_unit: 'months', range: '10.5-13.5' },
      { age_min: 2, age_max: 6, age_unit: 'years', range: '11.5-13.5' },
      { sex: 'Female', age_min: 18, age_unit: 'years', range: '12.0-15.0', critical_low: 7, critical_high: 20 },
      { sex: 'Male', age_min: 18, age_unit: 'years', range: '13.0-17.0' },
    ]);
  });

  it('names the row and the column of a band it cannot read, and which band', async () => {
    const csv = [
      'code,name,price,reference_ranges',
      'BAD1,Bad one,10,"0-7 days: 1-2; Femle 1-6 years: 11-14"',
      'BAD2,Bad two,10,"6-2 years: 1-2"',
      'BAD3,Bad three,10,"0-7 weeks: 1-2"',
      'BAD4,Bad four,10,"2-6 years 11-14"',
      'BAD5,Bad five,10,"Everyone: 70-100 [critical 40]"',
    ].join('\n');
    const r = await importFile('bad.csv', csv);
    expect(r.first_errors.map((e) => describeRowError(e, r.unit))).toEqual([
      expect.stringMatching(/^row 2, column reference_ranges: #2: "Femle 1-6 years" is not a sex and age band/),
      expect.stringMatching(/^row 3, column reference_ranges: #1 age_max: age_max must be above age_min/),
      expect.stringMatching(/^row 4, column reference_ranges: #1: "0-7 weeks" is not a sex and age band/),
      expect.stringMatching(/^row 5, column reference_ranges: #1: "2-6 years 11-14" has no ":"/),
      expect.stringMatching(/^row 6, column reference_ranges: #1: the critical limits "40" are not understood/),
    ]);
    expect(await testByCode('BAD1')).toBeUndefined();
  });

  it('still reads the API’s JSON list (files exported before bands had a cell form)', async () => {
    const json = JSON.stringify([{ sex: 'Female', age_min: 12, range: '12-15' }]).replace(/"/g, '""');
    const r = await importFile('old.csv', `code,name,price,reference_ranges\nOLDJ,Old json,10,"${json}"\n`);
    expect(r.errors, JSON.stringify(r.first_errors)).toBe(0);
    expect((await testByCode('OLDJ')).reference_ranges).toEqual([
      { sex: 'Female', age_min: 12, age_unit: 'years', range: '12-15' },
    ]);
  });

  it.each(['csv', 'xlsx'] as const)('an %s export imports again to the same bands', async (format) => {
    const before = await testByCode('HBX');
    const file = await exportBytes(format);
    if (format === 'csv') expect(file.toString('utf8')).toContain('Female 18+ years: 12.0-15.0 [critical <=7 >=20]');
    else {
      const book = new ExcelJS.Workbook();
      await book.xlsx.load(file as unknown as ArrayBuffer);
      const sheet = book.worksheets[0]!;
      const header = (sheet.getRow(1).values as unknown[]).indexOf('reference_ranges');
      const cells = sheet.getColumn(header).values.map(String);
      expect(cells.some((c) => c.startsWith('0-7 days: 14.5-22.5; 1-24 months'))).toBe(true);
    }
    // Clear the bands, then import the export over the catalogue: they come back as they were.
    const cleared = await lab.admin.put(`/api/tests/${before.id}`, { reference_ranges: [] });
    expect(cleared.statusCode, cleared.body).toBe(200);
    const r = await importFile(`tests.${format}`, file, true);
    expect(r.errors, JSON.stringify(r.first_errors)).toBe(0);
    expect((await testByCode('HBX')).reference_ranges).toEqual(before.reference_ranges);
  });
});
