import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';

/**
 * Serves the built React UI. Any GET that is not an API call and not a file gets index.html, so
 * client-side routes (/patients, /login, ...) load on refresh; the UI shows its own 404 page.
 */
export async function staticUi(app: FastifyInstance, uiDir: string) {
  if (!existsSync(join(uiDir, 'index.html'))) {
    app.log.warn('the web UI is not built (run npm run build); serving the API only');
    return;
  }
  await app.register(fastifyStatic, { root: uiDir, prefix: '/', wildcard: false, index: false, maxAge: '1h', immutable: false });
  app.get('/*', { config: { access: 'public' } }, (req, reply) => {
    const path = req.url.split('?')[0] ?? '/';
    if (path.startsWith('/api/') || path === '/api') {
      return reply.status(404).send({ statusCode: 404, error: 'Not Found', message: `Route ${req.method} ${path} not found` });
    }
    if (path.startsWith('/assets/')) {
      return reply.status(404).send({ statusCode: 404, error: 'Not Found', message: `File ${path} not found` });
    }
    return reply.header('cache-control', 'no-cache').sendFile('index.html');
  });
}
