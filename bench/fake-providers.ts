import { createServer, request } from 'node:http';

/**
 * A local stand-in for the WhatsApp Cloud API (POST /wa/<phone id>/messages, answering a wamid) and
 * for an SMS gateway (GET /send?to=&text=), in the bench's own process: it keeps who each message
 * went to and when it arrived, nothing else, so the bench can count what reached it and how often.
 */

export interface Hit {
  channel: 'whatsapp' | 'sms';
  to: string;
  /** performance.now() when the request's body had arrived. */
  at: number;
}

export interface FakeProviders {
  origin: string;
  whatsappUrl: string;
  smsTemplate: string;
  hits: Hit[];
  /** Resolves when `n` messages have arrived in all (at once if they have). */
  reached(n: number): Promise<void>;
  close(): Promise<void>;
}

export async function fakeProviders(): Promise<FakeProviders> {
  const hits: Hit[] = [];
  const waiting: { n: number; resolve: () => void }[] = [];
  let wamid = 0;
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      const url = req.url ?? '';
      if (url.startsWith('/wa/')) {
        let to = '';
        try {
          to = String((JSON.parse(body) as { to?: unknown }).to ?? '');
        } catch {
          to = '';
        }
        hits.push({ channel: 'whatsapp', to, at: performance.now() });
        wamid += 1;
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ messaging_product: 'whatsapp', messages: [{ id: `wamid.bench${wamid}` }] }));
      } else {
        hits.push({ channel: 'sms', to: new URL(url, 'http://x').searchParams.get('to') ?? '', at: performance.now() });
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end('ok');
      }
      for (const w of waiting.filter((x) => hits.length >= x.n)) {
        waiting.splice(waiting.indexOf(w), 1);
        w.resolve();
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return {
    origin,
    whatsappUrl: `${origin}/wa`,
    smsTemplate: `${origin}/send?to={to}&text={message}`,
    hits,
    reached: (n) => (hits.length >= n ? Promise.resolve() : new Promise((resolve) => waiting.push({ n, resolve }))),
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/**
 * One request to a fake as lims makes it (node:http, a connection of its own, the answer read to
 * its end): the bare baseline's unit of work.
 */
export function bareRequest(url: string, method: 'GET' | 'POST', body?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const r = request(
      url,
      { method, agent: false, headers: body ? { 'content-type': 'application/json' } : {} },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', reject);
      },
    );
    r.on('error', reject);
    r.end(body);
  });
}
