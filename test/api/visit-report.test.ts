import { paramsBySection, templateById } from '../../src/shared/templates/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client, TestLab } from '../helpers.js';
import type { ResultSheet } from '../../src/shared/schemas/results.js';
import type { Sample } from '../../src/shared/schemas/samples.js';
import { pagesOf, visitLab, type VisitLab } from './visit-report-support.js';

/**
 * The report a patient takes home: one PDF per visit with every sample's released results,
 * departments in lab order and pending tests named; the page layout rules of a printed report;
 * and released reports and issued bills that reprint as they were.
 */
let v: VisitLab;
let lab: TestLab;
let tech: Client;
let validator: Client;
let names: Map<number, string>;
let profiles: Map<string, number>;
const id = (code: string) => v.id(code);
const patient = () => v.patient();
const bill = (p: number, items: { item_type: string; item_id: number }[]) => v.bill(p, items);
const samplesOf = (p: number): Promise<Sample[]> => v.samplesOf(p);
const enterAndVerify = (s: number, o?: { leaveUnverified?: string[] }) => v.enterAndVerify(s, o);

beforeAll(async () => {
  v = await visitLab();
  ({ lab, tech, validator, names, profiles } = v);
});
afterAll(() => lab.close());

const HEADINGS = ['HEMATOLOGY', 'BIOCHEMISTRY', 'IMMUNOLOGY', 'PATHOLOGY', 'MICROBIOLOGY', 'CUSTOM'];
const contentLines = (page: string) =>
  page
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !/Page \d+ of \d+/.test(l));

