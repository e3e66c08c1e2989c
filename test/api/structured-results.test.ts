import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLab, pdfText, type Client, type TestLab } from '../helpers.js';
import type { BulkVerifyResponse, ResultSheet, TestResult } from '../../src/shared/schemas/results.js';
import { readStarterCatalogue } from '../../src/core/catalogue/starter.js';
import { uniqueWord } from './support.js';
import { verifiedReport } from '../../src/core/interop-out/report.js';
import { buildOru } from '../../src/core/interop-out/hl7.js';
import { buildBundle } from '../../src/core/interop-out/fhir.js';
import { runExport } from '../../src/core/transfer/export.js';
import { runImport } from '../../src/core/transfer/import.js';
import { entityNamed } from '../../src/core/transfer/registry.js';
import { systemActor } from '../../src/core/context.js';
import { NORMAL_URINE } from '../urine.js';

let lab: TestLab;
let tech: Client;
let validator: Client;
let patient: number;
const testId: Record<string, number> = {};

/** A urine routine with every parameter normal; tests change one or two. */

/** Semen exactly at the WHO 2021 lower reference limits (all normal). */
const WHO_LIMITS = {
  volume: 1.4,
  appearance: 'Grey-opalescent',
  liquefaction_min: 30,
  viscosity: 'Normal',
  ph: 7.2,
  concentration: 16,
  total_count: 39,
  progressive_motility: 30,
  total_motility: 42,
  vitality: 54,
  normal_forms: 4,
  agglutination: 'Absent',
};

beforeAll(async () => {
  lab = await makeLab();
  // The starter catalogue's own entries: the shipped file is what labs get.
  const starter = readStarterCatalogue();
  for (const code of ['URM', 'STOOL', 'UCS', 'SEMEN']) {
    const entry = starter.tests.find((t) => t.code === code)!;
    const res = await lab.admin.post('/api/tests', entry);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().test).toMatchObject({ result_type: 'structured' });
    testId[code] = res.json().test.id;
  }
  patient = (
    await lab.admin.post('/api/patients', {
      first_name: 'Ravi',
      last_name: uniqueWord('Ku'),
      date_of_birth: '1990-01-15',
      gender: 'Male',
      phone: '9876500002',
    })
  ).json().patient.id;
  tech = await lab.as('lab_technician');
  validator = await lab.as('validator');
});
afterAll(() => lab.close());

async function sampleOf(code: string, sample_type = 'Urine') {
  const res = await lab.admin.post('/api/samples', { patient_id: patient, sample_type, test_ids: [testId[code]] });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().sample as { id: number; sample_id: string };
}

async function enter(code: string, structured: unknown, sample_type = 'Urine') {
  const s = await sampleOf(code, sample_type);
  const res = await tech.post('/api/test-results', { sample_id: s.id, test_id: testId[code], structured });
  return { sample: s, res };
}

async function entered(code: string, structured: unknown, sample_type = 'Urine') {
  const { sample, res } = await enter(code, structured, sample_type);
  expect(res.statusCode, res.body).toBe(201);
  return { sample, result: res.json<{ result: TestResult }>().result };
}

