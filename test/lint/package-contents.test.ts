import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

/**
 * What a clinic installs: `npm pack` of this checkout (the build `npm test` just made, packed
 * without running the build again). Only the built app, its docs, README, changelog and licence;
 * no source maps, no benchmarks (they import dev-only packages), no TypeScript sources or tests.
 */
const root = new URL('../../', import.meta.url);

interface PackFile {
  path: string;
  size: number;
}
interface Pack {
  size: number;
  unpackedSize: number;
  files: PackFile[];
}

function pack(): Pack {
  const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
    cwd: root,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  return (JSON.parse(out) as Pack[])[0]!;
}

describe('the package tarball', () => {
  const p = pack();
  const paths = p.files.map((f) => f.path);

  it('holds the launcher, the built server and UI, docs, README, changelog and licence', () => {
    for (const needed of [
      'bin/lims.js',
      'dist/src/cli/index.js',
      'dist/src/server/app.js',
      'dist/public/index.html',
      'data/starter-catalogue.json',
      'README.md',
      'LICENSE',
      'CHANGELOG.md',
      'package.json',
    ])
      expect(paths, needed).toContain(needed);
    // Every doc the README links to is in the package.
    const readme = readFileSync(new URL('README.md', root), 'utf8');
    const linked = [...readme.matchAll(/\]\((docs\/[^)#]+)/g)].map((m) => m[1]!);
    expect(linked.length).toBeGreaterThan(0);
    for (const doc of linked) expect(paths, doc).toContain(doc);
  });

  it('leaves out source maps, benchmarks, sources and tests', () => {
    const unwanted = paths.filter(
      (f) =>
        f.endsWith('.map') ||
        f.startsWith('dist/bench/') ||
        f.startsWith('src/') ||
        f.startsWith('test/') ||
        f.startsWith('bench/') ||
        /\.test\.js$/.test(f),
    );
    expect(unwanted).toEqual([]);
  });

  it('stays small: under 4 MB packed and 9 MB unpacked', () => {
    expect(p.size).toBeLessThan(4 * 1024 * 1024);
    expect(p.unpackedSize).toBeLessThan(9 * 1024 * 1024);
  });

  it('builds when it is packed, not when it is installed', () => {
    const scripts = (
      JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as { scripts: Record<string, string> }
    ).scripts;
    for (const installHook of ['preinstall', 'install', 'postinstall', 'prepare'])
      expect(scripts[installHook]).toBeUndefined();
    expect(scripts.prepack).toMatch(/build/);
  });
});

describe('the dependencies a clinic installs', () => {
  it('all run on the oldest Node lims supports, so an install prints no engine warning', () => {
    const pkg = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as { engines: { node: string } };
    const oldest = semver.minVersion(pkg.engines.node)!.version;
    const lock = JSON.parse(readFileSync(new URL('package-lock.json', root), 'utf8')) as {
      packages: Record<string, { dev?: boolean; optional?: boolean; engines?: { node?: string } | string[] }>;
    };
    const refusing = Object.entries(lock.packages)
      .filter(([path, p]) => path !== '' && !p.dev && p.engines && !Array.isArray(p.engines) && p.engines.node)
      .filter(([, p]) => !semver.satisfies(oldest, (p.engines as { node: string }).node))
      .map(
        ([path, p]) => `${path.replace(/^.*node_modules\//, '')} wants node ${(p.engines as { node: string }).node}`,
      );
    expect(refusing).toEqual([]);
  });
});
