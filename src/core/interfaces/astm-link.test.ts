import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ACK, buildFrame, ENQ, EOT, frameMessage, NAK, STX } from './astm/frames.js';
import { AstmLink } from './astm/link.js';
import { decodeTranscript } from './astm/transcript.js';
import { astmMessages } from './inbound.js';

// The E1381 link against a simulated machine (receiving and sending, its limits and timers), and
// transcripts: captured bytes read back through the same frames. The frames, records and HL7
// parsers on the public samples: protocol.test.ts.
const DIR = join(import.meta.dirname, '../../../test/fixtures/external');
const fixture = (name: string) => readFileSync(join(DIR, name));

function harness(opts: Partial<ConstructorParameters<typeof AstmLink>[0]> = {}) {
  const sent: number[][] = [];
  const messages: string[] = [];
  const aborts: string[] = [];
  const link = new AstmLink({
    write: (b) => sent.push([...b]),
    onMessage: (t) => messages.push(t),
    onAbort: (r) => aborts.push(r),
    ...opts,
  });
  const replies = () => sent.map((b) => (b.length === 1 ? b[0] : -1));
  return { link, sent, messages, aborts, replies };
}

const H = 'H|\\^&|||SIM\r';
const MSG = [H, 'P|1\r', 'O|1|BC1||^^^GLU\r', 'R|1|^^^GLU|5.5|mmol/l||N||F\r', 'L|1|N\r'];

