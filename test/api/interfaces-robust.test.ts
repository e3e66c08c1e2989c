import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLab, type TestLab } from '../helpers.js';
import {
  ACK,
  createConnectionAs,
  ENQ,
  EOT,
  freePort,
  listeningOf,
  listenersFor,
  SimMachine,
  until,
} from './interface-support.js';
import { seedSample } from './lab-records.js';
import { frameMessage, STX } from '../../src/core/interfaces/astm/frames.js';
import { astmMessages, inboundFromAstm, inboundFromHl7 } from '../../src/core/interfaces/inbound.js';
import { MllpDecoder, mllpWrap } from '../../src/core/interfaces/hl7/mllp.js';
import { parseHl7 } from '../../src/core/interfaces/hl7/message.js';
import type { Connection } from '../../src/shared/schemas/connections.js';

/**
 * The listeners under abuse: fuzzed ASTM frames and HL7 blocks (seeded, so a failure replays),
 * a machine that drops the line mid-transmission and sends again, and a burst of results. The
 * properties: the listener keeps answering, a message is applied whole or not at all, and every
 * result is stored once.
 */

let lab: TestLab;
let listeners: Awaited<ReturnType<typeof listenersFor>>;
const codes = Array.from({ length: 10 }, (_, i) => `RB${i}`);
const tests: Record<string, number> = {};
let patient: number;

/** A small seeded PRNG (mulberry32): the same cases on every run. */
function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (n: number) => Math.floor(next() * n),
    /** n random bytes, none of those in `not` (replaced by a space). */
    bytes: (n: number, not: number[] = []) =>
      Buffer.from(
        Array.from({ length: n }, () => {
          const b = Math.floor(next() * 256);
          return not.includes(b) ? 0x20 : b;
        }),
      ),
  };
}

/** Collected samples written straight in, each with the first `n` RB tests ordered. */
async function samples(count: number, prefix: string, n = 3): Promise<{ id: number; code: string }[]> {
  const out: { id: number; code: string }[] = [];
  for (let i = 0; i < count; i++) {
    out.push(
      await seedSample(lab.database.db, lab.organizationId, {
        patientId: patient,
        testIds: codes.slice(0, n).map((c) => tests[c]!),
        status: 'collected',
        prefix,
      }),
    );
  }
  return out;
}

async function connection(name: string, protocol: 'astm' | 'hl7'): Promise<{ conn: Connection; port: number }> {
  const port = await freePort();
  const conn = await createConnectionAs(lab, {
    name,
    protocol,
    transport: 'tcp-server',
    port,
    enabled: true,
    code_map: codes.map((code) => ({ code, test_id: tests[code] })),
  });
  await listeningOf(lab, conn.id);
  return { conn, port };
}

function astmRecords(specimen: string, n = 3, at = 0): string[] {
  return [
    'H|\\^&|||Fuzz^1',
    'P|1',
    `O|1|${specimen}||^^^ALL|R`,
    ...codes.slice(0, n).map((c, i) => `R|${i + 1}|^^^${c}|${at + i + 1}|mg/dL||N||F`),
    'L|1|N',
  ];
}

function hl7Message(specimen: string, id: string): string {
  return [
    `MSH|^~\\&|FUZZ|LAB|LIMS|LAB|20261126120000||ORU^R01|${id}|P|2.5.1`,
    `OBR|1||${specimen}`,
    ...codes.slice(0, 3).map((c, i) => `OBX|${i + 1}|NM|${c}^Fuzz||${i + 1}|mg/dL|0-100||||F`),
  ].join('\r');
}

async function resultsBySample(ids: number[]): Promise<Map<number, number>> {
  const rows = await lab.database.db
    .selectFrom('test_results')
    .select('sample_id')
    .where('sample_id', 'in', ids)
    .execute();
  const m = new Map<number, number>(ids.map((id) => [id, 0]));
  for (const r of rows) m.set(r.sample_id, m.get(r.sample_id)! + 1);
  return m;
}

async function messageRows(connectionId: number) {
  return lab.database.db
    .selectFrom('interface_messages')
    .select(['id', 'direction', 'status', 'raw', 'results_count', 'unmatched_count', 'error'])
    .where('connection_id', '=', connectionId)
    .orderBy('id')
    .execute();
}

/** Waits until the connection's message log stops growing (the listener has drained its queue). */
async function settled(connectionId: number, quietMs = 600): Promise<void> {
  let last = -1;
  let since = Date.now();
  await until(
    'the listener to settle',
    async () => {
      const n = (await messageRows(connectionId)).length;
      if (n !== last) {
        last = n;
        since = Date.now();
      }
      return Date.now() - since >= quietMs;
    },
    60_000,
  );
}

