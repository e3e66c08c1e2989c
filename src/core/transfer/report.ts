import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs';
import { dirname } from 'node:path';
import { once } from 'node:events';
import { csvHeader, csvRows } from '../export/csv.js';
import { LIMITS } from './limits.js';
import type { RowError } from './errors.js';

/**
 * The row errors of an import: the first LIMITS.keptErrors kept in memory (the terminal shows the
 * first LIMITS.shownErrors, the job keeps them for the screens), every one written to a CSV report
 * file as it is found (so a file of a million bad rows costs no memory). The file is made on the
 * first error only, readable by its owner only (error messages quote the file's values).
 */
export class ErrorReport {
  readonly kept: RowError[] = [];
  count = 0;
  private out: WriteStream | null = null;
  private failed: Error | null = null;

  constructor(private readonly path: string | null) {}

  async add(e: RowError): Promise<void> {
    this.count += 1;
    if (this.kept.length < LIMITS.keptErrors) this.kept.push(e);
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

  /** Where the full report is, once closed; null when there were no errors or it could not be written. */
  async close(): Promise<string | null> {
    const out = this.out;
    if (!out) return null;
    await new Promise<void>((resolve) => out.end(resolve));
    return this.failed ? null : this.path;
  }
}
