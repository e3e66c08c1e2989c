/**
 * `npm run build`: the server (tsc) and the UI (vite) are built side by side, then the build is
 * stamped (ensure-build.mjs --stamp). Neither reads what the other writes (dist/src, dist/public),
 * and tsc keeps one core busy for most of its run, so on two cores the pair takes about as long as
 * tsc alone instead of the sum of both. Each one's output is printed whole when it ends, so the two
 * do not interleave; the build fails with the code of the first part that failed.
 */
import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import process from 'node:process';

const root = fileURLToPath(new URL('..', import.meta.url));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** Runs `npm run <script>` with its output held; resolves with its exit code once printed. */
function part(script) {
  return new Promise((done) => {
    const out = [];
    let ended = false;
    const end = (code) => {
      if (ended) return;
      ended = true;
      process.stdout.write(Buffer.concat(out));
      done(code);
    };
    const child = spawn(npm, ['run', script], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
      shell: process.platform === 'win32',
    });
    child.stdout.on('data', (d) => out.push(d));
    child.stderr.on('data', (d) => out.push(d));
    child.on('error', (err) => {
      out.push(Buffer.from(`${err.message}\n`));
      end(1);
    });
    child.on('close', (code) => end(code ?? 1));
  });
}

const codes = await Promise.all([part('build:server'), part('build:ui')]);
const failed = codes.find((code) => code !== 0);
if (failed !== undefined) process.exit(failed);
const stamped = spawnSync(process.execPath, [fileURLToPath(new URL('ensure-build.mjs', import.meta.url)), '--stamp'], {
  stdio: 'inherit',
});
process.exit(stamped.status ?? 1);
