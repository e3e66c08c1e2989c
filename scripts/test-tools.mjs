/**
 * The first step of `npm test`: the programs the tests run outside Node are here, or are installed,
 * or the run stops at once with one line that says what to install (never a run of skipped tests).
 *
 *   - a Chromium browser: $CHROMIUM_PATH, else chromium, chromium-browser, google-chrome,
 *     google-chrome-stable on PATH (the browser tests launch the same one: find-browser.mjs);
 *   - pdftoppm and pdftotext (Debian's poppler-utils) for the PDF tests.
 *
 * What is missing is installed from Debian only when this runs as root and apt-get exists (a CI
 * container or a fresh server); anyone else is told what to install. Exit 0 when all are there.
 */
import { spawnSync } from 'node:child_process';
import process from 'node:process';
import {
  findBrowser,
  findProgram,
  NO_BROWSER,
  NO_BROWSER_NOR_POPPLER,
  NO_POPPLER,
  POPPLER_PROGRAMS,
} from './find-browser.mjs';

function fail(line) {
  process.stderr.write(`${line}\n`);
  process.exit(1);
}

/** The Debian packages still needed: chromium and/or poppler-utils. */
function missing() {
  let browser;
  try {
    browser = findBrowser();
  } catch (err) {
    // $CHROMIUM_PATH names something that is not a browser: the setting is wrong, installing won't fix it.
    fail(err.message);
  }
  const packages = [];
  if (!browser) packages.push('chromium');
  if (POPPLER_PROGRAMS.some((name) => !findProgram(name))) packages.push('poppler-utils');
  return packages;
}

function run(command, args, env = process.env) {
  const result = spawnSync(command, args, { stdio: 'inherit', env });
  return result.status === 0;
}

let packages = missing();
const aptGet = findProgram('apt-get');
if (packages.length > 0 && process.getuid?.() === 0 && aptGet) {
  process.stdout.write(`installing ${packages.join(' ')} from Debian for the browser tests\n`);
  if (run(aptGet, ['update', '-qq'])) {
    run(aptGet, ['install', '-y', '-qq', ...packages], { ...process.env, DEBIAN_FRONTEND: 'noninteractive' });
  }
  packages = missing();
}

if (packages.length === 2) fail(NO_BROWSER_NOR_POPPLER);
if (packages.includes('chromium')) fail(NO_BROWSER);
if (packages.includes('poppler-utils')) fail(NO_POPPLER);
