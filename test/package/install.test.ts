import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../net.js';

/**
 * The install a clinic makes, from the package file: `npm pack` of this checkout (the build that
 * `npm test` just made), installed globally into an empty prefix with a fresh HOME and npm cache,
 * from the npm registry. Then the installed `lims` sets up a lab, serves it, and the admin signs in.
 *
 * The SQLite driver is installed the way a clinic with a prebuilt binary gets it: its install script
 * (approved by --allow-scripts, so that approval is what this proves) runs prebuild-install, which
 * finds the binary in the npm cache's `_prebuilds` folder, unpacks it and loads it. The test puts
 * this checkout's compiled better_sqlite3.node there first, under the name prebuild-install itself
 * computes. Compiling it again would cost a minute or two of CPU and prove nothing `npm ci` of this
 * checkout (which compiles it when no prebuilt binary can be fetched) has not proved already. Should
 * the registry give a newer better-sqlite3 than this checkout's, the cached binary does not match
 * its name and the driver compiles with this machine's node headers (npm_config_nodedir), as before.
 *
 * It runs once, on the SQLite project (test/package is in no other project).
 */
const root = fileURLToPath(new URL('../../', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'lims-install-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const ADMIN = { email: 'owner@clinic.in', password: 'Clinic-pass-2026' };

/**
 * The environment of a new user: none of npm's variables from the `npm test` that runs this file
 * (they name this checkout's cache and config), none of lims's, HOME an empty folder.
 */
function cleanEnv(home: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^(npm_|lims_)/i.test(k)) env[k] = v;
  return {
    ...env,
    HOME: home,
    USERPROFILE: home,
    npm_config_cache: join(home, 'npm-cache'),
    npm_config_update_notifier: 'false',
    npm_config_fund: 'false',
    npm_config_audit: 'false',
    ...nodeHeaders(),
  };
}

/** The headers of the running Node (Debian's nodejs puts them in /usr/include/node), for node-gyp. */
function nodeHeaders(): Record<string, string> {
  const prefix = resolve(dirname(process.execPath), '..');
  return existsSync(join(prefix, 'include', 'node', 'node.h')) ? { npm_config_nodedir: prefix } : {};
}

/** This checkout's better-sqlite3: its version, and the folder its compiled binary is in. */
const SQLITE_DIR = join(root, 'node_modules', 'better-sqlite3');
const SQLITE_VERSION = (JSON.parse(readFileSync(join(SQLITE_DIR, 'package.json'), 'utf8')) as { version: string })
  .version;

/**
 * Where prebuild-install, run by the install script with `env`, looks for a downloaded prebuilt
 * binary: asked of prebuild-install's own functions (its settings, the download address, the cache
 * file named after the address's hash) in a process with the installing user's environment.
 */
async function cachedPrebuildPath(env: NodeJS.ProcessEnv): Promise<string> {
  const script = [
    "const util = require('prebuild-install/util');",
    // As prebuild-install's bin.js makes them: its settings, with the package beside them.
    "const pkg = require('better-sqlite3/package.json');",
    "const opts = Object.assign({}, require('prebuild-install/rc')(pkg), { pkg });",
    'process.stdout.write(util.cachedPrebuild(util.getDownloadUrl(opts)));',
  ].join('\n');
  const asked = await run(process.execPath, ['-e', script], env, root, 30_000);
  expect(asked.code, asked.out).toBe(0);
  return asked.out.trim();
}

/** A prebuilt-binary tarball (the layout prebuild-install unpacks) of this checkout's compiled driver, at `path`. */
async function packPrebuild(path: string, env: NodeJS.ProcessEnv): Promise<void> {
  expect(existsSync(join(SQLITE_DIR, 'build', 'Release', 'better_sqlite3.node'))).toBe(true);
  mkdirSync(dirname(path), { recursive: true });
  const packed = await run(
    'tar',
    ['-czf', path, '-C', SQLITE_DIR, 'build/Release/better_sqlite3.node'],
    env,
    root,
    60_000,
  );
  expect(packed.code, packed.out).toBe(0);
}

interface Ran {
  code: number | null;
  out: string;
}

function run(cmd: string, args: string[], env: NodeJS.ProcessEnv, cwd: string, timeout: number): Promise<Ran> {
  return new Promise((done) => {
    execFile(cmd, args, { env, cwd, timeout, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === 'number' ? err.code : null) : 0;
      done({ code, out: `${stdout}${stderr}` });
    });
  });
}

