import type { Db } from '../db/connection.js';
import type { JobSpec } from '../scheduler.js';
import { nowIso } from '../context.js';
import type { InterfaceLog, LinkTimings } from './session.js';
import { startSerial, type SerialOpener } from './serial.js';
import { enabledConnections, setListenStatus, type ConnectionRow } from './repository.js';
import { keyOf, type Running } from './running-line.js';
import { LINE_LIMITS, startTcpClient, startTcpServer } from './tcp-lines.js';
import { startFolder } from './folder-lines.js';

/**
 * The analyzer listeners of a database: which lines run, restarted as their connections change.
 * The lines themselves: tcp-lines.ts, serial.ts, folder-lines.ts (watched folders, and a captured
 * file read by `importFile`).
 */
export { importFile } from './folder-lines.js';
export { keyOf, LINE_LIMITS, type Running };
export type { InterfaceLog, LinkTimings };

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
