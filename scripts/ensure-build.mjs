/**
 * `npm start` in a checkout: builds first when the build is missing or older than its sources, so
 * `npm install && npm start` on a fresh clone works although installing no longer builds (a
 * package a clinic installs must not list a build as an install script awaiting approval).
 *
 *   node scripts/ensure-build.mjs          build when needed, then exit 0 (or the build's code)
 *   node scripts/ensure-build.mjs --stamp  record that the build just finished (the build's last step)
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const stamp = join(root, 'dist', '.built');
/** What the build reads: a change to any of these makes the build stale. */
const INPUTS = ['src', 'data', 'package.json', 'tsconfig.json', 'tsconfig.server.json', 'vite.config.ts', 'scripts'];

/** The newest modification time under `path` (a file or a folder walked whole), 0 when it is absent. */
function newest(path) {
  if (!existsSync(path)) return 0;
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let max = st.mtimeMs;
  for (const name of readdirSync(path)) max = Math.max(max, newest(join(path, name)));
  return max;
}

if (process.argv.includes('--stamp')) {
  writeFileSync(stamp, `${new Date().toISOString()}\n`);
  process.exit(0);
}

const builtAt = existsSync(stamp) ? statSync(stamp).mtimeMs : 0;
const sourcesAt = Math.max(...INPUTS.map((p) => newest(join(root, p))));
if (builtAt >= sourcesAt) process.exit(0);
process.stderr.write(
  builtAt ? 'lims: sources changed since the last build; building\n' : 'lims: building (first start)\n',
);
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const run = spawnSync(npm, ['run', 'build'], { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
process.exit(run.status ?? 1);
