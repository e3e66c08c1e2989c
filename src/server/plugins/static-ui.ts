import { existsSync, statSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';

/** The file under root that a URL path names, relative to root; null when there is none (or it escapes root). */
function fileIn(root: string, urlPath: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  const full = resolve(root, `.${decoded}`);
  if (!full.startsWith(root + sep)) return null;
  try {
    return statSync(full).isFile() ? full.slice(root.length + 1) : null;
  } catch {
    return null;
  }
}

const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * Serves the built React UI. Any GET that is not an API call and not a file gets index.html, so
 * client-side routes (/patients, /login, ...) load on refresh; the UI shows its own 404 page.
 * @fastify/static only supplies reply.sendFile (serve: false): its own per-file routes could not
 * declare an access level, and the auth hook refuses any route that has none.
 */
export async function staticUi(app: FastifyInstance, uiDir: string) {
  if (!existsSync(join(uiDir, 'index.html'))) {
    app.serverLog.warn('the web UI is not built (run npm run build); serving the API only');
    return;
  }
  const root = resolve(uiDir);
  // preCompressed: the build wrote .br and .gz copies of the scripts and styles (scripts/vite-precompress.ts);
  // a browser that accepts them gets those, with Vary: Accept-Encoding.
  await app.register(fastifyStatic, {
    root,
    serve: false,
    index: false,
    maxAge: '1h',
    immutable: false,
    preCompressed: true,
  });
  app.get('/*', { config: { access: 'public' } }, (req, reply) => {
    const path = req.url.split('?')[0] ?? '/';
    if (path.startsWith('/api/') || path === '/api') {
      return reply
        .status(404)
        .send({ statusCode: 404, error: 'Not Found', message: `Route ${req.method} ${path} not found` });
    }
    const file = fileIn(root, path);
    // Vite names every file under assets/ by a hash of its content: a browser may keep it for good
    // (a new build has new names), so a page after the first loads its scripts from the cache.
    if (file?.startsWith('assets/'))
      return reply.sendFile(file, { cacheControl: false }).header('cache-control', IMMUTABLE);
    if (file && file !== 'index.html') return reply.sendFile(file);
    if (path.startsWith('/assets/')) {
      return reply.status(404).send({ statusCode: 404, error: 'Not Found', message: `File ${path} not found` });
    }
    // index.html names the hashed asset files of the current build, so browsers must revalidate it.
    return reply.header('cache-control', 'no-cache').sendFile('index.html', { cacheControl: false });
  });
}
