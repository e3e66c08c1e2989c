import { describe, expect, it } from 'vitest';
import { nameKey, similarNames } from './name-key.js';

describe('similar names', () => {
  it.each([
    ['Ravi Shankar', 'ravi  shankar'],
    ['Sunita Sharma', 'Suneeta Sharma'],
    ['Sunita Sharma', 'सुनीता शर्मा'],
    ['Rahul Verma', 'राहुल वर्मा'],
    ['Lakshmi Devi', 'लक्ष्मी देवी'],
    ['Eshwar Rao', 'Ishwar Rao'],
    ['Mohammed Khan', 'Mohamed Khan'],
    ['José Fernandes', 'Jose Fernandes'],
    ['Ram Kumar', 'Ramkumar'],
    ['Ravi', 'Ravi Shankar'],
    ['Priyanka Das', 'Priyanaka Das'],
  ])('%s ~ %s', (a, b) => expect(similarNames(a, b)).toBe(true));

  it.each([
    ['Ravi Shankar', 'Meena Shankar'],
    ['Sunita Sharma', 'Anita Sharma'],
    ['Rahul Verma', 'Rohit Verma'],
    ['Anil Kumar', 'Neel Kumar'],
    ['Asha', 'Usha Rani'],
  ])('%s is not %s', (a, b) => expect(similarNames(a, b)).toBe(false));

  it('reads Devanagari as the consonants a desk would write', () => {
    expect(nameKey('राम शर्मा')).toEqual(nameKey('Ram Sharma'));
    expect(nameKey('भावना')).toEqual(nameKey('Bhavna'));
  });
});
