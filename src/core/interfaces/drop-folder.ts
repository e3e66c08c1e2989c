import { mkdirSync, realpathSync } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { ValidationError } from '../errors.js';

/**
 * Watched folders live under one root the server operator chose (`lims serve --drop-root`, default
 * `<data dir>/drop`), one folder per lab: `<root>/lab-<id>`. A lab's connection may name only a
 * folder inside its own, so a lab manager can neither read nor move the server's files, nor take
 * another lab's results. The listener checks again before every sweep, after symlinks.
 */
export function labDropFolder(root: string, organizationId: number): string {
  return join(resolve(root), `lab-${organizationId}`);
}

function inside(parent: string, child: string): boolean {
  const rel = relative(parent, child);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

/**
 * The absolute folder a connection's `path` names (relative to the lab's folder, or absolute
 * inside it); stored as such, so the screen shows where the machine's files go.
 */
export function connectionFolder(root: string | null | undefined, organizationId: number, path: string): string {
  if (!root)
    throw ValidationError.field(
      'path',
      'This server has no drop folder for watched folders (the operator sets it with lims serve --drop-root)',
    );
  const lab = labDropFolder(root, organizationId);
  const folder = resolve(lab, path);
  if (!inside(lab, folder))
    throw ValidationError.field('path', `The folder must be inside this lab's drop folder ${lab}`);
  return folder;
}

/**
 * The folder to sweep, made if missing and checked after symlinks: an error (the listener shows it
 * on the connection and touches nothing) when it resolves outside the lab's folder.
 */
export function sweepableFolder(root: string | null | undefined, organizationId: number, path: string): string {
  if (!root) throw new Error('this server has no drop folder (lims serve --drop-root)');
  const lab = labDropFolder(root, organizationId);
  mkdirSync(lab, { recursive: true, mode: 0o750 });
  const folder = resolve(lab, path);
  if (!inside(lab, folder)) throw new Error(`the folder is outside this lab's drop folder ${lab}`);
  mkdirSync(folder, { recursive: true, mode: 0o750 });
  const real = realpathSync(folder);
  if (!inside(realpathSync(lab), real))
    throw new Error(`the folder leads outside this lab's drop folder ${lab} (a link)`);
  return real;
}