describe('urine routine entered parameter by parameter', () => {
  it('stores each parameter; protein 2+ flags the parameter and the result abnormal', async () => {
    const { result } = await entered('URM', { ...NORMAL_URINE, protein: '2+', pus_cells: '10-12' });
    expect(result.structured?.values).toMatchObject({
      protein: '2+',
      specific_gravity: '1.020',
      ph: '6.0',
      pus_cells: '10-12',
    });
    expect(result.structured?.flags).toMatchObject({ protein: 'abnormal', pus_cells: 'high', glucose: 'normal' });
    expect(result).toMatchObject({ flag: 'abnormal', review_required: true, review_reasons: ['abnormal'] });
    expect(result.result_value).toBe('Abnormal: Protein 2+; Pus cells 10-12 /hpf');
    const again = (await lab.admin.get(`/api/test-results/${result.id}`)).json<{ result: TestResult }>().result;
    expect(again.structured).toEqual(result.structured);
  });

  it('all parameters normal: not flagged, and Bulk Validate verifies it', async () => {
    const { result } = await entered('URM', NORMAL_URINE);
    expect(result).toMatchObject({ flag: 'normal', review_required: false, review_reasons: [] });
    expect(Object.values(result.structured!.flags!).every((f) => f === 'normal')).toBe(true);
    const bulk = await validator.post('/api/test-results/bulk-verify', { ids: [result.id] });
    expect(bulk.json<BulkVerifyResponse>()).toMatchObject({ verified: 1, refused: 0 });
  });

  it('Bulk Validate refuses an abnormal one; verifying it on its own works', async () => {
    const { result } = await entered('URM', { ...NORMAL_URINE, glucose: '3+' });
    const bulk = (
      await validator.post('/api/test-results/bulk-verify', { ids: [result.id] })
    ).json<BulkVerifyResponse>();
    expect(bulk).toMatchObject({ verified: 0, refused: 1 });
    expect(bulk.outcomes[0]).toMatchObject({ status: 409 });
    expect(bulk.outcomes[0]!.message).toContain('outside the reference range');
    const one = await validator.put(`/api/test-results/${result.id}/verify`);
    expect(one.statusCode, one.body).toBe(200);
    expect(one.json().result).toMatchObject({ status: 'verified', flag: 'abnormal' });
  });

  it.each([
    [{ ...NORMAL_URINE, protein: '5+' }, 'structured.protein', 'Protein must be one of: Nil, Trace, 1+, 2+, 3+, 4+'],
    [{ ...NORMAL_URINE, specific_gravity: '1.2' }, 'structured.specific_gravity', 'Specific gravity must be 1 to 1.06'],
    [{ ...NORMAL_URINE, pus_cells: 'many' }, 'structured.pus_cells', 'Pus cells must be a number or a range'],
    [{ ...NORMAL_URINE, nitrite: '' }, 'structured.nitrite', 'Nitrite is required'],
    [{ ...NORMAL_URINE, sugar: 'Nil' }, 'structured.sugar', 'sugar is not a parameter of Urine Routine'],
    ['Nil', 'structured', 'structured must be an object'],
  ])('refuses a bad value with 400 naming the parameter (%#)', async (structured, path, message) => {
    const { sample, res } = await enter('URM', structured);
    expect(res.statusCode, res.body).toBe(400);
    const details = res.json().details as { path: string; message: string }[];
    expect(details[0]!.path).toBe(path);
    expect(details[0]!.message).toContain(message);
    // Nothing was stored.
    const sheet = (await lab.admin.get(`/api/samples/${sample.id}/results`)).json<ResultSheet>();
    expect(sheet.tests[0]!.result).toBeNull();
  });

  it('a single value sent for a structured test is refused naming structured', async () => {
    const s = await sampleOf('URM');
    const res = await tech.post('/api/test-results', { sample_id: s.id, test_id: testId.URM, result_value: 'NAD' });
    expect(res.statusCode).toBe(400);
    expect(res.json().details[0].path).toBe('structured');
    // Nor is the summary typed over: it is the server's, written from the parameters.
    const { result } = await entered('URM', NORMAL_URINE);
    const typed = await tech.put(`/api/test-results/${result.id}`, { result_value: 'NAD' });
    expect(typed.statusCode).toBe(400);
    expect(typed.json().details[0].path).toBe('result_value');
  });

  it('PUT of what GET returned changes nothing; a change after verification keeps the earlier parameters', async () => {
    const { result } = await entered('URM', NORMAL_URINE);
    const same = await tech.put(`/api/test-results/${result.id}`, result);
    expect(same.statusCode, same.body).toBe(200);
    expect(same.json().result.updated_at).toBe(result.updated_at);
    expect((await validator.put(`/api/test-results/${result.id}/verify`)).statusCode).toBe(200);
    const changed = await tech.put(`/api/test-results/${result.id}`, {
      structured: { ...NORMAL_URINE, blood: '1+' },
      reason: 'Dipstick read again',
    });
    expect(changed.statusCode, changed.body).toBe(200);
    const after = (await lab.admin.get(`/api/test-results/${result.id}`)).json<{ result: TestResult }>().result;
    expect(after).toMatchObject({ status: 'completed', amended: true, flag: 'abnormal' });
    expect(after.structured?.values?.blood).toBe('1+');
    expect(after.amendments?.[0]?.old_structured?.values?.blood).toBe('Nil');
  });
});

