import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLab, type TestLab } from '../helpers.js';

let lab: TestLab;
beforeAll(async () => {
  lab = await makeLab();
});
afterAll(() => lab.close());

describe('catalogue', () => {
  it('codes are unique per lab (409) and case-insensitive', async () => {
    expect((await lab.admin.post('/api/tests', { name: 'TSH', code: 'tsh', price: 300 })).statusCode).toBe(201);
    const dup = await lab.admin.post('/api/tests', { name: 'TSH again', code: 'TSH', price: 300 });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().message).toContain('TSH');
  });

  it('prices cannot be negative or have more than 2 decimals', async () => {
    const neg = await lab.admin.post('/api/tests', { name: 'X', code: 'X1', price: -1 });
    expect(neg.statusCode).toBe(400);
    expect(neg.json().details[0].path).toBe('price');
    const dec = await lab.admin.post('/api/tests', { name: 'X', code: 'X2', price: 1.005 });
    expect(dec.statusCode).toBe(400);
  });

  it('a taxable test must name its SAC or HSN code; an exempt one defaults to 9993', async () => {
    const noSac = await lab.admin.post('/api/tests', {
      name: 'Skin',
      code: 'SKIN1',
      price: 500,
      tax_category: 'gst_18',
    });
    expect(noSac.statusCode).toBe(400);
    expect(noSac.json().details[0].path).toBe('sac_code');
    expect(noSac.json().details[0].message).toContain('SAC');
    const exempt = (await lab.admin.post('/api/tests', { name: 'Urea', code: 'UREA1', price: 120 })).json().test;
    expect([exempt.tax_category, exempt.sac_code]).toEqual(['exempt', null]);
    // Made taxable later without a code: refused, and the test is left as it was.
    const later = await lab.admin.put(`/api/tests/${exempt.id}`, { tax_category: 'gst_12' });
    expect(later.statusCode).toBe(400);
    expect(later.json().details[0].path).toBe('sac_code');
    expect((await lab.admin.get(`/api/tests/${exempt.id}`)).json().test.tax_category).toBe('exempt');
    const ok = await lab.admin.put(`/api/tests/${exempt.id}`, { tax_category: 'gst_12', sac_code: '999722' });
    expect(ok.statusCode).toBe(200);
    expect([ok.json().test.tax_category, ok.json().test.sac_code]).toEqual(['gst_12', '999722']);
    // Its code cannot then be taken away while it is taxable.
    expect((await lab.admin.put(`/api/tests/${exempt.id}`, { sac_code: '' })).statusCode).toBe(400);
  });

  it('profiles and packages take ids and answer names; unknown ids are refused', async () => {
    const t1 = (await lab.admin.post('/api/tests', { name: 'Total Cholesterol', code: 'CHOL', price: 150 })).json()
      .test;
    const t2 = (await lab.admin.post('/api/tests', { name: 'HDL Cholesterol', code: 'HDL', price: 200 })).json().test;
    const t3 = (await lab.admin.post('/api/tests', { name: 'Triglycerides', code: 'TG', price: 150 })).json().test;
    const prof = await lab.admin.post('/api/test-profiles', {
      name: 'Lipid Profile',
      code: 'LIPID',
      price: 450,
      category: 'Lipid',
      test_ids: [t1.id, t2.id, t3.id],
    });
    expect(prof.statusCode).toBe(201);
    expect(prof.json().profile.tests).toEqual(['Total Cholesterol', 'HDL Cholesterol', 'Triglycerides']);
    const bad = await lab.admin.post('/api/test-profiles', {
      name: 'Bad',
      code: 'BAD',
      price: 1,
      test_ids: [t1.id, 9999],
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details[0]).toEqual({ path: 'test_ids', message: 'Unknown id(s): 9999' });
    const pkg = await lab.admin.post('/api/test-packages', {
      name: 'Heart Check',
      code: 'HEART',
      price: 999,
      test_ids: [t1.id],
      profile_ids: [prof.json().profile.id],
    });
    expect(pkg.json().package.tests).toEqual(['Lipid Profile', 'Total Cholesterol']);
    expect(pkg.json().package.duration).toBeNull();
    const list = await lab.admin.get('/api/test-profiles?category=Lipid');
    expect(list.json().profiles).toHaveLength(1);
  });

  it('a test in a profile cannot be deleted; deactivating it works', async () => {
    const chol = (await lab.admin.get('/api/tests?search=chol'))
      .json()
      .tests.find((t: { code: string }) => t.code === 'CHOL');
    const del = await lab.admin.delete(`/api/tests/${chol.id}`);
    expect(del.statusCode).toBe(409);
    expect(del.json().message).toBe(
      'Total Cholesterol is used by 1 profile and 1 package; deactivate it instead of deleting it',
    );
    const off = await lab.admin.put(`/api/tests/${chol.id}`, { ...chol, status: 'inactive' });
    expect(off.json().test.status).toBe('inactive');
  });

  it('price changes are kept as history and never rewrite issued bills', async () => {
    const t = (await lab.admin.post('/api/tests', { name: 'Vitamin D', code: 'VITD', price: 1200 })).json().test;
    const patient = (
      await lab.admin.post('/api/patients', { first_name: 'P', last_name: 'Q', date_of_birth: '1990-01-01' })
    ).json().patient;
    const bill = (
      await lab.admin.post('/api/bills', { patient_id: patient.id, items: [{ item_type: 'test', item_id: t.id }] })
    ).json().bill;
    const upd = await lab.admin.put(`/api/pricing/test/${t.id}`, { price: 1400, base_price: 1000 });
    expect(upd.statusCode).toBe(200);
    const hist = (await lab.admin.get(`/api/pricing/test/${t.id}/history`)).json().history;
    expect(hist[0]).toMatchObject({
      old_price: 1200,
      new_price: 1400,
      old_base_price: 1200,
      new_base_price: 1000,
      changed_by_email: 'admin@lab.test',
    });
    expect(hist).toHaveLength(2);
    const again = (await lab.admin.get(`/api/bills/${bill.id}`)).json().bill;
    expect(again.final_amount).toBe(1200);
    expect(again.items[0].price).toBe(1200);
  });

  it('a lab technician can read the catalogue but not change it', async () => {
    const tech = await lab.as('lab_technician');
    expect((await tech.get('/api/tests')).statusCode).toBe(200);
    expect((await tech.post('/api/tests', { name: 'Y', code: 'Y1', price: 1 })).statusCode).toBe(403);
  });

  it('unknown ids answer 404', async () => {
    expect((await lab.admin.get('/api/tests/98765')).statusCode).toBe(404);
    expect((await lab.admin.get('/api/test-profiles/98765')).statusCode).toBe(404);
    expect((await lab.admin.get('/api/test-packages/98765')).statusCode).toBe(404);
    expect((await lab.admin.get('/api/bills/98765')).statusCode).toBe(404);
  });
});
