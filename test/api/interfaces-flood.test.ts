import net from 'node:net';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLab, type TestLab } from '../helpers.js';
import {
  ACK,
  createConnectionAs,
  ENQ,
  EOT,
  freePort,
  listeningOf,
  listenersFor,
  NAK,
  until,
} from './interface-support.js';
import { checksum, ETB, STX } from '../../src/core/interfaces/astm/frames.js';
import { mllpWrap } from '../../src/core/interfaces/hl7/mllp.js';
import { attachSession } from '../../src/core/interfaces/session.js';
import { findConnectionRow } from '../../src/core/interfaces/repository.js';
import type { Connection } from '../../src/shared/schemas/connections.js';

/**
 * A machine port is open to anyone on the clinic's network. The probe that took lims down: one
 * client sending valid 64 KiB continuation frames (ETB, numbers 1..7,0, right checksums) and never
 * EOT grew one string until V8 refused it, and the RangeError ended the process for every lab. Here:
 * the transmission stops at the connection's limit, the line is closed, the server goes on, and
 * no one address (nor all of them) can hold every socket of a listener.
 */

let lab: TestLab;
let listeners: Awaited<ReturnType<typeof listenersFor>>;
const LIMITS = { perListener: 3, perAddress: 2 };

beforeAll(async () => {
  lab = await makeLab();
  listeners = await listenersFor(() => lab.database.db, lab.organizationId, { lineLimits: LIMITS });
});

afterAll(async () => {
  await listeners?.stop();
  await lab?.close();
});

async function connection(body: Record<string, unknown>): Promise<{ conn: Connection; port: number }> {
  const port = await freePort();
  const conn = await createConnectionAs(lab, { transport: 'tcp-server', port, enabled: true, ...body });
  await listeningOf(lab, conn.id);
  return { conn, port };
}

/** A lenient E1381 frame of `size` bytes in all, numbered `n`, ending in ETB (a record continues). */
function bigFrame(n: number, size: number): Buffer {
  const text = 'R|1|^^^X|' + '7'.repeat(size - 16);
  const withEnd = Buffer.concat([Buffer.from([STX]), Buffer.from(`${n % 8}${text}`, 'latin1'), Buffer.from([ETB])]);
  return Buffer.concat([withEnd, Buffer.from(checksum(withEnd, 1, withEnd.length - 1), 'latin1'), Buffer.from('\r\n')]);
}

/** A client that reads lims's one-byte replies and notices when the line is closed. */
async function client(port: number, localAddress?: string) {
  const socket = net.connect({ port, host: '127.0.0.1', ...(localAddress ? { localAddress } : {}) });
  const bytes: number[] = [];
  let closed = false;
  let waiter: (() => void) | null = null;
  const wake = () => {
    const w = waiter;
    waiter = null;
    w?.();
  };
  socket.on('data', (d) => {
    bytes.push(...d);
    wake();
  });
  socket.on('error', () => undefined);
  socket.on('close', () => {
    closed = true;
    wake();
  });
  await new Promise<void>((r, j) => socket.once('connect', r).once('error', j));
  return {
    socket,
    get closed() {
      return closed;
    },
    /** The next reply byte, or null once the line is closed. */
    async next(ms = 15_000): Promise<number | null> {
      const end = Date.now() + ms;
      while (!bytes.length) {
        if (closed) return null;
        if (Date.now() > end) throw new Error('no reply from lims');
        await new Promise<void>((r) => {
          waiter = r;
          setTimeout(r, 200);
        });
      }
      return bytes.shift()!;
    },
    async waitClosed(ms = 10_000): Promise<boolean> {
      const end = Date.now() + ms;
      while (!closed && Date.now() < end) await new Promise((r) => setTimeout(r, 25));
      return closed;
    },
  };
}

async function messages(connectionId: number) {
  return lab.database.db
    .selectFrom('interface_messages')
    .select(['status', 'error', 'size'])
    .where('connection_id', '=', connectionId)
    .orderBy('id')
    .execute();
}

