import { readFileSync } from 'node:fs';

let cached: string | null = null;

/** The package's version, read from package.json (two levels above dist/src/core or src/core). */
export function packageVersion(): string {
  if (cached) return cached;
  for (const rel of ['../../package.json', '../../../package.json']) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(rel, import.meta.url), 'utf8')) as {
        name?: string;
        version?: string;
      };
      if (pkg.name === 'lims' && pkg.version) return (cached = pkg.version);
    } catch {
      // try the next location
    }
  }
  return (cached = '0.0.0');
}
