import Database from 'better-sqlite3';
import Fastify, { type FastifyInstance } from 'fastify';
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
