import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLab, pdfText, type Client, type TestLab } from '../helpers.js';
import { systemActor } from '../../src/core/context.js';
import { loadStarterCatalogue } from '../../src/core/catalogue/starter.js';
import type { Patient } from '../../src/shared/schemas/patients.js';
import type { ResultSheet, TestResult } from '../../src/shared/schemas/results.js';
import type { Sample } from '../../src/shared/schemas/samples.js';
import { uniqueWord } from './support.js';

/**
 * With the starter catalogue, results are judged against the band for the patient's sex and age on
 * the day of collection: a healthy child is not flagged against the adult range, a woman's range is
 * not a man's, an infant's age reads in months, and what was applied is what the result and the
 * report show.
 */
let lab: TestLab;
let tech: Client;
const ids = new Map<string, number>();
let cbc: number;

beforeAll(async () => {
  lab = await makeLab();
  await loadStarterCatalogue(lab.database.db, systemActor(lab.organizationId, 'test'), {
    tests: true,
    profiles: true,
    packages: false,
  });
  for (const t of (await lab.admin.get('/api/tests')).json<{ tests: { id: number; code: string }[] }>().tests)
    ids.set(t.code, t.id);
  const profiles = (await lab.admin.get('/api/test-profiles')).json<{ profiles: { id: number; code: string }[] }>();
  cbc = profiles.profiles.find((p) => p.code === 'CBC')!.id;
  tech = await lab.as('lab_technician');
});
afterAll(() => lab.close());

let phone = 9800011000;

/** A patient registered by age, as the desk does when the birth date is not known. */
async function register(age: number, unit: 'years' | 'months' | 'days', gender: 'Male' | 'Female'): Promise<Patient> {
  const res = await lab.admin.post('/api/patients', {
    first_name: uniqueWord('Pa'),
    last_name: uniqueWord('Ku'),
    age,
    age_unit: unit,
    gender,
    phone: String((phone += 1)),
    confirm_new: true,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ patient: Patient }>().patient;
}

/** A CBC billed and its tube collected: the sample's id. */
async function cbcSample(patient: Patient): Promise<number> {
  const bill = await lab.admin.post('/api/bills', {
    patient_id: patient.id,
    items: [{ item_type: 'profile', item_id: cbc }],
  });
  expect(bill.statusCode, bill.body).toBe(201);
  const samples = (await lab.admin.get(`/api/samples?patient_id=${patient.id}`)).json<{ samples: Sample[] }>().samples;
  const res = await tech.post('/api/samples/collect', { ids: samples.map((s) => s.id) });
  expect(res.statusCode, res.body).toBe(200);
  return samples[0]!.id;
}

async function enter(sampleId: number, code: string, value: string): Promise<TestResult> {
  const res = await tech.post('/api/test-results', {
    sample_id: sampleId,
    test_id: ids.get(code),
    result_value: value,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ result: TestResult }>().result;
}

describe('a healthy 5-year-old', () => {
  let child: Patient;
  let sample: number;
  const values: [string, string, string][] = [
    // code, value, the 2-6 years (HB, PCV, MCH) or 2-10 years (TLC, LYMPH) band
    ['HB', '11.5', '11.5-13.5'],
    ['TLC', '12000', '4500-13500'],
    ['LYMPH', '48', '14-50'],
    ['PCV', '35', '34-40'],
    ['MCH', '25', '24-30'],
  ];

  beforeAll(async () => {
    child = await register(5, 'years', 'Female');
    sample = await cbcSample(child);
  });

  it('is shown the child’s band before a value is entered', async () => {
    const sheet = (await tech.get(`/api/samples/${sample}/results`)).json<ResultSheet>();
    expect(sheet.sample.age_text).toBe('5 years');
    for (const [code, , band] of values)
      expect(sheet.tests.find((t) => t.test_code === code)?.normal_range, code).toBe(band);
  });

  it.each(values)('%s %s is not flagged: judged against %s', async (code, value, band) => {
    const r = await enter(sample, code, value);
    expect(r.flag).toBe('normal');
    expect(r.normal_range).toBe(band);
  });

  it('the report prints the ranges applied and the child’s age', async () => {
    const sheet = (await tech.get(`/api/samples/${sample}/results`)).json<ResultSheet>();
    const validator = await lab.as('validator');
    for (const t of sheet.tests.filter((x) => x.result))
      expect((await validator.put(`/api/test-results/${t.result!.id}/verify`)).statusCode).toBe(200);
    const pdf = await lab.admin.get(`/api/samples/${sample}/report.pdf`);
    expect(pdf.statusCode, pdf.body).toBe(200);
    const text = pdfText(pdf);
    for (const [, , band] of values) expect(text).toContain(band);
    expect(text).not.toContain('12.0-17.0');
    expect(text).toMatch(/5 years \/ Female/);
  });
});

describe('adults by sex', () => {
  it('a woman’s Hb 16 is high against the women’s 12.0-15.0; a man’s is normal against 13.0-17.0', async () => {
    const woman = await cbcSample(await register(35, 'years', 'Female'));
    const man = await cbcSample(await register(35, 'years', 'Male'));
    const hers = await enter(woman, 'HB', '16');
    expect([hers.flag, hers.normal_range]).toEqual(['high', '12.0-15.0']);
    const his = await enter(man, 'HB', '16');
    expect([his.flag, his.normal_range]).toEqual(['normal', '13.0-17.0']);
  });
});

describe('an infant registered as 8 months old', () => {
  it('reads 8 months on the record and the sheet, and is judged by the 6-24 months band', async () => {
    const baby = await register(8, 'months', 'Female');
    expect(baby.age_text).toBe('8 months');
    const got = (await lab.admin.get(`/api/patients/${baby.id}`)).json<{ patient: Patient }>().patient;
    expect(got.age_text).toBe('8 months');
    const sample = await cbcSample(baby);
    expect((await tech.get(`/api/samples/${sample}/results`)).json<ResultSheet>().sample.age_text).toBe('8 months');
    const hb = await enter(sample, 'HB', '10.8');
    expect([hb.flag, hb.normal_range]).toEqual(['normal', '10.5-13.5']);
  });

  it('a newborn of 3 days reads 3 days and is judged by the first week’s band', async () => {
    const sample = await cbcSample(await register(3, 'days', 'Male'));
    const sheet = (await tech.get(`/api/samples/${sample}/results`)).json<ResultSheet>();
    expect(sheet.sample.age_text).toBe('3 days');
    const hb = await enter(sample, 'HB', '19.0');
    expect([hb.flag, hb.normal_range]).toEqual(['normal', '14.5-22.5']);
  });
});
