import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { checksum } from '../../src/core/interfaces/astm/frames.js';
import { ACK, ENQ, EOT, NAK, SimMachine } from './interface-support.js';

/**
 * Real analysers' captures (../shared/fixtures/peer-interop, see its SOURCES.md) replayed as the
 * machines send them: ASTM as ENQ, one frame at a time waiting for ACK or NAK (a NAKed frame sent
 * again up to 6 times, then EOT, as E1381 says), EOT; HL7 as MLLP blocks, one at a time, each
 * waiting for its ACK.
 */
export const PEER_DIR = findPeerDir();

/**
 * The captures are not in this repository (one source grants no licence to redistribute them): they
 * are looked for in $LIMS_PEER_FIXTURES, else in `shared/fixtures/peer-interop` beside the checkout
 * or beside any folder above it (a clone or a worktree at any depth of the team's work folder),
 * else in the team's work folder itself.
 */
function findPeerDir(): string {
  if (process.env.LIMS_PEER_FIXTURES) return path.resolve(process.env.LIMS_PEER_FIXTURES);
  for (let dir = process.cwd(); ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'shared/fixtures/peer-interop');
    if (fs.existsSync(path.join(candidate, 'SOURCES.md'))) return candidate;
    // The team's work folder, for a clone made elsewhere (a CI checkout in a temporary folder).
    if (path.dirname(dir) === dir) return '/work/shared/fixtures/peer-interop';
  }
}

export function peerFile(name: string): Buffer {
  const inRepo = path.resolve(process.cwd(), 'test/fixtures/peer-interop', name);
  return fs.readFileSync(fs.existsSync(inRepo) ? inRepo : path.join(PEER_DIR, name));
}

export function peerFixturesPresent(): boolean {
  return (
    fs.existsSync(path.resolve(process.cwd(), 'test/fixtures/peer-interop')) ||
    fs.existsSync(path.join(PEER_DIR, 'SOURCES.md'))
  );
}

/** The frames of an ASTM capture as the line carried them: each from its STX to the next STX. */
export function astmFrames(bytes: Buffer): Buffer[] {
  const out: Buffer[] = [];
  for (let at = bytes.indexOf(0x02); at !== -1;) {
    const next = bytes.indexOf(0x02, at + 1);
    out.push(bytes.subarray(at, next === -1 ? bytes.length : next));
    at = next;
  }
  return out;
}

/** The MLLP blocks of an HL7 capture (VT through FS CR). */
export function mllpBlocks(bytes: Buffer): Buffer[] {
  const out: Buffer[] = [];
  for (let at = bytes.indexOf(0x0b); at !== -1;) {
    const fs_ = bytes.indexOf(0x1c, at);
    const end = fs_ === -1 ? bytes.length : Math.min(bytes.length, fs_ + 2);
    out.push(bytes.subarray(at, end));
    at = bytes.indexOf(0x0b, end);
  }
  return out;
}

/** One field's first non-empty component replaced when it is `from`. */
function swapField(fields: string[], n: number, component: string, from: string, to: string): boolean {
  const parts = (fields[n] ?? '').split(component);
  const i = parts.findIndex((p) => p.trim() !== '');
  if (i === -1 || parts[i]!.trim() !== from) return false;
  parts[i] = parts[i]!.replace(from, to);
  fields[n] = parts.join(component);
  return true;
}

/**
 * The capture with the machine's specimen IDs replaced by the lab's barcodes at one location
 * (`O-3`, `PID-2`): ASTM frame by frame, each frame's checksum computed again and its framing
 * (number, ETX or ETB, what follows the checksum) kept as the machine sent it.
 */