describe('one report per visit', () => {
  it('puts the released results of all samples of a bill in one PDF, departments in lab order, pending tests named', async () => {
    const p = await patient();
    const b = await bill(p, [
      { item_type: 'test', item_id: id('HB') },
      { item_type: 'test', item_id: id('ESR') },
      { item_type: 'test', item_id: id('FBS') },
      { item_type: 'test', item_id: id('CREAT') },
      { item_type: 'test', item_id: id('CRP') },
      { item_type: 'test', item_id: id('URM') },
    ]);
    const tubes = await samplesOf(p);
    const urine = tubes.find((s) => s.sample_type === 'Urine')!;
    const blood = tubes.filter((s) => s !== urine);
    expect(blood.length).toBe(3);
    expect((await tech.post('/api/samples/collect', { ids: blood.map((s) => s.id) })).statusCode).toBe(200);
    for (const s of blood) await enterAndVerify(s.id, { leaveUnverified: ['CRP'] });

    const res = await lab.admin.get(`/api/bills/${b.id}/report.pdf`);
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    expect(res.headers['content-type']).toContain('application/pdf');
    expect(res.headers['content-disposition']).toContain(`report-${b.bill_number}.pdf`);
    const text = pagesOf(res.rawPayload).join('\n');
    for (const s of blood) expect(text).toContain(s.sample_id);
    expect(text).toContain(b.bill_number);
    expect(text).toMatch(/Haemoglobin\s+\d/);
    expect(text).toMatch(/Fasting Blood Sugar[^\n]*\d/);
    expect(text).toMatch(/Creatinine[^\n]*\d/);
    const flat = text.replace(/\s+/g, ' ');
    expect(flat).toMatch(/Pending: .*C-Reactive Protein \(CRP\), Quantitative \(awaiting verification\)/);
    expect(flat).toMatch(/Pending: .*Urine Routine[^(]*\(result awaited\)/);
    // The unverified CRP is named, never printed with its value, and gets no section yet.
    expect(text).not.toContain('IMMUNOLOGY');
    expect(text.indexOf('HEMATOLOGY')).toBeLessThan(text.indexOf('BIOCHEMISTRY'));
    expect(text).toContain('PARTIAL');

    // Once CRP is verified it has its section, between biochemistry and clinical pathology's place.
    const serum = blood.find((s) => s.sample_type === 'Blood' && /serum/i.test(s.container ?? ''))!;
    const sheet = (await tech.get(`/api/samples/${serum.id}/results`)).json<ResultSheet>();
    const crp = sheet.tests.find((t) => t.test_code === 'CRP')!.result!;
    expect((await validator.put(`/api/test-results/${crp.id}/verify`, {})).statusCode).toBe(200);
    const after = pagesOf((await lab.admin.get(`/api/bills/${b.id}/report.pdf`)).rawPayload).join('\n');
    expect(after.indexOf('BIOCHEMISTRY')).toBeLessThan(after.indexOf('IMMUNOLOGY'));
    expect(after.replace(/\s+/g, ' ')).not.toContain('C-Reactive Protein (awaiting');
    expect(after.replace(/\s+/g, ' ')).toMatch(/Pending: Urine Routine/);

    // The per-sample reports stay; the same permission as theirs; unknown bill 404.
    expect((await lab.admin.get(`/api/samples/${serum.id}/report.pdf`)).statusCode).toBe(200);
    const receptionist = await lab.as('receptionist');
    expect((await receptionist.get(`/api/bills/${b.id}/report.pdf`)).statusCode).toBe(
      (await receptionist.get(`/api/samples/${serum.id}/report.pdf`)).statusCode,
    );
    expect((await lab.admin.get('/api/bills/999999/report.pdf')).statusCode).toBe(404);
  });
});

/**
 * The layout rules, read from the text of each page: a heading is followed by at least two rows on
 * its page (or all of its department's rows when it has fewer); a department continues once, at the
 * top of the next page; the closing block (signatures) shares its page with at least two rows; one
 * "Verified by" per department.
 */
function checkLayout(pages: string[], patientName: string) {
  // A structured result's table rows (a urine routine's parameters) are rows of the report too.
  const urine = templateById('urine_routine')!;
  const parameters = urine.kind === 'panel' ? paramsBySection(urine).flatMap((x) => x.params.map((q) => q.label)) : [];
  const testNames = [...names.values(), ...parameters].map((x) => x.slice(0, 14));
  const isRow = (l: string) => testNames.some((t) => l.startsWith(t));
  const isHeading = (l: string) => HEADINGS.some((h) => l === h || l === `${h} (continued)`);
  const pageLines = pages.map((page, p) => contentLines(page).filter((l) => !(p > 0 && l.startsWith(patientName))));
  // Each heading with the rows under it on its page.
  const segments = pageLines.flatMap((lines, p) => {
    const at = lines.map((l, i) => (isHeading(l) ? i : -1)).filter((i) => i >= 0);
    return at.map((i, k) => ({
      p,
      i,
      heading: lines[i]!,
      dept: lines[i]!.replace(' (continued)', ''),
      rows: lines.slice(i + 1, at[k + 1] ?? lines.length).filter(isRow).length,
    }));
  });
  const total = new Map<string, number>();
  for (const s of segments) total.set(s.dept, (total.get(s.dept) ?? 0) + s.rows);
  const where = (p: number) => `page ${p + 1}:\n${pageLines[p]!.join('\n')}`;
  for (const s of segments) {
    expect(s.rows, `${s.heading} with fewer than two rows on ${where(s.p)}`).toBeGreaterThanOrEqual(
      Math.min(2, total.get(s.dept)!),
    );
    if (s.heading.endsWith('(continued)')) {
      expect(s.i, `${s.heading} is not at the top of ${where(s.p)}`).toBe(0);
      const before = pageLines[s.p - 1]!;
      expect(before.includes(s.dept) || before.includes(s.heading), `${s.heading} continues nothing`).toBe(true);
    }
  }
  // A department's heading once in the report; its "(continued)" once on each page it runs onto.
  const headings = segments.map((s) => s.heading);
  const perPage = segments.map((s) => `${s.p}:${s.heading}`);
  expect(new Set(perPage).size, `a heading printed twice on a page: ${perPage.join(', ')}`).toBe(perPage.length);
  const first = headings.filter((h) => !h.endsWith('(continued)'));
  expect(new Set(first).size, `a department begun twice: ${first.join(', ')}`).toBe(first.length);
  pageLines.forEach((lines, p) => {
    expect(lines.length, `empty ${where(p)}`).toBeGreaterThan(0);
    if (lines.some((l) => l.includes('End of report')))
      expect(lines.filter(isRow).length, `the closing block without rows on ${where(p)}`).toBeGreaterThanOrEqual(2);
    const last = lines.filter((l) => !/^(H = above|Only verified|—)/.test(l)).at(-1)!;
    expect(isHeading(last), `ends with a heading: ${where(p)}`).toBe(false);
  });
  const departments = first;
  const verifiedBy = pageLines.flat().filter((l) => l.startsWith('Verified by')).length;
  expect(verifiedBy).toBe(departments.length);
  return { departments };
}

describe('the page layout of a long report', () => {
  it('breaks pages without a lone row, a lone heading, a doubled heading or a lone signature; one verified-by per department', async () => {
    const tpl = await lab.admin.put('/api/lab-reports/templates/biochemistry', {
      group_by: 'category',
      header_text: 'Fully automated clinical chemistry analyser; serum separated within one hour of collection.',
      interpretation_notes: 'Results to be correlated clinically. Fasting values assume at least 8 hours without food.',
      signatory_name: 'Dr. Anand Rao',
      signatory_qualification: 'MD (Biochemistry)',
      signatory_registration: 'KMC 40411',
    });
    expect(tpl.statusCode, tpl.body).toBe(200);
    const p = await patient();
    const name = (await lab.admin.get(`/api/patients/${p}`)).json().patient;
    const b = await bill(p, [
      { item_type: 'profile', item_id: profiles.get('CBC')! },
      { item_type: 'profile', item_id: profiles.get('LFT')! },
      { item_type: 'profile', item_id: profiles.get('KFT')! },
      { item_type: 'profile', item_id: profiles.get('LIPID')! },
      { item_type: 'profile', item_id: profiles.get('TFT')! },
      { item_type: 'test', item_id: id('FBS') },
      { item_type: 'test', item_id: id('HBA1C') },
      { item_type: 'test', item_id: id('ESR') },
      { item_type: 'test', item_id: id('CRP') },
      { item_type: 'test', item_id: id('URM') },
    ]);
    const tubes = await samplesOf(p);
    expect((await tech.post('/api/samples/collect', { ids: tubes.map((s) => s.id) })).statusCode).toBe(200);
    for (const s of tubes) await enterAndVerify(s.id);

    const visit = pagesOf((await lab.admin.get(`/api/bills/${b.id}/report.pdf`)).rawPayload);
    expect(visit.length).toBeGreaterThanOrEqual(2);
    const { departments } = checkLayout(visit, `${name.first_name} ${name.last_name}`);
    expect(departments).toEqual(['HEMATOLOGY', 'BIOCHEMISTRY', 'IMMUNOLOGY', 'PATHOLOGY']);
    expect(visit.join('\n')).toContain('BIOCHEMISTRY (continued)');
    expect(visit.join('\n')).not.toContain('Pending:');

    // The serum tube's own report is long too: the same rules.
    const serum = tubes.find((s) => /serum/i.test(s.container ?? ''))!;
    const own = pagesOf((await lab.admin.get(`/api/samples/${serum.id}/report.pdf`)).rawPayload);
    expect(own.length).toBeGreaterThanOrEqual(2);
    checkLayout(own, `${name.first_name} ${name.last_name}`);
  });
});

describe('what the lab has released does not change', () => {
  const signatory = (name: string) =>
    lab.admin.put('/api/lab-reports/templates/hematology', {
      group_by: 'category',
      signatory_name: name,
      signatory_qualification: 'MD (Pathology)',
      signatory_registration: 'KMC 10101',
    });
  const rename = (labName: string, labAddress: string) => lab.admin.put('/api/settings', { labName, labAddress });

  /** A bill for Hb, its tube collected, entered and verified: the report is released. */
  async function released() {
    const p = await patient();
    const b = await bill(p, [{ item_type: 'test', item_id: id('HB') }]);
    const [s] = await samplesOf(p);
    expect((await tech.post('/api/samples/collect', { ids: [s!.id] })).statusCode).toBe(200);
    await enterAndVerify(s!.id);
    return { bill: b, sample: s! };
  }
  const text = async (url: string) => {
    const res = await lab.admin.get(url);
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    return pagesOf(res.rawPayload).join('\n');
  };

  it('reprints a released report and an issued bill as they were; a new release and an amendment take the new settings', async () => {
    expect((await rename('Sunrise Diagnostics', '4 Old Market Road, Mysuru')).statusCode).toBe(200);
    expect((await signatory('Dr. Old Signer')).statusCode).toBe(200);
    const first = await released();
    const reportUrl = `/api/samples/${first.sample.id}/report.pdf`;
    const visitUrl = `/api/bills/${first.bill.id}/report.pdf`;
    const billUrl = `/api/bills/${first.bill.id}/pdf`;
    expect(await text(reportUrl)).toContain('Dr. Old Signer');

    expect((await rename('Lotus Pathology Labs', '99 New Avenue, Bengaluru')).statusCode).toBe(200);
    expect((await signatory('Dr. New Signer')).statusCode).toBe(200);

    for (const url of [reportUrl, visitUrl]) {
      const reprint = await text(url);
      expect(reprint).toContain('Sunrise Diagnostics');
      expect(reprint).toContain('4 Old Market Road, Mysuru');
      expect(reprint).toContain('Dr. Old Signer');
      expect(reprint).not.toContain('Lotus');
      expect(reprint).not.toContain('Dr. New Signer');
    }
    const billReprint = await text(billUrl);
    expect(billReprint).toContain('Sunrise Diagnostics');
    expect(billReprint).toContain('4 Old Market Road, Mysuru');
    expect(billReprint).not.toContain('Lotus');

    // Released and issued after the change: the new name and signatory.
    const second = await released();
    const fresh = await text(`/api/samples/${second.sample.id}/report.pdf`);
    expect(fresh).toContain('Lotus Pathology Labs');
    expect(fresh).toContain('Dr. New Signer');
    expect(fresh).not.toContain('Sunrise');
    expect(await text(`/api/bills/${second.bill.id}/pdf`)).toContain('Lotus Pathology Labs');

    // An amended result released again is a new version of the report, with the settings of its moment.
    const sheet = (await tech.get(`/api/samples/${first.sample.id}/results`)).json<ResultSheet>();
    const hb = sheet.tests[0]!.result!;
    const amend = await tech.put(`/api/test-results/${hb.id}`, {
      result_value: '13.9',
      reason: 'Re-run on a fresh aliquot',
    });
    expect(amend.statusCode, amend.body).toBe(200);
    expect((await validator.put(`/api/test-results/${hb.id}/verify`, {})).statusCode).toBe(200);
    const amended = await text(reportUrl);
    expect(amended).toContain('Lotus Pathology Labs');
    expect(amended).toContain('Dr. New Signer');
    expect(amended).toMatch(/earlier value/);
    const versions = await lab.database.db
      .selectFrom('print_snapshots')
      .select('version')
      .where('kind', '=', 'report')
      .where('entity_id', '=', first.sample.id)
      .orderBy('version')
      .execute();
    expect(versions.map((v) => Number(v.version))).toEqual([1, 2]);
    // The bill was issued once: amending a result does not touch it.
    expect(await text(billUrl)).toContain('Sunrise Diagnostics');
  });

  it('prints a report or bill released before snapshots were kept with today’s settings, and the paper of today', async () => {
    expect((await rename('Before Snapshots Lab', '1 First Street')).statusCode).toBe(200);
    const old = await released();
    const forget = (kind: string, entity: number) =>
      lab.database.db.deleteFrom('print_snapshots').where('kind', '=', kind).where('entity_id', '=', entity).execute();
    await forget('report', old.sample.id);
    await forget('bill', old.bill.id);
    expect((await rename('Renamed Afterwards Lab', '2 Second Street')).statusCode).toBe(200);
    expect(await text(`/api/samples/${old.sample.id}/report.pdf`)).toContain('Renamed Afterwards Lab');
    expect(await text(`/api/bills/${old.bill.id}/pdf`)).toContain('Renamed Afterwards Lab');

    // Pre-printed stationery: the report leaves the letterhead to the paper, also on a reprint.
    const kept = await released();
    const paper = await lab.admin.put('/api/lab-reports/settings', {
      stationery: 'preprinted',
      preprinted_header_mm: 45,
    });
    expect(paper.statusCode, paper.body).toBe(200);
    expect(paper.json().settings).toMatchObject({ stationery: 'preprinted', preprinted_header_mm: 45 });
    const onPaper = contentLines(
      pagesOf((await lab.admin.get(`/api/samples/${kept.sample.id}/report.pdf`)).rawPayload)[0]!,
    );
    expect(onPaper[0]).toMatch(/^LABORATORY REPORT/);
    expect(onPaper.join('\n')).not.toContain('2 Second Street');
    const bad = await lab.admin.put('/api/lab-reports/settings', { preprinted_header_mm: 500 });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors?.[0]?.path ?? bad.body).toContain('preprinted_header_mm');
    expect((await lab.admin.put('/api/lab-reports/settings', { stationery: 'letterhead' })).statusCode).toBe(200);
  });
});
