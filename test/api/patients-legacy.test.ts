import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLab, type TestLab } from '../helpers.js';
import type { PatientPage } from '../../src/shared/schemas/patients.js';

let lab: TestLab;
beforeAll(async () => {
  lab = await makeLab();
});
afterAll(() => lab.close());

const patient = (first: string, legacy: string) => ({
  first_name: first,
  last_name: 'Kulkarni',
  date_of_birth: '1970-05-05',
  gender: 'Male',
  legacy_id: legacy,
  confirm_new: true,
});

describe("a patient's old ID from the lab's earlier system", () => {
  it('is found by the front desk search typed whole, and given to one patient only', async () => {
    const created = await lab.admin.post('/api/patients', patient('Vinod', 'OPD/1998/0042'));
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({ patient: { legacy_id: 'OPD/1998/0042' } });

    for (const typed of ['OPD/1998/0042', 'opd/1998/0042']) {
      const found = await lab.admin.get(`/api/patients/search?search=${encodeURIComponent(typed)}`);
      expect(found.json<PatientPage>().patients.map((p) => p.first_name)).toEqual(['Vinod']);
    }

    const again = await lab.admin.post('/api/patients', patient('Sunil', 'OPD/1998/0042'));
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'LEGACY_ID_TAKEN' });
    expect(again.json<{ message: string }>().message).toContain('Vinod Kulkarni');
  });
});
