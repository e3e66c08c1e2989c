import net from 'node:net';
import { guardedTarget, type OutboundPolicy } from '../net/outbound.js';
import { lstatSync, mkdirSync, readdirSync, readFileSync, renameSync } from 'node:fs';
import { sweepableFolder } from './drop-folder.js';
import { LabClosedError } from '../tenants/open-labs.js';
import { LOWEST_LISTENER_PORT, MAX_MESSAGE_KIB_DEFAULT } from '../../shared/schemas/connections.js';
import { join } from 'node:path';
import type { Db } from '../db/connection.js';
import type { JobSpec } from '../scheduler.js';
import { nowIso } from '../context.js';
import { decodeTranscript } from './astm/transcript.js';
import { MllpDecoder } from './hl7/mllp.js';
import { logIncomplete, receiveAstmText, receiveMessage } from './receive.js';
import { attachSession, noteStatus, type InterfaceLog, type LinkTimings } from './session.js';
import { startSerial, type SerialOpener } from './serial.js';
import { currentRow, enabledConnections, setListenStatus, type ConnectionRow } from './repository.js';

export type { InterfaceLog, LinkTimings };

export interface Running {
  key: string;
  stop: () => Promise<void>;
  /** A watched folder's sweep, run by the `watched-folders` job. */
  sweep?: () => Promise<void>;
}

/**
 * What about a connection makes its listener start again when it changes: the line itself. What a
 * message is read with (code map, profile, name, machine) is read per message (`currentRow`).
 */
export function keyOf(c: ConnectionRow): string {
  return JSON.stringify([
    c.protocol,
    c.transport,
    c.host,
    c.port,
    c.path,
    c.baud_rate,
    c.data_bits,
    c.parity,
    c.stop_bits,
    c.lenient,
    c.max_message_kib,
    c.send_orders,
  ]);
}

/**
 * How many lines one listener holds open at once, and how many from one address. An analyzer
 * keeps one (a second while it reconnects); the limits stop one host from holding every socket.
 */
export const LINE_LIMITS = { perListener: 16, perAddress: 4 };

