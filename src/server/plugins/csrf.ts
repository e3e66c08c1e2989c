import type { FastifyRequest } from 'fastify';
import { ForbiddenError } from '../../core/errors.js';

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export function sameOrigin(req: FastifyRequest): boolean {
  const origin = req.headers.origin;
  if (!origin) return true;
  try {
    const o = new URL(origin);
    // Normalise the Host header the same way (lower case, default port dropped) before comparing.
    return o.host === new URL(`${o.protocol}//${req.headers.host ?? ''}`).host;
  } catch {
    return false;
  }
}

/**
 * CSRF, for staff requests that carry the session cookie and for every portal request: a request
 * that changes data must send JSON (or no body) and, if it names an Origin, our own. A cross-site
 * form post can do neither.
 */
export function refuseCrossSite(req: FastifyRequest): void {
  if (!UNSAFE.has(req.method)) return;
  const type = req.headers['content-type'];
  const length = Number(req.headers['content-length'] ?? 0);
  const hasBody = length > 0 || req.headers['transfer-encoding'] !== undefined;
  if (hasBody && !(type ?? '').toLowerCase().startsWith('application/json')) {
    throw new ForbiddenError('Cross-site request refused: requests that change data must send JSON');
  }
  if (!sameOrigin(req)) throw new ForbiddenError('Cross-site request refused: origin does not match this server');
}
