import Database from 'better-sqlite3';
import Fastify, { type FastifyInstance } from 'fastify';
import pg from 'pg';
import { applyPragmas } from '../src/core/db/connection.js';

/**
 * The limit of the stack: Fastify + better-sqlite3, the same query lims runs for a patient by id,
 * one prepared statement reused for every request, the row returned as JSON.
 */
export function bareApp(file: string, organizationId: number): { app: FastifyInstance; close: () => void } {
  const sqlite = new Database(file, { fileMustExist: true });
  applyPragmas(sqlite);
  const byId = sqlite.prepare('SELECT * FROM patients WHERE id = ? AND organization_id = ?');
  const app = Fastify({ logger: false });
  app.get<{ Params: { id: string } }>('/patients/:id', async (req, reply) => {
    const row: unknown = byId.get(Number(req.params.id), organizationId);
    if (row === undefined) return reply.code(404).send({ message: 'not found' });
    return { patient: row };
  });
  return { app, close: () => sqlite.close() };
}

/**
 * The same limit on PostgreSQL: Fastify + `pg` (a pool as large as lims's), the same query as a
 * named prepared statement, the row returned as JSON.
 */
export function bareAppPostgres(
  url: string,
  organizationId: number,
): { app: FastifyInstance; close: () => Promise<void> } {
  const pool = new pg.Pool({ connectionString: url, max: 20 });
  const app = Fastify({ logger: false });
  app.get<{ Params: { id: string } }>('/patients/:id', async (req, reply) => {
    const r = await pool.query({
      name: 'patient-by-id',
      text: 'SELECT * FROM patients WHERE id = $1 AND organization_id = $2',
      values: [Number(req.params.id), organizationId],
    });
    if (r.rows.length === 0) return reply.code(404).send({ message: 'not found' });
    return { patient: r.rows[0] as unknown };
  });
  return { app, close: () => pool.end() };
}
