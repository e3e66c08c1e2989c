import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verificationToken, verificationUrl } from '../../src/core/lab-reports/verification.js';
import { LINK_MAX_FAILURES } from '../../src/core/report-delivery/links.js';
import { tokenHash } from '../../src/core/report-delivery/tokens.js';
import { pdfText } from '../helpers.js';
import {
  copiedToken,
  deliveryLab,
  LAB_PHONE,
  newPatient,
  publicPost,
  releasedReport,
  SETTINGS,
  verify,
  type DeliveryLab,
} from './report-delivery-support.js';

let d: DeliveryLab;

beforeAll(async () => {
  d = await deliveryLab();
});
afterAll(async () => {
  await d.lab.close();
});

const open = (token: string, ip?: string) => publicPost(d, '/api/report-link/open', { token }, ip);
const prove = (token: string, answer: string, ip?: string) =>
  publicPost(d, '/api/report-link/prove', { token, answer }, ip);

describe('report links', () => {
  it('open with the birth year, show the report summary and give the PDF; every open logged with its address', async () => {
    const p = await newPatient(d);
    const { sample } = await releasedReport(d, p.id);
    const token = await copiedToken(d, sample.id);
    expect(token).toMatch(/^L\d+\.[A-Za-z0-9_-]{32}\.[A-Za-z0-9_-]{22}$/);
    // Only the hash is kept.
    const stored = await d.lab.database.db.selectFrom('report_link_tokens').select('token_hash').execute();
    expect(stored.map((r) => r.token_hash)).toContain(tokenHash(token));
    expect(JSON.stringify(stored)).not.toContain(token);

    const o = await open(token);
    expect(o.statusCode, o.body).toBe(200);
    expect(o.json().link).toEqual({
      lab: { name: 'Test Lab', phone: LAB_PHONE },
      proof: 'birth_year',
      amended: false,
      otp_to: null,
    });
    expect(o.body).not.toContain(sample.sample_id);

    const wrong = await prove(token, '1981');
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().details[0].path).toBe('answer');
    const right = await prove(token, '1980');
    expect(right.statusCode, right.body).toBe(200);
    expect(right.json().report).toMatchObject({
      sample_code: sample.sample_id,
      amended: false,
      tests: ['Fasting Blood Sugar'],
    });

    const pdf = await publicPost(d, '/api/report-link/pdf', { token, answer: '1980' });
    expect(pdf.statusCode, pdf.body).toBe(200);
    expect(pdf.headers['content-type']).toContain('application/pdf');
    expect(pdfText(pdf)).toContain(sample.sample_id);

    const opens = await d.desk.get(`/api/report-delivery/samples/${sample.id}/opens`);
    expect(opens.statusCode, opens.body).toBe(200);
    expect(opens.json().opens.map((x: { outcome: string }) => x.outcome)).toEqual([
      'opened',
      'refused',
      'proved',
      'downloaded',
    ]);
    expect(opens.json().opens.every((x: { address: string }) => x.address === '203.0.113.7')).toBe(true);
  });

  it('refuses a changed or made-up token as not a link (404)', async () => {
    const p = await newPatient(d);
    const { sample } = await releasedReport(d, p.id);
    const token = await copiedToken(d, sample.id);
    const changed = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
    expect((await open(changed)).statusCode).toBe(404);
    expect((await open('L1.aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.bbbbbbbbbbbbbbbbbbbbbb')).statusCode).toBe(404);
    const bad = await open('../../etc/passwd');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details[0].path).toBe('token');
  });

  it('limits wrong answers like the portal PIN, and closes the link after too many from anywhere', async () => {
    const p = await newPatient(d);
    const { sample } = await releasedReport(d, p.id);
    const token = await copiedToken(d, sample.id);
    for (let i = 0; i < 5; i++) expect((await prove(token, '1900', '198.51.100.1')).statusCode).toBe(400);
    // The sixth from the same address waits, even with the right answer.
    expect((await prove(token, '1980', '198.51.100.1')).statusCode).toBe(429);
    for (let i = 5; i < LINK_MAX_FAILURES; i++) {
      const r = await prove(token, '1900', `198.51.100.${10 + i}`);
      expect([400, 410]).toContain(r.statusCode);
    }
    const closed = await prove(token, '1980', '198.51.100.200');
    expect(closed.statusCode).toBe(410);
    expect(closed.json()).toMatchObject({ code: 'LINK_LOCKED' });
    expect(closed.json().message).toContain(LAB_PHONE);
    // The front desk hands out a new link: it opens again.
    const again = await copiedToken(d, sample.id);
    expect((await prove(again, '1980', '198.51.100.201')).statusCode).toBe(200);
  });

  it('answers 410 with the lab phone after expiry and after revoke', async () => {
    const p = await newPatient(d);
    const { sample } = await releasedReport(d, p.id);
    const token = await copiedToken(d, sample.id);
    await d.lab.database.db
      .updateTable('report_link_tokens')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('token_hash', '=', tokenHash(token))
      .execute();
    const expired = await open(token);
    expect(expired.statusCode).toBe(410);
    expect(expired.json()).toMatchObject({ code: 'LINK_EXPIRED' });
    expect(expired.json().message).toContain(LAB_PHONE);

    const live = await copiedToken(d, sample.id);
    expect((await open(live)).statusCode).toBe(200);
    const revoked = await d.desk.delete(`/api/report-delivery/samples/${sample.id}/link`);
    expect(revoked.statusCode, revoked.body).toBe(200);
    const gone = await open(live);
    expect(gone.statusCode).toBe(410);
    expect(gone.json()).toMatchObject({ code: 'LINK_REVOKED' });
    expect(gone.json().message).toContain(LAB_PHONE);
    // Given out again after the revoke: the new token opens, the revoked one stays closed.
    const after = await copiedToken(d, sample.id);
    expect((await open(after)).statusCode).toBe(200);
    expect((await open(live)).statusCode).toBe(410);
  });

  it('an amended report gets a new link; the old one says it was replaced', async () => {
    const p = await newPatient(d);
    const { sample, resultId } = await releasedReport(d, p.id, '98');
    const first = await copiedToken(d, sample.id);
    const amend = await d.tech.put(`/api/test-results/${resultId}`, { result_value: '189', reason: 'Keyed wrongly' });
    expect(amend.statusCode, amend.body).toBe(200);
    await verify(d, resultId);
    const links = await d.lab.database.db
      .selectFrom('report_links')
      .select(['id', 'version', 'replaced_by'])
      .where('sample_id', '=', sample.id)
      .orderBy('version')
      .execute();
    expect(links.map((l) => l.version)).toEqual([1, 2]);
    expect(links[0]!.replaced_by).toBe(links[1]!.id);
    const old = await open(first);
    expect(old.statusCode).toBe(410);
    expect(old.json()).toMatchObject({ code: 'LINK_REPLACED' });
    expect(old.json().message).toContain('amended');
    const second = await copiedToken(d, sample.id);
    const o = await open(second);
    expect(o.statusCode, o.body).toBe(200);
    expect(o.json().link.amended).toBe(true);
  });

  it("the report PDF's QR code opens the same page and asks for the same proof", async () => {
    const p = await newPatient(d);
    const { sample } = await releasedReport(d, p.id);
    const url = await verificationUrl(d.lab.database.db, d.lab.organizationId, sample.id, 'http://lab.local');
    expect(url).toMatch(/^http:\/\/lab\.local\/report-link#/);
    const qr = await verificationToken(d.lab.database.db, d.lab.organizationId, sample.id);
    expect(new URL(url!).hash.slice(1)).toBe(qr);
    const o = await open(qr);
    expect(o.statusCode, o.body).toBe(200);
    expect(o.json().link.proof).toBe('birth_year');
    expect((await prove(qr, '1979')).statusCode).toBe(400);
    expect((await prove(qr, '1980')).statusCode).toBe(200);
  });

  it('makes no link while the lab does not send reports by link', async () => {
    expect((await d.lab.admin.put('/api/report-delivery/settings', { ...SETTINGS, enabled: false })).statusCode).toBe(
      200,
    );
    try {
      const p = await newPatient(d);
      const { sample } = await releasedReport(d, p.id);
      const copy = await d.desk.post(`/api/report-delivery/samples/${sample.id}/link`);
      expect(copy.statusCode).toBe(409);
      expect(copy.json().code).toBe('NO_REPORT_LINK');
      const qr = await verificationToken(d.lab.database.db, d.lab.organizationId, sample.id);
      expect((await open(qr)).statusCode).toBe(410);
    } finally {
      await d.lab.admin.put('/api/report-delivery/settings', SETTINGS);
    }
  });

  it('refuses settings and link routes without the permission, and bad settings by field', async () => {
    const stock = await d.lab.as('inventory_manager');
    expect((await d.tech.get('/api/report-delivery/settings')).statusCode).toBe(403);
    expect((await stock.post('/api/report-delivery/samples/1/link')).statusCode).toBe(403);
    expect((await stock.delete('/api/report-delivery/samples/1/link')).statusCode).toBe(403);
    const bad = await d.lab.admin.put('/api/report-delivery/settings', { ...SETTINGS, link_days: 0 });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details[0].path).toBe('link_days');
  });
});
