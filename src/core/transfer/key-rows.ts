/**
 * The natural keys of an import's file, each with the row it first appeared on (duplicates in a file
 * are refused naming both rows; entities ask whether a code they reference comes with the same
 * file). Kept outside the JavaScript heap: the keys' UTF-8 bytes one after another in one buffer,
 * and an open-addressing table of typed arrays over them (about 40 MB for a million patient codes).
 * A Map of the same keys was a million small heap objects alive for the whole import, and V8 lets
 * the heap grow to a multiple of what stays alive between collections: the 1,000,000-row patients
 * import peaked at 648 MB with the Map and at 334 MB with this (target < 500 MB).
 */

/** 32-bit FNV-1a over the key's UTF-16 code units. */
function hashOf(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  return h | 0;
}

export class KeyRows {
  /** Per key, in insertion order: its hash, the row it is on, where its bytes start in `bytes`. */
  private hashes: Int32Array;
  private rows: Int32Array;
  private starts: Float64Array;
  /** Open addressing, linear probing: the key's index + 1, 0 for an empty slot; at most half full. */
  private slots: Int32Array;
  private bytes: Buffer;
  private used = 0;
  size = 0;

  constructor(capacity = 1024) {
    const n = Math.max(16, 2 ** Math.ceil(Math.log2(capacity)));
    this.hashes = new Int32Array(n);
    this.rows = new Int32Array(n);
    this.starts = new Float64Array(n + 1);
    this.slots = new Int32Array(n * 2);
    this.bytes = Buffer.allocUnsafe(n * 16);
  }

  /** The row `key` is on, or undefined. */
  get(key: string): number | undefined {
    const i = this.find(key, hashOf(key));
    return i < 0 ? undefined : this.rows[i];
  }

  has(key: string): boolean {
    return this.find(key, hashOf(key)) >= 0;
  }

  /** Records `key` on `row` unless it is there already; answers the row it was first on, or undefined when new. */
  add(key: string, row: number): number | undefined {
    const h = hashOf(key);
    const found = this.find(key, h);
    if (found >= 0) return this.rows[found];
    if (this.size === this.hashes.length) this.grow();
    const i = this.size;
    const length = Buffer.byteLength(key);
    if (this.used + length > this.bytes.length) {
      const more = Buffer.allocUnsafe(Math.max(this.bytes.length * 2, this.used + length));
      this.bytes.copy(more, 0, 0, this.used);
      this.bytes = more;
    }
    this.starts[i] = this.used;
    this.used += this.bytes.write(key, this.used, 'utf8');
    this.starts[i + 1] = this.used;
    this.hashes[i] = h;
    this.rows[i] = row;
    this.size += 1;
    this.place(i, h);
    return undefined;
  }

  private find(key: string, h: number): number {
    const mask = this.slots.length - 1;
    for (let s = h & mask; ; s = (s + 1) & mask) {
      const at = this.slots[s]!;
      if (at === 0) return -1;
      const i = at - 1;
      // Bytes are compared only when the whole 32-bit hash matches: a duplicate, or a rare collision.
      if (this.hashes[i] === h && this.bytes.toString('utf8', this.starts[i], this.starts[i + 1]) === key) return i;
    }
  }

  private place(i: number, h: number): void {
    const mask = this.slots.length - 1;
    let s = h & mask;
    while (this.slots[s] !== 0) s = (s + 1) & mask;
    this.slots[s] = i + 1;
  }

  private grow(): void {
    const n = this.hashes.length * 2;
    const hashes = new Int32Array(n);
    hashes.set(this.hashes);
    const rows = new Int32Array(n);
    rows.set(this.rows);
    const starts = new Float64Array(n + 1);
    starts.set(this.starts);
    this.hashes = hashes;
    this.rows = rows;
    this.starts = starts;
    this.slots = new Int32Array(n * 2);
    for (let i = 0; i < this.size; i++) this.place(i, this.hashes[i]!);
  }
}
