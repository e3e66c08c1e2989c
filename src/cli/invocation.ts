import { existsSync, readFileSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { shellQuote } from './output.js';

/** What decides how lims was started: the script path Node ran, npm's variables, where lims lives. */
export interface Invocation {
  /** process.argv[1]: the launcher (or npm's link to it) that Node was asked to run. */
  script: string;
  env: NodeJS.ProcessEnv;
  /** The folder holding lims's package.json. */
  packageRoot: string;
  cwd: string;
}

/** `<cache>/_npx/<hash>/node_modules/...`: where `npx <spec>` installs a package it runs. */
const NPX_TREE = /^(.*[\\/]_npx[\\/][0-9a-f]+)[\\/]node_modules[\\/]/;

/**
 * The words that start lims again the way this process was started, for the commands `lims setup`
 * prints: after `npx <spec> setup` the `lims` command is on no PATH, so `npx <spec>` (the same spec,
 * which finds npx's copy again); in a checkout `node bin/lims.js`; after `npm install -g`, `lims`.
 */
export function limsCommand(inv: Invocation = currentInvocation()): string {
  const npxTree = NPX_TREE.exec(inv.script)?.[1];
  // --yes: for a package file npx asks "Ok to proceed?" each time, even when it finds its copy.
  if (npxTree) return `npx --yes ${shellQuote(npxSpec(npxTree, inv))}`;
  if (isCheckout(inv.packageRoot)) {
    const inRoot = relative(inv.cwd, inv.packageRoot) === '';
    return `node ${shellQuote(inRoot ? 'bin/lims.js' : join(inv.packageRoot, 'bin', 'lims.js'))}`;
  }
  // `npx lims` inside a project that has lims as a dependency: npm finds it there again.
  if (inv.env.npm_command === 'exec') return 'npx lims';
  return 'lims';
}

/**
 * The package spec npx was given (npx records it in the package.json of its install folder), as
 * it was typed: npx keys its install folder on that text, so the same words find the copy it has
 * already installed (a tarball path written another way would install, and compile, it again). A
 * relative path is relative to the folder npx ran in; only when this process runs elsewhere is it
 * made absolute. `lims` when the record cannot be read.
 */
function npxSpec(tree: string, inv: Invocation): string {
  let spec: string | undefined;
  try {
    const pkg = JSON.parse(readFileSync(join(tree, 'package.json'), 'utf8')) as { _npx?: { packages?: string[] } };
    spec = pkg._npx?.packages?.[0];
  } catch {
    spec = undefined;
  }
  if (!spec) return 'lims';
  const ranIn = inv.env.INIT_CWD;
  if (ranIn && resolve(ranIn) !== resolve(inv.cwd) && /^\.\.?([\\/]|$)|\.(tgz|tar\.gz|tar)$/.test(spec)) {
    const path = spec.replace(/^file:/, '');
    if (!isAbsolute(path)) return resolve(ranIn, path);
  }
  return spec;
}

/** A git checkout or an unpacked source tree (the sources are not in the package a clinic installs). */
function isCheckout(root: string): boolean {
  return existsSync(join(root, 'src', 'cli')) || existsSync(join(root, '.git'));
}

/** The folder of lims's package.json: two levels above src/cli, three above dist/src/cli. */
function packageRootOf(here: string): string {
  const up2 = resolve(here, '..', '..');
  return up2.endsWith(`${sep}dist`) ? dirname(up2) : up2;
}

function currentInvocation(): Invocation {
  return {
    script: process.argv[1] ?? '',
    env: process.env,
    packageRoot: packageRootOf(dirname(fileURLToPath(import.meta.url))),
    cwd: process.cwd(),
  };
}
