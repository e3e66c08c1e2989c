import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll } from 'vitest';
import { makeLab, tempDir, type TestLab } from '../helpers.js';
import { systemActor, type Actor } from '../../src/core/context.js';
import { entityNamed, runExport, runImport, type ImportResult } from '../../src/core/transfer/service.js';
import { describeRowError } from '../../src/core/transfer/errors.js';

/**
 * An entity's file imported and exported in-process as `lims import` / `lims export` do (a CLI
 * job), for the API tests of one entity's rules: `importFile` writes the text to its own folder
 * under `dir`, `exportRows` answers the CSV's rows as objects by header.
 */
export function transferHelpers(lab: () => TestLab, actor: () => Actor, dir: () => string) {
  let fileCount = 0;
  async function importFile(entity: string, name: string, content: string, update = false): Promise<ImportResult> {
    fileCount += 1;
    const sub = join(dir(), String(fileCount));
    mkdirSync(sub);
    const path = join(sub, name);
    writeFileSync(path, content);
    return runImport(lab().database.db, actor(), {
      entity: entityNamed(entity)!,
      path,
      dryRun: false,
      update,
      origin: 'cli',
      reportPath: (id) => join(sub, `report-${id}.csv`),
    });
  }
  async function exportRows(entity: string, where: Record<string, unknown> = {}): Promise<Record<string, string>[]> {
    const out = new PassThrough();
    const chunks: Buffer[] = [];
    out.on('data', (c: Buffer) => chunks.push(c));
    await runExport(lab().database.db, actor(), {
      entity: entityNamed(entity)!,
      format: 'csv',
      query: { where },
      out,
      fileName: null,
      origin: 'cli',
    });
    return parse(Buffer.concat(chunks).toString('utf8'), { columns: true, bom: true }) as Record<string, string>[];
  }
  const messages = (r: ImportResult) => r.first_errors.map((e) => describeRowError(e, r.unit));
  return { importFile, exportRows, messages };
}

/**
 * A lab of its own for a file of transfer tests (made before the first test, closed after the
 * last), acting as the system, with its helpers: `t.lab` once the tests run.
 */
export function transferLab(dirPrefix: string) {
  const state: { lab?: TestLab; actor?: Actor; dir?: string } = {};
  beforeAll(async () => {
    state.lab = await makeLab();
    state.actor = systemActor(state.lab.organizationId);
    state.dir = tempDir(dirPrefix);
  });
  afterAll(() => state.lab?.close());
  return {
    get lab(): TestLab {
      return state.lab!;
    },
    ...transferHelpers(
      () => state.lab!,
      () => state.actor!,
      () => state.dir!,
    ),
  };
}
