import Database from 'better-sqlite3';
import Fastify, { type FastifyInstance } from 'fastify';
import { applyPragmas, openDatabase } from '../src/core/db/connection.js';
import { buildApp } from '../src/server/app.js';

/**
 * One server under test, run in its own process so the load generator does not share its event
 * loop: `node server.js lims|bare <db file> <organization id>`. It listens on a free loopback port,
 * reports the port to the parent over IPC and exits when the parent goes away.
 */

export type ServerKind = 'lims' | 'bare';

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

async function main(): Promise<void> {
  const [kind, file, org] = process.argv.slice(2);
  if ((kind !== 'lims' && kind !== 'bare') || !file || !org) {
    throw new Error('usage: server.js lims|bare <db file> <organization id>');
  }
  let app: FastifyInstance;
  let close: () => Promise<void> | void;
  if (kind === 'bare') {
    ({ app, close } = bareApp(file, Number(org)));
  } else {
    const database = openDatabase(file);
    app = await buildApp({ database, logger: false });
    close = () => database.close();
  }
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('the server has no TCP address');
  process.send?.({ port: address.port });
  process.on('disconnect', () => {
    void app
      .close()
      .then(() => close())
      .finally(() => process.exit(0));
  });
}

main().catch((err: unknown) => {
  process.stderr.write(`bench server: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
