import net from 'node:net';
import type { Duplex } from 'node:stream';
import type { Db } from '../db/connection.js';
import { AstmLink, type AstmLinkOptions } from './astm/link.js';
import { buildOrderRecords } from './astm/records.js';
import { MllpDecoder, mllpWrap } from './hl7/mllp.js';
import { logIncomplete, logOutbound, receiveAstmText, receiveMessage } from './receive.js';
import { nextOrderToSend, orderNotTaken, orderSendDone, type OrderToSend } from './orders-out.js';
import type { ConnectionRow } from './repository.js';

export interface InterfaceLog {
  info: (obj: object, msg: string) => void;
  warn: (obj: object, msg: string) => void;
  error: (obj: object, msg: string) => void;
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
    chain = chain
      .then(fn)
      .catch((err: unknown) => log.error({ err, connection: conn.id }, 'an interface message failed'));
  };
  const write = (b: Buffer) => {
    if (!socket.destroyed) socket.write(b);
  };
  let close: () => void;
  if (conn.protocol === 'hl7') {
    const decoder = new MllpDecoder(
      (bytes) =>
        queue(async () => {
          const r = await receiveMessage(db, conn, 'hl7', Buffer.from(bytes));
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
        }),
      () => queue(() => logIncomplete(db, conn, 'hl7', Buffer.alloc(0), 'An MLLP block over 1 MiB was dropped')),
    );
    socket.on('data', (d: Buffer) => decoder.receive(d));
    close = () => {
      // The line closed inside a block: the half is logged, never applied.
      const half = decoder.pending();
      if (half) queue(() => logIncomplete(db, conn, 'hl7', Buffer.from(half), 'connection closed'));
    };
  } else {
    // What lims queued on the link, in order: a query answer, or an order download (with its row).
    const pendingOut: { records: string[]; order?: OrderToSend }[] = [];
    const { orderPollMs, ...linkTimings } = timings;
    const link: AstmLink = new AstmLink({
      ...linkTimings,
      lenient: conn.lenient === 1,
      write,
      onMessage: (text) =>
        queue(async () => {
          const answers = (await receiveAstmText(db, conn, text)).flatMap((r) => r.answers);
          if (answers.length) {
            const records = buildOrderRecords(answers);
            pendingOut.push({ records });
            link.send(records);
          }
        }),
      onAbort: (reason, text) => {
        if (text) queue(() => logIncomplete(db, conn, 'astm', Buffer.from(text, 'latin1'), reason));
      },
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
    socket.on('data', (d: Buffer) => link.receive(d));
    // Order download: while the machine is connected and the line idle, the next due order goes out.
    let pump: ReturnType<typeof setInterval> | null = null;
    if (conn.send_orders === 1) {
      let busy = false;
      pump = setInterval(() => {
        if (busy || !isOpen() || link.status !== 'idle' || pendingOut.length) return;
        busy = true;
        queue(async () => {
          try {
            const order = await nextOrderToSend(db, conn);
            if (order && !socket.destroyed) {
              pendingOut.push({ records: order.records, order });
              link.send(order.records);
            } else if (order) await orderNotTaken(db, order.row, 'connection closed');
          } finally {
            busy = false;
          }
        });
      }, orderPollMs ?? 5_000);
    }
    close = () => {
      if (pump) clearInterval(pump);
      link.close();
      // An order on the line when it dropped is due again (its claim released), never lost.
      for (const out of pendingOut.splice(0))
        if (out.order) queue(() => orderNotTaken(db, out.order!.row, 'connection closed'));
    };
  }
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
