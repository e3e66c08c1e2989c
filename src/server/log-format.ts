/**
 * The server log as a person reads it on a terminal: one line per entry, the local time, the level,
 * the message, then a request's method, path, status and milliseconds, then the other fields as
 * key=value. The JSON lines pino writes are the input, so the fields are exactly the JSON log's:
 * the same redaction and serializers apply (no cookie, no query string, no body), nothing is added.
 *
 *   2026-12-02 14:05:12 INFO  request completed GET /api/patients 200 12.4 ms reqId=req-1
 */
export const LOG_FORMATS = ['json', 'pretty'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

const LEVELS: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };
/** Fields shown in their own place, or of no use to a reader (pino's pid and hostname, the schema version). */
const PLACED = new Set(['level', 'time', 'msg', 'pid', 'hostname', 'v', 'req', 'res', 'responseTime', 'err']);

function two(n: number): string {
  return String(n).padStart(2, '0');
}

function localTime(ms: number): string {
  const d = new Date(ms);
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}`;
}

/** A value as one word where it can be: text bare unless it has spaces, anything else as JSON. */
function valueText(v: unknown): string {
  if (typeof v === 'string') return /^[^\s"=]+$/.test(v) ? v : JSON.stringify(v);
  return JSON.stringify(v) ?? String(v);
}

interface Entry {
  level?: number;
  time?: number;
  msg?: string;
  req?: { method?: string; path?: string; url?: string };
  res?: { statusCode?: number; method?: string; path?: string };
  responseTime?: number;
  method?: string;
  path?: string;
  status?: number;
  ms?: number;
  err?: { type?: string; message?: string; stack?: string } | string;
  [key: string]: unknown;
}

/** One JSON log line as a readable line (and an error's stack, indented, below it). */
export function prettyLine(json: string): string {
  let e: Entry;
  try {
    e = JSON.parse(json) as Entry;
  } catch {
    return json.endsWith('\n') ? json : `${json}\n`;
  }
  const parts = [localTime(e.time ?? Date.now()), (LEVELS[e.level ?? 30] ?? String(e.level)).padEnd(5), e.msg ?? ''];
  // A request line: Fastify's (req, res, responseTime) or lims's debug-mode line (method, path, status, ms).
  const method = e.req?.method ?? e.res?.method ?? e.method;
  const path = e.req?.path ?? e.req?.url ?? e.res?.path ?? e.path;
  const status = e.res?.statusCode ?? e.status;
  const ms = e.responseTime ?? e.ms;
  const request = [method, path, status, typeof ms === 'number' ? `${Math.round(ms * 10) / 10} ms` : undefined].filter(
    (p) => p !== undefined,
  );
  if (request.length) parts.push(request.join(' '));
  const placed = new Set(PLACED);
  if (e.method === method) placed.add('method');
  if (e.path === path) placed.add('path');
  if (e.status === status) placed.add('status');
  if (e.ms === ms) placed.add('ms');
  for (const [k, v] of Object.entries(e)) if (!placed.has(k) && v !== undefined) parts.push(`${k}=${valueText(v)}`);
  let text = parts.filter(Boolean).join(' ');
  if (typeof e.err === 'string') text += ` err=${valueText(e.err)}`;
  else if (e.err) {
    text += ` err=${valueText(e.err.message ?? e.err.type ?? '')}`;
    if (e.err.stack) text += `\n${e.err.stack.replace(/^/gm, '    ')}`;
  }
  return `${text}\n`;
}

/** A destination for pino that writes readable lines to `out` (stdout on a terminal). */
export function prettyStream(out: { write(text: string): unknown }): { write(chunk: string): void } {
  return { write: (chunk: string) => void out.write(prettyLine(chunk.replace(/\n$/, ''))) };
}
