import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { limsCommand } from './invocation.js';

const made: string[] = [];
afterAll(() => made.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** A folder laid out as npx leaves it: `<cache>/_npx/<hash>/package.json` naming the spec it ran. */
function npxTree(spec: string): { script: string; packageRoot: string } {
  const cache = mkdtempSync(join(tmpdir(), 'lims-npx-'));
  made.push(cache);
  const tree = join(cache, '_npx', '0123456789abcdef');
  mkdirSync(join(tree, 'node_modules', 'lims', 'bin'), { recursive: true });
  writeFileSync(join(tree, 'package.json'), JSON.stringify({ _npx: { packages: [spec] } }));
  return { script: join(tree, 'node_modules', '.bin', 'lims'), packageRoot: join(tree, 'node_modules', 'lims') };
}

/** An installed package's folder (no sources in it), as npm install -g leaves it. */
function installed(): string {
  const prefix = mkdtempSync(join(tmpdir(), 'lims-prefix-'));
  made.push(prefix);
  const root = join(prefix, 'lib', 'node_modules', 'lims');
  mkdirSync(join(root, 'dist'), { recursive: true });
  return root;
}

describe('the command setup prints to start lims again', () => {
  it('after npx of a tarball: npx with that tarball as typed, which finds the copy npx installed', () => {
    const t = npxTree('./lims-0.1.0.tgz');
    expect(limsCommand({ ...t, env: { npm_command: 'exec', INIT_CWD: '/home/clinic' }, cwd: '/home/clinic' })).toBe(
      'npx --yes ./lims-0.1.0.tgz',
    );
    // Run from another folder than npx was (rare): the path made absolute, so the line still works.
    expect(limsCommand({ ...t, env: { npm_command: 'exec', INIT_CWD: '/home/clinic' }, cwd: '/elsewhere' })).toBe(
      'npx --yes /home/clinic/lims-0.1.0.tgz',
    );
  });

  it('after npx of a registry name: npx with the name as typed', () => {
    const t = npxTree('lims@0.1.0');
    expect(limsCommand({ ...t, env: { npm_command: 'exec' }, cwd: '/home/clinic' })).toBe('npx --yes lims@0.1.0');
  });

  it('after npx of an absolute path with a space: quoted for the shell', () => {
    const t = npxTree('/home/clinic/my downloads/lims-0.1.0.tgz');
    expect(limsCommand({ ...t, env: {}, cwd: '/' })).toBe("npx --yes '/home/clinic/my downloads/lims-0.1.0.tgz'");
  });

  it('after a global install: lims, which is on the PATH', () => {
    const root = installed();
    expect(
      limsCommand({ script: join(root, '..', '..', '..', 'bin', 'lims'), packageRoot: root, env: {}, cwd: '/' }),
    ).toBe('lims');
  });

  it('after npx lims in a project that depends on lims: npx lims', () => {
    const root = installed();
    expect(
      limsCommand({ script: join(root, 'bin', 'lims.js'), packageRoot: root, env: { npm_command: 'exec' }, cwd: '/' }),
    ).toBe('npx lims');
  });

  it('in a checkout: node and the launcher, as a relative path from the checkout folder itself', () => {
    const root = mkdtempSync(join(tmpdir(), 'lims-checkout-'));
    made.push(root);
    mkdirSync(join(root, 'src', 'cli'), { recursive: true });
    const script = join(root, 'bin', 'lims.js');
    expect(limsCommand({ script, packageRoot: root, env: {}, cwd: root })).toBe('node bin/lims.js');
    expect(limsCommand({ script, packageRoot: root, env: {}, cwd: '/' })).toBe(`node ${script}`);
  });
});
