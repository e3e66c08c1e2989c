import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { labDomainsIfFresh, labDomainsRead } from '../org-cache.js';
import sjson from 'secure-json-parse';
import { DomainError, TooManyRequestsError } from '../../core/errors.js';

/** Deepest JSON nesting any route accepts (lims bodies nest four or five levels). */
export const MAX_JSON_DEPTH = 32;
/** Body limit of the routes anyone can call (sign-in, setup, portal sign-in), unless the contract says. */
export const PUBLIC_BODY_LIMIT = 16 * 1024;
/** Requests per minute one address may make to the routes that need no sign-in. */
export const PUBLIC_REQUESTS_PER_MINUTE = 300;

/**
 * How deep the JSON text nests, counted on the text before it is parsed: a body nested 900,000 deep
 * is refused in one linear scan, before JSON.parse or validation spend time on it. Stops counting at
 * `limit + 1`.
 */
export function jsonDepthOver(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 /* { */ || c === 91 /* [ */) {
      if (++depth > limit) return true;
    } else if (c === 125 /* } */ || c === 93 /* ] */) depth--;
  }
  return false;
}

/** Requests per address in fixed one-minute windows. */
export class RequestRate {
  #window = 0;
  readonly #counts = new Map<string, number>();
  constructor(readonly perMinute: number) {}

  /** Counts one request: 0 when allowed, else the seconds until the window turns. */
  take(key: string, now = Date.now()): number {
    const w = Math.floor(now / 60_000);
    if (w !== this.#window) {
      this.#window = w;
      this.#counts.clear();
    }
    const n = (this.#counts.get(key) ?? 0) + 1;
    this.#counts.set(key, n);
    return n > this.perMinute ? Math.max(1, Math.ceil(((w + 1) * 60_000 - now) / 1000)) : 0;
  }
}

export interface GuardOptions {
  /** Host names (or host:port) the server answers; empty or absent: any. */
  allowedHosts?: readonly string[];
  publicRequestsPerMinute?: number;
}

/**
 * Request guards that run before any route work:
 * - JSON bodies: parsed with prototype-poisoning protection, refused (400) when nested deeper than
 *   MAX_JSON_DEPTH, before parsing;
 * - Host allowlist (`--allowed-hosts`): a request naming another host (loopback names are always
 *   answered) is refused (421), so a page on a rebinding DNS name cannot reach the API through a
 *   browser on the LAN.
 * Cache-Control: no-store on every /api answer is set by the auth plugin's gates (noStore below).
 * The per-address limit of public routes is `publicRate`, taken by the auth plugin's public gate.
 */
export const requestGuards = fp(async (app: FastifyInstance, opts: GuardOptions) => {
  const hosts = new Set((opts.allowedHosts ?? []).map((h) => h.toLowerCase()));
  app.decorate('publicRate', new RequestRate(opts.publicRequestsPerMinute ?? PUBLIC_REQUESTS_PER_MINUTE));

  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
    const text = body as string;
    if (text.trim() === '') return done(null, undefined);
    if (jsonDepthOver(text, MAX_JSON_DEPTH)) {
      return done(new DomainError(400, 'BODY_TOO_DEEP', `The JSON body nests deeper than ${MAX_JSON_DEPTH} levels`));
    }
    try {
      done(null, sjson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' }));
    } catch {
      done(new DomainError(400, 'INVALID_JSON', 'The request body is not valid JSON'));
    }
  });

  if (hosts.size > 0) {
    app.addHook('onRequest', (req, _reply, done) => {
      const host = (req.headers.host ?? '').toLowerCase();
      const name = hostName(host);
      // Loopback names are always answered: a rebinding page needs a DNS name of its own.
      if (hosts.has(host) || hosts.has(name) || LOOPBACK.has(name)) return done();
      // So is every lab's domain (Multi-Tenant Setup): a lab created while the server runs needs no restart.
      const refuse = () =>
        done(new DomainError(421, 'HOST_NOT_ALLOWED', `This server does not answer for the host name "${name}"`));
      const known = labDomainsIfFresh(app);
      if (known) return known.has(name) ? done() : refuse();
      labDomainsRead(app).then((labs) => (labs.has(name) ? done() : refuse()), done);
    });
  }
});

const LOOPBACK = new Set(['localhost', '127.0.0.1', '::1']);

/** "lab.local:3001" -> "lab.local"; "[::1]:3001" -> "::1". */
export function hostName(host: string): string {
  if (host.startsWith('[')) return host.slice(1, host.indexOf(']'));
  const i = host.lastIndexOf(':');
  return i > 0 && host.indexOf(':') === i ? host.slice(0, i) : host;
}

/** Counts a public request of this address: throws 429 past the per-minute limit. */
export function takePublicRequest(app: FastifyInstance, req: FastifyRequest): void {
  const wait = app.publicRate.take(req.ip);
  if (wait > 0) throw new TooManyRequestsError(`Too many requests from this address; try again in ${wait} s`, wait);
}

/**
 * Every API answer may name a patient (JSON, bill and label PDFs, CSV exports): no browser or proxy
 * keeps a copy. Set by the route gates before the handler, so a route that wants otherwise (the
 * barcode image of a sample number) sets its own header over it; no extra hook per request.
 */
export function noStore(req: FastifyRequest, reply: FastifyReply): void {
  if (req.url.startsWith('/api/')) reply.header('cache-control', 'no-store');
}