/** Starts the installed `lims serve` and resolves with its address once it says it is running. */
function serve(cmd: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(cmd, args, { env, cwd: work, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  return new Promise((done, fail) => {
    const timer = setTimeout(() => fail(new Error(`lims serve did not start: ${out}`)), 30_000);
    const read = (d: Buffer): void => {
      out += d.toString();
      const m = /lims is running at (\S+)[^]*Press Ctrl\+C to stop\./.exec(out);
      if (m) {
        clearTimeout(timer);
        done({ child, url: m[1]! });
      }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.once('exit', (code) => {
      clearTimeout(timer);
      fail(new Error(`lims serve exited with ${code}: ${out}`));
    });
  });
}

describe('the package installed from its tarball', () => {
  it(
    'installs without warnings, sets up a lab, serves it and lets the admin sign in',
    { timeout: 420_000 },
    async () => {
      const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
      const home = join(work, 'home');
      const prefix = join(work, 'prefix');
      const dataDir = join(work, 'data');
      for (const d of [home, prefix]) rmSync(d, { recursive: true, force: true });
      const env = cleanEnv(home);

      const packed = await run(npm, ['pack', '--ignore-scripts', '--pack-destination', work, root], env, work, 120_000);
      expect(packed.code, packed.out).toBe(0);
      const tarball = readdirSync(work).find((f) => /^lims-.*\.tgz$/.test(f));
      expect(tarball, packed.out).toBeDefined();
      await packPrebuild(await cachedPrebuildPath(env), env);

      // The command docs/install.md gives a clinic (the two native modules approved, nothing else).
      const installed = await run(
        npm,
        [
          'install',
          '--global',
          '--prefix',
          prefix,
          '--allow-scripts=better-sqlite3,@serialport/bindings-cpp',
          join(work, tarball!),
        ],
        env,
        work,
        360_000,
      );
      expect(installed.code, installed.out).toBe(0);
      expect(installed.out).not.toContain('EBADENGINE');
      const warnings = installed.out.split('\n').filter((l) => /^npm warn/i.test(l) && !/deprecated/i.test(l));
      expect(warnings).toEqual([]);
      // The driver's install script took the cached binary: nothing was compiled (node-gyp leaves its
      // Makefile). With a newer better-sqlite3 from the registry it compiles instead (see the top).
      const globalModules =
        process.platform === 'win32' ? join(prefix, 'node_modules') : join(prefix, 'lib', 'node_modules');
      const sqlite = join(globalModules, 'lims', 'node_modules', 'better-sqlite3');
      const installedVersion = (JSON.parse(readFileSync(join(sqlite, 'package.json'), 'utf8')) as { version: string })
        .version;
      if (installedVersion === SQLITE_VERSION) expect(existsSync(join(sqlite, 'build', 'Makefile'))).toBe(false);
      expect(existsSync(join(sqlite, 'build', 'Release', 'better_sqlite3.node'))).toBe(true);

      const lims = process.platform === 'win32' ? join(prefix, 'lims.cmd') : join(prefix, 'bin', 'lims');
      const setup = await run(
        lims,
        [
          'setup',
          '--yes',
          '--lab-name',
          'Lakeview Clinic',
          '--admin-email',
          ADMIN.email,
          '--admin-password',
          ADMIN.password,
          '--data-dir',
          dataDir,
        ],
        env,
        work,
        60_000,
      );
      expect(setup.code, setup.out).toBe(0);
      // A global install puts `lims` on the PATH: the next step printed is that command.
      const next = /1\. Start the server: +(.+)\n/.exec(setup.out)?.[1];
      expect(next).toBe(`lims serve --data-dir ${dataDir}`);

      const port = await freePort();
      const [, ...nextArgs] = next!.split(' ');
      const { child, url } = await serve(lims, [...nextArgs, '--port', String(port)], env);
      const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
      try {
        const page = await fetch(`${url}/`);
        expect(page.status).toBe(200);
        expect(page.headers.get('content-type')).toMatch(/^text\/html/);
        expect(await page.text()).toContain('<div id="root">');

        const login = await fetch(`${url}/api/auth/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(ADMIN),
        });
        expect(login.status).toBe(200);
        const cookie = login.headers.get('set-cookie')?.split(';')[0];
        expect(cookie).toBeTruthy();
        const me = await fetch(`${url}/api/auth/me`, { headers: { cookie: cookie! } });
        expect(me.status).toBe(200);
        expect(((await me.json()) as { user: { email: string } }).user.email).toBe(ADMIN.email);
      } finally {
        child.kill('SIGTERM');
      }
      expect(await exited).toBe(0);
    },
  );
});
