import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { DatabaseUrlError, databaseTarget, describeTarget, parseDatabaseUrl, redactDatabaseUrl } from './url.js';

const noPgpass = { PGPASSFILE: '/nonexistent/pgpass' };

describe('databaseTarget', () => {
  it('uses the flag, else $LIMS_DATABASE_URL, else the data dir file', () => {
    expect(databaseTarget(undefined, {}, '/d/lims.db')).toEqual({ kind: 'sqlite', file: '/d/lims.db' });
    expect(databaseTarget(undefined, { LIMS_DATABASE_URL: 'sqlite:/x/y.db' }, '/d/lims.db')).toEqual({
      kind: 'sqlite',
      file: '/x/y.db',
    });
    const pg = databaseTarget('postgres://lab@db.clinic/lims', { LIMS_DATABASE_URL: 'sqlite:/x', ...noPgpass }, '/d');
    expect(pg).toMatchObject({ kind: 'postgres', host: 'db.clinic', port: 5432, database: 'lims', user: 'lab' });
  });
});

describe('parseDatabaseUrl', () => {
  it('reads every part of a PostgreSQL URL, with escapes and sslmode', () => {
    expect(parseDatabaseUrl('postgresql://li%40ms:p%3Ass@[::1]:6543/lab%20one?sslmode=require', noPgpass)).toEqual({
      kind: 'postgres',
      host: '::1',
      port: 6543,
      database: 'lab one',
      user: 'li@ms',
      password: 'p:ss',
      sslmode: 'require',
    });
  });

  it('takes the password from $PGPASSWORD, then the pgpass file (with * and escapes)', () => {
    expect(parseDatabaseUrl('postgres://lab@db/lims', { PGPASSWORD: 'from-env', ...noPgpass })).toMatchObject({
      password: 'from-env',
    });
    const dir = mkdtempSync(join(tmpdir(), 'pgpass-'));
    const file = join(dir, 'pgpass');
    writeFileSync(file, '# comment\nother:5432:lims:lab:nope\n*:5432:lims:lab:se\\:cret:x\n');
    expect(parseDatabaseUrl('postgres://lab@db/lims', { PGPASSFILE: file })).toMatchObject({ password: 'se:cret:x' });
    expect(parseDatabaseUrl('postgres://someone@db/lims', { PGPASSFILE: file })).toMatchObject({ password: undefined });
  });

  it('names what is wrong, and never the password', () => {
    const bad = (url: string) => {
      try {
        parseDatabaseUrl(url, noPgpass);
      } catch (e) {
        expect(e).toBeInstanceOf(DatabaseUrlError);
        return (e as Error).message;
      }
      throw new Error('accepted');
    };
    expect(bad('mysql://u:topsecret@h/db')).toMatch(/"mysql:" databases are not supported/);
    expect(bad('postgres://u:topsecret@h')).toMatch(/names no database/);
    expect(bad('postgres://u:topsecret@h/db?sslmode=maybe')).toMatch(/sslmode=maybe is not one of/);
    expect(bad('not a url with topsecret')).toMatch(/is not a database URL/);
    expect(bad('sqlite:')).toMatch(/needs a file path/);
    for (const url of ['mysql://u:topsecret@h/db', 'postgres://u:topsecret@h', 'postgres://u:topsecret@h/db?sslmode=x'])
      expect(bad(url)).not.toMatch(/topsecret/);
  });

  it('sqlite:PATH is a file, relative paths from here', () => {
    expect(parseDatabaseUrl('sqlite:data/lims.db')).toEqual({ kind: 'sqlite', file: resolve('data/lims.db') });
    expect(parseDatabaseUrl('sqlite:///var/lims.db')).toEqual({ kind: 'sqlite', file: '/var/lims.db' });
  });
});

describe('redactDatabaseUrl', () => {
  it('hides the password and nothing else', () => {
    expect(redactDatabaseUrl('postgres://lab:s3cr%40t@db:5432/lims?sslmode=require')).toBe(
      'postgres://lab:***@db:5432/lims?sslmode=require',
    );
    expect(redactDatabaseUrl('postgres://lab@db/lims')).toBe('postgres://lab@db/lims');
    expect(redactDatabaseUrl('postgres://lab:p@ss@db/lims')).not.toMatch(/p@ss/);
    expect(describeTarget(parseDatabaseUrl('postgres://lab:pw@db/lims', noPgpass))).toBe('PostgreSQL lab@db:5432/lims');
  });
});
