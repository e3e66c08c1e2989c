import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { makeLab, tempDir, type Client, type TestLab } from '../helpers.js';
import { systemActor } from '../../src/core/context.js';
import { loadStarterCatalogue } from '../../src/core/catalogue/starter.js';
import type { ResultSheet } from '../../src/shared/schemas/results.js';
import type { Sample } from '../../src/shared/schemas/samples.js';
import { uniqueWord } from './support.js';
import { NORMAL_URINE } from '../urine.js';

/** A lab on the starter catalogue with a technician and a validator, and the steps of a visit up to its report. */
export interface VisitLab {
  lab: TestLab;
  tech: Client;
  validator: Client;
  /** Test id by catalogue code. */
  id: (code: string) => number;
  /** Test name by id. */
  names: Map<number, string>;
  profiles: Map<string, number>;
  patient: () => Promise<number>;
  bill: (
    patientId: number,
    items: { item_type: string; item_id: number }[],
  ) => Promise<{ id: number; bill_number: string }>;
  samplesOf: (patientId: number) => Promise<Sample[]>;
  /** Enters every test of a sample with a value in range and has the validator verify them. */
  enterAndVerify: (sampleId: number, opts?: { leaveUnverified?: string[] }) => Promise<void>;
}

/** A value inside the test's normal range (or its expected text), so nothing is flagged or critical. */
function normalValue(t: ResultSheet['tests'][number]): string {
  if (t.result_type === 'choice') return t.choices.find((c) => c === t.normal_range) ?? t.choices[0]!;
  const nums = (t.normal_range ?? '').match(/\d+(\.\d+)?/g)?.map(Number) ?? [];
  if (t.result_type !== 'numeric') return t.normal_range ?? 'Normal study';
  const v = nums.length >= 2 ? (nums[0]! + nums[1]!) / 2 : nums.length ? nums[0]! * 0.8 : 1;
  return v.toFixed(t.decimals ?? 1);
}

export async function visitLab(): Promise<VisitLab> {
  const lab = await makeLab();
  await loadStarterCatalogue(lab.database.db, systemActor(lab.organizationId, 'test'), {
    tests: true,
    profiles: true,
    packages: true,
  });
  const ids = new Map<string, number>();
  const names = new Map<number, string>();
  const profiles = new Map<string, number>();
  for (const t of (await lab.admin.get('/api/tests?limit=500')).json<{
    tests: { id: number; code: string; name: string }[];
  }>().tests) {
    ids.set(t.code, t.id);
    names.set(t.id, t.name);
  }
  for (const p of (await lab.admin.get('/api/test-profiles')).json<{ profiles: { id: number; code: string }[] }>()
    .profiles)
    profiles.set(p.code, p.id);
  const tech = await lab.as('lab_technician');
  const validator = await lab.as('validator');
  const sheet = async (sampleId: number) => (await tech.get(`/api/samples/${sampleId}/results`)).json<ResultSheet>();
  return {
    lab,
    tech,
    validator,
    id: (code) => ids.get(code)!,
    names,
    profiles,
    async patient() {
      const res = await lab.admin.post('/api/patients', {
        first_name: 'Lakshmi',
        last_name: uniqueWord('Ra'),
        date_of_birth: '1972-04-04',
        gender: 'Female',
        phone: '9876500042',
        confirm_new: true,
      });
      expect(res.statusCode, res.body).toBe(201);
      return res.json().patient.id;
    },
    async bill(patientId, items) {
      const res = await lab.admin.post('/api/bills', {
        patient_id: patientId,
        items,
        amount_paid: 0,
        confirm_duplicates: true,
      });
      expect(res.statusCode, res.body).toBe(201);
      return res.json().bill;
    },
    async samplesOf(patientId) {
      return (await lab.admin.get(`/api/samples?patient_id=${patientId}&limit=50`)).json<{ samples: Sample[] }>()
        .samples;
    },
    async enterAndVerify(sampleId, opts = {}) {
      for (const t of (await sheet(sampleId)).tests) {
        if (t.formula) continue;
        // A urine routine is entered parameter by parameter: a normal one, printed as its tables.
        const res = await tech.post('/api/test-results', {
          sample_id: sampleId,
          test_id: t.test_id,
          ...(t.result_template === 'urine_routine' ? { structured: NORMAL_URINE } : { result_value: normalValue(t) }),
        });
        expect(res.statusCode, `${t.test_code}: ${res.body}`).toBe(201);
      }
      for (const t of (await sheet(sampleId)).tests) {
        if (!t.result || t.result.status === 'verified' || opts.leaveUnverified?.includes(t.test_code)) continue;
        const res = await validator.put(`/api/test-results/${t.result.id}/verify`, {});
        expect(res.statusCode, `${t.test_code}: ${res.body}`).toBe(200);
      }
    },
  };
}

let n = 0;
/** The PDF's text, page by page (pdftotext -layout; pages end with a form feed). */
export function pagesOf(pdf: Buffer): string[] {
  const file = join(tempDir(), `visit-${++n}.pdf`);
  writeFileSync(file, pdf);
  return execFileSync('pdftotext', ['-layout', file, '-'])
    .toString()
    .split('\f')
    .filter((p) => p.trim());
}
