import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLab, tempDir, type Client, type TestLab } from '../helpers.js';
import type { Sample } from '../../src/shared/schemas/samples.js';
import { scriptRuns } from '../../src/core/pdf/scripts.js';
import { requirePoppler } from '../../scripts/find-browser.mjs';

/**
 * Every name prints in its own script: Indic names on the tube label, the lab report and the bill
 * come back out of the PDF as typed (pdftotext), and a character no font has is refused.
 */
let lab: TestLab;
let tech: Client;
let validator: Client;
let hb: number;

const OUT = join(process.cwd(), 'test-results');

beforeAll(async () => {
  lab = await makeLab();
  const t = await lab.admin.post('/api/tests', {
    name: 'Haemoglobin',
    code: 'HB',
    price: 150,
    unit: 'g/dL',
    normal_range: '12.0-17.0',
    sample_type: 'Blood',
  });
  hb = t.json().test.id;
  tech = await lab.as('lab_technician');
  validator = await lab.as('validator');
});
afterAll(() => lab.close());

function text(pdf: Buffer, name: string): string {
  mkdirSync(OUT, { recursive: true });
  const file = join(tempDir(), `${name}.pdf`);
  writeFileSync(file, pdf);
  // A PNG to look at (test-results/indic-*.png).
  execFileSync(requirePoppler('pdftoppm'), [
    '-png',
    '-r',
    name.endsWith('label') ? '300' : '110',
    '-f',
    '1',
    '-l',
    '1',
    file,
    join(OUT, `indic-${name}`),
  ]);
  return execFileSync(requirePoppler('pdftotext'), ['-layout', file, '-']).toString();
}

async function printAll(first: string, last: string, tag: string) {
  const p = await lab.admin.post('/api/patients', {
    first_name: first,
    last_name: last,
    date_of_birth: '1980-01-01',
    gender: 'Male',
    phone: '9876512345',
  });
  expect(p.statusCode, p.body).toBe(201);
  const patientId = p.json().patient.id as number;
  const b = await lab.admin.post('/api/bills', { patient_id: patientId, items: [{ item_type: 'test', item_id: hb }] });
  expect(b.statusCode, b.body).toBe(201);
  const [s] = (await lab.admin.get(`/api/samples?patient_id=${patientId}`)).json<{ samples: Sample[] }>().samples;
  await tech.post('/api/samples/collect', { ids: [s!.id] });
  const r = await tech.post('/api/test-results', { sample_id: s!.id, test_id: hb, result_value: '13.5' });
  await validator.put(`/api/test-results/${r.json().result.id}/verify`);
  const files = {
    label: await lab.admin.get(`/api/samples/${s!.id}/label.pdf`),
    report: await lab.admin.get(`/api/samples/${s!.id}/report.pdf`),
    bill: await lab.admin.get(`/api/bills/${b.json().bill.id}/pdf`),
  };
  for (const [kind, res] of Object.entries(files))
    expect(res.statusCode, `${kind}: ${res.body.slice(0, 200)}`).toBe(200);
  return Object.fromEntries(Object.entries(files).map(([k, v]) => [k, text(v.rawPayload, `${tag}-${k}`)]));
}

describe('Indic names in PDFs', () => {
  it.each([
    ['devanagari', 'रमेश', 'कुमार'],
    ['tamil', 'முருகன்', 'செல்வம்'],
    ['bengali', 'সুমন', 'দাস'],
    ['gujarati', 'જય', 'પટેલ'],
    ['telugu', 'రాము', 'రెడ్డి'],
    ['kannada', 'ರಮೇಶ', 'ಗೌಡ'],
    ['malayalam', 'രമേശ്', 'നായർ'],
    ['gurmukhi', 'ਗੁਰਪ੍ਰੀਤ', 'ਸਿੰਘ'],
    ['odia', 'ରମେଶ', 'ସାହୁ'],
  ])('%s: the name comes back out of the label, the report and the bill', async (tag, first, last) => {
    const out = await printAll(first, last, tag);
    for (const kind of ['label', 'report', 'bill'])
      expect(out[kind]!.normalize('NFC'), kind).toContain(`${first} ${last}`.normalize('NFC'));
  });

  it('a character no font has is refused with a clear message, not printed as a box', async () => {
    const p = await lab.admin.post('/api/patients', {
      first_name: 'Ravi',
      last_name: 'Kumar 中',
      date_of_birth: '1980-01-01',
      gender: 'Male',
      phone: '9876512345',
    });
    if (p.statusCode !== 201) return; // the registration rules may refuse it first: also correct
    const b = await lab.admin.post('/api/bills', {
      patient_id: p.json().patient.id,
      items: [{ item_type: 'test', item_id: hb }],
    });
    const res = await lab.admin.get(`/api/bills/${b.json().bill.id}/pdf`);
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toContain('contains characters this lab cannot print (中)');
  });

  it('splits text into script runs, keeping spaces inside a name with its script', () => {
    expect(scriptRuns('Mr रमेश कुमार (PAT1)').map((r) => [r.text, r.script])).toEqual([
      ['Mr ', null],
      ['रमेश कुमार ', 'devanagari'],
      ['(PAT1)', null],
    ]);
  });
});
