import dns from 'node:dns';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import net from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { makeLab, type TestLab } from '../helpers.js';
import { badFields } from './support.js';
import { listenersFor, until } from './interface-support.js';
import { postFhir, sendMllp } from '../../src/core/interop-out/delivery.js';
import type { SendOutcome } from '../../src/shared/schemas/messaging.js';
import type { Connection } from '../../src/shared/schemas/connections.js';

/**
 * A lab's outbound targets (SMS gateway, mail server, report receivers, analyzers the server dials)
 * on a server whose operator did not pass --allow-private-outbound: this machine, link-local and
 * the cloud's metadata address are out of reach whatever the lab types or its DNS answers, and
 * what answers is never shown back.
 */

const SECRET = 'internal-secret-7Hq2';
let lab: TestLab;
/** A lab on a server whose operator allowed private targets (the fake gateway is on 127.0.0.1). */
let allowed: TestLab;
const servers: (HttpServer | net.Server)[] = [];
/** Connections each local service saw: none may come from a refused target. */
const seen = { secret: 0, banner: 0, gateway: 0 };
let secretPort: number;
let bannerPort: number;
let gatewayPort: number;

function listen(server: HttpServer | net.Server): Promise<number> {
  servers.push(server);
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as net.AddressInfo).port)),
  );
}

beforeAll(async () => {
  // A service of this machine that must stay unreachable: it answers its secret to anyone.
  secretPort = await listen(
    createHttpServer((_req, res) => {
      seen.secret += 1;
      res.end(SECRET);
    }),
  );
  // Something that is not a mail server (sshd, say): its banner must not be shown.
  bannerPort = await listen(
    net.createServer((s) => {
      seen.banner += 1;
      s.end(`SSH-2.0-OpenSSH_9.6 ${SECRET}\r\n`);
    }),
  );
  // An SMS gateway that redirects every request to the secret service.
  gatewayPort = await listen(
    createHttpServer((_req, res) => {
      seen.gateway += 1;
      res.writeHead(302, { location: `http://127.0.0.1:${secretPort}/latest/meta-data` });
      res.end(`moved ${SECRET}`);
    }),
  );
  lab = await makeLab();
  allowed = await makeLab({ allowPrivateOutbound: true });
});

afterEach(() => {
  vi.restoreAllMocks();
  seen.secret = seen.banner = seen.gateway = 0;
});

afterAll(async () => {
  await lab.close();
  await allowed.close();
  for (const s of servers) await new Promise<void>((r) => s.close(() => r()));
});

/** dns.lookup answering 127.0.0.1 for `name`: a lab's own DNS record pointing at this machine. */
function pointAtLoopback(name: string) {
  const real = dns.lookup.bind(dns);
  vi.spyOn(dns, 'lookup').mockImplementation(((host: string, opts: unknown, cb: unknown) => {
    if (host !== name) return (real as (...a: unknown[]) => void)(host, opts, cb);
    const done = (typeof opts === 'function' ? opts : cb) as (...a: unknown[]) => void;
    const all = typeof opts === 'object' && opts !== null && (opts as { all?: boolean }).all;
    if (all) done(null, [{ address: '127.0.0.1', family: 4 }]);
    else done(null, '127.0.0.1', 4);
  }) as typeof dns.lookup);
}

const smsBody = (urlTemplate: string) => ({ method: 'GET', urlTemplate, apiKey: null });
const smtpBody = (host: string, port = 25) => ({
  host,
  port,
  security: 'none',
  fromAddress: 'reports@testlab.example',
});

describe('saving a target with a forbidden literal address', () => {
  it('answers 400 naming the field, for every kind of target', async () => {
    const metadata = '169.254.169.254';
    expect(
      badFields(await lab.admin.put('/api/settings/sms', smsBody(`http://${metadata}/latest?to={to}&t={message}`))),
    ).toEqual(['urlTemplate']);
    // The decimal form of 127.0.0.1, which a browser and a resolver both take for it.
    expect(
      badFields(await lab.admin.put('/api/settings/sms', smsBody('http://2130706433:8080/s?to={to}&t={message}'))),
    ).toEqual(['urlTemplate']);
    // An SMS gateway is a service on the internet: not the clinic's network either.
    expect(
      badFields(await lab.admin.put('/api/settings/sms', smsBody('http://192.168.1.20/s?to={to}&t={message}'))),
    ).toEqual(['urlTemplate']);
    expect(badFields(await lab.admin.put('/api/settings/email', smtpBody(metadata)))).toEqual(['host']);
    expect(badFields(await lab.admin.put('/api/settings/email', smtpBody('localhost', 22)))).toEqual(['host']);
    const refused = await lab.admin.put('/api/settings/email', smtpBody('::1'));
    expect(refused.json().details[0].message).toContain('address not allowed: loopback');
    expect(refused.json().details[0].message).toContain('--allow-private-outbound');
    const receiver = { name: 'HIS', kind: 'mllp', host: metadata, port: 2575 };
    expect(badFields(await lab.admin.post('/api/interop/receivers', receiver))).toEqual(['host']);
    expect(
      badFields(
        await lab.admin.post('/api/interop/receivers', { name: 'FHIR', kind: 'http', url: `http://${metadata}/fhir` }),
      ),
    ).toEqual(['url']);
    const analyzer = { name: 'Dialled', protocol: 'astm', transport: 'tcp-client', port: 5100 };
    expect(badFields(await lab.admin.post('/api/connections', { ...analyzer, host: metadata }))).toEqual(['host']);
    expect(badFields(await lab.admin.post('/api/connections', { ...analyzer, host: '127.0.0.1' }))).toEqual(['host']);
    expect((await lab.admin.get('/api/settings/sms')).json().sms.configured).toBe(false);
    expect((await lab.admin.get('/api/settings/email')).json().email.configured).toBe(false);
  });

  it("keeps the clinic's network open to what lives there: a mail relay, a receiver, an analyzer", async () => {
    expect((await lab.admin.put('/api/settings/email', smtpBody('192.168.1.25'))).statusCode).toBe(200);
    const his = { name: 'Hospital HIS', kind: 'mllp', host: '10.0.0.5', port: 2575 };
    expect((await lab.admin.post('/api/interop/receivers', his)).statusCode).toBe(201);
    const analyzer = { name: 'Cobas', protocol: 'astm', transport: 'tcp-client', host: '172.16.4.9', port: 5100 };
    expect((await lab.admin.post('/api/connections', analyzer)).statusCode).toBe(201);
    // The operator's allowance lifts the rule for the whole server.
    expect((await allowed.admin.put('/api/settings/email', smtpBody('127.0.0.1'))).statusCode).toBe(200);
  });
});