export function withBarcodes(bytes: Buffer, protocol: 'astm' | 'hl7', at: string, ids: Map<string, string>): Buffer {
  const [seg, field] = at.split('-') as [string, string];
  const n = Number(field);
  if (protocol === 'hl7') {
    const text = bytes.toString('utf8');
    return Buffer.from(
      text.replace(new RegExp(`(^|[\\r\\n\\x0b])(${seg}\\|[^\\r\\n]*)`, 'g'), (_m, lead: string, line: string) => {
        const fields = line.split('|');
        for (const [from, to] of ids) if (swapField(fields, n, '^', from, to)) break;
        return lead + fields.join('|');
      }),
      'utf8',
    );
  }
  let continues = false;
  return Buffer.concat(
    astmFrames(bytes).map((frame) => {
      const s = frame.toString('latin1');
      const end = Math.max(s.lastIndexOf('\x03'), s.lastIndexOf('\x17'));
      if (end < 2) return frame;
      const [fn, body, term, trailer] = [s[1]!, s.slice(2, end), s[end]!, s.slice(end + 3)];
      const pieces = body.split('\r').map((piece, i) => {
        if ((i === 0 && continues) || !piece.startsWith(`${seg}|`)) return piece;
        const fields = piece.split('|');
        for (const [from, to] of ids) if (swapField(fields, n - 1, '^', from, to)) break;
        return fields.join('|');
      });
      // ETB with the record's CR before it (cobas c111 ends every record so): the next frame starts a record.
      continues = term === '\x17' && !body.endsWith('\r');
      const inner = Buffer.from(`\x02${fn}${pieces.join('\r')}${term}`, 'latin1');
      return Buffer.concat([
        inner,
        Buffer.from(checksum(inner, 1, inner.length - 1), 'latin1'),
        Buffer.from(trailer, 'latin1'),
      ]);
    }),
  );
}

/** A line to the listener; a listener restarting (its connection just saved) is dialled again. */
async function connect(port: number): Promise<{ socket: net.Socket; reader: SimMachine }> {
  for (let attempt = 0; ; attempt++) {
    const socket = net.connect({ port, host: '127.0.0.1' });
    try {
      await new Promise<void>((r, j) => socket.once('connect', r).once('error', j));
      const reader = SimMachine.on(socket);
      // A listener closing for its restart takes the line and drops it at once.
      await new Promise((r) => setTimeout(r, 150));
      if (!socket.destroyed && !socket.readableEnded) return { socket, reader };
    } catch (err) {
      if (attempt >= 40) throw err;
    }
    socket.destroy();
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * ASTM as the machine sends it: ENQ, each frame until ACKed (6 tries), EOT. Returns lims's answer
 * to ENQ and to each try of each frame; `gaveUp` when a frame was refused six times (then EOT).
 */
export async function replayAstm(port: number, frames: Buffer[]): Promise<{ replies: number[]; gaveUp: boolean }> {
  const { socket, reader } = await connect(port);
  const replies: number[] = [];
  let gaveUp = false;
  try {
    socket.write(Buffer.from([ENQ]));
    replies.push(await reader.next());
    if (replies[0] !== ACK) return { replies, gaveUp: true };
    for (const f of frames) {
      let answer = NAK;
      for (let attempt = 0; attempt < 6 && answer !== ACK; attempt++) {
        socket.write(f);
        answer = await reader.next();
        replies.push(answer);
      }
      if (answer !== ACK) {
        gaveUp = true;
        break;
      }
    }
    socket.write(Buffer.from([EOT]));
    await new Promise((r) => setTimeout(r, 50));
    return { replies, gaveUp };
  } finally {
    socket.end();
    socket.destroy();
  }
}

/** HL7 over MLLP: each block, then its ACK. Returns each ACK's MSA-1 and MSA-2. */
export async function replayHl7(port: number, blocks: Buffer[]): Promise<{ code: string; control: string }[]> {
  const { socket, reader } = await connect(port);
  const out: { code: string; control: string }[] = [];
  try {
    for (const b of blocks) {
      socket.write(b);
      const ack = await reader.block();
      const msa =
        ack
          .split('\r')
          .find((s) => s.startsWith('MSA'))
          ?.split('|') ?? [];
      out.push({ code: msa[1] ?? '', control: msa[2] ?? '' });
    }
    return out;
  } finally {
    socket.end();
    socket.destroy();
  }
}
