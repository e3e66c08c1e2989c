import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import type { Plugin } from 'vite';

/**
 * The browser build's copy of the route contracts (src/shared/api/*.ts) without their zod schemas.
 *
 * The UI calls every route through its contract (src/ui/lib/api.ts), but reads only its method, path
 * and flags: the schemas are for the server (validation, the response writer) and for TypeScript.
 * Imported as they are, the contracts the app shell uses (session, setup, notifications) brought all
 * of zod and a dozen schema files into the first JavaScript a browser loads. In `vite build` each
 * contract module is evaluated once (bundled by esbuild, imported in Node) and replaced by its values
 * as plain JSON, every zod schema left out. Types are unchanged: `tsc` still reads the real files.
 *
 * A module that exports anything this cannot write as JSON (a function, a class) is left as it is,
 * and the build says so; the size check after the build (scripts/ui-size.mjs) then shows the cost.
 */
export function contractsWithoutSchemas(root: string): Plugin {
  const apiDir = join(root, 'src/shared/api/');
  const cacheDir = join(root, 'node_modules/.cache/lims-contracts');
  let count = 0;
  return {
    name: 'lims-contracts-without-schemas',
    apply: 'build',
    enforce: 'pre',
    buildStart() {
      rmSync(cacheDir, { recursive: true, force: true });
      mkdirSync(cacheDir, { recursive: true });
    },
    async load(id) {
      if (!id.startsWith(apiDir) || !id.endsWith('.ts') || id.endsWith('/contract.ts')) return null;
      const bundled = await build({
        entryPoints: [id],
        bundle: true,
        format: 'esm',
        platform: 'node',
        packages: 'external',
        write: false,
        logLevel: 'silent',
      });
      const file = join(cacheDir, `${++count}.mjs`);
      writeFileSync(file, bundled.outputFiles[0]!.text);
      const mod = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
      const lines: string[] = [];
      for (const [name, value] of Object.entries(mod)) {
        const json = plainJson(value);
        if (json === undefined) {
          this.warn(`${id}: the export ${name} is not plain data, so the module keeps its zod schemas`);
          return null;
        }
        lines.push(`export const ${name} = ${json};`);
      }
      return lines.join('\n');
    },
  };
}

const isZod = (v: unknown): boolean =>
  typeof v === 'object' && v !== null && typeof (v as { safeParse?: unknown }).safeParse === 'function';

/** JSON of a contract tree with every zod schema left out; undefined when a value is not data. */
function plainJson(value: unknown): string | undefined {
  let ok = true;
  const text = JSON.stringify(value, (_key, v: unknown) => {
    if (isZod(v)) return undefined;
    if (typeof v === 'function' || typeof v === 'symbol' || typeof v === 'bigint') ok = false;
    return v;
  });
  return ok ? text : undefined;
}
