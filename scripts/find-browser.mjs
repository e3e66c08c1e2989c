/**
 * Where the test suite's outside programs are: the Chromium the browser tests drive, and poppler's
 * pdftoppm and pdftotext that render and read the PDFs. One lookup for `npm test`'s check
 * (scripts/test-tools.mjs) and for the tests themselves (test/e2e/harness.ts and the PDF tests), so
 * both use the same browser. Plain Node, no dependencies; types in find-browser.d.mts.
 */
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';
import process from 'node:process';

/** Looked for on PATH in this order when $CHROMIUM_PATH is not set. */
export const BROWSER_NAMES = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable'];

/** The programs of Debian's poppler-utils that the tests run. */
export const POPPLER_PROGRAMS = ['pdftoppm', 'pdftotext'];

export const NO_BROWSER =
  "npm test needs a Chromium browser for its browser tests: install Debian's chromium (apt-get install chromium) or set CHROMIUM_PATH to a Chrome/Chromium binary";

export const NO_POPPLER =
  "npm test needs pdftoppm and pdftotext for its PDF tests: install Debian's poppler-utils (apt-get install poppler-utils)";

export const NO_BROWSER_NOR_POPPLER =
  "npm test needs a Chromium browser and pdftoppm/pdftotext for its tests: install Debian's chromium and poppler-utils (apt-get install chromium poppler-utils), or set CHROMIUM_PATH to a Chrome/Chromium binary and install poppler-utils";

function isExecutableFile(file) {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/** The absolute path of an executable `name` on $PATH (or `name` itself when it is a path), else null. */
export function findProgram(name, path = process.env.PATH ?? '') {
  if (name.includes('/')) return isExecutableFile(name) ? name : null;
  for (const dir of path.split(delimiter)) {
    if (!dir || !isAbsolute(dir)) continue;
    const file = join(dir, name);
    if (isExecutableFile(file)) return file;
  }
  return null;
}

/**
 * The browser for the browser tests: $CHROMIUM_PATH when set (an error when it is not an executable
 * file: a wrong setting is not quietly replaced by another browser), else the first of BROWSER_NAMES
 * on $PATH, else null.
 */
export function findBrowser(env = process.env) {
  const chosen = env.CHROMIUM_PATH;
  if (chosen) {
    if (!isExecutableFile(chosen)) {
      throw new Error(
        `CHROMIUM_PATH=${chosen} is not an executable file: set it to a Chrome/Chromium binary or unset it`,
      );
    }
    return chosen;
  }
  for (const name of BROWSER_NAMES) {
    const found = findProgram(name, env.PATH ?? '');
    if (found) return found;
  }
  return null;
}

/** findBrowser(), or an Error whose message is NO_BROWSER: for tests, which fail rather than skip. */
export function requireBrowser() {
  const found = findBrowser();
  if (!found) throw new Error(NO_BROWSER);
  return found;
}

/** findProgram() of one of POPPLER_PROGRAMS, or an Error whose message is NO_POPPLER. */
export function requirePoppler(name) {
  const found = findProgram(name);
  if (!found) throw new Error(NO_POPPLER);
  return found;
}
