#!/usr/bin/env node
/**
 * The UI's initial JavaScript: what a browser loads before it can draw the first screen, i.e. the
 * entry script of dist/public/index.html and every module it imports statically (the chunks Vite
 * marks modulepreload), gzip-compressed as the server sends them. Screens and their heavy parts
 * (charts, forms, dialogs) are loaded later and are not counted.
 *
 *   node scripts/ui-size.mjs [dist/public]     prints the figure; exits 1 above the budget
 *
 * Run after every `vite build` (package.json build:ui) and by `npm run bench`. The budget keeps the first screen fast on a clinic PC.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';

export const INITIAL_JS_BUDGET_BYTES = 150 * 1024;

/** The entry chunk and its static imports, each with its raw and gzip size. */
export function initialJavaScript(dir) {
  const html = readFileSync(join(dir, 'index.html'), 'utf8');
  const urls = [...html.matchAll(/<(?:script[^>]*\bsrc|link[^>]*rel="modulepreload"[^>]*\bhref)="([^"]+\.js)"/g)].map(
    (m) => m[1],
  );
  const seen = new Set();
  const files = [];
  const visit = (url) => {
    const name = url.replace(/^\//, '');
    if (seen.has(name)) return;
    seen.add(name);
    const code = readFileSync(join(dir, name));
    files.push({ name, bytes: code.length, gzip: gzipSync(code, { level: 9 }).length });
    // Static imports between chunks: `import{a as b}from"./x.js"` or `import"./x.js"` (not import()).
    const text = code.toString('utf8');
    for (const m of text.matchAll(/(?:^|[;}\s])import\s*(?:[\w${},\s*]+from\s*)?["'](\.\/[^"']+\.js)["']/g)) {
      visit(join(name, '..', m[1]));
    }
  };
  urls.forEach(visit);
  return { files, gzip: files.reduce((a, f) => a + f.gzip, 0), bytes: files.reduce((a, f) => a + f.bytes, 0) };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const dir = resolve(process.argv[2] ?? 'dist/public');
  const { files, gzip } = initialJavaScript(dir);
  const kB = (n) => `${(n / 1024).toFixed(1)} kB`;
  for (const f of files) console.log(`  ${f.name}  ${kB(f.bytes)}  gzip ${kB(f.gzip)}`);
  const verdict = gzip <= INITIAL_JS_BUDGET_BYTES ? 'within' : 'OVER';
  console.log(`UI initial JavaScript: ${kB(gzip)} gzip (${verdict} the budget of ${kB(INITIAL_JS_BUDGET_BYTES)})`);
  if (gzip > INITIAL_JS_BUDGET_BYTES) process.exit(1);
}