describe('culture and sensitivity with an antibiogram', () => {
  const growth = {
    specimen: 'Urine (midstream, clean catch)',
    growth: 'growth',
    organisms: [
      {
        name: 'Escherichia coli',
        colony_count: 100000,
        antibiotics: [
          { name: 'Ampicillin', interpretation: 'R', zone: 8 },
          { name: 'Nitrofurantoin', interpretation: 'S', mic: 16 },
          { name: 'Ciprofloxacin', interpretation: 'I', zone: 19, mic: 0.5 },
        ],
      },
    ],
  };

  it('stores the organism, colony count and each antibiotic S/I/R with MIC or zone; growth is abnormal', async () => {
    const { result } = await entered('UCS', growth);
    expect(result.structured?.culture).toMatchObject({
      growth: 'growth',
      organisms: [
        {
          name: 'Escherichia coli',
          colony_count: 100000,
          antibiotics: [
            { name: 'Ampicillin', interpretation: 'R', zone: 8 },
            { name: 'Nitrofurantoin', interpretation: 'S', mic: 16 },
            { name: 'Ciprofloxacin', interpretation: 'I', zone: 19, mic: 0.5 },
          ],
        },
      ],
    });
    expect(result).toMatchObject({ flag: 'abnormal', result_value: 'Escherichia coli (1,00,000 CFU/mL)' });
  });

  it('no growth after 48 h is normal', async () => {
    const { result } = await entered('UCS', { specimen: 'Urine', growth: 'no_growth', incubation_hours: 48 });
    expect(result).toMatchObject({ flag: 'normal', result_value: 'No growth after 48 h', review_required: false });
  });

  it.each([
    ['X', 'structured.organisms.0.antibiotics.0.interpretation', 'S, I or R'],
    ['Sensitive', 'structured.organisms.0.antibiotics.0.interpretation', 'S, I or R'],
  ])('refuses an unknown interpretation %s naming the antibiotic', async (interpretation, path, message) => {
    const bad = structuredClone(growth);
    bad.organisms[0]!.antibiotics[0]!.interpretation = interpretation;
    const { res } = await enter('UCS', bad);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().details[0]).toMatchObject({ path });
    expect(res.json().details[0].message).toContain(message);
  });

  it('refuses a negative zone, a repeated antibiotic and growth without an organism', async () => {
    const zone = structuredClone(growth);
    zone.organisms[0]!.antibiotics[0]!.zone = -3;
    expect((await enter('UCS', zone)).res.json().details[0].path).toBe('structured.organisms.0.antibiotics.0.zone');
    const twice = structuredClone(growth);
    twice.organisms[0]!.antibiotics[1]!.name = 'ampicillin';
    expect((await enter('UCS', twice)).res.json().details[0].path).toBe('structured.organisms.0.antibiotics.1.name');
    const none = { specimen: 'Urine', growth: 'growth', organisms: [] };
    expect((await enter('UCS', none)).res.json().details[0].path).toBe('structured.organisms');
  });
});

describe('semen analysis against the WHO 2021 lower reference limits', () => {
  it('values at the limits are normal', async () => {
    const { result } = await entered('SEMEN', WHO_LIMITS, 'Other');
    expect(result.flag).toBe('normal');
  });

  it('values below the limits are flagged low', async () => {
    const { result } = await entered(
      'SEMEN',
      { ...WHO_LIMITS, concentration: 12, progressive_motility: 25, total_motility: 38, normal_forms: 3, ph: 7.0 },
      'Other',
    );
    expect(result.flag).toBe('low');
    expect(result.structured?.flags).toMatchObject({
      concentration: 'low',
      progressive_motility: 'low',
      total_motility: 'low',
      normal_forms: 'low',
      ph: 'low',
      volume: 'normal',
      vitality: 'normal',
    });
    expect(result.review_reasons).toEqual(['abnormal']);
  });

  it('progressive motility above total motility is refused', async () => {
    const { res } = await enter('SEMEN', { ...WHO_LIMITS, progressive_motility: 50 }, 'Other');
    expect(res.statusCode).toBe(400);
    expect(res.json().details[0].path).toBe('structured.progressive_motility');
  });
});

