import { closeSync, mkdirSync, openSync, readSync, readdirSync, rmSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { randomBytes } from 'node:crypto';

/**
 * The planned rows of an import, kept on disk between its check pass and its store pass: the check
 * reads the whole file without the write lock, and the store then only writes. A file, not memory,
 * because a million planned patients would not fit the import's memory budget; v8's serializer
 * keeps the plans' values as they were (numbers, strings, nested lists, null) without a schema.
 * Each batch is one record: its byte length (4 bytes) and its serialized plans. The file holds
 * patient data, so it is the owner's only (0600) and lives in the data dir; it is removed when the
 * import ends, and one left by a killed import is removed by the next import of that data dir.
 */
export class PlanSpool {
  private readonly fd: number;
  private batches = 0;
  rows = 0;

  private constructor(readonly path: string) {
    this.fd = openSync(path, 'w+', 0o600);
  }

  static create(dir: string): PlanSpool {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    removeStaleSpools(dir);
    return new PlanSpool(join(dir, `import-${process.pid}-${randomBytes(6).toString('hex')}${SUFFIX}`));
  }

  append(plans: readonly unknown[]): void {
    if (!plans.length) return;
    const body = serialize(plans);
    const head = Buffer.alloc(4);
    head.writeUInt32LE(body.length);
    writeSync(this.fd, head);
    writeSync(this.fd, body);
    this.batches += 1;
    this.rows += plans.length;
  }

  /** The batches in the order they were appended. */
  *read(): Generator<unknown[]> {
    let position = 0;
    const head = Buffer.alloc(4);
    for (let i = 0; i < this.batches; i++) {
      readFully(this.fd, head, position);
      const length = head.readUInt32LE(0);
      const body = Buffer.allocUnsafe(length);
      readFully(this.fd, body, position + 4);
      position += 4 + length;
      yield deserialize(body) as unknown[];
    }
  }

  remove(): void {
    try {
      closeSync(this.fd);
    } finally {
      rmSync(this.path, { force: true });
    }
  }
}

const SUFFIX = '.plans';
/** Longer than any import runs: a spool this old belongs to an import that was killed. */
const STALE_MS = 24 * 60 * 60 * 1000;

function readFully(fd: number, into: Buffer, position: number): void {
  for (let done = 0; done < into.length;) {
    const n = readSync(fd, into, done, into.length - done, position + done);
    if (n === 0) throw new Error('the import spool ended early');
    done += n;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Spools of a process that is gone (killed mid-import), or older than any import runs. */
function removeStaleSpools(dir: string): void {
  const cutoff = Date.now() - STALE_MS;
  for (const f of readdirSync(dir)) {
    const pid = /^import-(\d+)-[a-f0-9]+\.plans$/.exec(f)?.[1];
    if (!pid) continue;
    try {
      if (!alive(Number(pid)) || statSync(join(dir, f)).mtimeMs < cutoff) rmSync(join(dir, f), { force: true });
    } catch {
      // Gone meanwhile.
    }
  }
}
