import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLab, pdfText, type TestLab } from '../helpers.js';
import { birthDateFromAge } from '../../src/shared/age.js';
import { localDate } from '../../src/shared/time.js';
import type { Sample } from '../../src/shared/schemas/samples.js';

/** The tube label carries what the bench checks before it runs a tube: who (age, sex), which tube, which tests. */
let lab: TestLab;
const tests: Record<string, number> = {};

beforeAll(async () => {
  lab = await makeLab();
  for (const [code, name, container] of [
    ['CBC', 'Complete Blood Count', 'edta'],
    ['ESR', 'Erythrocyte Sedimentation Rate', 'edta'],
    ['FBS', 'Glucose Fasting', 'fluoride'],
  ] as const) {
    const res = await lab.admin.post('/api/tests', { name, code, price: 100, container });
    expect(res.statusCode, res.body).toBe(201);
    tests[code] = res.json().test.id;
  }
});
afterAll(() => lab.close());

async function tubesOf(dob: string, gender: string, codes: string[]): Promise<Sample[]> {
  const p = await lab.admin.post('/api/patients', {
    first_name: 'Lata',
    last_name: 'Menon',
    date_of_birth: dob,
    gender,
  });
  expect(p.statusCode, p.body).toBe(201);
  const id = p.json().patient.id;
  const b = await lab.admin.post('/api/bills', {
    patient_id: id,
    items: codes.map((c) => ({ item_type: 'test', item_id: tests[c] })),
  });
  expect(b.statusCode, b.body).toBe(201);
  return (await lab.admin.get(`/api/samples?patient_id=${id}`)).json<{ samples: Sample[] }>().samples;
}

async function label(s: Sample) {
  const res = await lab.admin.get(`/api/samples/${s.id}/label.pdf`);
  expect(res.statusCode, res.body).toBe(200);
  return res;
}

describe('tube labels', () => {
  it('carry age and sex, the tube and its tests', async () => {
    const today = localDate('Asia/Kolkata');
    const tubes = await tubesOf(birthDateFromAge(45, 'years', today), 'Female', ['CBC', 'ESR', 'FBS']);
    const edta = tubes.find((t) => t.container === 'edta')!;
    const text = pdfText(await label(edta));
    expect(text).toContain('Lata Menon');
    expect(text).toMatch(/45 y \/ F/);
    expect(text).toContain('EDTA (lavender top)');
    expect(text).toMatch(/CBC, ESR/);
    expect(text).not.toContain('FBS');
    expect(text).toContain(edta.barcode!);
    const fluoride = pdfText(await label(tubes.find((t) => t.container === 'fluoride')!));
    expect(fluoride).toContain('Fluoride (grey top)');
    expect(fluoride).toContain('FBS');
  });

  it("an infant's age is in months", async () => {
    const today = localDate('Asia/Kolkata');
    const [tube] = await tubesOf(birthDateFromAge(8, 'months', today), 'Male', ['FBS']);
    const res = await label(tube!);
    expect(pdfText(res)).toMatch(/8 mo \/ M/);
  });
});