describe('the report prints structured results as tables', () => {
  it('urine parameters by section with reference and flag; the culture antibiogram', async () => {
    const urine = await entered('URM', { ...NORMAL_URINE, protein: '2+' });
    expect((await validator.put(`/api/test-results/${urine.result.id}/verify`)).statusCode).toBe(200);
    const text = pdfText(await lab.admin.get(`/api/samples/${urine.sample.id}/report.pdf`));
    expect(text).toMatch(/Chemical examination/);
    expect(text).toMatch(/Protein\s+2\+\s+Nil\s+Abnormal/);
    expect(text).toMatch(/Specific gravity\s+1\.020\s+1\.005 – 1\.030/);
    expect(text).toMatch(/Pus cells\s+2-4\s+\/hpf\s+0 – 5|Pus cells\s+2-4\s+\/hpf/);

    const culture = await entered('UCS', {
      specimen: 'Urine (midstream)',
      growth: 'growth',
      organisms: [
        {
          name: 'Klebsiella pneumoniae',
          colony_count: 100000,
          antibiotics: [
            { name: 'Meropenem', interpretation: 'S', mic: 0.25 },
            { name: 'Ceftriaxone', interpretation: 'R', zone: 12 },
          ],
        },
      ],
    });
    expect((await validator.put(`/api/test-results/${culture.result.id}/verify`)).statusCode).toBe(200);
    const ctext = pdfText(await lab.admin.get(`/api/samples/${culture.sample.id}/report.pdf`));
    expect(ctext).toMatch(/Specimen\s+Urine \(midstream\)/);
    expect(ctext).toMatch(/Klebsiella pneumoniae/);
    expect(ctext).toMatch(/1,00,000 CFU\/mL/);
    expect(ctext).toMatch(/Meropenem\s+Sensitive\s+0\.25/);
    expect(ctext).toMatch(/Ceftriaxone\s+Resistant\s+—?\s*12/);
  });
});

describe('HL7 and FHIR out carry a structured result as its parameters', () => {
  it('one OBX / Observation per parameter, and the antibiogram in words', async () => {
    const urine = await entered('URM', { ...NORMAL_URINE, protein: '2+' });
    expect((await validator.put(`/api/test-results/${urine.result.id}/verify`)).statusCode).toBe(200);
    const report = await verifiedReport(lab.database.db, lab.organizationId, urine.sample.id, { holdUntilPaid: false });
    const oru = buildOru(report, { messageId: 'M1' });
    const protein = oru.split('\r').find((s) => s.includes('URM.PROTEIN'));
    expect(protein).toMatch(
      /^OBX\|\d+\|ST\|URM\.PROTEIN\^Urine Routine \\T\\ Microscopy: Protein\^L\|\|2\+\|\|Nil\|A\|/,
    );
    expect(oru).toMatch(/OBX\|\d+\|NM\|URM\.SPECIFIC_GRAVITY\^[^|]*\|\|1\.020\|\|1\.005 – 1\.030\|N\|/);
    const bundle = JSON.stringify(buildBundle(report, { messageId: 'M1' }));
    expect(bundle).toContain(`"value":"${urine.sample.sample_id}-${urine.result.id}-protein"`);

    const culture = await entered('UCS', {
      specimen: 'Urine',
      growth: 'growth',
      organisms: [
        {
          name: 'Escherichia coli',
          colony_count: 100000,
          antibiotics: [{ name: 'Ampicillin', interpretation: 'R', zone: 6 }],
        },
      ],
    });
    expect((await validator.put(`/api/test-results/${culture.result.id}/verify`)).statusCode).toBe(200);
    const c = buildOru(
      await verifiedReport(lab.database.db, lab.organizationId, culture.sample.id, { holdUntilPaid: false }),
      {
        messageId: 'M2',
      },
    );
    expect(c).toMatch(/UCS\.ORG1\^[^^]*: Organism 1\^L\|\|Escherichia coli\|/);
    expect(c).toMatch(/UCS\.ORG1\.CFU\^[^|]*\|\|100000\|/);
    expect(c).toMatch(/UCS\.ORG1\.AB1\^[^^]*: Organism 1 Ampicillin\^L\|\|Resistant\|/);
    expect(c).toContain('zone 6 mm');
  });
});

