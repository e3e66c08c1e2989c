import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, makeLab, type Client, type TestLab } from '../helpers.js';
import { hashPassword } from '../../src/core/auth/password.js';
import type { Patient } from '../../src/shared/schemas/patients.js';
import { createPatient, ids, insertOtherLab, loginAt, page, uniqueEmail, uniquePhone, uniqueWord } from './support.js';

let lab: TestLab;
beforeAll(async () => {
  lab = await makeLab();
});
afterAll(() => lab.close());

const q = encodeURIComponent;

describe('the patient list', () => {
  it('answers the spec’s envelope', async () => {
    await createPatient(lab.admin);
    const body = page(await lab.admin.get('/api/patients'));
    expect(Object.keys(body).sort()).toEqual([
      'currentPage',
      'hasNextPage',
      'hasPrevPage',
      'patients',
      'total',
      'totalPages',
    ]);
    expect(body.currentPage).toBe(1);
    expect(body.total).toBeGreaterThanOrEqual(1);
    expect(body.patients.length).toBeLessThanOrEqual(10);
  });

  it('refuses a bad page or limit, naming the parameter', async () => {
    for (const [query, field] of [
      ['page=0', 'page'],
      ['page=x', 'page'],
      ['limit=0', 'limit'],
      ['limit=500', 'limit'],
      ['gender=robot', 'gender'],
      ['membership=gold', 'membership'],
    ]) {
      const res = await lab.admin.get(`/api/patients?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json<{ details: { path: string }[] }>().details.map((d) => d.path)).toEqual([field]);
    }
  });
});

describe('paging', () => {
  // A lab of its own, so totals are exact.
  let own: TestLab;
  let newestFirst: number[];
  beforeAll(async () => {
    own = await makeLab();
    const created: Patient[] = [];
    for (let i = 0; i < 7; i += 1)
      created.push(await createPatient(own.admin, { last_name: 'Pager', gender: i % 2 ? 'Female' : 'Male' }));
    newestFirst = created.map((p) => p.id).reverse();
  });
  afterAll(() => own.close());

  it('pages newest first with exact totals and flags, including the last page', async () => {
    const p1 = page(await own.admin.get('/api/patients?page=1&limit=3'));
    expect(p1).toMatchObject({ total: 7, totalPages: 3, currentPage: 1, hasNextPage: true, hasPrevPage: false });
    expect(ids(p1)).toEqual(newestFirst.slice(0, 3));
    const p2 = page(await own.admin.get('/api/patients?page=2&limit=3'));
    expect(p2).toMatchObject({ currentPage: 2, hasNextPage: true, hasPrevPage: true });
    expect(ids(p2)).toEqual(newestFirst.slice(3, 6));
    const last = page(await own.admin.get('/api/patients?page=3&limit=3'));
    expect(last).toMatchObject({ total: 7, currentPage: 3, hasNextPage: false, hasPrevPage: true });
    expect(ids(last)).toEqual(newestFirst.slice(6));
  });

  it('answers an empty page past the end, with the real total', async () => {
    const past = page(await own.admin.get('/api/patients?page=9&limit=3'));
    expect(past).toEqual({
      patients: [],
      total: 7,
      totalPages: 3,
      currentPage: 9,
      hasNextPage: false,
      hasPrevPage: true,
    });
  });

  it('every page size walks every patient exactly once, in order', async () => {
    for (const limit of [1, 2, 4, 5, 7, 50]) {
      const seen: number[] = [];
      for (let n = 1; n <= Math.ceil(7 / limit); n += 1)
        seen.push(...ids(page(await own.admin.get(`/api/patients?page=${n}&limit=${limit}`))));
      expect(seen, `limit ${limit}`).toEqual(newestFirst);
    }
  });

  it('pages a search and a filtered search the same way', async () => {
    const all: number[] = [];
    for (let n = 1; n <= 4; n += 1)
      all.push(...ids(page(await own.admin.get(`/api/patients?search=pager&page=${n}&limit=2`))));
    expect(all).toEqual(newestFirst);
    const women = page(await own.admin.get('/api/patients?search=pager&gender=Female&limit=2&page=2'));
    expect(women).toMatchObject({ total: 3, totalPages: 2, currentPage: 2, hasNextPage: false, hasPrevPage: true });
    expect(women.patients.every((p) => p.gender === 'Female')).toBe(true);
  });

  it('keeps the total exact after a delete', async () => {
    const extra = await createPatient(own.admin);
    expect(page(await own.admin.get('/api/patients?limit=1')).total).toBe(8);
    await own.admin.delete(`/api/patients/${extra.id}`);
    expect(page(await own.admin.get('/api/patients?limit=1')).total).toBe(7);
  });
});

describe('searching', () => {
  let p: Patient;
  let phone: string;
  let other: Patient;
  beforeAll(async () => {
    phone = uniquePhone();
    p = await createPatient(lab.admin, {
      first_name: uniqueWord('Meenakshi'),
      last_name: uniqueWord('Sundaram'),
      phone: `${phone.slice(0, 5)} ${phone.slice(5)}`,
      email: uniqueEmail('meenakshi'),
    });
    other = await createPatient(lab.admin, { phone: uniquePhone(), email: uniqueEmail('other') });
  });

  const found = async (search: string, path = '/api/patients') =>
    ids(page(await lab.admin.get(`${path}?search=${q(search)}&limit=50`)));

  it('finds by the start of the first name, in any letter case', async () => {
    expect(await found(p.first_name.slice(0, -2).toLowerCase())).toContain(p.id);
    expect(await found(p.first_name.toUpperCase())).toEqual([p.id]);
  });

  it('finds by last name', async () => {
    expect(await found(p.last_name)).toEqual([p.id]);
  });

  it('finds by full name "first last"', async () => {
    expect(await found(`${p.first_name} ${p.last_name}`)).toEqual([p.id]);
    expect(await found(`${p.first_name} ${other.last_name}`)).toEqual([]);
  });

  it('finds by patient code', async () => {
    expect(await found(p.patient_id)).toEqual([p.id]);
    expect(await found(p.patient_id.toLowerCase())).toEqual([p.id]);
  });

  it('finds by phone with or without spaces, dashes or +91', async () => {
    for (const typed of [
      phone,
      `${phone.slice(0, 5)} ${phone.slice(5)}`,
      `+91 ${phone.slice(0, 5)} ${phone.slice(5)}`,
      `+91${phone}`,
      `91-${phone.slice(0, 5)}-${phone.slice(5)}`,
      `0${phone}`,
    ]) {
      expect(await found(typed), typed).toEqual([p.id]);
    }
    expect(await found(phone.slice(0, 7)), 'first 7 digits').toContain(p.id);
  });

  it('finds a number stored with +91 by its ten digits', async () => {
    const ten = uniquePhone();
    const withCode = await createPatient(lab.admin, { phone: `+91 ${ten}` });
    expect(await found(ten)).toEqual([withCode.id]);
    expect(await found(`+91 ${ten.slice(0, 5)} ${ten.slice(5)}`)).toEqual([withCode.id]);
  });

  it('finds by email, whole or by its first part, in any letter case', async () => {
    expect(await found(p.email!)).toEqual([p.id]);
    expect(await found(p.email!.toUpperCase())).toEqual([p.id]);
    expect(await found(p.email!.split('@')[0]!)).toEqual([p.id]);
  });

  it('finds names written in Indian scripts or with accents, by their start', async () => {
    const hindi = await createPatient(lab.admin, { first_name: 'सुनीता', last_name: uniqueWord('Devi') });
    expect(await found('सुनी')).toContain(hindi.id);
    expect(await found(`सुनीता ${hindi.last_name}`)).toEqual([hindi.id]);
    const accented = await createPatient(lab.admin, { first_name: 'José', last_name: uniqueWord('Dsouza') });
    expect(await found(`jose ${accented.last_name}`)).toEqual([accented.id]);
  });

  it('finds nothing for words nobody has', async () => {
    const res = page(await lab.admin.get(`/api/patients?search=${uniqueWord('Qq')}`));
    expect(res).toMatchObject({ patients: [], total: 0, hasNextPage: false });
  });

  it('counts a short prefix exactly as patients are registered, renamed and deleted', async () => {
    // Short prefixes are counted from a stored count on PostgreSQL: it must follow every change.
    const stem = uniqueWord('Q').slice(0, 5);
    const total = async (search: string) => page(await lab.admin.get(`/api/patients?search=${q(search)}`)).total;
    const a = await createPatient(lab.admin, { first_name: `${stem}ana`, last_name: `${stem}anb` });
    const b = await createPatient(lab.admin, { first_name: 'Kiran', last_name: `${stem}bir` });
    expect(await total(stem)).toBe(2);
    expect(await total(stem.slice(0, 3))).toBeGreaterThanOrEqual(2);
    expect(await total(`${stem}an`)).toBe(1);
    expect(await found(`${stem}an`)).toEqual([a.id]);
    const renamed = await lab.admin.put(`/api/patients/${b.id}`, { last_name: 'Menon' });
    expect(renamed.statusCode).toBe(200);
    expect(await total(stem)).toBe(1);
    expect(await total(`${stem}b`)).toBe(0);
    await lab.admin.put(`/api/patients/${b.id}`, { last_name: `${stem}bir` });
    expect(await found(stem)).toEqual([b.id, a.id]);
    expect((await lab.admin.delete(`/api/patients/${a.id}`)).statusCode).toBe(200);
    expect(await total(stem)).toBe(1);
    expect(await total(`${stem}anb`)).toBe(0);
  });
  it('/api/patients/search answers the same', async () => {
    expect(await found(p.last_name, '/api/patients/search')).toEqual([p.id]);
    expect(await found(phone, '/api/patients/search')).toEqual([p.id]);
  });
});

describe('gender and membership filters', () => {
  let family: string;
  let man: Patient;
  let woman: Patient;
  let premiumWoman: Patient;
  beforeAll(async () => {
    family = uniqueWord('Fam');
    man = await createPatient(lab.admin, { last_name: family, gender: 'Male', membership_type: 'basic' });
    woman = await createPatient(lab.admin, { last_name: family, gender: 'Female', membership_type: 'basic' });
    premiumWoman = await createPatient(lab.admin, { last_name: family, gender: 'Female', membership_type: 'premium' });
  });

  const list = async (query: string) => ids(page(await lab.admin.get(`/api/patients?search=${family}&${query}`)));

  it('narrow a search by gender', async () => {
    expect(await list('gender=Female')).toEqual([premiumWoman.id, woman.id]);
    expect(await list('gender=male')).toEqual([man.id]);
    expect(await list('gender=all')).toEqual([premiumWoman.id, woman.id, man.id]);
  });

  it('narrow a search by membership', async () => {
    expect(await list('membership=basic')).toEqual([woman.id, man.id]);
    expect(await list('membership=corporate')).toEqual([]);
  });

  it('combine with each other', async () => {
    expect(await list('gender=Female&membership=basic')).toEqual([woman.id]);
    const res = page(await lab.admin.get(`/api/patients/search?search=${family}&gender=Female&membership=premium`));
    expect(ids(res)).toEqual([premiumWoman.id]);
    expect(res.total).toBe(1);
  });

  it('work without a search, over the whole lab', async () => {
    const premium = page(await lab.admin.get('/api/patients?membership=premium&limit=200'));
    expect(ids(premium)).toContain(premiumWoman.id);
    expect(premium.patients.every((x) => x.membership_type === 'premium')).toBe(true);
  });
});

describe('organisations never see each other’s patients', () => {
  let otherClient: Client;
  beforeAll(async () => {
    const now = new Date().toISOString();
    const db = lab.database.db;
    const org = { id: await insertOtherLab(db) };
    const email = uniqueEmail('other-lab');
    const user = await db
      .insertInto('users')
      .values({
        organization_id: org.id,
        email,
        password_hash: await hashPassword('other-lab-pass-1'),
        first_name: 'Olga',
        last_name: 'Other',
        role: 'admin',
        department: null,
        phone: null,
        specialization: null,
        consultation_fee_paise: 0,
        is_active: 1,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    otherClient = client(lab.app, await loginAt(lab, org.id, email, 'other-lab-pass-1'), user.id, email);
  });

  it('not by id, list or search', async () => {
    const shared = uniqueWord('Twin');
    const phone = uniquePhone();
    const ours = await createPatient(lab.admin, { last_name: shared, phone });
    const theirs = await createPatient(otherClient, { last_name: shared, phone });

    expect((await otherClient.get(`/api/patients/${ours.id}`)).statusCode).toBe(404);
    expect((await lab.admin.get(`/api/patients/${theirs.id}`)).statusCode).toBe(404);
    expect((await otherClient.put(`/api/patients/${ours.id}`, { city: 'Nowhere' })).statusCode).toBe(404);
    expect((await otherClient.delete(`/api/patients/${ours.id}`)).statusCode).toBe(404);

    const theirList = page(await otherClient.get('/api/patients?limit=200'));
    expect(ids(theirList)).toEqual([theirs.id]);
    expect(theirList.total).toBe(1);
    expect(ids(page(await lab.admin.get('/api/patients?limit=200')))).not.toContain(theirs.id);

    for (const search of [shared, phone, ours.patient_id]) {
      expect(ids(page(await lab.admin.get(`/api/patients/search?search=${q(search)}`)))).not.toContain(theirs.id);
      expect(ids(page(await otherClient.get(`/api/patients?search=${q(search)}`)))).not.toContain(ours.id);
    }
    expect(ids(page(await otherClient.get(`/api/patients?search=${shared}&gender=Male`)))).toEqual([theirs.id]);
    expect((await lab.admin.get(`/api/patients/${ours.id}`)).statusCode).toBe(200);
  });

  it('nor each other’s users or audit rows', async () => {
    expect((await otherClient.get(`/api/users/${lab.admin.userId}`)).statusCode).toBe(404);
    const users = (await otherClient.get('/api/users')).json<{ users: { id: number }[] }>().users;
    expect(users.map((u) => u.id)).toEqual([otherClient.userId]);
    const logs = (await otherClient.get('/api/audit?limit=200')).json<{ logs: { user_id: number | null }[] }>().logs;
    expect(logs.every((l) => l.user_id === otherClient.userId)).toBe(true);
  });
});
