import { describe, expect, it } from 'vitest';
import { planPages, type PlanBlock } from './report-layout.js';

/** Pages 100 high from 0 (first page from 20); heads 10, rows 10, tails 5 unless said otherwise. */
const g = { firstTop: 20, top: 0, bottom: 100 };
const block = (rows: number, over: Partial<PlanBlock> = {}): PlanBlock => ({
  head: 10,
  contHead: 10,
  rows: Array.from({ length: rows }, () => ({ height: 10 })),
  tail: 5,
  ...over,
});
/** Each page as "block:from-to" chunks (+ "c" when continued, "*" with the closing). */
const shape = (blocks: PlanBlock[], closing = 0) =>
  planPages(blocks, closing, g).map((p) => [
    ...p.chunks.map((c) => `${c.block}:${c.from}-${c.to}${c.continued ? 'c' : ''}`),
    ...(p.closingY !== null ? ['*'] : []),
  ]);

describe('planPages', () => {
  it('moves a department that fits on a page to the next page rather than splitting it', () => {
    // Page 1 holds block 0 (head 10 + 3 rows + tail = 45, from 20 to 65); block 1 needs 65: moves whole.
    expect(shape([block(3), block(5)])).toEqual([['0:0-3'], ['1:0-5', '*']]);
  });

  it('splits a department longer than a page with two rows at least on each side, continued once', () => {
    // 10 rows: 115 high. Page 1 (from 20) holds head + 7 rows; the last 3 with the tail go on.
    expect(shape([block(10)])).toEqual([['0:0-7'], ['0:7-10c', '*']]);
    // 8 rows would leave one row alone on page 2: one more row goes with it.
    expect(shape([block(8, { tail: 15 })])).toEqual([['0:0-6'], ['0:6-8c', '*']]);
  });

  it('does not start a department with fewer than two rows at the foot of a page', () => {
    // Block 0 ends at 80: room for the head and one row of block 1 only; block 1 (20 rows) starts on page 2.
    const pages = shape([block(5, { tail: 0 }), block(20)]);
    expect(pages[0]).toEqual(['0:0-5']);
    expect(pages[1]![0]).toBe('1:0-9');
  });

  it('never ends a page on a category heading', () => {
    const rows = Array.from({ length: 12 }, (_, i) => ({ height: 10, keepWithNext: i === 6 }));
    // Without the rule page 1 would end on row 6 (the category heading); it moves to page 2.
    expect(shape([block(0, { rows })])).toEqual([['0:0-6'], ['0:6-12c', '*']]);
  });

  it('never leaves the signatures alone on a page: the last rows go with them', () => {
    // 7 rows fill page 1 exactly (20 + 10 + 70 = 100); the closing (30) takes two rows with it.
    expect(shape([block(7, { tail: 0 })], 30)).toEqual([['0:0-5'], ['0:5-7c', '*']]);
    // A short last department moves whole with the closing.
    expect(shape([block(4, { tail: 0 }), block(3, { tail: 0 })], 30)).toEqual([['0:0-4'], ['1:0-3', '*']]);
  });

  it('places the closing under the header when there is nothing to report', () => {
    expect(planPages([], 30, g)).toEqual([{ chunks: [], closingY: 20 }]);
  });
});