describe('one transmission is bounded', () => {
  it('the probe stream (64 KiB ETB frames, never EOT) is refused past 4 MiB and the line closed; lims answers on', async () => {
    const { conn, port } = await connection({ name: 'Flood ASTM', protocol: 'astm', lenient: true });
    expect(conn.max_message_kib).toBe(4096);
    const c = await client(port);
    c.socket.write(Buffer.from([ENQ]));
    expect(await c.next()).toBe(ACK);
    const replies: (number | null)[] = [];
    // 80 frames of 64 KiB: 5 MiB, past the default 4 MiB. Each waits for its answer, as a machine does.
    for (let i = 1; i <= 80 && !c.closed; i++) {
      c.socket.write(bigFrame(i, 64 * 1024 - 64));
      const r = await c.next();
      replies.push(r);
      if (r !== ACK) break;
    }
    const acked = replies.filter((r) => r === ACK).length;
    // Each frame carries 65,465 characters of text: 4 MiB holds 64 of them, the 65th is refused.
    expect(acked).toBe(Math.floor((4 * 1024 * 1024) / (64 * 1024 - 64 - 7)));
    expect(acked).toBe(64);
    expect(replies[acked]).toBe(NAK);
    expect(await c.waitClosed()).toBe(true);
    const log = await until('the refusal in the message log', async () => {
      const rows = await messages(conn.id);
      return rows.length ? rows : undefined;
    });
    expect(log).toHaveLength(1);
    expect(log[0]!.status).toBe('incomplete');
    expect(log[0]!.error).toContain('over 4 MiB');
    // Only the head of the refused transmission is kept.
    expect(log[0]!.size).toBeLessThanOrEqual(64 * 1024);
    expect((await lab.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    // The listener takes the next machine's message as usual.
    const again = await client(port);
    again.socket.write(Buffer.from([ENQ]));
    expect(await again.next()).toBe(ACK);
    again.socket.write(Buffer.from([EOT]));
    again.socket.destroy();
  });

  it('a lab sets a smaller limit on a connection; an HL7 block past it is dropped and logged, the next one answered', async () => {
    const { conn, port } = await connection({ name: 'Flood HL7', protocol: 'hl7', max_message_kib: 64 });
    expect(conn.max_message_kib).toBe(64);
    const c = await client(port);
    const big = `MSH|^~\\&|M|L|LIMS|L|20261202120000||ORU^R01|BIG1|P|2.5.1\rOBX|1|TX|X||${'x'.repeat(100 * 1024)}`;
    c.socket.write(mllpWrap(big));
    const log = await until('the dropped block in the log', async () => {
      const rows = await messages(conn.id);
      return rows.length ? rows : undefined;
    });
    expect(log[0]!.status).toBe('incomplete');
    expect(log[0]!.error).toContain('over 64 KiB');
    c.socket.write(mllpWrap('MSH|^~\\&|M|L|LIMS|L|20261202120000||ORU^R01|SMALL1|P|2.5.1\rPID|1'));
    const ack: number[] = [];
    for (;;) {
      const b = await c.next();
      if (b === null) break;
      ack.push(b);
      if (b === 0x1c) break;
    }
    expect(Buffer.from(ack).toString('latin1')).toContain('SMALL1');
    c.socket.destroy();
  });

  it('refuses a limit out of range, naming the field', async () => {
    const res = await lab.admin.post('/api/connections', {
      name: 'Tiny',
      protocol: 'astm',
      transport: 'tcp-server',
      port: await freePort(),
      max_message_kib: 10,
    });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('max_message_kib');
    expect(res.body).toContain('64 to 65536 KiB');
  });
});

describe('open lines are bounded', () => {
  it('per address, then per listener; a closed line frees its place', async () => {
    const { port } = await connection({ name: 'Lines', protocol: 'astm' });
    const a1 = await client(port, '127.0.0.2');
    const a2 = await client(port, '127.0.0.2');
    const a3 = await client(port, '127.0.0.2');
    expect(await a3.waitClosed()).toBe(true);
    // The two accepted lines work.
    a1.socket.write(Buffer.from([ENQ]));
    expect(await a1.next()).toBe(ACK);
    const b1 = await client(port, '127.0.0.3');
    b1.socket.write(Buffer.from([ENQ]));
    expect(await b1.next()).toBe(ACK);
    // Three lines are open: the listener's limit. A fourth address is turned away too.
    const c1 = await client(port, '127.0.0.4');
    expect(await c1.waitClosed()).toBe(true);
    a2.socket.destroy();
    await new Promise((r) => setTimeout(r, 200));
    const c2 = await client(port, '127.0.0.4');
    c2.socket.write(Buffer.from([ENQ]));
    expect(await c2.next()).toBe(ACK);
    for (const c of [a1, b1, c2]) c.socket.destroy();
  });
});

describe('no error in a line callback ends the process', () => {
  it('a parser error on a line is logged on its connection, not thrown to the event loop', async () => {
    const { conn } = await connection({ name: 'Guarded', protocol: 'astm' });
    const row = (await findConnectionRow(lab.database.db, lab.organizationId, conn.id))!;
    const errors: string[] = [];
    const log = { info: () => {}, warn: () => {}, error: (_o: object, msg: string) => errors.push(msg) };
    const line = new PassThrough();
    attachSession(lab.database.db, row, line, log);
    // Not bytes at all: Buffer.concat throws inside the data callback.
    expect(() => line.emit('data', 42)).not.toThrow();
    expect(errors).toEqual(['reading an ASTM line failed; the line is closed']);
  });
});

describe("where a lab's listener may bind", () => {
  it("only the server's own address (or one the operator allows), never a system port", async () => {
    const served = await makeLab({ listenHost: '127.0.0.1' });
    try {
      const body = { name: 'Anywhere', protocol: 'astm', transport: 'tcp-server', port: await freePort() };
      const all = await served.admin.post('/api/connections', { ...body, host: '0.0.0.0' });
      expect(all.statusCode).toBe(400);
      expect(all.json().details[0]).toMatchObject({ path: 'host' });
      expect(all.json().details[0].message).toContain('--listener-hosts');
      const low = await served.admin.post('/api/connections', { ...body, port: 80 });
      expect(low.statusCode).toBe(400);
      expect(low.json().details).toEqual([{ path: 'port', message: "A listener's port must be 1024 to 65535" }]);
      const ok = await served.admin.post('/api/connections', { ...body, host: '127.0.0.1' });
      expect(ok.statusCode, ok.body).toBe(201);
      const id = ok.json<{ connection: Connection }>().connection.id;
      expect((await served.admin.put(`/api/connections/${id}`, { host: '0.0.0.0' })).statusCode).toBe(400);
    } finally {
      await served.close();
    }
  });

  it('a listener saved with an address the server does not allow is not started', async () => {
    // A lab of its own: the listeners of this file's lab (which allow any address) never see it.
    const other = await makeLab();
    const port = await freePort();
    const made = await other.admin.post('/api/connections', {
      name: 'Wide',
      protocol: 'astm',
      transport: 'tcp-server',
      port,
      enabled: true,
    });
    const conn = made.json<{ connection: Connection }>().connection;
    // As if saved before the rule, or by another server: written straight in.
    await other.database.db
      .updateTable('connections')
      .set({ host: '0.0.0.0', port })
      .where('id', '=', conn.id)
      .execute();
    const strict = await listenersFor(() => other.database.db, other.organizationId, {
      listenerHosts: ['127.0.0.1'],
    });
    try {
      const state = await until('the refusal on the connection', async () => {
        const c = (await other.admin.get(`/api/connections/${conn.id}`)).json<{ connection: Connection }>().connection;
        return c.listen_status === 'error' && c.last_error?.includes('may not bind') ? c : undefined;
      });
      expect(state.last_error).toContain('0.0.0.0');
      await expect(
        new Promise((resolve, reject) => {
          const s = net.connect({ port, host: '127.0.0.1' });
          s.once('connect', () => {
            s.destroy();
            resolve('connected');
          });
          s.once('error', reject);
        }),
      ).rejects.toThrow(/ECONNREFUSED/);
    } finally {
      await strict.stop();
      await other.close();
    }
  });
});
