import { describe, expect, it } from 'vitest';
import { forEachCount, monthsInside } from './turnaround.js';

const entries = (text: string) => {
  const out: [number, number][] = [];
  forEachCount(text, (m, n) => out.push([m, n]));
  return out;
};

describe('turnaround histograms as JSON text', () => {
  it('reads both engines’ spellings, negative minutes and counts, and an empty object', () => {
    expect(entries('{"91":3,"-7":1,"120":0}')).toEqual([
      [91, 3],
      [-7, 1],
      [120, 0],
    ]);
    expect(entries('{ "91" : 3, "95" : -1 }')).toEqual([
      [91, 3],
      [95, -1],
    ]);
    expect(entries('{}')).toEqual([]);
    // The same entries JSON.parse gives.
    const text = JSON.stringify({ 30: 2, 3148: 1, 163: 412 });
    expect(entries(text)).toEqual(
      Object.entries(JSON.parse(text) as Record<string, number>).map(([k, v]) => [Number(k), v]),
    );
  });

  it('refuses what it would misread', () => {
    expect(() => entries('{"91":1.5}')).toThrow(/unexpected "\."/);
    expect(() => entries('{"91":{"a":1}}')).toThrow(/unexpected "a"/);
    expect(() => entries('{"91":}')).toThrow(/a key without a count/);
    expect(() => entries('{"-":1}')).toThrow(/lone minus/);
  });
});

describe('a period as whole UTC months and edges', () => {
  it('splits at the first and last month start inside it', () => {
    expect(monthsInside('2025-11-27T18:30:00.000Z', '2026-11-27T18:30:00.000Z')).toEqual({
      months: { from: '2025-12', to: '2026-11' },
      edges: [
        { fromUtc: '2025-11-27T18:30:00.000Z', toUtc: '2025-12-01T00:00:00.000Z' },
        { fromUtc: '2026-11-01T00:00:00.000Z', toUtc: '2026-11-27T18:30:00.000Z' },
      ],
    });
    expect(monthsInside('2026-06-01T00:00:00.000Z', '2026-09-01T00:00:00.000Z')).toEqual({
      months: { from: '2026-06', to: '2026-09' },
      edges: [],
    });
    expect(monthsInside('2026-10-28T18:30:00.000Z', '2026-11-27T18:30:00.000Z')).toEqual({
      months: null,
      edges: [{ fromUtc: '2026-10-28T18:30:00.000Z', toUtc: '2026-11-27T18:30:00.000Z' }],
    });
    expect(monthsInside('2026-12-31T18:30:00.000Z', '2027-02-01T00:00:00.000Z').months).toEqual({
      from: '2027-01',
      to: '2027-02',
    });
  });
});
