import { dirname } from 'node:path';

/** An export or a print stopped on purpose (Ctrl+C, a stop signal) before it was written to the end. */
export class OutputStopped extends Error {
  constructor(signal: NodeJS.Signals) {
    super(signal === 'SIGINT' ? 'stopped by Ctrl+C' : `stopped by ${signal}`);
    this.name = 'OutputStopped';
  }
}

/**
 * Why a file or standard output could not be written, in words a person acts on ("the folder
 * /srv/x does not exist", "the disk is full"), never Node's "ENOENT: no such file or directory,
 * open '/srv/x/a.csv.partial'". The path is the one the person gave.
 */
export function outputFailureReason(err: unknown, path?: string): string {
  return writeFailure(err, path) ?? (err instanceof Error ? err.message : String(err));
}

/** The reason when the error is one of writing (or stopping); null for any other failure. */
export function writeFailure(err: unknown, path?: string): string | null {
  if (err instanceof OutputStopped) return err.message;
  const code = (err as NodeJS.ErrnoException | null)?.code;
  switch (code) {
    case 'ENOENT':
      return path ? `the folder ${dirname(path)} does not exist` : 'a folder on the way does not exist';
    case 'ENOTDIR':
      return path ? `${dirname(path)} is not a folder` : 'a part of the path is not a folder';
    case 'EISDIR':
      return 'it is a folder; give a file name';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'ENOSPC':
      return 'the disk is full';
    case 'EDQUOT':
      return 'the disk quota is used up';
    case 'EROFS':
      return 'the disk is read-only';
    case 'EPIPE':
    case 'ERR_STREAM_DESTROYED':
      return 'the program reading the output stopped';
    case 'EIO':
      return 'the disk reported an input/output error';
    default:
      return null;
  }
}
