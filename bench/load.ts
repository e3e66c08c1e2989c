import autocannon from 'autocannon';

/** Load generation with autocannon, loopback only. Each run is bounded by its duration. */

export interface Target {
  /** http://127.0.0.1:<port> */
  origin: string;
  headers?: Record<string, string>;
  /** The path of the next request (e.g. a random patient id). */
  nextPath: () => string;
}

export interface ThroughputResult {
  rps: number;
  requests: number;
  seconds: number;
  errors: number;
  non2xx: number;
  /** CPU time the server spent during the run, when known. */
  cpuMicros?: number;
}

export interface LatencyResult {
  requests: number;
  p50: number;
  p99: number;
  mean: number;
  max: number;
  non2xx: number;
  errors: number;
}

function assertLoopback(origin: string): void {
  const host = new URL(origin).hostname;
  if (host !== '127.0.0.1' && host !== 'localhost' && host !== '[::1]') {
    throw new Error(`the benchmark only sends traffic to loopback, not to ${host}`);
  }
}

function run(
  target: Target,
  opts: { connections: number; seconds: number },
  onResponse?: (status: number, ms: number) => void,
) {
  assertLoopback(target.origin);
  const instance = autocannon({
    url: target.origin,
    connections: opts.connections,
    duration: opts.seconds,
    timeout: 10,
    headers: target.headers ?? {},
    requests: [{ setupRequest: (req) => ({ ...req, path: target.nextPath() }) }],
  });
  if (onResponse) instance.on('response', (_client, status, _bytes, ms) => onResponse(status, ms));
  return instance;
}

/** Requests per second with `connections` concurrent keep-alive connections. */
export async function measureThroughput(
  target: Target,
  connections: number,
  seconds: number,
): Promise<ThroughputResult> {
  const r = await run(target, { connections, seconds });
  return {
    rps: r.requests.total / r.duration,
    requests: r.requests.total,
    seconds: r.duration,
    errors: r.errors + r.timeouts,
    non2xx: r.non2xx,
  };
}

/** Nearest-rank percentile of sorted values. */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))] as number;
}

/**
 * Latency on ONE connection, request after request. autocannon's own histogram has a 1 ms
 * resolution, too coarse for sub-millisecond answers, so every response time is kept instead.
 */
export async function measureLatency(target: Target, seconds: number): Promise<LatencyResult> {
  const times: number[] = [];
  let non2xx = 0;
  const r = await run(target, { connections: 1, seconds }, (status, ms) => {
    if (status < 200 || status > 299) non2xx += 1;
    times.push(ms);
  });
  times.sort((a, b) => a - b);
  return {
    requests: times.length,
    p50: percentile(times, 50),
    p99: percentile(times, 99),
    mean: times.reduce((s, t) => s + t, 0) / Math.max(1, times.length),
    max: times[times.length - 1] ?? Number.NaN,
    non2xx,
    errors: r.errors + r.timeouts,
  };
}
