import type { Duplex } from 'node:stream';
import type { Db } from '../db/connection.js';
import { SERIAL_DEFAULTS } from '../../shared/schemas/connections.js';
import type { ConnectionRow } from './repository.js';
import { attachSession, noteStatus, type InterfaceLog, type LinkTimings } from './session.js';

/**
 * Serial transport: a machine on an RS-232 line (ASTM E1381 as most analysers speak it, or HL7
 * over MLLP). The port is opened through the `serialport` package, imported only when a serial
 * connection runs, so a lab without one never loads it. A port that cannot be opened (unplugged,
 * in use, no such device) is an error on the connection, tried again every 5 s, as is a port that
 * closes (a USB adapter pulled out).
 */
export interface SerialOptions {
  path: string;
  baudRate: number;
  dataBits: 7 | 8;
  parity: 'none' | 'even' | 'odd';
  stopBits: 1 | 2;
}

/**
 * An open serial port as a stream; `isOpen` while the line is usable. `close` releases the device
 * (a serialport stream's destroy() does not: the port would stay locked until the process ends).
 */
export type SerialLine = Duplex & { readonly isOpen: boolean; close(cb?: (err: Error | null) => void): void };
export type SerialOpener = (o: SerialOptions) => Promise<SerialLine>;

interface SerialPortModule {
  SerialPort: new (o: SerialOptions & { autoOpen: false }) => SerialLine & {
    open(cb: (err: Error | null) => void): void;
  };
}

/** The package's name in a variable: it is loaded at run time only, and only when a serial port runs. */
const SERIALPORT_PACKAGE: string = 'serialport';

/** Opens the port with the serialport package (its prebuilt native binding). */
export const openNativeSerial: SerialOpener = async (o) => {
  let mod: SerialPortModule;
  try {
    mod = (await import(SERIALPORT_PACKAGE)) as SerialPortModule;
  } catch {
    throw new Error('the serial port library (npm package serialport) is not installed');
  }
  const port = new mod.SerialPort({ ...o, autoOpen: false });
  await new Promise<void>((resolve, reject) => port.open((err) => (err ? reject(err) : resolve())));
  return port;
};

export function serialOptionsOf(conn: ConnectionRow): SerialOptions {
  return {
    path: conn.path!,
    baudRate: conn.baud_rate ?? SERIAL_DEFAULTS.baud_rate,
    dataBits: (conn.data_bits ?? SERIAL_DEFAULTS.data_bits) as 7 | 8,
    parity: (conn.parity ?? SERIAL_DEFAULTS.parity) as SerialOptions['parity'],
    stopBits: (conn.stop_bits ?? SERIAL_DEFAULTS.stop_bits) as 1 | 2,
  };
}

export function startSerial(
  db: Db,
  conn: ConnectionRow,
  log: InterfaceLog,
  timings: LinkTimings,
  open: SerialOpener = openNativeSerial,
  key: string,
): { key: string; stop: () => Promise<void> } {
  let stopped = false;
  let line: SerialLine | null = null;
  let retry: ReturnType<typeof setTimeout> | null = null;
  const again = () => {
    if (!stopped) retry = setTimeout(() => void run(), 5_000);
  };
  const connect = async () => {
    if (stopped) return;
    const o = serialOptionsOf(conn);
    try {
      line = await open(o);
    } catch (err) {
      noteStatus(db, log, conn.id, 'error', `Cannot open ${o.path} (${(err as Error).message})`);
      log.warn({ connection: conn.id }, 'a serial port cannot be opened');
      again();
      return;
    }
    const l = line;
    if (stopped) {
      l.close();
      return;
    }
    const end = attachSession(db, conn, l, log, timings, () => l.isOpen && !l.destroyed);
    noteStatus(db, log, conn.id, 'connected', null);
    l.on('close', () => {
      end();
      if (stopped) return;
      noteStatus(db, log, conn.id, 'error', `${o.path} closed`);
      again();
    });
  };
  const run = () =>
    connect().catch((err: unknown) => {
      log.error({ err, connection: conn.id }, 'a serial line failed');
      again();
    });
  void run();
  return {
    key,
    stop: async () => {
      stopped = true;
      if (retry) clearTimeout(retry);
      const l = line;
      if (l?.isOpen) await new Promise<void>((resolve) => l.close(() => resolve()));
      l?.destroy();
    },
  };
}
