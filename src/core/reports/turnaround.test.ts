import { describe, expect, it } from 'vitest';
import { forEachCount } from './turnaround.js';
import { turnaroundOf } from './rollups/turnaround-rows.js';

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

  it('reads histograms joined end to end, each after its group, as the rollup reader gets them', () => {
    const out: [number, number, number | null][] = [];
    forEachCount('7{"58":1,"75":2}12{}-3{"30":1}', (m, n, g) => out.push([m, n, g]));
    expect(out).toEqual([
      [58, 1, 7],
      [75, 2, 7],
      [30, 1, -3],
    ]);
    expect(() => entries('7 8{"1":1}')).toThrow(/two numbers outside an object/);
    expect(() => entries('{"1":1}7')).toThrow(/a group without its object/);
    expect(() => entries('7{"1":1')).toThrow(/a key without a count/);
    expect(() => entries('7}')).toThrow(/unexpected "}"/);
  });

  it('refuses what it would misread', () => {
    expect(() => entries('{"91":1.5}')).toThrow(/unexpected "\."/);
    expect(() => entries('{"91":{"a":1}}')).toThrow(/unexpected "{"/);
    expect(() => entries('{"91":"a"}')).toThrow(/unexpected "a"/);
    expect(() => entries('{"91":}')).toThrow(/a key without a count/);
    expect(() => entries('{"-":1}')).toThrow(/lone minus/);
  });
});

describe("a result's turnaround in whole minutes", () => {
  it('rounds halves away from zero and marks the milliseconds past a whole hour', () => {
    const t = (collected: string, verified: string) => turnaroundOf(collected, verified);
    expect(t('2026-01-01T10:00:00.000Z', '2026-01-01T10:01:30.000Z')).toEqual({ minutes: 2, above: false });
    expect(t('2026-01-01T10:01:30.000Z', '2026-01-01T10:00:00.000Z')).toEqual({ minutes: -2, above: false });
    expect(t('2026-01-01T10:00:00.000Z', '2026-01-01T14:00:00.001Z')).toEqual({ minutes: 240, above: true });
    expect(t('2026-01-01T10:00:00.000Z', '2026-01-01T14:00:00.000Z')).toEqual({ minutes: 240, above: false });
    expect(t('2026-01-01T10:00:00.000Z', '2026-01-01T13:59:40.000Z')).toEqual({ minutes: 240, above: false });
    // Text without a zone is UTC, as the engines read it.
    expect(t('2026-01-01 10:00:00', '2026-01-01T10:10:00.000Z')).toEqual({ minutes: 10, above: false });
    expect(t('not a time', '2026-01-01T10:10:00.000Z')).toBeNull();
  });
});
