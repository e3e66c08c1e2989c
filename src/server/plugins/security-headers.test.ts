import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { helmetHeaders, securityHeaders } from './security-headers.js';

describe('security headers', () => {
  it("are helmet's headers for the options, worked out once", () => {
    const h = helmetHeaders({
      contentSecurityPolicy: { directives: { defaultSrc: ["'self'"], upgradeInsecureRequests: null } },
      strictTransportSecurity: false,
    });
    expect(h['content-security-policy']).toContain("default-src 'self'");
    expect(h['content-security-policy']).not.toContain('upgrade-insecure-requests');
    expect(h['x-frame-options']).toBe('SAMEORIGIN');
    expect(h['x-content-type-options']).toBe('nosniff');
    expect(h).not.toHaveProperty('strict-transport-security');
  });

  it('refuse CSP directives that would have to be computed per request', () => {
    expect(() =>
      helmetHeaders({ contentSecurityPolicy: { directives: { scriptSrc: ["'self'", () => "'nonce-abc'"] } } }),
    ).toThrow(/per request/);
  });

  it('are sent on every response, errors and not-found included', async () => {
    const app = Fastify();
    await app.register(securityHeaders, { strictTransportSecurity: false });
    app.get('/ok', async () => ({ ok: true }));
    app.get('/fails', async () => {
      throw new Error('boom');
    });
    for (const url of ['/ok', '/fails', '/missing']) {
      const res = await app.inject({ url });
      expect(res.headers['x-frame-options'], url).toBe('SAMEORIGIN');
      expect(res.headers['content-security-policy'], url).toContain("default-src 'self'");
    }
    await app.close();
  });
});

describe('API answers carry the headers that matter for them', () => {
  it('JSON from /api has nosniff, CORP, referrer and frame headers but no document-only CSP', async () => {
    const app = Fastify();
    await app.register(securityHeaders, { contentSecurityPolicy: { directives: { defaultSrc: ["'self'"] } } });
    app.get('/api/x', async () => ({ ok: true }));
    app.get('/page', async () => 'html');
    const api = await app.inject({ url: '/api/x' });
    expect(api.headers['x-content-type-options']).toBe('nosniff');
    expect(api.headers['cross-origin-resource-policy']).toBe('same-origin');
    expect(api.headers['content-security-policy']).toBeUndefined();
    const page = await app.inject({ url: '/page' });
    expect(page.headers['content-security-policy']).toContain("default-src 'self'");
    await app.close();
  });
});
