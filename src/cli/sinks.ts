import { closeSync, fsyncSync, openSync, readlinkSync, renameSync, rmSync, statSync, write as fsWrite } from 'node:fs';
import { Writable } from 'node:stream';
import { OutputStopped, outputFailureReason } from '../core/transfer/output-errors.js';
import { CliError } from './errors.js';

type Out = NodeJS.WritableStream & { isTTY?: boolean };

/** The one line a failed write prints: `cannot write /srv/x.csv: the folder /srv does not exist`. */
export function cannotWrite(target: string, err: unknown): CliError {
  const path = target.startsWith('standard output') ? undefined : target;
  return new CliError(`cannot write ${target}: ${outputFailureReason(err, path)}`, 1, { cause: err });
}

/** "standard output (/dev/full)" when it is redirected to a file, so the line names where it went. */
export function stdoutName(stdout: Out): string {
  if (stdout !== process.stdout) return 'standard output';
  try {
    const path = readlinkSync('/proc/self/fd/1');
    if (path.startsWith('/')) return `standard output (${path})`;
  } catch {
    // Not Linux, or no /proc: the plain name says enough.
  }
  return 'standard output';
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/**
 * A file written as `<file>.partial` and put in place only by commit(): a reader never sees half a
 * file, and a failure (a missing folder, a folder given as the file, a full disk, Ctrl+C) leaves
 * the old file as it was and no .partial behind (discard()). The file is opened when the stream is
 * made, so a path that cannot be written fails the first write, not after the whole export.
 */
export class FileSink extends Writable {
  readonly partial: string;
  private fd: number | null = null;

  constructor(readonly file: string) {
    super({ highWaterMark: 1024 * 1024 });
    this.partial = `${file}.partial`;
    // The writer reads the failure from .errored at its next write and reports it once; an
    // 'error' event nobody listens to would end the process instead.
    this.on('error', () => {});
  }

  override _construct(callback: (err?: Error | null) => void): void {
    try {
      if (isFolder(this.file)) throw Object.assign(new Error(`${this.file} is a folder`), { code: 'EISDIR' });
      this.fd = openSync(this.partial, 'w', 0o600);
      callback();
    } catch (err) {
      callback(err as Error);
    }
  }

  override _write(chunk: Buffer, _enc: BufferEncoding, callback: (err?: Error | null) => void): void {
    const fd = this.fd!;
    const rest = (from: number): void => {
      fsWrite(fd, chunk, from, chunk.length - from, null, (err, written) => {
        if (err) return callback(err);
        if (from + written < chunk.length) return rest(from + written);
        callback();
      });
    };
    rest(0);
  }

  override _final(callback: (err?: Error | null) => void): void {
    try {
      // On disk before it replaces the old file: a power cut leaves the old file or the whole new one.
      fsyncSync(this.fd!);
      closeSync(this.fd!);
      this.fd = null;
      callback();
    } catch (err) {
      callback(err as Error);
    }
  }

  override _destroy(err: Error | null, callback: (err?: Error | null) => void): void {
    if (this.fd !== null) {
      try {
        closeSync(this.fd);
      } catch {
        // Already failing: the first error is the one reported.
      }
      this.fd = null;
    }
    callback(err);
  }

  /** Puts the finished file in place of the target and returns its size. */
  commit(): number {
    const size = statSync(this.partial).size;
    renameSync(this.partial, this.file);
    return size;
  }

  discard(): void {
    rmSync(this.partial, { force: true });
  }
}

/**
 * Standard output as a stream whose failures are errors of the stream: stdout redirected to a
 * file throws from write() itself when the disk is full (`> /dev/full`), and a closed pipe emits
 * 'error'; without this either ends the process with a stack trace.
 */
export function stdoutSink(stdout: Out): Writable {
  // Node reports a failed write of stdout both to the write's callback (as "stream destroyed") and
  // as an 'error' of stdout a moment later; the stream's own error is the one that says why.
  const why = (err: Error | null | undefined) => (stdout as Partial<Writable>).errored ?? err ?? null;
  const sink = new Writable({
    highWaterMark: 1024 * 1024,
    write(chunk: Buffer, _enc, callback) {
      let called = false;
      const done = (err?: Error | null) => {
        if (called) return;
        called = true;
        callback(err ? why(err) : null);
      };
      try {
        stdout.write(chunk, (err?: Error | null) => done(err));
      } catch (err) {
        done(err as Error);
      }
    },
  });
  sink.on('error', () => {}); // read from .errored, as for FileSink
  // Kept for the rest of the command: the 'error' can come after the export has already stopped.
  stdout.on('error', (err: Error) => sink.destroy(err));
  return sink;
}

/** Writes all of data to standard output, or throws the one-line error naming why it could not. */
export async function writeStdout(stdout: Out, data: Buffer): Promise<void> {
  const sink = stdoutSink(stdout);
  await new Promise<void>((resolve, reject) => {
    sink.once('error', reject);
    sink.end(data, (err?: Error | null) => (err ? reject(err) : resolve()));
  }).catch((err: unknown) => {
    throw cannotWrite(stdoutName(stdout), err);
  });
}

/**
 * Runs work with Ctrl+C (and a stop signal) turned into a failure of `sink`: the work stops at its
 * next write, its job is recorded as failed, and the caller removes what it started to write.
 * Without this the process dies where it stands and leaves a .partial and a running job behind.
 */
export async function stoppable<T>(sink: Writable, work: () => Promise<T>): Promise<T> {
  let stops = 0;
  const stop = (signal: NodeJS.Signals) => {
    // A second Ctrl+C while the first is being honoured ends the process at once, as usual.
    if ((stops += 1) > 1) process.exit(130);
    sink.destroy(new OutputStopped(signal));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  try {
    return await work();
  } finally {
    process.removeListener('SIGINT', stop);
    process.removeListener('SIGTERM', stop);
  }
}
