import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client, TestLab } from '../helpers.js';
import type { Sample } from '../../src/shared/schemas/samples.js';
import { pagesOf, visitLab, type VisitLab } from './visit-report-support.js';

/** Who gets a visit's report: the patient on the portal (their own bills only), and staff once nothing it prints is held. */
let v: VisitLab;
let lab: TestLab;
let tech: Client;
let validator: Client;
const id = (code: string) => v.id(code);
const patient = () => v.patient();
const bill = (p: number, items: { item_type: string; item_id: number }[]) => v.bill(p, items);
const samplesOf = (p: number): Promise<Sample[]> => v.samplesOf(p);
const enterAndVerify = (s: number) => v.enterAndVerify(s);

beforeAll(async () => {
  v = await visitLab();
  ({ lab, tech, validator } = v);
});
afterAll(() => lab.close());

describe('the visit report on the patient portal', () => {
  it('lists the lab report on the patient’s own bill once a result is verified, and serves it only to that patient', async () => {
    const p = await patient();
    const patientCode = (await lab.admin.get(`/api/patients/${p}`)).json().patient.patient_id as string;
    const b = await bill(p, [
      { item_type: 'test', item_id: id('HB') },
      { item_type: 'test', item_id: id('FBS') },
    ]);
    const pin = (await lab.admin.post(`/api/patients/${p}/portal-pin`)).json().pin as string;
    const login = await lab.app.inject({
      method: 'POST',
      url: '/api/portal/login',
      payload: { patient_id: patientCode, mobile: '9876500042', pin },
      remoteAddress: '10.9.8.7',
    });
    expect(login.statusCode, login.body).toBe(200);
    const cookie = `lims_portal=${login.cookies.find((c) => c.name === 'lims_portal')!.value}`;
    const asPatient = (url: string) => lab.app.inject({ method: 'GET', url, headers: { cookie } });
    const bills = async () =>
      (await asPatient('/api/portal/bills')).json<{ bills: { id: number; report_url: string | null }[] }>().bills;

    expect((await bills()).find((x) => x.id === b.id)!.report_url).toBeNull();
    expect((await asPatient(`/api/portal/bills/${b.id}/report.pdf`)).statusCode).toBe(404);

    const tubes = await samplesOf(p);
    const edta = tubes.find((s) => /edta/i.test(s.container ?? ''))!;
    expect((await tech.post('/api/samples/collect', { ids: [edta.id] })).statusCode).toBe(200);
    await enterAndVerify(edta.id);
    const url = (await bills()).find((x) => x.id === b.id)!.report_url;
    expect(url).toBe(`/api/portal/bills/${b.id}/report.pdf`);
    const res = await asPatient(url!);
    expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
    const text = pagesOf(res.rawPayload).join('\n').replace(/\s+/g, ' ');
    expect(text).toMatch(/Haemoglobin \d/);
    expect(text).toMatch(/Pending: Fasting Blood Sugar \(FBS\) \(result awaited\)/);

    // Another patient's bill is not found, whatever its id.
    const other = await bill(await patient(), [{ item_type: 'test', item_id: id('HB') }]);
    expect((await asPatient(`/api/portal/bills/${other.id}/report.pdf`)).statusCode).toBe(404);
  });
});

describe('a visit report held like its samples’ reports', () => {
  it('is held while a sample it prints is held for payment, and released with that sample', async () => {
    const p = await patient();
    const b = await bill(p, [
      { item_type: 'test', item_id: id('HB') },
      { item_type: 'test', item_id: id('FBS') },
    ]);
    const tubes = await samplesOf(p);
    const edta = tubes.find((s) => /edta/i.test(s.container ?? ''))!;
    expect((await tech.post('/api/samples/collect', { ids: [edta.id] })).statusCode).toBe(200);
    await enterAndVerify(edta.id);
    const settings = (await lab.database.db
      .selectFrom('organizations')
      .select('settings')
      .where('id', '=', lab.organizationId)
      .executeTakeFirstOrThrow()) as { settings: string | null };
    const hold = (on: boolean) =>
      lab.database.db
        .updateTable('organizations')
        .set({ settings: JSON.stringify({ ...JSON.parse(settings.settings ?? '{}'), holdReportsUntilPaid: on }) })
        .where('id', '=', lab.organizationId)
        .execute();
    await hold(true);
    try {
      const held = await lab.admin.get(`/api/bills/${b.id}/report.pdf`);
      expect(held.statusCode).toBe(409);
      expect(held.json().code).toBe('REPORT_HELD_UNPAID');
      const release = await validator.post(`/api/samples/${edta.id}/report/release`, { reason: 'Corporate client' });
      expect(release.statusCode, release.body).toBe(200);
      // The fluoride tube, not drawn yet, holds nothing back: its test is named as pending.
      const res = await lab.admin.get(`/api/bills/${b.id}/report.pdf`);
      expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
      expect(pagesOf(res.rawPayload).join(' ').replace(/\s+/g, ' ')).toMatch(/Pending: Fasting Blood Sugar/);
    } finally {
      await hold(false);
    }
  });
});