describe('E1381 link (receiving from a simulated machine)', () => {
  afterEach(() => vi.useRealTimers());

  it('ENQ, frames, EOT: each answered ACK and the message handed on once', () => {
    const h = harness();
    h.link.receive(Buffer.from([ENQ]));
    for (const f of frameMessage(MSG)) h.link.receive(f);
    h.link.receive(Buffer.from([EOT]));
    expect(h.replies()).toEqual([ACK, ACK, ACK, ACK, ACK, ACK]);
    expect(h.messages).toEqual([MSG.join('')]);
  });

  it('a lost ACK: the machine sends the same frame again; it is ACKed and kept once', () => {
    const h = harness();
    const frames = frameMessage(MSG);
    h.link.receive(Buffer.from([ENQ]));
    h.link.receive(frames[0]!);
    h.link.receive(frames[1]!);
    h.link.receive(frames[1]!); // our ACK to frame 2 never arrived
    for (const f of frames.slice(2)) h.link.receive(f);
    h.link.receive(Buffer.from([EOT]));
    expect(h.replies().every((r) => r === ACK)).toBe(true);
    expect(h.messages).toEqual([MSG.join('')]);
  });

  it('a bad checksum is answered NAK; the retransmitted frame is taken', () => {
    const h = harness();
    const frames = frameMessage(MSG);
    const bad = Buffer.from(frames[2]!);
    bad[5] = bad[5]! ^ 0x01;
    h.link.receive(Buffer.from([ENQ]));
    h.link.receive(frames[0]!);
    h.link.receive(frames[1]!);
    h.link.receive(bad);
    expect(h.replies().at(-1)).toBe(NAK);
    for (const f of frames.slice(2)) h.link.receive(f);
    h.link.receive(Buffer.from([EOT]));
    expect(h.messages).toEqual([MSG.join('')]);
  });

  it('a wrong frame number is refused; frames split across reads are reassembled', () => {
    const h = harness();
    const frames = frameMessage(MSG);
    h.link.receive(Buffer.from([ENQ]));
    h.link.receive(frames[1]!); // frame 2 before frame 1
    expect(h.replies().at(-1)).toBe(NAK);
    const all = Buffer.concat([...frames, Buffer.from([EOT])]);
    for (let i = 0; i < all.length; i += 7) h.link.receive(all.subarray(i, i + 7));
    expect(h.messages).toEqual([MSG.join('')]);
  });

  it('a receive timeout drops the transmission: nothing is handed on', () => {
    vi.useFakeTimers();
    const h = harness();
    const frames = frameMessage(MSG);
    h.link.receive(Buffer.from([ENQ]));
    h.link.receive(frames[0]!);
    h.link.receive(frames[1]!);
    vi.advanceTimersByTime(30_001);
    expect(h.aborts).toEqual(['timeout']);
    // The machine starts over: the new transmission is whole.
    h.link.receive(Buffer.from([ENQ]));
    for (const f of frames) h.link.receive(f);
    h.link.receive(Buffer.from([EOT]));
    expect(h.messages).toEqual([MSG.join('')]);
  });

  it('EOT inside an open record (ETB without ETX) drops the transmission', () => {
    const h = harness();
    const frames = frameMessage([H, `R|1|^^^X|${'1'.repeat(300)}`, 'L|1']);
    h.link.receive(Buffer.from([ENQ]));
    h.link.receive(frames[0]!);
    h.link.receive(frames[1]!); // ETB
    h.link.receive(Buffer.from([EOT]));
    expect(h.messages).toEqual([]);
    expect(h.aborts).toEqual(['EOT inside an unfinished record']);
  });

  it('a transmission past its size limit is refused: NAK, nothing handed on, every later frame refused until EOT', () => {
    const overflows: string[] = [];
    const h = harness({ maxMessageBytes: 1000, onOverflow: (reason) => overflows.push(reason) });
    // Five records of 230 characters: one frame each, 1,155 characters in all.
    const records = Array.from({ length: 5 }, (_, i) => `R|${i + 1}|^^^X|${'9'.repeat(220)}\r`);
    const frames = frameMessage(records);
    h.link.receive(Buffer.from([ENQ]));
    for (const f of frames) h.link.receive(f);
    h.link.receive(Buffer.from([EOT]));
    expect(h.replies()).toEqual([ACK, ACK, ACK, ACK, ACK, NAK]);
    expect(h.messages).toEqual([]);
    expect(overflows).toEqual(['a transmission over 1 KiB']);
    // The line is usable again after EOT: the next transmission within the limit is taken whole.
    h.link.receive(Buffer.from([ENQ]));
    for (const f of frameMessage(MSG)) h.link.receive(f);
    h.link.receive(Buffer.from([EOT]));
    expect(h.messages).toEqual([MSG.join('')]);
  });

  it('the probe: endless valid continuation frames (ETB, never EOT) stop at the limit and memory stays bounded', () => {
    const overflows: string[] = [];
    const h = harness({ lenient: true, maxMessageBytes: 256 * 1024, onOverflow: (r) => overflows.push(r) });
    h.link.receive(Buffer.from([ENQ]));
    // 64 KiB frames numbered 1..7,0,1..., each ending in ETB with a right checksum, as the probe sent.
    const body = 'R|1|^^^X|' + '7'.repeat(64 * 1024 - 20);
    for (let i = 0; i < 40; i++) {
      const n = (i + 1) % 8;
      const inner = Buffer.from(`${n}${body}\x17`, 'latin1');
      let sum = 0;
      for (const b of inner) sum = (sum + b) & 0xff;
      h.link.receive(
        Buffer.concat([
          Buffer.from([STX]),
          inner,
          Buffer.from(sum.toString(16).toUpperCase().padStart(2, '0') + '\r\n'),
        ]),
      );
    }
    const replies = h.replies();
    expect(replies.slice(0, 4)).toEqual([ACK, ACK, ACK, ACK]);
    expect(replies.slice(5).every((r) => r === NAK)).toBe(true);
    expect(overflows).toHaveLength(1);
    expect(h.messages).toEqual([]);
  });

  it('a frame-count limit refuses a transmission of many small frames', () => {
    const overflows: string[] = [];
    const h = harness({ maxFrames: 3, onOverflow: (r) => overflows.push(r) });
    h.link.receive(Buffer.from([ENQ]));
    for (const f of frameMessage(MSG)) h.link.receive(f);
    h.link.receive(Buffer.from([EOT]));
    expect(h.replies()).toEqual([ACK, ACK, ACK, ACK, NAK, NAK]);
    expect(overflows).toEqual(['a transmission of more than 3 frames']);
    expect(h.messages).toEqual([]);
  });

  it('a timer whose work throws goes to onError; it never reaches the event loop', () => {
    vi.useFakeTimers();
    const errors: unknown[] = [];
    const h = harness({
      onAbort: () => {
        throw new Error('the log is down');
      },
      onError: (e) => errors.push(e),
    });
    h.link.receive(Buffer.from([ENQ]));
    h.link.receive(frameMessage(MSG)[0]!);
    expect(() => vi.advanceTimersByTime(30_001)).not.toThrow();
    expect(errors).toHaveLength(1);
  });

  it('strict mode refuses the 619-byte cobas frame; lenient mode takes it', () => {
    const cobas = fixture('astm_e1381_roche_cobas_c311.txt');
    const strict = harness();
    strict.link.receive(Buffer.from([ENQ]));
    strict.link.receive(cobas);
    expect(strict.replies()).toContain(NAK);
    const lenient = harness({ lenient: true });
    lenient.link.receive(Buffer.from([ENQ]));
    lenient.link.receive(cobas);
    lenient.link.receive(Buffer.from([EOT]));
    expect(lenient.replies()).toEqual([ACK, ACK]);
    expect(astmMessages(lenient.messages[0]!).messages).toHaveLength(1);
  });

  it('fuzzed bytes and frames never throw and never hand on a message that is not whole', () => {
    let seed = 42;
    const rand = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
    const good = frameMessage(MSG);
    for (let run = 0; run < 300; run++) {
      const h = harness({ lenient: run % 2 === 0 });
      const parts: Buffer[] = [Buffer.from([ENQ])];
      for (const f of good) {
        const g = Buffer.from(f);
        if (rand() < 0.3) g[Math.floor(rand() * g.length)] = Math.floor(rand() * 256);
        if (rand() < 0.1) parts.push(g.subarray(0, Math.floor(rand() * g.length)));
        else parts.push(g);
        if (rand() < 0.1) parts.push(Buffer.from(Array.from({ length: 20 }, () => Math.floor(rand() * 256))));
      }
      parts.push(Buffer.from([EOT]));
      const all = Buffer.concat(parts);
      expect(() => {
        for (let i = 0; i < all.length; i += 1 + Math.floor(rand() * 40)) h.link.receive(all.subarray(i, i + 40));
      }).not.toThrow();
      for (const text of h.messages) {
        // Whatever came through is made of whole, checked frames: every result message it holds is complete.
        const { messages } = astmMessages(text);
        for (const m of messages) expect(m.terminated).toBe(true);
      }
      h.link.close();
    }
  });
});

