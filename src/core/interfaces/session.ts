import net from 'node:net';
import type { Duplex } from 'node:stream';
import type { Db } from '../db/connection.js';
import { AstmLink, type AstmLinkOptions } from './astm/link.js';
import { buildOrderRecords } from './astm/records.js';
import { MllpDecoder, mllpWrap } from './hl7/mllp.js';
import { parseHl7 } from './hl7/message.js';
import { logIncomplete, logOutbound, receiveAstmText, receiveMessage } from './receive.js';
import { LabClosedError } from '../tenants/service.js';
import { nextOrderToSend, orderNotTaken, orderSendDone, type OrderToSend } from './orders-out.js';
import { currentRow, setListenStatus, type ConnectionRow } from './repository.js';
import { nowIso } from '../context.js';
import { MAX_MESSAGE_KIB_DEFAULT } from '../../shared/schemas/connections.js';

export interface InterfaceLog {
  info: (obj: object, msg: string) => void;
  warn: (obj: object, msg: string) => void;
  error: (obj: object, msg: string) => void;
}

/** A status write from a socket or timer callback: a failure is logged, never left unhandled. */
export function noteStatus(db: Db, log: InterfaceLog, id: number, status: string, error: string | null): void {
  setListenStatus(db, id, status, error, nowIso()).catch((err: unknown) =>
    log.error({ err, connection: id }, 'the status of a connection could not be saved'),
  );
}

/** The E1381 timers (ms); tests shorten them, `lims serve` keeps the standard's. */
export type LinkTimings = Pick<
  AstmLinkOptions,
  'receiveTimeoutMs' | 'ackTimeoutMs' | 'busyRetryMs' | 'contentionRetryMs' | 'maxAttempts'
> & {
  /** How often a connection with order download looks for orders to send (5 s). */
  orderPollMs?: number;
};

/**
 * One machine talking on one line (a TCP socket or a serial port): ASTM through an AstmLink
 * (E1381), HL7 through MLLP. Each complete message is handed to receiveMessage in order (one at a
 * time per line, so a burst is stored in the order sent, each once); an HL7 message is answered
 * with its ACK after the commit. With order download, the line's idle moments send orders.
 */
