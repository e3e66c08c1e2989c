import { describe, expect, it } from 'vitest';
import { ftsQuery, searchTokens } from './patient-search.js';

describe('searchTokens', () => {
  it('splits names into lower-case words', () => {
    expect(searchTokens('Ramesh  KUMAR')).toEqual(['ramesh', 'kumar']);
    expect(searchTokens('ramesh.kumar@example.com')).toEqual(['ramesh', 'kumar', 'example', 'com']);
    expect(searchTokens('PAT202406010001')).toEqual(['pat202406010001']);
  });

  it('keeps letters of Indian scripts and accents', () => {
    expect(searchTokens('सुनीता Devi')).toEqual(['सुनीता', 'devi']);
  });

  it('reads a phone number as typed as one number', () => {
    expect(searchTokens('98765 43210')).toEqual(['9876543210']);
    expect(searchTokens('98765-43210')).toEqual(['9876543210']);
    expect(searchTokens('98765')).toEqual(['98765']);
  });

  it('searches a number with a country or trunk prefix by its last ten digits', () => {
    expect(searchTokens('+91 98765 43210')).toEqual(['9876543210']);
    expect(searchTokens('+919876543210')).toEqual(['9876543210']);
    expect(searchTokens('09876543210')).toEqual(['9876543210']);
    expect(searchTokens('(080) 4000-1234')).toEqual(['08040001234'.slice(-10)]);
  });

  it('has no words for punctuation alone, and at most eight words', () => {
    expect(searchTokens('*** ///')).toEqual([]);
    expect(searchTokens('+ -')).toEqual([]);
    expect(searchTokens('a b c d e f g h i j')).toHaveLength(8);
  });
});

describe('ftsQuery', () => {
  it('requires every word as a prefix, within one organisation', () => {
    expect(ftsQuery(7, ['ram', 'ku'])).toBe(
      'org : "org7" AND {first_name last_name patient_code phone email} : ("ram"* AND "ku"*)',
    );
  });

  it('quotes words so search text cannot change the query', () => {
    expect(ftsQuery(1, ['a"b'])).toContain('"a""b"*');
    expect(ftsQuery(1, ['a"b'], { soleOrganization: true })).toBe('"a""b"*');
  });

  it('in a database with one organisation needs neither the tenant term nor the column filter', () => {
    expect(ftsQuery(7, ['ram', 'ku'], { soleOrganization: true })).toBe('"ram"* AND "ku"*');
  });

  it('keeps the column filter when a word could match the tenant column itself', () => {
    for (const word of ['o', 'or', 'org', 'org7']) {
      expect(ftsQuery(7, [word], { soleOrganization: true })).toBe(
        `{first_name last_name patient_code phone email} : ("${word}"*)`,
      );
    }
    expect(ftsQuery(7, ['org70'], { soleOrganization: true })).toBe('"org70"*');
  });
});