describe('at connect time, on the resolved address', () => {
  it('a gateway whose name resolves to 127.0.0.1 is refused, and never reached', async () => {
    const saved = await lab.admin.put(
      '/api/settings/sms',
      smsBody(`http://gateway.sms.example:${secretPort}/send?to={to}&t={message}`),
    );
    expect(saved.statusCode, saved.body).toBe(200);
    pointAtLoopback('gateway.sms.example');
    const t = (await lab.admin.post('/api/settings/sms/test', { to: '9845012345' })).json<{ test: SendOutcome }>().test;
    expect(t).toMatchObject({
      ok: false,
      status: null,
      message: 'The SMS gateway could not be reached: address not allowed: loopback',
    });
    expect(seen.secret).toBe(0);
  });

  it('a mail server named localhost is refused before a socket: no port scan, no banner', async () => {
    // As if saved before the rule: written straight in.
    await lab.admin.put('/api/settings/email', smtpBody('mail.clinic.example'));
    await lab.database.db
      .updateTable('smtp_settings' as never)
      .set({ host: 'localhost', port: bannerPort } as never)
      .where('organization_id' as never, '=', lab.organizationId as never)
      .execute();
    const res = await lab.admin.post('/api/settings/email/test', { to: 'desk@clinic.example' });
    expect(res.json().test).toMatchObject({
      ok: false,
      message: 'The mail server may not be used: address not allowed: loopback',
    });
    expect(seen.banner).toBe(0);
  });

  it('a report receiver or a dialled analyzer resolving to this machine is refused', async () => {
    pointAtLoopback('his.example');
    const lan = { kind: 'lan', allowPrivate: false } as const;
    await expect(sendMllp('his.example', bannerPort, 'MSH|', 'M1', 2000, lan)).rejects.toThrow(
      'address not allowed: loopback',
    );
    await expect(postFhir(`http://his.example:${secretPort}/fhir`, {}, 2000, lan)).rejects.toThrow(
      'address not allowed: loopback',
    );
    expect(seen.banner + seen.secret).toBe(0);

    const made = await lab.admin.post('/api/connections', {
      name: 'Analyzer by name',
      protocol: 'astm',
      transport: 'tcp-client',
      host: 'his.example',
      port: bannerPort,
      enabled: true,
    });
    expect(made.statusCode, made.body).toBe(201);
    const id = made.json<{ connection: Connection }>().connection.id;
    const listeners = await listenersFor(() => lab.database.db, lab.organizationId, { allowPrivateOutbound: false });
    try {
      const c = await until('the refusal on the connection', async () => {
        const got = (await lab.admin.get(`/api/connections/${id}`)).json<{ connection: Connection }>().connection;
        return got.listen_status === 'error' ? got : undefined;
      });
      expect(c.last_error).toContain('address not allowed: loopback');
      expect(seen.banner).toBe(0);
    } finally {
      await listeners.stop();
    }
  });
});

describe('what answers is never shown back', () => {
  it('a redirect is not followed, even where the operator allows private targets', async () => {
    const saved = await allowed.admin.put(
      '/api/settings/sms',
      smsBody(`http://127.0.0.1:${gatewayPort}/send?to={to}&t={message}`),
    );
    expect(saved.statusCode, saved.body).toBe(200);
    const res = await allowed.admin.post('/api/settings/sms/test', { to: '9845012345' });
    expect(res.json().test).toMatchObject({
      ok: false,
      status: 302,
      message: 'The SMS gateway answered HTTP 302, a redirect, which is not followed',
    });
    expect(res.body).not.toContain(SECRET);
    expect(seen.gateway).toBe(1);
    expect(seen.secret).toBe(0);
  });

  it('the mail test against something that is not a mail server gives a fixed reason, never its banner', async () => {
    expect((await allowed.admin.put('/api/settings/email', smtpBody('127.0.0.1', bannerPort))).statusCode).toBe(200);
    const res = await allowed.admin.post('/api/settings/email/test', { to: 'desk@clinic.example' });
    expect(res.json().test).toMatchObject({ ok: false, message: 'What answered did not behave as a mail server' });
    expect(res.body).not.toContain(SECRET);
    expect(res.body).not.toContain('SSH');
    expect(seen.banner).toBe(1);
  });
});
