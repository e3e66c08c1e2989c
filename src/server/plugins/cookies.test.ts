import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { cookiesPlugin } from './cookies.js';

async function app() {
  const a = Fastify({ logger: false });
  await a.register(cookiesPlugin);
  a.get('/echo', async (req) => ({ cookies: req.cookies }));
  a.get('/set', async (_req, reply) => {
    reply.setCookie('lims_session', 'first', { path: '/', httpOnly: true });
    reply.setCookie('other', 'x', { path: '/api/portal' });
    // A later value for the same cookie and path replaces the earlier one.
    reply.setCookie('lims_session', 'second', { path: '/', httpOnly: true, expires: new Date('2030-01-02T03:04:05Z') });
    return { ok: true };
  });
  a.get('/clear', async (_req, reply) => {
    reply.clearCookie('lims_session', { path: '/' });
    return { ok: true };
  });
  return a;
}

describe('cookies without per-request hooks', () => {
  it('parses the Cookie header on first use (decoding values) and gives an empty object without one', async () => {
    const a = await app();
    const withCookies = await a.inject({ url: '/echo', headers: { cookie: 'a=1; lims_session=tok%20en; b=' } });
    expect(withCookies.json()).toEqual({ cookies: { a: '1', lims_session: 'tok en', b: '' } });
    expect((await a.inject({ url: '/echo' })).json()).toEqual({ cookies: {} });
  });

  it('sets cookies SameSite=Lax by default, one header per cookie, the last value for a name and path winning', async () => {
    const res = await (await app()).inject({ url: '/set' });
    const headers = res.headers['set-cookie'] as string[];
    expect(headers).toEqual([
      'other=x; Path=/api/portal; SameSite=Lax',
      'lims_session=second; Path=/; Expires=Wed, 02 Jan 2030 03:04:05 GMT; HttpOnly; SameSite=Lax',
    ]);
  });

  it('clears a cookie with an expiry in the past', async () => {
    const res = await (await app()).inject({ url: '/clear' });
    expect(res.headers['set-cookie']).toBe(
      'lims_session=; Max-Age=0; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; SameSite=Lax',
    );
  });
});