async function blast(port: number, bytes: Buffer, chunk: (n: number) => number): Promise<void> {
  const socket = net.connect({ port, host: '127.0.0.1' });
  socket.on('error', () => {});
  await new Promise<void>((r) => socket.once('connect', r));
  for (let i = 0; i < bytes.length;) {
    const n = chunk(bytes.length - i);
    socket.write(bytes.subarray(i, i + n));
    i += n;
  }
  await new Promise<void>((r) => socket.end(r));
}

beforeAll(async () => {
  lab = await makeLab();
  for (const code of codes) {
    const res = await lab.admin.post('/api/tests', {
      name: `Robust ${code}`,
      code,
      unit: 'mg/dL',
      normal_range: '0-100',
      price: 100,
    });
    expect(res.statusCode, res.body).toBe(201);
    tests[code] = res.json<{ test: { id: number } }>().test.id;
  }
  patient = (
    await lab.admin.post('/api/patients', {
      first_name: 'Robust',
      last_name: 'Tester',
      date_of_birth: '1990-05-05',
      gender: 'Male',
    })
  ).json<{ patient: { id: number } }>().patient.id;
  listeners = await listenersFor(() => lab.database.db, lab.organizationId, {
    // Short enough for the fuzz cases that stop mid-transmission, long enough for a loaded machine.
    timings: { receiveTimeoutMs: 2_000 },
  });
});

afterAll(async () => {
  await listeners?.stop();
  await lab?.close();
});

