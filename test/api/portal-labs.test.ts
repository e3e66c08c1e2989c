import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLab, type Client, type TestLab } from '../helpers.js';
import { createPatient, otherLabAdmin, uniquePhone, uniqueWord } from './support.js';
import type { PortalPatient, PortalPinIssued } from '../../src/shared/schemas/portal.js';

/**
 * The patient portal on a server of several labs: patient codes are unique per lab only, so two labs
 * may hold the same code, even with the same mobile number (one person at two labs, or an account
 * another lab made to look like them). Each patient signs in with their own PIN, and at a lab's own
 * address only that lab's patients are candidates.
 */
let lab: TestLab;
let other: { organizationId: number; admin: Client };
let otherDomain: string;
let seq = 0;

beforeAll(async () => {
  lab = await makeLab();
  other = await otherLabAdmin(lab);
  otherDomain = (
    await lab.database.db
      .selectFrom('organizations')
      .select('domain')
      .where('id', '=', other.organizationId)
      .executeTakeFirstOrThrow()
  ).domain!;
});
afterAll(() => lab.close());

function portalLogin(body: { patient_id: string; mobile: string; pin: string }, host = '192.168.1.20') {
  seq += 1;
  return lab.app.inject({
    method: 'POST',
    url: '/api/portal/login',
    payload: body,
    remoteAddress: `10.8.0.${seq}`,
    headers: { host },
  });
}

async function issuePin(as: Client, patientId: number): Promise<string> {
  const res = await as.post(`/api/patients/${patientId}/portal-pin`);
  expect(res.statusCode, res.body).toBe(201);
  return res.json<PortalPinIssued>().pin;
}

describe('one patient code and mobile number in two labs', () => {
  it('signs each patient in with their own PIN; at a lab’s address, only that lab’s', async () => {
    const phone = uniquePhone();
    const here = await createPatient(lab.admin, { first_name: uniqueWord('Here'), phone });
    const there = await createPatient(other.admin, { first_name: uniqueWord('There'), phone });
    await lab.database.db
      .updateTable('patients')
      .set({ patient_code: here.patient_id })
      .where('id', '=', there.id)
      .execute();
    const pinHere = await issuePin(lab.admin, here.id);
    let pinThere = await issuePin(other.admin, there.id);
    while (pinThere === pinHere) pinThere = await issuePin(other.admin, there.id);

    const nameOf = async (pin: string, host?: string) => {
      const res = await portalLogin({ patient_id: here.patient_id, mobile: phone, pin }, host);
      return res.statusCode === 200 ? res.json<{ patient: PortalPatient }>().patient.first_name : res.statusCode;
    };
    expect(await nameOf(pinHere)).toBe(here.first_name);
    expect(await nameOf(pinThere)).toBe(there.first_name);
    expect(await nameOf(pinThere, otherDomain)).toBe(there.first_name);
    expect(await nameOf(pinHere, otherDomain)).toBe(401);
  });
});
