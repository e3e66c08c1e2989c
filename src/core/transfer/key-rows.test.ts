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
    const key = (i: number) => `K${i * 7919}`;
    const added: number[] = [];
    for (let i = 0; i < n; i++) if (keys.add(key(i), i + 2) !== undefined) added.push(i);
    expect(added).toEqual([]);
    expect(keys.size).toBe(n);
    const wrong: number[] = [];
    for (let i = 0; i < n; i++) if (keys.get(key(i)) !== i + 2) wrong.push(i);
    // Never added: i * 7919 + 1 is no multiple of 7919.
    for (let i = 0; i < n; i++) if (keys.has(`K${i * 7919 + 1}`)) wrong.push(-i);
    expect(wrong).toEqual([]);
    expect(keys.add(key(n - 1), 1)).toBe(n + 1);
  });
});
