import { describe, expect, it } from 'vitest';
import { KeyRows } from './key-rows.js';

describe('the keys of an import file', () => {
  it('answers the row a key was first on, and nothing for a key not seen', () => {
    const keys = new KeyRows();
    expect(keys.add('PAT202611210001', 2)).toBeUndefined();
    expect(keys.add('PAT202611210002', 3)).toBeUndefined();
    expect(keys.add('PAT202611210001', 9)).toBe(2);
    expect(keys.get('PAT202611210001')).toBe(2);
    expect(keys.get('PAT202611210002')).toBe(3);
    expect(keys.has('PAT202611210003')).toBe(false);
    expect(keys.get('PAT20261121000')).toBeUndefined();
    expect(keys.size).toBe(2);
  });

  it('keeps keys in any script, and tells apart keys that differ in one character', () => {
    const keys = new KeyRows();
    keys.add('रमेश@example.in', 2);
    keys.add('ರಮೇಶ@example.in', 3);
    keys.add('', 4);
    expect(keys.get('रमेश@example.in')).toBe(2);
    expect(keys.get('ರಮೇಶ@example.in')).toBe(3);
    expect(keys.get('')).toBe(4);
    expect(keys.has('रमेश@example.i')).toBe(false);
  });

  it('holds a large file of keys past its first size, each with its own row', () => {
    const keys = new KeyRows(4);
    const n = 50_000;
    for (let i = 0; i < n; i++) expect(keys.add(`K${i * 7919}`, i + 2)).toBeUndefined();
    expect(keys.size).toBe(n);
    for (let i = 0; i < n; i++) expect(keys.get(`K${i * 7919}`)).toBe(i + 2);
    for (let i = 0; i < 1000; i++) expect(keys.has(`K${i * 7919 + 1}`)).toBe(false);
    expect(keys.add(`K${(n - 1) * 7919}`, 1)).toBe(n + 1);
  });
});
