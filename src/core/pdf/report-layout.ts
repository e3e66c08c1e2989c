/**
 * Where each department's rows fall on the report's pages, worked out from their heights before
 * anything is drawn, so that the rules of a printed lab report hold:
 * - a department that fits on a page is never split: it moves whole to the next page instead;
 * - a department that must split keeps its heading with at least two rows, and carries at least
 *   two rows onto the next page (never one row alone), under one "(continued)" heading;
 * - a category heading is never the last thing on a page;
 * - the closing block (signatures) never stands alone on a page: it goes with the last rows.
 */

export interface PlanRow {
  height: number;
  /** A category heading: stays on the page of the row after it. */
  keepWithNext?: boolean;
}

export interface PlanBlock {
  /** Department heading, its header text and the table's column headings. */
  head: number;
  /** "<Department> (continued)" and the column headings, on the next page. */
  contHead: number;
  rows: PlanRow[];
  /** Interpretation notes and the department's "Verified by" line. */
  tail: number;
}

export interface PlanGeometry {
  /** Where the first page's results start (below the patient blocks). */
  firstTop: number;
  /** Where a continuation page's results start (below its running header). */
  top: number;
  bottom: number;
}

export interface Chunk {
  block: number;
  continued: boolean;
  from: number;
  to: number;
  tail: boolean;
  y: number;
}

export interface PagePlan {
  chunks: Chunk[];
  /** Where the closing block starts, on the last page. */
  closingY: number | null;
}

const sum = (rows: PlanRow[], from: number, to: number) => rows.slice(from, to).reduce((h, r) => h + r.height, 0);

export function planPages(blocks: PlanBlock[], closing: number, g: PlanGeometry): PagePlan[] {
  const pages: PagePlan[] = [{ chunks: [], closingY: null }];
  let y = g.firstTop;
  const page = () => pages[pages.length - 1]!;
  const newPage = () => {
    pages.push({ chunks: [], closingY: null });
    y = g.top;
  };
  const capacity = g.bottom - g.top;

  blocks.forEach((b, index) => {
    const n = b.rows.length;
    const last = index === blocks.length - 1;
    const tail = b.tail + (last ? closing : 0);
    const whole = b.head + sum(b.rows, 0, n) + tail;
    if (y + whole > g.bottom && page().chunks.length > 0 && whole <= capacity) newPage();
    if (y + whole <= g.bottom) {
      page().chunks.push({ block: index, continued: false, from: 0, to: n, tail: true, y });
      y += whole;
      if (last) page().closingY = y - closing;
      return;
    }
    // The department is longer than what is left here and than a page: it splits.
    let i = 0;
    let continued = false;
    for (;;) {
      const head = continued ? b.contHead : b.head;
      const room = g.bottom - y - head;
      let k = 0;
      let used = 0;
      while (i + k < n && used + b.rows[i + k]!.height <= room) used += b.rows[i + k++]!.height;
      if (i + k === n && used + tail <= room) {
        page().chunks.push({ block: index, continued, from: i, to: n, tail: true, y });
        y += head + used + tail;
        if (last) page().closingY = y - closing;
        return;
      }
      // Leave at least two rows for the next page, where the tail (and the closing) go with them.
      if (n - (i + k) < 2) k = Math.max(0, n - i - 2);
      while (k > 0 && b.rows[i + k - 1]!.keepWithNext) k--;
      // A continuation page with nothing on it yet: moving on would not give more room.
      const fresh = page().chunks.length === 0 && pages.length > 1;
      if (k < Math.min(2, n - i)) {
        if (!fresh) {
          newPage();
          continue;
        }
        // Nothing placed on this page yet and still no room: place what fits (at least one row).
        k = Math.max(1, Math.min(k || 1, n - i));
        if (k < n - i && n - (i + k) < 2 && n - i >= 3) k = n - i - 2;
      }
      page().chunks.push({ block: index, continued, from: i, to: i + k, tail: false, y });
      i += k;
      continued = true;
      newPage();
    }
  });
  if (!blocks.length) page().closingY = y;
  return pages;
}