describe('fuzzing (seeded)', () => {
  it('mutated ASTM transmissions never stop the listener and are applied whole or not at all', async () => {
    const { conn, port } = await connection('Fuzz ASTM', 'astm');
    const rand = prng(18_1381);
    const cases = 32;
    const fuzzSamples = await samples(cases, 'FZA');
    const kinds = ['none', 'bitflip', 'truncate', 'huge', 'garbage', 'checksum', 'noise-only', 'no-eot'] as const;
    const applied: { sample: number; kind: (typeof kinds)[number] }[] = [];
    for (let c = 0; c < cases; c++) {
      const kind = kinds[c % kinds.length]!;
      const frames = frameMessage(astmRecords(fuzzSamples[c]!.code));
      const parts: Buffer[] = [Buffer.from([ENQ])];
      const target = rand.int(frames.length);
      frames.forEach((f, i) => {
        const frame = Buffer.from(f);
        if (i === target && kind === 'bitflip') frame[1 + rand.int(frame.length - 3)]! ^= 1 << rand.int(8);
        if (i === target && kind === 'checksum')
          frame[frame.length - 3] = frame[frame.length - 3] === 0x41 ? 0x42 : 0x41;
        if (i === target && kind === 'truncate') {
          // Cut before its ETX (a frame cut only in its CR LF is whole, and lenient mode takes it).
          parts.push(frame.subarray(0, 1 + rand.int(frame.length - 5)));
          return;
        }
        if (i === target && kind === 'huge') parts.push(Buffer.concat([Buffer.from([STX, 0x31]), rand.bytes(70_000)]));
        // Line noise between frames (no STX or EOT in it, which would begin a frame or end the transmission).
        if (i === target && kind === 'garbage') parts.push(rand.bytes(1 + rand.int(300), [STX, EOT]));
        parts.push(frame);
      });
      if (kind === 'noise-only') parts.splice(0, parts.length, rand.bytes(2_000));
      if (kind !== 'no-eot') parts.push(Buffer.from([EOT]));
      await blast(port, Buffer.concat(parts), (left) => Math.min(left, 1 + rand.int(600)));
      applied.push({ sample: fuzzSamples[c]!.id, kind });
    }
    await settled(conn.id);

    // Still listening: a clean transmission is answered and stored.
    const [control] = await samples(1, 'FZC');
    const machine = await SimMachine.connect(port);
    expect(await machine.send(frameMessage(astmRecords(control!.code)))).toEqual(Array(8).fill(ACK));
    await machine.close();
    await until('the control results', async () => (await resultsBySample([control!.id])).get(control!.id) === 3);

    const counts = await resultsBySample(fuzzSamples.map((s) => s.id));
    for (const { sample, kind } of applied) {
      const n = counts.get(sample)!;
      expect([0, 3], `${kind} on sample ${sample}`).toContain(n);
      if (kind === 'none' || kind === 'garbage') expect(n, kind).toBe(3);
      if (kind === 'checksum' || kind === 'truncate' || kind === 'no-eot' || kind === 'noise-only')
        expect(n, kind).toBe(0);
    }
    // Every applied row holds one whole message, and the log accounts for every stored result.
    const rows = await messageRows(conn.id);
    let logged = 0;
    for (const r of rows.filter((x) => x.status !== 'incomplete' && x.status !== 'rejected')) {
      const { messages, incomplete } = astmMessages(Buffer.from(r.raw).toString('latin1'));
      expect(incomplete).toBe(0);
      expect(messages).toHaveLength(1);
      expect(messages[0]!.terminated).toBe(true);
      expect(r.results_count + r.unmatched_count).toBe(inboundFromAstm(messages[0]!).results.length);
      logged += r.results_count;
    }
    const total = [...counts.values()].reduce((a, b) => a + b, 0) + 3;
    expect(logged).toBe(total);
    expect(rows.some((r) => r.status === 'incomplete')).toBe(true);
    await lab.admin.post(`/api/connections/${conn.id}/disable`);
  }, 60_000);

  it('random bytes and mutated blocks to the MLLP port: every whole block is answered and applied whole', async () => {
    const { conn, port } = await connection('Fuzz HL7', 'hl7');
    const rand = prng(2_5_1);
    const cases = 32;
    const fuzzSamples = await samples(cases, 'FZH');
    const kinds = ['none', 'bitflip', 'truncate', 'garbage', 'noise-only', 'none', 'bitflip', 'huge'] as const;
    const clean: number[] = [];
    for (let c = 0; c < cases; c++) {
      const kind = kinds[c % kinds.length]!;
      const block = mllpWrap(hl7Message(fuzzSamples[c]!.code, `FZ${c}`));
      let bytes: Buffer;
      if (kind === 'none') bytes = block;
      else if (kind === 'bitflip') {
        bytes = Buffer.from(block);
        bytes[rand.int(bytes.length)]! ^= 1 << rand.int(8);
      } else if (kind === 'truncate') bytes = block.subarray(0, 1 + rand.int(block.length - 3));
      else if (kind === 'garbage') bytes = Buffer.concat([rand.bytes(200, [0x0b]), block]);
      else if (kind === 'huge')
        bytes = Buffer.concat([Buffer.from([0x0b]), Buffer.alloc(1024 * 1024 + 10, 0x41), block]);
      else bytes = rand.bytes(3_000);
      if (kind === 'none' || kind === 'garbage' || kind === 'huge') clean.push(fuzzSamples[c]!.id);
      await blast(port, bytes, (left) => Math.min(left, 1 + rand.int(4_000)));
    }
    await settled(conn.id);

    // Still listening: a clean message is answered AA.
    const [control] = await samples(1, 'FZK');
    const socket = net.connect({ port, host: '127.0.0.1' });
    const acks: string[] = [];
    const decoder = new MllpDecoder((b) => acks.push(b.toString('utf8')));
    socket.on('data', (d) => decoder.receive(d));
    await new Promise<void>((r) => socket.once('connect', r));
    socket.write(mllpWrap(hl7Message(control!.code, 'CONTROL')));
    await until('the control ACK', async () => acks.length === 1);
    socket.end();
    const ack = parseHl7(acks[0]!);
    expect([ack.get(ack.segment('MSA'), 1), ack.get(ack.segment('MSA'), 2)]).toEqual(['AA', 'CONTROL']);

    const counts = await resultsBySample([...fuzzSamples.map((s) => s.id), control!.id]);
    for (const id of [...clean, control!.id]) expect(counts.get(id), `sample ${id}`).toBe(3);
    const rows = await messageRows(conn.id);
    let logged = 0;
    for (const r of rows.filter((x) => x.status !== 'incomplete' && x.status !== 'rejected')) {
      const m = parseHl7(Buffer.from(r.raw).toString('utf8'));
      expect(r.results_count + r.unmatched_count).toBe(inboundFromHl7(m).results.length);
      logged += r.results_count;
    }
    expect(logged).toBe([...counts.values()].reduce((a, b) => a + b, 0));
    // A block cut off by the line closing is logged incomplete, never applied.
    expect(rows.filter((r) => r.status === 'incomplete').length).toBeGreaterThan(0);
    await lab.admin.post(`/api/connections/${conn.id}/disable`);
  }, 60_000);
});

