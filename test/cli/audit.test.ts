import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, lims, openDbFile, setUpLab, tempDir } from './helpers.js';

afterAll(cleanup);

function auditRows(dir: string): { id: number; new_values: string | null }[] {
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

describe('lims audit verify', () => {
  it('passes on a fresh lab, counting every row', async () => {
    const dir = tempDir();
    await setUpLab(dir);
    await lims([
      '--data-dir',
      dir,
      'user',
      'add',
      '--email',
      'a@lab.in',
      '--first-name',
      'A',
      '--last-name',
      'B',
      '--role',
      'user',
      '--password',
      'a-pass-1234',
    ]);
    const rows = auditRows(dir);
    expect(rows.length).toBeGreaterThanOrEqual(3);
    const r = await lims(['--data-dir', dir, 'audit', 'verify']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`audit trail intact: ${rows.length} rows checked\n`);
  });

  it('finds a row altered behind the append-only trigger and names it', async () => {
    const dir = tempDir();
    await setUpLab(dir);
    await lims([
      '--data-dir',
      dir,
      'user',
      'add',
      '--email',
      'b@lab.in',
      '--first-name',
      'B',
      '--last-name',
      'C',
      '--role',
      'receptionist',
      '--password',
      'b-pass-1234',
    ]);
    const target = auditRows(dir).find((row) => row.new_values?.includes('receptionist'));
    expect(target).toBeDefined();

    const db = openDbFile(dir, { readonly: false });
    // The database refuses UPDATE on audit rows; an attacker with file access drops the trigger first.
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
