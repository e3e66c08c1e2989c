import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { errorsPlugin } from './errors.js';
import { createServerLog } from '../logging.js';
import { POOL_WAIT_MESSAGE } from '../../core/db/postgres-connect.js';

async function app() {
  const lines: Record<string, unknown>[] = [];
  const a = Fastify({ logger: false });
  a.decorate(
    'serverLog',
    createServerLog({ level: 'info', stream: { write: (l: string) => void lines.push(JSON.parse(l)) } }),
  );
  await a.register(errorsPlugin);
  a.get('/busy', async () => {
    throw new Error(POOL_WAIT_MESSAGE);
  });
  a.get('/broken', async () => {
    throw new Error('secret detail of a bug');
  });
  return { a, lines };
}

describe('the error handler', () => {
  it('answers 503 DATABASE_BUSY with Retry-After when no database connection came free in time', async () => {
    const { a, lines } = await app();
    const res = await a.inject({ method: 'GET', url: '/busy' });
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe('5');
    expect(res.json()).toMatchObject({ statusCode: 503, code: 'DATABASE_BUSY' });
    expect(res.json().message).toMatch(/busy; nothing was changed/);
    expect(lines.map((l) => [l.level, l.msg])).toEqual([[40, 'database busy']]);
  });

  it('hides any other failure behind 500 and logs it', async () => {
    const { a, lines } = await app();
    const res = await a.inject({ method: 'GET', url: '/broken' });
    expect(res.statusCode).toBe(500);
    expect(res.body).not.toContain('secret detail');
    expect(lines.map((l) => [l.level, l.msg])).toEqual([[50, 'request failed']]);
  });
});
