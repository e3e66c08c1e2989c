import net from 'node:net';
import { expect } from 'vitest';
import type { TestLab } from '../helpers.js';
import { checkFrame } from '../../src/core/interfaces/astm/frames.js';
import { field, parseHl7 } from '../../src/core/interop-out/hl7.js';
import type { Connection } from '../../src/shared/schemas/connections.js';
import type { Db } from '../../src/core/db/connection.js';
import { startInterfaceListeners } from '../../src/core/interfaces/listen.js';

/** Helpers shared by the analyser interface tests: ports, waiting, and a machine speaking E1381. */

export const ENQ = 0x05;
export const ACK = 0x06;
export const EOT = 0x04;
export const NAK = 0x15;
const LF = 0x0a;

export const quietLog = {
  info: () => {},
  warn: () => {},
  error: (obj: object, msg: string) => console.error(msg, obj),
};

/**
 * The listeners `lims serve` runs, for one lab's connections, looking for changes every 100 ms,
 * bound to 127.0.0.1, allowed to dial 127.0.0.1; `opts` adds the E1381 timings or a serial opener.
 */
export async function listenersFor(
  getDb: () => Db,
  organizationId: number,
  opts: Parameters<typeof startInterfaceListeners>[2] = {},
): Promise<ReturnType<typeof startInterfaceListeners>> {
  const listeners = startInterfaceListeners(getDb, quietLog, {
    pollMs: 100,
    bindHost: '127.0.0.1',
    only: (c) => c.organization_id === organizationId,
    // The fake analyzers of the tests listen on this machine: as an operator would allow.
    allowPrivateOutbound: true,
    ...opts,
  });
  await listeners.ready;
  return listeners;
}

export async function freePort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as net.AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

