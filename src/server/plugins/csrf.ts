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
 * A file upload of the data screens: a route whose contract says `upload`, a raw
 * application/octet-stream body, and the header X-Lims-Upload: 1. A cross-site form cannot set a
 * header, and a cross-site script cannot send one without a CORS grant, which lims never gives.
 */
function fileUpload(req: FastifyRequest, type: string | undefined): boolean {
  return (
    req.routeOptions.config.contract?.upload === true &&
    req.headers['x-lims-upload'] === '1' &&
    (type ?? '').toLowerCase().startsWith('application/octet-stream')
  );
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
  if (hasBody && !(type ?? '').toLowerCase().startsWith('application/json') && !fileUpload(req, type)) {
    throw new ForbiddenError('Cross-site request refused: requests that change data must send JSON');
  }
  if (!sameOrigin(req)) throw new ForbiddenError('Cross-site request refused: origin does not match this server');
}