export function attachSession(
  db: Db,
  conn: ConnectionRow,
  socket: Duplex,
  log: InterfaceLog,
  timings: LinkTimings = {},
  /** The line is up (a TCP socket connected, a serial port open): orders may go out. */
  isOpen: () => boolean = () => !socket.destroyed && (!(socket instanceof net.Socket) || socket.readyState === 'open'),
): () => void {
  let chain: Promise<unknown> = Promise.resolve();
  const queue = (fn: () => Promise<unknown>) => {
    chain = chain.then(fn).catch((err: unknown) => {
      if (err instanceof LabClosedError) {
        // Not acknowledged (HL7) and the line closed: the machine keeps its results to send again.
        log.warn({ connection: conn.id }, 'a message for a closed lab was refused; the line is closed');
        if (socket instanceof net.Socket) socket.destroy();
      } else log.error({ err, connection: conn.id }, 'an interface message failed');
    });
  };
  const write = (b: Buffer) => {
    if (!socket.destroyed) socket.write(b);
  };
  const maxBytes = (conn.max_message_kib ?? MAX_MESSAGE_KIB_DEFAULT) * 1024;
  /** A TCP line is closed on abuse; a serial port cannot be, it keeps refusing instead. */
  const hangUp = () => {
    if (socket instanceof net.Socket) socket.end(() => socket.destroy());
  };
  /**
   * Every callback of the line runs through here: an error in a parser or a handler is logged on
   * its connection and the line closed, never thrown up to the event loop (that would end lims
   * for every lab).
   */
  const guard =
    <A extends unknown[]>(what: string, fn: (...a: A) => void) =>
    (...a: A) => {
      try {
        fn(...a);
      } catch (err) {
        log.error({ err, connection: conn.id }, `${what} failed; the line is closed`);
        if (socket instanceof net.Socket) socket.destroy();
      }
    };
  let close: () => void;
  /** Whether the line is free for an order download now; `sendOrder` puts one on it. */
  let idle: () => boolean;
  let sendOrder: (order: OrderToSend) => void;
  /** Orders on the line when it dropped: due again (their claims released), never lost. */
  let inFlight: () => OrderToSend[];
  if (conn.protocol === 'hl7') {
    // An ORM^O01 sent, waiting for the machine's ACK that names its control ID.
    let awaiting: { order: OrderToSend; timer: ReturnType<typeof setTimeout> } | null = null;
    const settle = (ok: boolean, reason?: string) => {
      const a = awaiting;
      if (!a) return;
      awaiting = null;
      clearTimeout(a.timer);
      queue(() => orderSendDone(db, conn, a.order, ok, reason));
    };
    const decoder = new MllpDecoder(
      (bytes) => {
        if (awaiting) {
          const ack = ackOf(bytes);
          if (ack && ack.controlId === awaiting.order.hl7!.controlId) {
            const ok = ack.code === 'AA' || ack.code === 'CA';
            settle(ok, ok ? undefined : `the machine answered ${ack.code}`);
          }
        }
        queue(async () => {
          const r = await receiveMessage(db, await currentRow(db, conn), 'hl7', Buffer.from(bytes));
          if (r.ackText) write(mllpWrap(r.ackText));
          for (const reply of r.replies) {
            write(mllpWrap(reply));
            const sent = !socket.destroyed;
            await logOutbound(
              db,
              conn,
              'hl7',
              Buffer.from(reply, 'utf8'),
              sent,
              sent ? undefined : 'connection closed',
              'DSR^Q03',
            );
          }
        });
      },
      () => {
        log.warn({ connection: conn.id, limit: maxBytes }, 'an HL7 message over the size limit was dropped');
        queue(() =>
          logIncomplete(
            db,
            conn,
            'hl7',
            Buffer.alloc(0),
            `An MLLP block over ${maxBytes / 1024} KiB (this connection's limit) was dropped`,
          ),
        );
      },
      maxBytes,
    );
    socket.on(
      'data',
      guard('reading an HL7 line', (d: Buffer) => decoder.receive(d)),
    );
    idle = () => awaiting === null;
    sendOrder = (order) => {
      awaiting = {
        order,
        timer: setTimeout(
          guard('waiting for an HL7 ACK', () => settle(false, 'no ACK from the machine')),
          timings.ackTimeoutMs ?? 15_000,
        ),
      };
      write(mllpWrap(order.hl7!.text));
    };
    inFlight = () => {
      const a = awaiting;
      awaiting = null;
      if (a) clearTimeout(a.timer);
      return a ? [a.order] : [];
    };
    close = () => {
      // The line closed inside a block: the half is logged, never applied.
      const half = decoder.pending();
      if (half) queue(() => logIncomplete(db, conn, 'hl7', Buffer.from(half), 'connection closed'));
    };
  } else {
    // What lims queued on the link, in order: a query answer, or an order download (with its row).
    const pendingOut: { records: string[]; order?: OrderToSend }[] = [];
    const { orderPollMs: _poll, ...linkTimings } = timings;
    const link: AstmLink = new AstmLink({
      ...linkTimings,
      lenient: conn.lenient === 1,
      maxMessageBytes: maxBytes,
      write,
      onMessage: (text) =>
        queue(async () => {
          const answers = (await receiveAstmText(db, await currentRow(db, conn), text)).flatMap((r) => r.answers);
          if (answers.length) {
            const records = buildOrderRecords(answers);
            pendingOut.push({ records });
            link.send(records);
          }
        }),
      onAbort: (reason, text) => {
        if (text) queue(() => logIncomplete(db, conn, 'astm', Buffer.from(text, 'latin1'), reason));
      },
      onOverflow: (reason, text) => {
        log.warn({ connection: conn.id, limit: maxBytes }, 'an ASTM transmission over the limit was refused');
        // What came before the limit is logged in part: the message log needs the sender's headers, not megabytes.
        const head = Buffer.from(text.slice(0, 64 * 1024), 'latin1');
        queue(() => logIncomplete(db, conn, 'astm', head, `Refused: ${reason}; the line was closed`));
        hangUp();
      },
      onError: (err) => log.error({ err, connection: conn.id }, 'an ASTM link timer failed'),
      onSendDone: (ok, reason) => {
        const out = pendingOut.shift();
        if (!out) return;
        queue(() =>
          out.order
            ? orderSendDone(db, conn, out.order, ok, reason)
            : logOutbound(db, conn, 'astm', Buffer.from(out.records.join('\r'), 'latin1'), ok, reason),
        );
      },
    });
    socket.on(
      'data',
      guard('reading an ASTM line', (d: Buffer) => link.receive(d)),
    );
    idle = () => link.status === 'idle' && pendingOut.length === 0;
    sendOrder = (order) => {
      pendingOut.push({ records: order.records, order });
      link.send(order.records);
    };
    inFlight = () => pendingOut.splice(0).flatMap((out) => (out.order ? [out.order] : []));
    close = () => link.close();
  }
  // Order download: while the machine is connected and the line idle, the next due order goes out.
  let pump: ReturnType<typeof setInterval> | null = null;
  if (conn.send_orders === 1) {
    let busy = false;
    pump = setInterval(
      guard('the order download', () => {
        if (busy || !isOpen() || !idle()) return;
        busy = true;
        queue(async () => {
          try {
            const order = await nextOrderToSend(db, conn);
            if (order && !socket.destroyed) sendOrder(order);
            else if (order) await orderNotTaken(db, order.row, 'connection closed');
          } finally {
            busy = false;
          }
        });
      }),
      timings.orderPollMs ?? 5_000,
    );
  }
  const closeLine = close;
  close = () => {
    if (pump) clearInterval(pump);
    closeLine();
    for (const order of inFlight()) queue(() => orderNotTaken(db, order.row, 'connection closed'));
  };
  socket.on('error', (err: Error) =>
    log.warn({ err: err.message, connection: conn.id }, 'a machine connection failed'),
  );
  let ended = false;
  const endOnce = () => {
    if (ended) return;
    ended = true;
    close();
  };
  socket.on('close', endOnce);
  return () => {
    endOnce();
    socket.destroy();
  };
}

/** The code and the control ID an HL7 ACK acknowledges (MSA-1, MSA-2); undefined for anything else. */
function ackOf(bytes: Uint8Array): { code: string; controlId: string } | undefined {
  try {
    const m = parseHl7(Buffer.from(bytes).toString('utf8'));
    if (!m.type.startsWith('ACK')) return undefined;
    const msa = m.segment('MSA');
    return { code: m.get(msa, 1), controlId: m.get(msa, 2) };
  } catch {
    return undefined;
  }
}