describe('E1381 link (sending to a simulated machine)', () => {
  afterEach(() => vi.useRealTimers());

  it('ENQ, frames on ACK, EOT; a NAKed frame is sent again', () => {
    const h = harness();
    let done: boolean | null = null;
    const link = new AstmLink({
      write: (b) => h.sent.push([...b]),
      onMessage: () => {},
      onSendDone: (ok) => (done = ok),
    });
    link.send(['H|\\^&', 'L|1|N']);
    expect(h.sent).toEqual([[ENQ]]);
    link.receive(Buffer.from([ACK]));
    expect(h.sent[1]![0]).toBe(STX);
    link.receive(Buffer.from([NAK]));
    expect(h.sent[2]).toEqual(h.sent[1]);
    link.receive(Buffer.from([ACK]));
    link.receive(Buffer.from([ACK]));
    expect(h.sent.at(-1)).toEqual([EOT]);
    expect(done).toBe(true);
  });

  it('no answer to a frame six times: EOT and the send fails', () => {
    vi.useFakeTimers();
    const sent: number[][] = [];
    let done: boolean | null = null;
    const link = new AstmLink({
      write: (b) => sent.push([...b]),
      onMessage: () => {},
      onSendDone: (ok) => (done = ok),
    });
    link.send(['H|\\^&', 'L|1|N']);
    link.receive(Buffer.from([ACK]));
    for (let i = 0; i < 6; i++) vi.advanceTimersByTime(15_001);
    expect(sent.filter((b) => b[0] === STX)).toHaveLength(6);
    expect(sent.at(-1)).toEqual([EOT]);
    expect(done).toBe(false);
  });

  it('contention: the machine sends ENQ while ours waits; lims yields, receives, and sends after', () => {
    vi.useFakeTimers();
    const sent: number[][] = [];
    const got: string[] = [];
    const link = new AstmLink({
      write: (b) => sent.push([...b]),
      onMessage: (t) => got.push(t),
      contentionRetryMs: 1_000,
    });
    link.send(['H|\\^&', 'L|1|N']);
    expect(sent).toEqual([[ENQ]]);
    link.receive(Buffer.from([ENQ])); // the machine's own ENQ
    expect(sent.at(-1)).toEqual([ACK]);
    for (const f of frameMessage(MSG)) link.receive(f);
    link.receive(Buffer.from([EOT]));
    expect(got).toEqual([MSG.join('')]);
    const before = sent.length;
    vi.advanceTimersByTime(1_001);
    expect(sent.slice(before)).toEqual([[ENQ]]);
    link.receive(Buffer.from([ACK]));
    expect(sent.at(-1)![0]).toBe(STX);
  });

  it('a NAK to ENQ (the machine is busy) retries after 10 s', () => {
    vi.useFakeTimers();
    const sent: number[][] = [];
    const link = new AstmLink({ write: (b) => sent.push([...b]), onMessage: () => {} });
    link.send(['H|\\^&', 'L|1|N']);
    link.receive(Buffer.from([NAK]));
    vi.advanceTimersByTime(9_999);
    expect(sent).toEqual([[ENQ]]);
    vi.advanceTimersByTime(2);
    expect(sent).toEqual([[ENQ], [ENQ]]);
  });
});

describe('transcripts', () => {
  it('a transcript whose frame fails its checksum is refused whole', () => {
    const bytes = Buffer.from(fixture('astm_e1381_sysmex_xn550_cbc.txt'));
    bytes[100] = 0x41;
    expect(decodeTranscript(bytes, true).ok).toBe(false);
    const text = `${MSG.join('')}`;
    expect(decodeTranscript(Buffer.from(text), false)).toMatchObject({ ok: true, text, frames: 0 });
    expect(buildFrame(1, 'L|1', true)[0]).toBe(STX);
  });
});
