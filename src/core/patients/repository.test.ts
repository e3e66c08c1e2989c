import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type SqliteDatabase } from '../db/connection.js';
import { pagePatients } from './repository.js';

const opened: { database: SqliteDatabase; dir: string }[] = [];

afterEach(async () => {
  for (const { database, dir } of opened.splice(0)) {
    await database.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

const now = '2026-01-01T00:00:00.000Z';

function fresh(): SqliteDatabase {
  const dir = mkdtempSync(join(tmpdir(), 'lims-repo-'));
  const database = openDatabase(join(dir, 'lims.db'));
  opened.push({ database, dir });
  return database;
}

function addLab(d: SqliteDatabase, name: string): number {
  return Number(
    d.sqlite.prepare('INSERT INTO organizations (name, created_at, updated_at) VALUES (?, ?, ?)').run(name, now, now)
      .lastInsertRowid,
  );
}

/** Patients go in through the table itself, so the search-index and counter triggers run. */
function addPatients(d: SqliteDatabase, org: number, names: [string, string][]): void {
  const insert = d.sqlite.prepare(
    `INSERT INTO patients (organization_id, patient_code, first_name, last_name, date_of_birth, created_at, updated_at)
     VALUES (?, ?, ?, ?, '1990-01-01', ?, ?)`,
  );
  names.forEach(([first, last], i) =>
    insert.run(org, `PAT20260101${org}${String(i).padStart(4, '0')}`, first, last, now, now),
  );
}

const search = (d: SqliteDatabase, org: number, text: string) =>
  pagePatients(d.db, org, { search: text, page: 1, limit: 50 }).then((p) => ({
    total: p.total,
    names: p.rows.map((r) => `${r.first_name} ${r.last_name}`),
  }));

describe('patient search', () => {
  it('in a one-lab database finds the same patients, newest first, with the exact total', async () => {
    const d = fresh();
    const lab = addLab(d, 'City Lab');
    addPatients(d, lab, [
      ['Ramesh', 'Kumar'],
      ['Orla', 'Menon'],
      ['Priya', 'Raman'],
      ['Organa', 'Shah'],
    ]);
    expect(await search(d, lab, 'ram')).toEqual({ total: 2, names: ['Priya Raman', 'Ramesh Kumar'] });
    expect(await search(d, lab, 'ram kum')).toEqual({ total: 1, names: ['Ramesh Kumar'] });
    // "or"/"org" begin like the index's tenant word: still only names match, not every patient.
    expect(await search(d, lab, 'or')).toEqual({ total: 2, names: ['Organa Shah', 'Orla Menon'] });
    expect(await search(d, lab, 'org')).toEqual({ total: 1, names: ['Organa Shah'] });
  });

  it('with two labs never shows one lab the other lab’s patients', async () => {
    const d = fresh();
    const a = addLab(d, 'Lab A');
    const b = addLab(d, 'Lab B');
    addPatients(d, a, [['Ramesh', 'Kumar']]);
    addPatients(d, b, [
      ['Ramya', 'Iyer'],
      ['Orla', 'Nair'],
    ]);
    expect(await search(d, a, 'ram')).toEqual({ total: 1, names: ['Ramesh Kumar'] });
    expect(await search(d, b, 'ram')).toEqual({ total: 1, names: ['Ramya Iyer'] });
    expect(await search(d, a, 'or')).toEqual({ total: 0, names: [] });
    expect((await pagePatients(d.db, b, { page: 1, limit: 10 })).total).toBe(2);
  });
});
