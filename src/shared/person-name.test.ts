import { describe, expect, it } from 'vitest';
import { moveTitleOutOfFirstName, splitTitle, titledName } from './person-name.js';
import { splitName } from './schemas/setup.js';

describe('titles apart from names', () => {
  it('splits the administrator name the setup wizard and lims setup take', () => {
    expect(splitName('Dr. Meena Kulkarni')).toEqual({ title: 'Dr', first_name: 'Meena', last_name: 'Kulkarni' });
    expect(splitName('prof Ravi Shankar Rao')).toEqual({ title: 'Prof', first_name: 'Ravi', last_name: 'Shankar Rao' });
    expect(splitName('Asha Rao Menon')).toEqual({ title: null, first_name: 'Asha', last_name: 'Rao Menon' });
    // Baby and Master are patients' titles, not staff's: kept as the name.
    expect(splitName('Master Chef')).toEqual({ title: null, first_name: 'Master', last_name: 'Chef' });
  });

  it('takes a title only when a name follows it', () => {
    expect(splitTitle('Dr.')).toEqual({ title: null, rest: 'Dr.' });
    expect(splitTitle('Mrs  Lata')).toEqual({ title: 'Mrs', rest: 'Lata' });
    expect(splitTitle('Drona Das')).toEqual({ title: null, rest: 'Drona Das' });
  });

  it('moves a title typed into the first name unless a title was given apart', () => {
    expect(moveTitleOutOfFirstName({ first_name: 'Dr. Meena' })).toEqual({ title: 'Dr', first_name: 'Meena' });
    expect(moveTitleOutOfFirstName({ title: 'Prof' as const, first_name: 'Dr. Meena' })).toEqual({
      title: 'Prof',
      first_name: 'Dr. Meena',
    });
    expect(moveTitleOutOfFirstName({ title: null, last_name: 'Rao' })).toEqual({ title: null, last_name: 'Rao' });
  });

  it('shows the title, written with its full stop, before the name', () => {
    expect(titledName({ title: 'Dr', first_name: 'Meena', last_name: 'Kulkarni' })).toBe('Dr. Meena Kulkarni');
    expect(titledName({ title: 'Miss', first_name: 'Lata', last_name: '' })).toBe('Miss Lata');
    expect(titledName({ title: null, first_name: 'Asha', last_name: 'Rao' })).toBe('Asha Rao');
  });
});
