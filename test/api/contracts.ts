import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RouteContract } from '../../src/shared/api/contract.js';

const API_DIR = fileURLToPath(new URL('../../src/shared/api/', import.meta.url));

/** Every contract exported by src/shared/api/<feature>.ts (objects of defineRoute results). */
export async function allContracts(): Promise<{ name: string; contract: RouteContract }[]> {
  const out: { name: string; contract: RouteContract }[] = [];
  for (const file of readdirSync(API_DIR).filter((f) => f.endsWith('.ts') && f !== 'contract.ts')) {
    const mod = (await import(join(API_DIR, file))) as Record<string, unknown>;
    for (const [exportName, group] of Object.entries(mod)) {
      if (typeof group !== 'object' || group === null) continue;
      for (const [key, c] of Object.entries(group)) {
        if (c && typeof c === 'object' && 'method' in c && 'path' in c && 'response' in c) {
          out.push({ name: `${file}:${exportName}.${key}`, contract: c as RouteContract });
        }
      }
    }
  }
  return out;
}
