import type { ConnectionRow } from './repository.js';

/** A started line (a TCP listener or dialler, a serial port, a watched folder), as the listeners hold it. */
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
