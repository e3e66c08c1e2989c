#!/usr/bin/env node
// Thin launcher: everything lives in the compiled CLI.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const entry = new URL('../dist/src/cli/index.js', import.meta.url);
if (!existsSync(fileURLToPath(entry))) {
  process.stderr.write('lims: the package is not built yet; run "npm run build" first\n');
  process.exit(1);
}
await import(entry.href);
