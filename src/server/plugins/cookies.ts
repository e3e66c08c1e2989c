import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { parseCookie, stringifySetCookie, type SerializeOptions } from 'cookie';

export type CookieOptions = Omit<SerializeOptions, 'encode'>;

declare module 'fastify' {
  interface FastifyRequest {
    /** The request's cookies by name, parsed from the Cookie header on first use. */
    readonly cookies: Readonly<Record<string, string | undefined>>;
  }
  interface FastifyReply {
    /** Adds a Set-Cookie header (SameSite=Lax unless told otherwise); a later call for the same name and path replaces it. */
    setCookie(name: string, value: string, options?: CookieOptions): FastifyReply;
    /** Tells the browser to forget a cookie (the path must match the one it was set with). */
    clearCookie(name: string, options?: Pick<CookieOptions, 'path' | 'domain' | 'secure' | 'sameSite'>): FastifyReply;
  }
}

const kCookies = Symbol('lims.cookies');
type WithParsed = FastifyRequest & { [kCookies]: Record<string, string | undefined> | null };

/**
 * Cookies without per-request hooks. @fastify/cookie parses the Cookie header in an onRequest hook
 * and writes Set-Cookie in an onSend hook on every response; measured on the patient look-up, the
 * two hooks cost about a tenth of the request's CPU time although only sign-in, sign-out and the
 * session check use cookies. Here the header is parsed when `req.cookies` is first read, and
 * `reply.setCookie` writes its header at once. Parsing and serialising are the `cookie` package's.
 */
export const cookiesPlugin = fp(async (app: FastifyInstance) => {
  app.decorateRequest(kCookies, null);
  app.decorateRequest('cookies', {
    getter(this: FastifyRequest) {
      const req = this as WithParsed;
      return (req[kCookies] ??= req.headers.cookie ? parseCookie(req.headers.cookie) : {});
    },
  });

  app.decorateReply('setCookie', function (this: FastifyReply, name: string, value: string, options?: CookieOptions) {
    const header = stringifySetCookie(name, value, { sameSite: 'lax', ...options });
    const path = options?.path ?? '';
    const earlier = this.getHeader('set-cookie');
    const kept = (earlier === undefined ? [] : Array.isArray(earlier) ? earlier : [String(earlier)]).filter(
      (h) => !(h.startsWith(`${name}=`) && cookiePath(h) === path),
    );
    this.removeHeader('set-cookie');
    for (const h of [...kept, header]) this.header('set-cookie', h);
    return this;
  });

  app.decorateReply(
    'clearCookie',
    function (
      this: FastifyReply,
      name: string,
      options?: Pick<CookieOptions, 'path' | 'domain' | 'secure' | 'sameSite'>,
    ) {
      return this.setCookie(name, '', { ...options, expires: new Date(0), maxAge: 0 });
    },
  );
});

function cookiePath(setCookie: string): string {
  const m = /;\s*path=([^;]*)/i.exec(setCookie);
  return m?.[1]?.trim() ?? '';
}

/**
 * Whether cookies set for this request are Secure: always with `--secure-cookies`; with
 * `--trust-proxy` when the proxy forwarded the request as https.
 */
export function secureCookie(app: FastifyInstance, req: FastifyRequest): boolean {
  const o = app.options_;
  return Boolean(o.secureCookies) || (Boolean(o.trustProxy) && req.protocol === 'https');
}
