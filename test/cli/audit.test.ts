import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemActor } from '../../src/core/context.js';
import { openDatabase } from '../../src/core/db/connection.js';
import { primaryOrganization } from '../../src/core/settings/organization.js';
import { createUser } from '../../src/core/users/service.js';
import { cleanup, dbFileOf, lims, openDbFile, setUpLab, tempDir } from './helpers.js';

let dir: string;

function auditRows(): { id: number; new_values: string | null }[] {
  const db = openDbFile(dir);
  try {
    return db.prepare('SELECT id, new_values FROM audit_log ORDER BY id').all() as {
      id: number;
      new_values: string | null;
    }[];
  } finally {
    db.close();
  }
}

beforeAll(async () => {
  dir = tempDir();
  await setUpLab(dir);
  // One more audited write after setup, so the chain has links to check between writes of different kinds.
  const database = openDatabase(dbFileOf(dir));
  try {
    const org = await primaryOrganization(database.db);
    await createUser(database.db, systemActor(org!.id, 'test'), {
      email: 'b@lab.in',
      first_name: 'B',
      last_name: 'C',
      role: 'receptionist',
      password: 'b-pass-1234',
    });
  } finally {
    await database.close();
  }
});
afterAll(cleanup);

// The two tests share one lab and run in order: verify the intact trail first, then tamper with it.
describe('lims audit verify', () => {
  it('passes on a fresh lab, counting every row', async () => {
    const rows = auditRows();
    expect(rows.length).toBeGreaterThanOrEqual(3);
    const r = await lims(['--data-dir', dir, 'audit', 'verify']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`audit trail intact: ${rows.length} rows checked\n`);
  });

  it('finds a row altered behind the append-only trigger and names it', async () => {
    const target = auditRows().find((row) => row.new_values?.includes('receptionist'));
    expect(target).toBeDefined();

    const db = openDbFile(dir, { readonly: false });
    // The database refuses UPDATE on audit rows; someone with access to the file drops the trigger first.
    expect(() => db.prepare('UPDATE audit_log SET new_values = ? WHERE id = ?').run('{}', target!.id)).toThrow(
      /append-only/,
    );
    db.exec('DROP TRIGGER audit_log_no_update');
    db.prepare('UPDATE audit_log SET new_values = ? WHERE id = ?').run(
      target!.new_values!.replace('receptionist', 'admin'),
      target!.id,
    );
    db.close();

    const r = await lims(['--data-dir', dir, 'audit', 'verify']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      `lims: audit trail broken at row ${target!.id}: its contents do not match its hash (the row was altered)\n`,
    );
  });

  it('says to run setup first where there is no database', async () => {
    const r = await lims(['--data-dir', tempDir(), 'audit', 'verify']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('this data dir has no lab yet; run lims setup first');
  });
});