export async function until<T>(what: string, fn: () => Promise<T | undefined | false>, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

export async function createConnectionAs(lab: TestLab, body: Record<string, unknown>): Promise<Connection> {
  const res = await lab.admin.post('/api/connections', body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ connection: Connection }>().connection;
}

export async function listeningOf(lab: TestLab, id: number): Promise<Connection> {
  return until(`connection ${id} to listen`, async () => {
    const c = (await lab.admin.get(`/api/connections/${id}`)).json<{ connection: Connection }>().connection;
    return c.listen_status === 'listening' ? c : undefined;
  });
}

/**
 * A hospital's interface engine on a free local port: takes MLLP blocks and answers each with an
 * ACK whose MSA-2 is the message's control id, the code taken from `codes` in turn (then AA).
 * Every message it took is in `received`; `close()` stops it.
 */
export async function mllpReceiver(
  codes: string[] = [],
): Promise<{ port: number; received: string[]; server: net.Server; close: () => Promise<void> }> {
  const received: string[] = [];
  const server = net.createServer((socket) => {
    let buf = '';
    socket.on('data', (chunk) => {
      buf += chunk.toString('utf8');
      for (let end = buf.indexOf('\x1c\r'); end >= 0; end = buf.indexOf('\x1c\r')) {
        const msg = buf.slice(buf.indexOf('\x0b') + 1, end);
        buf = buf.slice(end + 2);
        received.push(msg);
        const id = field(parseHl7(msg)[0], 10);
        const code = codes.shift() ?? 'AA';
        socket.write(
          `\x0bMSH|^~\\&|HIS|HOSP|LIMS|LAB|20261126120000||ACK^R01|A${id}|P|2.5.1\rMSA|${code}|${id}|${code === 'AA' ? '' : 'Patient not found'}\r\x1c\r`,
        );
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as net.AddressInfo).port;
  return { port, received, server, close: () => new Promise<void>((r) => server.close(() => r())) };
}

/** A sample with these tests ordered and this barcode (what the machine reads off the tube). */
export async function sampleWithBarcode(
  lab: TestLab,
  patientId: number,
  barcode: string,
  testIds: number[],
): Promise<number> {
  const res = await lab.admin.post('/api/samples', { patient_id: patientId, sample_type: 'Blood', test_ids: testIds });
  expect(res.statusCode, res.body).toBe(201);
  const id = res.json<{ sample: { id: number } }>().sample.id;
  await lab.database.db.updateTable('samples').set({ barcode }).where('id', '=', id).execute();
  return id;
}

/**
 * A simulated analyser on one TCP socket: it sends transmissions (ENQ, each frame once ACKed, EOT)
 * and receives lims's (answers ENQ and each frame with ACK, collects the text until EOT). Every
 * byte lims sends is kept in `seen`.
 */
export class SimMachine {
  readonly seen: number[] = [];
  private pending: number[] = [];
  private waiter: (() => void) | null = null;
  private constructor(readonly socket: net.Socket) {
    socket.on('data', (d) => {
      for (const b of d) {
        this.seen.push(b);
        this.pending.push(b);
      }
      const w = this.waiter;
      this.waiter = null;
      w?.();
    });
  }

  static async connect(port: number): Promise<SimMachine> {
    const socket = net.connect({ port, host: '127.0.0.1' });
    await new Promise<void>((r, j) => socket.once('connect', r).once('error', j));
    return new SimMachine(socket);
  }

  /** A machine on a socket already connected. */
  static on(socket: net.Socket): SimMachine {
    return new SimMachine(socket);
  }

  /** An MLLP block from lims: the bytes up to and including FS CR. */
  async block(ms = 10_000): Promise<string> {
    const bytes: number[] = [];
    for (;;) {
      const b = await this.next(ms);
      bytes.push(b);
      if (b === 0x0d && bytes.at(-2) === 0x1c) return Buffer.from(bytes).toString('utf8');
    }
  }

  /** The next byte lims sends (within `ms`). */
  async next(ms = 10_000): Promise<number> {
    const end = Date.now() + ms;
    while (!this.pending.length) {
      const left = end - Date.now();
      if (left <= 0) throw new Error('no byte from lims');
      await new Promise<void>((r) => {
        const t = setTimeout(r, left);
        this.waiter = () => {
          clearTimeout(t);
          r();
        };
      });
    }
    return this.pending.shift()!;
  }

  /** Nothing arrives from lims for `ms`. */
  async quiet(ms: number): Promise<boolean> {
    await new Promise((r) => setTimeout(r, ms));
    return this.pending.length === 0;
  }

  write(b: Buffer | number[]): void {
    this.socket.write(Buffer.isBuffer(b) ? b : Buffer.from(b));
  }

  /** ENQ, the frames (each waiting for its ACK), EOT. Returns lims's reply to each step. */
  async send(frames: Buffer[], opts: { eot?: boolean } = {}): Promise<number[]> {
    const replies: number[] = [];
    this.write([ENQ]);
    replies.push(await this.next());
    if (replies[0] !== ACK) return replies;
    for (const f of frames) {
      this.write(f);
      replies.push(await this.next());
    }
    if (opts.eot !== false) this.write([EOT]);
    return replies;
  }

  /**
   * Takes one transmission from lims: its ENQ (already read when `enqRead`), then frames until EOT,
   * each checked strictly and answered ACK. Returns the records' text.
   */
  async receive(opts: { enqRead?: boolean } = {}): Promise<string> {
    if (!opts.enqRead) {
      const b = await this.next();
      if (b !== ENQ) throw new Error(`expected ENQ from lims, got ${b}`);
    }
    this.write([ACK]);
    let text = '';
    let frame: number[] = [];
    for (;;) {
      const b = await this.next();
      if (!frame.length && b === EOT) return text;
      frame.push(b);
      if (b === LF) {
        const r = checkFrame(Buffer.from(frame), { lenient: false });
        if (!r.ok) throw new Error(`lims sent a bad frame (${r.reason})`);
        text += r.frame.text;
        frame = [];
        this.write([ACK]);
      }
    }
  }

  async close(): Promise<void> {
    this.socket.end();
    await new Promise((r) => setTimeout(r, 20));
    this.socket.destroy();
  }
}
