/**
 * Tests charged twice on one bill: a test also inside a package on the same bill, a profile whose
 * tests a package already holds, or the same item added twice. OP Bill warns as items are added and
 * the server refuses such a bill (409 DUPLICATE_ITEM) unless the biller confirms it.
 */
export interface OverlapLine {
  item_type: 'test' | 'profile' | 'package';
  item_id: number;
  name: string;
  /** Every test the line stands for (a package's profiles expanded), each once. */
  tests: readonly { id: number; name: string }[];
}

export interface Overlap {
  /** The narrower line (the one charged again)... */
  line: number;
  /** ...and the broader line that already holds its tests. */
  within: number;
  /** The tests on both lines, by name. */
  tests: string[];
  message: string;
}

const KIND = { test: 'test', profile: 'profile', package: 'package' } as const;

/** Each pair of lines sharing tests, once: the narrower named as inside the broader (the later one if alike). */
export function billOverlaps(lines: readonly OverlapLine[]): Overlap[] {
  const out: Overlap[] = [];
  for (let i = 0; i < lines.length; i++) {
    for (let j = i + 1; j < lines.length; j++) {
      const a = lines[i]!;
      const b = lines[j]!;
      const inB = new Set(b.tests.map((t) => t.id));
      const shared = a.tests.filter((t) => inB.has(t.id)).map((t) => t.name);
      if (!shared.length) continue;
      const [line, within] = a.tests.length < b.tests.length ? [i, j] : [j, i];
      out.push({ line, within, tests: shared, message: overlapMessage(lines[line]!, lines[within]!, shared) });
    }
  }
  return out;
}

function overlapMessage(l: OverlapLine, w: OverlapLine, shared: string[]): string {
  if (l.item_type === w.item_type && l.item_id === w.item_id) return `${l.name} is on the bill twice`;
  if (shared.length === l.tests.length) return `${l.name} is already in the ${KIND[w.item_type]} ${w.name}`;
  return `${shared.join(', ')} of ${l.name} ${shared.length > 1 ? 'are' : 'is'} already in the ${KIND[w.item_type]} ${w.name}`;
}
