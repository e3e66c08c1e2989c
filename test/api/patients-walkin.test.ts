import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLab, type TestLab } from '../helpers.js';
import { birthDateFromAge } from '../../src/shared/age.js';
import { localDate } from '../../src/shared/time.js';
import type { Patient } from '../../src/shared/schemas/patients.js';

/** Walk-in registration: name, sex, age or birth date, and a real Indian mobile; the rest optional. */
let lab: TestLab;
beforeAll(async () => {
  lab = await makeLab();
});
afterAll(() => lab.close());

const post = (body: Record<string, unknown>) =>
  lab.admin.post('/api/patients', { first_name: 'Asha', gender: 'Female', age: 30, ...body });

describe('registration rules', () => {
  it.each([
    ['9845012345', '9845012345'],
    ['+91 98450 12345', '9845012345'],
    ['+91-98450-12345', '9845012345'],
    ['919845012345', '9845012345'],
    ['098450 12345', '9845012345'],
    ['6000000001', '6000000001'],
  ])('accepts the mobile %s, stored as %s', async (typed, stored) => {
    // The same Asha with the same mobile each time: registration would offer the first one.
    const res = await post({ phone: typed, confirm_new: true });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json<{ patient: Patient }>().patient.phone).toBe(stored);
  });

  it.each(['1234567', '5845012345', '98450123456', '+1 415 555 0100', '98450-ABCDE'])(
    'refuses the mobile %s, naming the field',
    async (typed) => {
      const res = await post({ phone: typed });
      expect(res.statusCode).toBe(400);
      expect(res.json().details[0]).toMatchObject({ path: 'phone' });
      expect(res.json().details[0].message).toMatch(/Mobile number/);
    },
  );

  it.each([
    ['रमेश', 'कुमार'],
    ['முருகன்', 'செல்வம்'],
    ["D'Souza", 'Fernandes-Pinto'],
    ['K.', 'Ramaswamy'],
    ['Lakshmi', ''],
  ])('accepts the name %s %s', async (first, last) => {
    const res = await post({ first_name: first, last_name: last });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().patient).toMatchObject({ first_name: first, last_name: last });
  });

  it.each([
    ['R@hul', 'first_name'],
    ['Rahul 123', 'first_name'],
  ])('refuses the name %s', async (first, path) => {
    const res = await post({ first_name: first });
    expect(res.statusCode).toBe(400);
    expect(res.json().details[0]).toMatchObject({
      path,
      message: 'First name may contain only letters (any script), spaces, dots, apostrophes and hyphens',
    });
  });

  it.each([
    [35, 'years'],
    [8, 'months'],
    [10, 'days'],
  ] as const)('an age of %i %s records an approximate birth date', async (age, unit) => {
    const res = await post({ age, age_unit: unit });
    expect(res.statusCode, res.body).toBe(201);
    const p = res.json<{ patient: Patient }>().patient;
    expect(p.dob_estimated).toBe(true);
    expect(p.date_of_birth).toBe(birthDateFromAge(age, unit, localDate('Asia/Kolkata')));
    if (unit === 'years') expect(p.age).toBe(35);
  });

  it('a birth date more than 120 years ago, or neither a birth date nor an age, is refused', async () => {
    const old = await post({ age: undefined, date_of_birth: '1850-01-01' });
    expect(old.statusCode).toBe(400);
    expect(old.json().details[0]).toMatchObject({
      path: 'date_of_birth',
      message: 'Date of birth cannot be more than 120 years ago',
    });
    const none = await post({ age: undefined });
    expect(none.statusCode).toBe(400);
    expect(none.json().details[0]).toMatchObject({
      path: 'date_of_birth',
      message: 'Date of birth or age is required',
    });
    const months = await post({ age: 2000, age_unit: 'months' });
    expect(months.statusCode).toBe(400);
  });

  it('a known birth date is exact; a title is kept', async () => {
    const res = await post({ age: undefined, date_of_birth: '1990-06-15', title: 'Mrs' });
    expect(res.json().patient).toMatchObject({ date_of_birth: '1990-06-15', dob_estimated: false, title: 'Mrs' });
    const bad = await post({ title: 'Sir' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details[0].path).toBe('title');
  });
});

describe('birthDateFromAge', () => {
  it.each([
    [35, 'years', '2026-11-24', '1991-11-24'],
    [1, 'months', '2026-03-31', '2026-02-28'],
    [10, 'days', '2026-03-05', '2026-02-23'],
    [1, 'years', '2024-02-29', '2023-02-28'],
  ] as const)('%i %s before %s is %s', (age, unit, today, expected) => {
    expect(birthDateFromAge(age, unit, today)).toBe(expected);
  });
});
