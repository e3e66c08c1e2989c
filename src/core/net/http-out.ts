import http from 'node:http';
import https from 'node:https';
import { guardedTarget, OutboundRefused, type OutboundPolicy } from './outbound.js';

/**
 * One HTTP request from the server to a lab's target (SMS gateway, FHIR receiver) under the
 * outbound policy: the address is checked when the socket connects, a redirect is never followed
 * (it is an answer like any other status), and the answer's body is read and thrown away, so
 * nothing of what answers can be shown back to whoever set the URL.
 */

export interface HttpOut {
  method: string;
  headers?: Record<string, string>;
  body?: string;
  timeoutMs: number;
  policy: OutboundPolicy;
}

/** Why a request got no HTTP answer, in a few fixed words, and a code for the log. */
export class HttpOutError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}

const REASONS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'the connection was closed',
  ENOTFOUND: 'the host name is not known',
  EAI_AGAIN: 'the host name could not be looked up',
  EHOSTUNREACH: 'the host cannot be reached',
  ENETUNREACH: 'the network cannot be reached',
  CERT_HAS_EXPIRED: 'its TLS certificate has expired',
  ERR_TLS_CERT_ALTNAME_INVALID: 'its TLS certificate is for another name',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'its TLS certificate is self-signed',
  SELF_SIGNED_CERT_IN_CHAIN: 'its TLS certificate is not trusted',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'its TLS certificate is not trusted',
};

/** A socket error in fixed words (never the error's own text, which may carry what answered). */
export function networkReason(err: unknown, timeoutMs: number): HttpOutError {
  if (err instanceof HttpOutError) return err;
  if (err instanceof OutboundRefused) return new HttpOutError(err.message, err.code);
  const code = (err as { code?: unknown } | null)?.code;
  const c = typeof code === 'string' ? code : 'NETWORK';
  if (c === 'ETIMEDOUT') return new HttpOutError(`no answer within ${Math.round(timeoutMs / 1000)} s`, c);
  return new HttpOutError(REASONS[c] ?? 'the connection failed', c);
}

/** Sends the request; answers the HTTP status (any status, 3xx included: it is not followed). */
export async function sendHttp(url: string, req: HttpOut): Promise<number> {
  return (await requestHttp(url, { ...req, maxBody: 0 })).status;
}

/**
 * Sends the request and keeps up to `maxBody` bytes of the answer, for an API whose answer carries
 * what the caller must keep (a message id). The caller parses it and never shows it: the URL is
 * the lab's, the answer may come from anywhere. With `maxBody` 0 the answer is settled by its
 * status line alone and the connection closed, so a target that streams a body never holds a sender.
 */
export function requestHttp(
  url: string,
  req: HttpOut & { maxBody: number },
): Promise<{ status: number; body: string }> {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return Promise.reject(new HttpOutError('the URL is not valid', 'BAD_URL'));
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:')
    return Promise.reject(new HttpOutError('the URL must start with http:// or https://', 'BAD_URL'));
  let lookup;
  try {
    ({ lookup } = guardedTarget(target.hostname, req.policy));
  } catch (err) {
    return Promise.reject(networkReason(err, req.timeoutMs));
  }
  const client = target.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    let settled = false;
    const done = (err: unknown, answer?: { status: number; body: string }) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (err) reject(networkReason(err, req.timeoutMs));
      else resolve(answer!);
    };
    const r = client.request(target, { method: req.method, headers: req.headers, lookup, agent: false }, (res) => {
      const status = res.statusCode ?? 0;
      if (req.maxBody <= 0) {
        res.resume();
        res.on('error', () => undefined);
        done(null, { status, body: '' });
        r.destroy();
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (c: Buffer) => {
        if (size < req.maxBody) chunks.push(c.subarray(0, req.maxBody - size));
        size += c.length;
      });
      res.on('error', (err) => done(err));
      res.on('end', () => done(null, { status, body: Buffer.concat(chunks).toString('utf8') }));
    });
    const timer = setTimeout(() => {
      done(Object.assign(new Error('timeout'), { code: 'ETIMEDOUT' }));
      r.destroy();
    }, req.timeoutMs);
    r.on('error', (err) => done(err));
    r.end(req.body);
  });
}