function startTcpServer(
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
function startTcpClient(
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

/**
 * A watched folder: at once, then at each run of the `watched-folders` job, each file in it is
 * read, stored and applied like a message (ASTM frames or records, or HL7; told apart by their
 * first bytes), then moved to processed/ (or failed/ when it could not be read). A file still being written (changed in the last 2 s) waits.
 */
function startFolder(db: Db, conn: ConnectionRow, log: InterfaceLog, dropRoot: string | null): Running {
  let stopped = false;
  let busy = false;
  const sweep = async () => {
    if (busy || stopped) return;
    busy = true;
    const named = conn.path!;
    try {
      // Checked before every sweep, after links: a folder that leads outside the lab's is never read.
      const dir = sweepableFolder(dropRoot, conn.organization_id, named);
      for (const name of readdirSync(dir)) {
        const file = join(dir, name);
        // lstat: a link is not followed, so no file outside the folder is read or moved.
        const st = lstatSync(file);
        if (!st.isFile() || Date.now() - st.mtimeMs < 2_000) continue;
        const limit = (conn.max_message_kib ?? MAX_MESSAGE_KIB_DEFAULT) * 1024;
        const ok =
          st.size > limit
            ? await logIncomplete(
                db,
                conn,
                'folder',
                Buffer.alloc(0),
                `A file over ${limit / 1024} KiB was refused`,
              ).then(() => false)
            : await importFile(db, await currentRow(db, conn), readFileSync(file)).then(
                (r) => r.ok,
                (err: unknown) => (err instanceof LabClosedError ? null : false),
              );
        // The lab was closed during the sweep: the file stays where it is, for after reactivation.
        if (ok === null) break;
        const to = join(dir, ok ? 'processed' : 'failed');
        mkdirSync(to, { recursive: true });
        renameSync(file, join(to, name));
      }
      await setListenStatus(db, conn.id, 'listening', null, nowIso());
    } catch (err) {
      noteStatus(db, log, conn.id, 'error', `The folder ${named} cannot be read (${(err as Error).message})`);
      log.warn({ connection: conn.id }, 'a watched folder cannot be read');
    } finally {
      busy = false;
    }
  };
  const run = () =>
    sweep().catch((err: unknown) => log.error({ err, connection: conn.id }, 'a watched folder sweep failed'));
  void run();
  return {
    key: keyOf(conn),
    sweep: run,
    stop: async () => {
      stopped = true;
    },
  };
}

/**
 * A captured transcript or a machine's file: ASTM (frames checked, or bare records) or HL7 (one
 * or more messages, MLLP-wrapped or not). Each message is stored and applied once.
 */
export async function importFile(
  db: Db,
  conn: ConnectionRow,
  bytes: Buffer,
): Promise<
  { ok: true; messages: number; entered: number; unmatched: number; ignored: number } | { ok: false; error: string }
> {
  const text = bytes.toString('latin1');
  const isHl7 =
    conn.protocol === 'hl7' ||
    (conn.protocol === 'folder' && text.replace(String.fromCharCode(0x0b), '').trimStart().startsWith('MSH'));
  let entered = 0;
  let unmatched = 0;
  let ignored = 0;
  if (isHl7) {
    const parts: Buffer[] = [];
    if (bytes.includes(0x0b)) new MllpDecoder((b) => parts.push(Buffer.from(b))).receive(bytes);
    else for (const m of bytes.toString('utf8').split(/(?=^MSH)/m)) if (m.trim()) parts.push(Buffer.from(m, 'utf8'));
    for (const p of parts) {
      const r = await receiveMessage(db, conn, 'hl7', p);
      entered += r.entered;
      unmatched += r.unmatched;
      ignored += r.ignored;
    }
    return { ok: true, messages: parts.length, entered, unmatched, ignored };
  }
  const decoded = decodeTranscript(bytes, conn.lenient === 1);
  if (!decoded.ok) return decoded;
  const received = await receiveAstmText(db, conn, decoded.text);
  for (const r of received) {
    entered += r.entered;
    unmatched += r.unmatched;
    ignored += r.ignored;
  }
  return { ok: true, messages: received.length, entered, unmatched, ignored };
}

export interface ListenerOptions {
  /** How often the connections are read again (LISTENER_POLL_MS). */
  pollMs?: number;
  bindHost?: string;
  only?: (c: ConnectionRow) => boolean;
  timings?: LinkTimings;
  /** Opens a serial port (tests: @serialport/binding-mock); the serialport package by default. */
  openSerial?: SerialOpener;
  /** The root of the labs' watched folders (lims serve --drop-root); none: folder connections stay in error. */
  dropRoot?: string;
  /** Addresses a TCP listener may bind (the server's --host and --listener-hosts); none: any. */
  listenerHosts?: readonly string[];
  /** Open lines per TCP listener and per address (LINE_LIMITS). */
  lineLimits?: Partial<typeof LINE_LIMITS>;
  /** The operator's --allow-private-outbound: tcp-client lines may dial any address. */
  allowPrivateOutbound?: boolean;
}

/** How often the listeners follow the connections' changes, and the watched folders are swept. */
export const LISTENER_POLL_MS = 3_000;
export const FOLDER_SWEEP_MS = 5_000;

/**
 * The listeners of every enabled connection on this database, following changes: `reconcile` reads
 * the connections again and starts, restarts or stops listeners to match (so a connection enabled on
 * the screen listens within seconds, in `lims serve` or `lims interface listen`), serial ports
 * included; `sweepFolders` reads the watched folders. Both are run by a scheduler as the jobs
 * `jobs` lists (lims serve: src/server/jobs.ts); the first reconcile runs at once (`ready`).
 */
export function interfaceListeners(
  getDb: () => Db,
  log: InterfaceLog,
  opts: ListenerOptions = {},
): { ready: Promise<void>; jobs: JobSpec[]; stop: () => Promise<void> } {
  const running = new Map<number, Running>();
  let stopped = false;
  const reconcile = async () => {
    if (stopped) return;
    const db = getDb();
    const wanted = (await enabledConnections(db)).filter((c) => (opts.only ? opts.only(c) : true));
    const ids = new Set(wanted.map((c) => c.id));
    for (const [id, r] of running) {
      const now = wanted.find((c) => c.id === id);
      if (!ids.has(id) || (now && keyOf(now) !== r.key)) {
        running.delete(id);
        await r.stop();
        if (!ids.has(id)) await setListenStatus(db, id, 'stopped', null, nowIso());
      }
    }
    for (const c of wanted) {
      if (running.has(c.id) || stopped) continue;
      if (c.transport === 'tcp-server')
        running.set(
          c.id,
          startTcpServer(
            db,
            c,
            log,
            opts.bindHost,
            opts.timings ?? {},
            { ...LINE_LIMITS, ...opts.lineLimits },
            opts.listenerHosts,
          ),
        );
      else if (c.transport === 'tcp-client')
        running.set(
          c.id,
          startTcpClient(db, c, log, opts.timings ?? {}, {
            kind: 'lan',
            allowPrivate: opts.allowPrivateOutbound ?? false,
          }),
        );
      else if (c.transport === 'folder') running.set(c.id, startFolder(db, c, log, opts.dropRoot ?? null));
      else if (c.transport === 'serial')
        running.set(c.id, startSerial(db, c, log, opts.timings ?? {}, opts.openSerial, keyOf(c)));
    }
  };
  const sweepFolders = async () => {
    for (const r of [...running.values()]) if (r.sweep && !stopped) await r.sweep();
  };
  const ready = reconcile().catch((err: unknown) => log.error({ err }, 'the interface listeners could not start'));
  const pollMs = opts.pollMs ?? LISTENER_POLL_MS;
  return {
    ready,
    jobs: [
      {
        name: 'interface-listeners',
        description: 'Starts, restarts and stops analyzer listeners as connections change',
        periodMs: pollMs,
        run: () => ready.then(reconcile),
      },
      {
        name: 'watched-folders',
        description: "Reads the analyzers' watched folders",
        periodMs: FOLDER_SWEEP_MS,
        run: sweepFolders,
      },
    ],
    /** Call after the scheduler running `jobs` has stopped. */
    stop: async () => {
      stopped = true;
      await ready;
      const db = getDb();
      for (const [id, r] of running) {
        await r.stop();
        await setListenStatus(db, id, 'stopped', null, nowIso()).catch(() => undefined);
      }
      running.clear();
    },
  };
}
