import type { FastifyServerOptions } from 'fastify';
import { pino, type DestinationStream, type Logger } from 'pino';
import type { AppOptions } from './types.js';
import { prettyStream, type LogFormat } from './log-format.js';

/**
 * Where the server log goes, from which level and how it reads: `true` means JSON lines on stdout
 * at LIMS_LOG_LEVEL (default info); `format: 'pretty'` makes them readable lines (lims serve's
 * choice on a terminal, src/server/log-format.ts), written to `stream` or stdout.
 */
export type LoggerOption = boolean | { stream?: DestinationStream; level?: string; format?: LogFormat };

/** Logs name the route, never its query string (searches carry patient names) or any body. */
const pinoOptions = {
  redact: { paths: ['req.headers.cookie', 'req.headers.authorization', 'res.headers["set-cookie"]'], remove: true },
  serializers: {
    req(req: { method: string; url: string; id: string }) {
      return { id: req.id, method: req.method, path: req.url.split('?')[0] };
    },
    /** The answer's line names its request too, so one line says what was asked and how it went. */
    res(reply: { statusCode: number; request?: { method: string; url: string } }) {
      const req = reply.request;
      return req
        ? { statusCode: reply.statusCode, method: req.method, path: req.url.split('?')[0] }
        : { statusCode: reply.statusCode };
    },
  },
};

/**
 * The server log (pino): errors with the request id, warnings at start-up, and, only when asked
 * for, a line per request. A silent logger when logging is off, so callers never check.
 */
export function createServerLog(option: LoggerOption | undefined): Logger {
  if (option === false || option === undefined) return pino({ enabled: false });
  const { stream, level, format } = typeof option === 'object' ? option : {};
  const destination = format === 'pretty' ? prettyStream(stream ?? process.stdout) : stream;
  return pino({ ...pinoOptions, level: level ?? process.env.LIMS_LOG_LEVEL ?? 'info' }, destination);
}

/**
 * How Fastify logs. With `logRequests` it logs through the server log: "incoming request" and
 * "request completed" (status, time) for each request, each request with a child logger bound to its
 * id. Without (the default: a lab's server answers every click, and a line for each buried the
 * errors; see docs/decisions.md) Fastify gets no logger at all: its per-request logging machinery
 * (a child logger, response listeners, timers) cost about a tenth of the CPU time of a patient
 * look-up even with the lines switched off. Errors are logged by lims's error handler through
 * `app.serverLog`, naming the request id, in both modes; `req.log` is not used (see eslint.config).
 */
export function fastifyLogging(
  opts: Pick<AppOptions, 'logRequests'>,
  serverLog: Logger,
): Pick<FastifyServerOptions, 'logger' | 'loggerInstance'> {
  return opts.logRequests ? { loggerInstance: serverLog } : { logger: false };
}