describe('a reconnecting machine', () => {
  it('ASTM: the line drops mid-transmission; the machine sends again; stored once, the half logged incomplete', async () => {
    const { conn, port } = await connection('Reconnect ASTM', 'astm');
    const [s] = await samples(1, 'RCA', 5);
    const frames = frameMessage(astmRecords(s!.code, 5));
    const first = await SimMachine.connect(port);
    expect(await first.send(frames.slice(0, 4), { eot: false })).toEqual([ACK, ACK, ACK, ACK, ACK]);
    first.socket.destroy();
    const again = await SimMachine.connect(port);
    expect(await again.send(frames)).toEqual(frames.map(() => ACK).concat(ACK));
    await again.close();
    await until('the results', async () => (await resultsBySample([s!.id])).get(s!.id) === 5);
    await settled(conn.id, 300);
    expect((await resultsBySample([s!.id])).get(s!.id)).toBe(5);
    const rows = await messageRows(conn.id);
    // Two sockets, two sessions: which is logged first is not fixed.
    rows.sort((a, b) => a.status.localeCompare(b.status));
    expect(rows.map((r) => [r.status, r.results_count])).toEqual([
      ['incomplete', 0],
      ['processed', 5],
    ]);
    expect(rows[0]!.error).toBe('connection closed');
    // The half that was kept: H, P, O and the first result, no terminator.
    expect(Buffer.from(rows[0]!.raw).toString('latin1')).toBe(astmRecords(s!.code, 5).slice(0, 4).join('\r') + '\r');
    await lab.admin.post(`/api/connections/${conn.id}/disable`);
  });

  it('HL7: the line drops inside an MLLP block; sent again on a new socket; stored once, the half logged', async () => {
    const { conn, port } = await connection('Reconnect HL7', 'hl7');
    const [s] = await samples(1, 'RCH');
    const block = mllpWrap(hl7Message(s!.code, 'RC1'));
    const cut = block.subarray(0, Math.floor(block.length / 2));
    const first = net.connect({ port, host: '127.0.0.1' });
    await new Promise<void>((r) => first.once('connect', r));
    first.write(cut);
    await new Promise((r) => setTimeout(r, 50));
    first.destroy();
    const acks: Buffer[] = [];
    const second = net.connect({ port, host: '127.0.0.1' });
    const decoder = new MllpDecoder((b) => acks.push(b));
    second.on('data', (d) => decoder.receive(d));
    await new Promise<void>((r) => second.once('connect', r));
    second.write(block);
    await until('the ACK', async () => acks.length === 1);
    second.end();
    await settled(conn.id, 300);
    expect((await resultsBySample([s!.id])).get(s!.id)).toBe(3);
    const rows = await messageRows(conn.id);
    rows.sort((a, b) => a.status.localeCompare(b.status));
    expect(rows.map((r) => [r.status, r.results_count])).toEqual([
      ['incomplete', 0],
      ['processed', 3],
    ]);
    expect(Buffer.from(rows[0]!.raw)).toEqual(cut.subarray(1));
    await lab.admin.post(`/api/connections/${conn.id}/disable`);
  });
});

describe('a burst', () => {
  // 500 results on SQLite; 150 on PostgreSQL, where each result's ~20 statements are round trips
  // (the shared test machine runs ~10 results/s there; bench/interfaces.ts measures 10,000).
  it('a burst of results (samples x 10 tests) through one ASTM connection is all stored, each once', async () => {
    const { conn, port } = await connection('Burst ASTM', 'astm');
    const n = lab.database.engine === 'postgres' ? 15 : 50;
    const total = n * 10;
    const burst = await samples(n, 'BUR', 10);
    const machine = await SimMachine.connect(port);
    const started = Date.now();
    for (const [i, s] of burst.entries()) {
      const replies = await machine.send(frameMessage(astmRecords(s.code, 10, i)));
      expect(replies.every((b) => b === ACK)).toBe(true);
    }
    await machine.close();
    await until(
      `${n} messages`,
      async () => (await messageRows(conn.id)).filter((r) => r.status === 'processed').length === n,
      120_000,
    );
    const seconds = (Date.now() - started) / 1000;
    const stored = await lab.database.db
      .selectFrom('test_results')
      .select(['sample_id', 'test_id', 'result_value'])
      .where(
        'sample_id',
        'in',
        burst.map((s) => s.id),
      )
      .execute();
    expect(stored).toHaveLength(total);
    expect(new Set(stored.map((r) => `${r.sample_id}:${r.test_id}`)).size).toBe(total);
    // Each value landed on its own sample: sample i's RBk is i + k + 1.
    const index = new Map(burst.map((s, i) => [s.id, i]));
    for (const r of stored) {
      const k = codes.findIndex((c) => tests[c] === r.test_id);
      expect(r.result_value).toBe(String(index.get(r.sample_id)! + k + 1));
    }
    const rows = await messageRows(conn.id);
    expect(rows).toHaveLength(n);
    expect(rows.reduce((a, r) => a + r.results_count, 0)).toBe(total);
    console.info(
      `interfaces ASTM burst: ${total} results in ${seconds.toFixed(1)} s (${Math.round(total / seconds)}/s)`,
    );
  }, 150_000);
});
