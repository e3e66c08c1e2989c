import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * Helmet's security headers, worked out once at start-up. @fastify/helmet builds helmet's whole
 * middleware chain (parsing and validating the CSP directives) again on every request, which cost
 * more CPU than the rest of a patient look-up. With static options (no per-request CSP nonces or
 * directive functions) the headers are the same for every response, so they are computed here by
 * running helmet once against a recorder, and set on each reply.
 */
export function helmetHeaders(options: HelmetOptions): Record<string, string> {
  const csp = options.contentSecurityPolicy;
  const directives = typeof csp === 'object' ? Object.values(csp.directives ?? {}) : [];
  if (directives.flat().some((d) => typeof d === 'function')) {
    throw new Error('security headers: CSP directives computed per request are not supported here');
  }
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, (err?: unknown) => {
    if (err) throw err;
  });
  return headers;
}

/**
 * Headers that matter for API answers (JSON, PDFs, images): no MIME sniffing, no cross-origin
 * embedding or framing, no referrer. CSP and the other document-only headers govern HTML pages, so
 * they go on the UI's responses only; leaving them off /api saves work on every API request.
 */
const API_HEADERS = ['x-content-type-options', 'cross-origin-resource-policy', 'referrer-policy', 'x-frame-options'];

export const securityHeaders = fp(async (app: FastifyInstance, options: HelmetOptions) => {
  const headers = helmetHeaders(options);
  const apiHeaders = Object.fromEntries(Object.entries(headers).filter(([name]) => API_HEADERS.includes(name)));
  app.addHook('onRequest', (req, reply, done) => {
    reply.headers(req.url.startsWith('/api/') ? apiHeaders : headers);
    done();
  });
});
