import { brotliCompressSync, brotliDecompressSync } from 'node:zlib';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLab, tempDir, type TestLab } from '../helpers.js';
import { buildApp } from '../../src/server/app.js';
import { openDatabase } from '../../src/core/db/connection.js';
import { PERMISSIONS } from '../../src/shared/roles.js';
import type { RegisteredRoute } from '../../src/server/types.js';
import { raw } from './support.js';

let lab: TestLab;
beforeAll(async () => {
  lab = await makeLab();
});
afterAll(() => lab.close());

const ACCESS_LEVELS = new Set<string>([...PERMISSIONS, 'authenticated', 'public']);

/** A concrete URL for a route pattern: every :param becomes 1, a trailing * becomes a path. */
function concrete(url: string): string {
  return url.replace(/:[A-Za-z_]+/g, '1').replace(/\*$/, 'x');
}

/** A declaration is one access level, or a non-empty list of permissions that are all required. */
function declared(access: RegisteredRoute['access']): boolean {
  if (access === undefined) return false;
  if (typeof access === 'string') return ACCESS_LEVELS.has(access);
  return access.length > 0 && access.every((p) => (PERMISSIONS as readonly string[]).includes(p));
}

function undeclared(routes: RegisteredRoute[]): string[] {
  return routes.filter((r) => !declared(r.access)).map((r) => `${r.method} ${r.url}`);
}

describe('every route declares who may call it', () => {
  it('lists the API routes it registered', () => {
    const urls = lab.app.routeList.map((r) => `${r.method} ${r.url}`);
    for (const known of ['POST /api/auth/login', 'GET /api/patients', 'POST /api/users', 'GET /api/audit']) {
      expect(urls).toContain(known);
    }
  });

  it('has no route without an access declaration (a permission, authenticated or public)', () => {
    expect(undeclared(lab.app.routeList)).toEqual([]);
  });

  it('refuses to register a route that declares no access: the server does not start', async () => {
    const database = openDatabase(join(tempDir(), 'lims.db'));
    const app = await buildApp({ database, logger: false });
    try {
      expect(() => app.get('/api/forgotten', async () => ({ secret: true }))).toThrow(
        'route GET /api/forgotten declares no access',
      );
    } finally {
      await app.close();
      await database.close();
    }
  });

  it('also holds when the server serves the built UI, and the UI files are really served', async () => {
    const ui = tempDir('lims-ui-');
    mkdirSync(join(ui, 'assets'));
    writeFileSync(join(ui, 'index.html'), '<!doctype html><title>lims</title>');
    writeFileSync(join(ui, 'assets', 'main-abc123.js'), 'console.log("lims")');
    const database = openDatabase(join(tempDir(), 'lims.db'));
    const app = await buildApp({ database, uiDir: ui, logger: false });
    try {
      await app.ready();
      expect(undeclared(app.routeList)).toEqual([]);

      const asset = await app.inject({ url: '/assets/main-abc123.js' });
      expect(asset.statusCode).toBe(200);
      expect(asset.body).toBe('console.log("lims")');
      expect(asset.headers['content-type']).toMatch(/javascript/);
      // Hashed names: kept for good, so later pages take their scripts from the browser's cache.
      expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      // The build's compressed copy goes to a browser that accepts it, the plain file to one that does not.
      writeFileSync(join(ui, 'assets', 'main-abc123.js.br'), brotliCompressSync('console.log("lims")'));
      const br = await app.inject({ url: '/assets/main-abc123.js', headers: { 'accept-encoding': 'gzip, br' } });
      expect(br.headers['content-encoding']).toBe('br');
      expect(br.headers['content-type']).toMatch(/javascript/);
      expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(brotliDecompressSync(br.rawPayload).toString()).toBe('console.log("lims")');
      const plain = await app.inject({ url: '/assets/main-abc123.js', headers: { 'accept-encoding': 'identity' } });
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.body).toBe('console.log("lims")');
      writeFileSync(join(ui, 'favicon.svg'), '<svg/>');
      expect((await app.inject({ url: '/favicon.svg' })).headers['cache-control']).toBe('public, max-age=3600');

      // A client-side route loads the app shell, which browsers must revalidate after an upgrade.
      const shell = await app.inject({ url: '/patients' });
      expect(shell.statusCode).toBe(200);
      expect(shell.body).toContain('<title>lims</title>');
      expect(shell.headers['cache-control']).toBe('no-cache');

      expect((await app.inject({ url: '/assets/missing.js' })).statusCode).toBe(404);
      expect((await app.inject({ url: '/api/no-such-thing' })).statusCode).toBe(404);
      const escape = await app.inject({ url: '/%2e%2e/%2e%2e/etc/passwd' });
      expect(escape.body).not.toContain('root:');
    } finally {
      await app.close();
      await database.close();
    }
  });
});

describe('without a session', () => {
  it('every non-public /api route answers 401, before looking at the body', async () => {
    const guarded = lab.app.routeList.filter((r) => r.url.startsWith('/api') && r.access !== 'public');
    expect(guarded.length).toBeGreaterThan(10);
    const answers: string[] = [];
    for (const r of guarded) {
      const method = r.method as 'GET' | 'POST' | 'PUT' | 'DELETE';
      const res = await raw(lab.app, {
        method,
        url: concrete(r.url),
        ...(method === 'GET' || method === 'DELETE' ? {} : { payload: {} }),
      });
      answers.push(`${r.method} ${r.url} -> ${res.statusCode}`);
    }
    expect(answers).toEqual(guarded.map((r) => `${r.method} ${r.url} -> 401`));
  });

  it('an unknown /api URL answers 404 in the error shape', async () => {
    const res = await raw(lab.app, { method: 'GET', url: '/api/no-such-route' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ statusCode: 404, error: 'Not Found' });
  });

  it('the health check is public', async () => {
    const res = await raw(lab.app, { method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'ok', setup_complete: true, database: { status: 'ok' } });
  });
});

describe('without the permission', () => {
  it('a role lacking the permission gets 403 before its body is validated', async () => {
    const receptionist = await lab.as('receptionist');
    const res = await receptionist.post('/api/users', {});
    expect(res.statusCode).toBe(403);
    expect(res.json<{ message: string }>().message).toContain('manage_users');
  });
});
