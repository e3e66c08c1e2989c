import { createReadStream, createWriteStream, mkdirSync, renameSync, rmSync, type WriteStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { dirname } from 'node:path';
import { once } from 'node:events';
import { csvHeader, csvRows } from '../export/csv.js';
import { LIMITS } from './limits.js';
import { describeGroupRows, errorKind, GROUP_ROWS, type ErrorGroup, type RowError } from './errors.js';

/** Kinds of problem told apart; a file with more (free text quoted in every message) lumps the rest. */
const MAX_KINDS = 500;

/**
 * The row errors of an import: the first LIMITS.keptErrors kept in memory (the terminal shows the
 * first LIMITS.shownErrors, the job keeps them for the screens), every one written to a CSV report
 * file as it is found (so a file of a million bad rows costs no memory). The file is made on the
 * first error only, readable by its owner only (error messages quote the file's values).
 * The errors are also counted by kind (errorKind): the report file starts with one line per kind
 * ("2,056 rows, e.g. rows 2, 3, 5: ..."), and the terminal and the screens show those first.
 */
export class ErrorReport {
  readonly kept: RowError[] = [];
  count = 0;
  private readonly kinds = new Map<string, ErrorGroup>();
  private out: WriteStream | null = null;
  private failed: Error | null = null;

  /** How the file's rows are called in the summary lines ("row"; JSON files: "record"). */
  unit: 'row' | 'record' = 'row';

  constructor(private readonly path: string | null) {}

  async add(e: RowError): Promise<void> {
    this.count += 1;
    if (this.kept.length < LIMITS.keptErrors) this.kept.push(e);
    this.countKind(e);
    if (!this.path || this.failed) return;
    if (!this.out) {
      try {
        mkdirSync(dirname(this.path), { recursive: true, mode: 0o700 });
        this.out = createWriteStream(this.path, { mode: 0o600 });
        this.out.on('error', (err) => (this.failed = err));
        this.out.write(csvHeader(['row', 'column', 'problem']));
      } catch (err) {
        this.failed = err as Error;
        return;
      }
    }
    // Waits while the file catches up, so a file of bad rows never piles up in memory.
    if (!this.out.write(csvRows([[e.row, e.column ?? '', e.message]]))) {
      try {
        await once(this.out, 'drain');
      } catch (err) {
        this.failed = err as Error;
      }
    }
  }

  private countKind(e: RowError): void {
    const kind = this.kinds.size < MAX_KINDS ? errorKind(e) : 'other';
    const g = this.kinds.get(kind);
    if (!g) {
      const message = kind === 'other' ? 'other problems (see the rows below)' : e.message;
      this.kinds.set(kind, { column: kind === 'other' ? null : e.column, count: 1, rows: [e.row], message });
      return;
    }
    g.count += 1;
    if (g.rows.length < GROUP_ROWS && g.rows.at(-1) !== e.row) g.rows.push(e.row);
  }

  /** The problems by kind, the most frequent first. */
  groups(): ErrorGroup[] {
    return [...this.kinds.values()].sort((a, b) => b.count - a.count || a.rows[0]! - b.rows[0]!);
  }

  /** Where the full report is, once closed; null when there were no errors or it could not be written. */
  async close(): Promise<string | null> {
    const out = this.out;
    if (!out) return null;
    await new Promise<void>((resolve) => out.end(resolve));
    if (this.failed || !this.path) return null;
    try {
      await this.putSummaryFirst(this.path);
    } catch {
      // The rows alone are still the whole report.
    }
    return this.path;
  }

  /** Rewrites the report with one line per kind of problem before the rows (row column empty). */
  private async putSummaryFirst(path: string): Promise<void> {
    const summary = this.groups().map((g) => ['', g.column ?? '', describeGroupRows(g, this.unit)]);
    const next = `${path}.next`;
    const out = createWriteStream(next, { mode: 0o600 });
    try {
      out.write(csvHeader(['row', 'column', 'problem']));
      out.write(csvRows(summary));
      // The rows as written, after their header line.
      let skipped = false;
      const rows = createReadStream(path);
      await pipeline(
        rows,
        async function* (source: AsyncIterable<Buffer>) {
          for await (const chunk of source) {
            if (skipped) {
              yield chunk;
              continue;
            }
            const end = chunk.indexOf(10);
            if (end === -1) continue;
            skipped = true;
            yield chunk.subarray(end + 1);
          }
        },
        out,
      );
      renameSync(next, path);
    } finally {
      rmSync(next, { force: true });
    }
  }
}