describe('stool routine and the catalogue', () => {
  const NORMAL_STOOL = {
    colour: 'Brown',
    consistency: 'Formed',
    mucus: 'Absent',
    visible_blood: 'Absent',
    occult_blood: 'Negative',
    reducing_sugar: 'Negative',
    ova: 'Not seen',
    cysts: 'Not seen',
    trophozoites: 'Not seen',
    pus_cells: '0-1',
    rbc: 0,
    fat_globules: 'Absent',
    yeast: 'Absent',
  };

  it('a normal stool is not flagged; occult blood positive and Giardia cysts are', async () => {
    expect((await entered('STOOL', NORMAL_STOOL, 'Stool')).result.flag).toBe('normal');
    const { result } = await entered(
      'STOOL',
      { ...NORMAL_STOOL, occult_blood: 'Positive', cysts: 'giardia lamblia' },
      'Stool',
    );
    expect(result.flag).toBe('abnormal');
    expect(result.structured?.values).toMatchObject({ cysts: 'Giardia lamblia' });
    expect(result.result_value).toBe('Abnormal: Occult blood Positive; Cysts Giardia lamblia');
  });

  it('a structured test needs a known template, and only a structured test has one', async () => {
    const none = await lab.admin.post('/api/tests', {
      name: 'Fluid routine',
      code: 'FLR',
      price: 100,
      result_type: 'structured',
    });
    expect(none.statusCode).toBe(400);
    expect(none.json().details[0].path).toBe('result_template');
    const unknown = await lab.admin.post('/api/tests', {
      name: 'Fluid routine',
      code: 'FLR',
      price: 100,
      result_type: 'structured',
      result_template: 'csf_routine',
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().details[0].path).toBe('result_template');
    const numeric = await lab.admin.post('/api/tests', {
      name: 'Urine pH',
      code: 'UPH',
      price: 100,
      result_type: 'numeric',
      result_template: 'urine_routine',
    });
    expect(numeric.statusCode).toBe(400);
    expect(numeric.json().details[0].path).toBe('result_template');
  });
});

describe('results export and import keep the parameters', () => {
  it('exports structured with the summary, and an imported row stores it back', async () => {
    const { result } = await entered('URM', { ...NORMAL_URINE, ketones: '1+' });
    const out = new PassThrough();
    const chunks: Buffer[] = [];
    out.on('data', (c: Buffer) => chunks.push(c));
    const actor = systemActor(lab.organizationId);
    await runExport(lab.database.db, actor, {
      entity: entityNamed('results')!,
      format: 'json',
      query: { where: { test_code: 'URM' } },
      out,
      fileName: null,
      origin: 'cli',
    });
    const rows = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>[];
    const mine = rows.find((r) => r.result_value === result.result_value && r.sample_id === result.sample_number)!;
    expect(mine.structured).toEqual(result.structured);

    const target = await sampleOf('URM');
    const dir = mkdtempSync(join(tmpdir(), 'lims-structured-'));
    const file = join(dir, 'results.json');
    const { test_name: _n, patient_number: _p, amended: _a, entered_by: _e, verified_by: _v, ...row } = mine;
    writeFileSync(file, JSON.stringify([{ ...row, sample_id: target.sample_id, status: 'completed' }]));
    const imported = await runImport(lab.database.db, actor, {
      entity: entityNamed('results')!,
      path: file,
      dryRun: false,
      update: false,
      origin: 'cli',
      reportPath: (id) => join(dir, `report-${id}.csv`),
    });
    expect(imported.first_errors).toEqual([]);
    const sheet = (await lab.admin.get(`/api/samples/${target.id}/results`)).json<ResultSheet>();
    expect(sheet.tests[0]!.result?.structured).toEqual(result.structured);
  });
});
