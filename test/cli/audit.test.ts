import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemActor } from '../../src/core/context.js';
import { primaryOrganization } from '../../src/core/settings/organization.js';
import { createUser } from '../../src/core/users/service.js';
import { dropAuditGuard, exec, rows } from '../db.js';
import { cleanup, limsInProcess, openLabDatabase, setUpLab, tempDir } from './helpers.js';

let dir: string;

async function auditRows(): Promise<{ id: number; new_values: string | null }[]> {
  const database = await openLabDatabase(dir);
  try {
    return await rows<{ id: number; new_values: string | null }>(
      database,
      'SELECT id, new_values FROM audit_log ORDER BY id',
    );
  } finally {
    await database.close();
  }
}

beforeAll(async () => {
  dir = tempDir();
  await setUpLab(dir);
  // One more audited write after setup, so the chain has links to check between writes of different kinds.
  const database = await openLabDatabase(dir);
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
    const stored = await auditRows();
    expect(stored.length).toBeGreaterThanOrEqual(3);
    const r = await limsInProcess(['--data-dir', dir, 'audit', 'verify']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`audit trail intact: ${stored.length} rows checked\n`);
  });

  it('finds a row altered behind the append-only trigger and names it', async () => {
    const target = (await auditRows()).find((row) => row.new_values?.includes('receptionist'));
    expect(target).toBeDefined();

    const database = await openLabDatabase(dir);
    try {
      // The database refuses UPDATE on audit rows; someone with access to it drops the trigger first.
      await expect(
        exec(database, 'UPDATE audit_log SET new_values = ? WHERE id = ?', '{}', target!.id),
      ).rejects.toThrow(/append-only/);
      await dropAuditGuard(database, 'update');
      await exec(
        database,
        'UPDATE audit_log SET new_values = ? WHERE id = ?',
        target!.new_values!.replace('receptionist', 'admin'),
        target!.id,
      );
    } finally {
      await database.close();
    }

    const r = await limsInProcess(['--data-dir', dir, 'audit', 'verify']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      `lims: audit trail broken at row ${target!.id}: its contents do not match its hash (the row was altered)\n`,
    );
  });

  it('says to run setup first where there is no database', async () => {
    const r = await limsInProcess(['--data-dir', tempDir(), 'audit', 'verify']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('this data dir has no lab yet; run lims setup first');
  });
});
