import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { DomainError, PossibleDuplicateError, TooManyRequestsError } from '../../core/errors.js';
import { POOL_WAIT_MESSAGE } from '../../core/db/postgres-connect.js';
import type { ApiErrorBody } from '../../shared/schemas/common.js';

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  410: 'Gone',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  421: 'Misdirected Request',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

function body(statusCode: number, message: string, extra: Partial<ApiErrorBody> = {}): ApiErrorBody {
  return { statusCode, error: STATUS_TEXT[statusCode] ?? 'Error', message, ...extra };
}

/** Zod's own wording for a field it did not get: "Invalid input: expected string, received undefined". */
const ZOD_MISSING = /^Invalid (input|option)\b/;

/**
 * A field the request did not send at all is "Date of birth is required", whatever zod's schema
 * says without a message of its own; a message written for the field is kept as it is.
 */
function plainMessage(message: string, path: string, body: unknown): string {
  if (!ZOD_MISSING.test(message)) return message;
  const keys = path === '' ? [] : path.split('.');
  let value: unknown = body;
  for (const key of keys)
    value = value && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;
  if (keys.length === 0) {
    return value === undefined || value === null
      ? 'A request body is required'
      : 'The request body must be a JSON object';
  }
  if (value !== undefined) return message;
  const field = [...keys].reverse().find((k) => !/^\d+$/.test(k)) ?? path;
  const words = field.replace(/_/g, ' ');
  return `${words.charAt(0).toUpperCase()}${words.slice(1)} is required`;
}

/** One error handler: domain errors keep their status, validation names each field, 5xx hide internals. */
export const errorsPlugin = fp(async (app: FastifyInstance) => {
  app.setErrorHandler((err: FastifyError, req, reply) => {
    if (hasZodFastifySchemaValidationErrors(err)) {
      const source = err.validationContext === 'body' ? req.body : undefined;
      const details = err.validation.map((v) => {
        const path = String(v.instancePath ?? '')
          .replace(/^\//, '')
          .replace(/\//g, '.');
        const issuePath = (v.params as { issue?: { path?: PropertyKey[] } } | undefined)?.issue?.path;
        const where = path || (issuePath ?? []).map(String).join('.');
        return { path: where, message: plainMessage(v.message ?? 'Invalid value', where, source) };
      });
      const where = err.validationContext === 'querystring' ? 'query' : (err.validationContext ?? 'body');
      const message = details.map((d) => (d.path ? `${d.path}: ${d.message}` : d.message)).join('; ');
      return reply.status(400).send(body(400, message || `Invalid ${where}`, { code: 'VALIDATION_ERROR', details }));
    }
    if (err instanceof DomainError) {
      if (err instanceof TooManyRequestsError) reply.header('retry-after', String(err.retryAfterSeconds));
      return reply.status(err.statusCode).send(
        body(err.statusCode, err.message, {
          code: err.code,
          ...(err.details ? { details: err.details } : {}),
          ...(err instanceof PossibleDuplicateError ? { candidates: err.candidates } : {}),
        }),
      );
    }
    if (err.message === POOL_WAIT_MESSAGE) {
      // Every connection to PostgreSQL stayed busy for POOL_WAIT_MS: the request was not run.
      app.serverLog.warn({ reqId: req.id, method: req.method, path: req.url.split('?')[0] }, 'database busy');
      reply.header('retry-after', '5');
      return reply
        .status(503)
        .send(body(503, 'The database is busy; nothing was changed. Try again in a moment', { code: 'DATABASE_BUSY' }));
    }
    const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500;
    if (status >= 500) {
      app.serverLog.error({ err, reqId: req.id, method: req.method, path: req.url.split('?')[0] }, 'request failed');
      return reply.status(500).send(body(500, 'Something went wrong on the server; the error has been logged'));
    }
    return reply.status(status).send(body(status, err.message, { code: err.code }));
  });

  app.setNotFoundHandler((req, reply) => {
    reply.status(404).send(body(404, `Route ${req.method} ${req.url.split('?')[0]} not found`));
  });
});
