import net from 'node:net';
import { guardedTarget, type OutboundPolicy } from '../net/outbound.js';
import { LOWEST_LISTENER_PORT } from '../../shared/schemas/connections.js';
import type { Db } from '../db/connection.js';
import { logIncomplete } from './receive.js';
import { attachSession, noteStatus, type InterfaceLog, type LinkTimings } from './session.js';
import type { ConnectionRow } from './repository.js';
import { keyOf, type Running } from './running-line.js';

/** The TCP lines: lims listens for the machine (tcp-server) or dials it (tcp-client). */

/**
 * How many lines one listener holds open at once, and how many from one address. An analyzer
 * keeps one (a second while it reconnects); the limits stop one host from holding every socket.
 */
export const LINE_LIMITS = { perListener: 16, perAddress: 4 };

export function startTcpServer(
  db: Db,
  conn: ConnectionRow,
  log: InterfaceLog,
  bindHost: string | undefined,
  timings: LinkTimings,
  limits: typeof LINE_LIMITS,
  allowedHosts: readonly string[] | undefined,
): Running {
  // Saved before the operator's rules (or in a database moved between servers): checked again here.
  const refusedBind =
    conn.host && allowedHosts && !allowedHosts.includes(conn.host)
      ? `The listener may not bind ${conn.host}: this server allows ${allowedHosts.join(', ')} (lims serve --listener-hosts)`
      : conn.port! < LOWEST_LISTENER_PORT
        ? `Port ${conn.port} is a system port; choose ${LOWEST_LISTENER_PORT} or above`
        : null;
  if (refusedBind) {
    noteStatus(db, log, conn.id, 'error', refusedBind);
    log.warn({ connection: conn.id }, refusedBind);
    return { key: keyOf(conn), stop: async () => undefined };
  }
  const sessions = new Set<() => void>();
  const byAddress = new Map<string, number>();
  // A refused line is logged at most once a minute per listener: a flood must not flood the log too.
  let lastRefusalLog = 0;
  const refuse = (socket: net.Socket, address: string, why: string) => {
    socket.destroy();
    const now = Date.now();
    if (now - lastRefusalLog < 60_000) return;
    lastRefusalLog = now;
    log.warn({ connection: conn.id, address }, `a machine line was refused: ${why}`);
    void logIncomplete(db, conn, conn.protocol, Buffer.alloc(0), `A line from ${address} was refused: ${why}`).catch(
      (err: unknown) => log.error({ err, connection: conn.id }, 'a refused line could not be logged'),
    );
  };
  const server = net.createServer((socket) => {
    try {
      const address = socket.remoteAddress ?? 'unknown';
      const open = byAddress.get(address) ?? 0;
      if (open >= limits.perAddress) {
        refuse(socket, address, `${open} lines are open from that address (at most ${limits.perAddress})`);
        return;
      }
      byAddress.set(address, open + 1);
      const end = attachSession(db, conn, socket, log, timings);
      sessions.add(end);
      socket.on('close', () => {
        sessions.delete(end);
        const left = (byAddress.get(address) ?? 1) - 1;
        if (left > 0) byAddress.set(address, left);
        else byAddress.delete(address);
      });
    } catch (err) {
      log.error({ err, connection: conn.id }, 'a machine line could not be opened');
      socket.destroy();
    }
  });
  // Past the listener's limit Node closes the new socket itself and tells us here.
  server.maxConnections = limits.perListener;
  server.on('drop', (data) => {
    const now = Date.now();
    if (now - lastRefusalLog < 60_000) return;
    lastRefusalLog = now;
    const address = data?.remoteAddress ?? 'unknown';
    const why = `the listener holds ${limits.perListener} lines already`;
    log.warn({ connection: conn.id, address }, `a machine line was refused: ${why}`);
    void logIncomplete(db, conn, conn.protocol, Buffer.alloc(0), `A line from ${address} was refused: ${why}`).catch(
      (err: unknown) => log.error({ err, connection: conn.id }, 'a refused line could not be logged'),
    );
  });
  server.on('error', (err: NodeJS.ErrnoException) => {
    const msg =
      err.code === 'EADDRINUSE'
        ? `Port ${conn.port} is in use by another program`
        : err.code === 'EACCES'
          ? `Port ${conn.port} needs privileges lims does not have`
          : `The listener failed: ${err.message}`;
    noteStatus(db, log, conn.id, 'error', msg);
    log.warn({ connection: conn.id, port: conn.port }, msg);
  });
  server.listen({ port: conn.port!, host: conn.host ?? bindHost }, () => {
    noteStatus(db, log, conn.id, 'listening', null);
    log.info({ connection: conn.id, port: conn.port }, 'an interface listens');
  });
  return {
    key: keyOf(conn),
    stop: () =>
      new Promise<void>((resolve) => {
        for (const end of sessions) end();
        server.close(() => resolve());
        if (!server.listening) resolve();
      }),
  };
}

/** lims dials the machine (host:port) and dials again 5 s after the line drops. */
export function startTcpClient(
  db: Db,
  conn: ConnectionRow,
  log: InterfaceLog,
  timings: LinkTimings,
  policy: OutboundPolicy,
): Running {
  let stopped = false;
  let socket: net.Socket | null = null;
  let retry: ReturnType<typeof setTimeout> | null = null;
  const dial = () => {
    if (stopped) return;
    let lookup: net.LookupFunction;
    try {
      // Checked at every dial: the name may resolve elsewhere since the connection was saved.
      ({ lookup } = guardedTarget(conn.host!, policy));
    } catch (err) {
      noteStatus(db, log, conn.id, 'error', `Cannot reach ${conn.host}:${conn.port} (${(err as Error).message})`);
      return;
    }
    const s = net.connect({ host: conn.host!, port: conn.port!, lookup });
    socket = s;
    const end = attachSession(db, conn, s, log, timings);
    s.on('connect', () => noteStatus(db, log, conn.id, 'connected', null));
    s.on('error', (err) =>
      noteStatus(db, log, conn.id, 'error', `Cannot reach ${conn.host}:${conn.port} (${err.message})`),
    );
    s.on('close', () => {
      end();
      if (!stopped) retry = setTimeout(dial, 5_000);
    });
  };
  dial();
  return {
    key: keyOf(conn),
    stop: async () => {
      stopped = true;
      if (retry) clearTimeout(retry);
      socket?.destroy();
    },
  };
}
