import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLab, type TestLab } from '../helpers.js';
import { ACK, createConnectionAs, freePort, listeningOf, listenersFor, NAK, until } from './interface-support.js';
import { seedSample } from './lab-records.js';
import {
  astmFrames,
  mllpBlocks,
  peerFile,
  peerFixturesPresent,
  replayAstm,
  replayHl7,
  withBarcodes,
} from './peer-capture.js';
import { numericValue } from '../../src/shared/flags.js';
import { CAPTURES, type Capture } from './peer-captures.js';

/**
 * Every capture of real analysers (../shared/fixtures/peer-interop, SOURCES.md) through a real
 * listener, as the machine sends it. First with the machine's own IDs: each result waits in the
 * Unmatched queue showing the ID the machine sent. Then with the lab's barcodes in their place and
 * every code mapped: each result is on its sample, its value exactly as sent, its unit as sent.
 */

let lab: TestLab;
let listeners: Awaited<ReturnType<typeof listenersFor>>;
let patient: number;
let testSeq = 0;

async function connectionFor(c: Capture): Promise<{ id: number; port: number }> {
  const port = await freePort();
  const conn = await createConnectionAs(lab, {
    name: c.file,
    protocol: c.file.startsWith('hl7') ? 'hl7' : 'astm',
    transport: 'tcp-server',
    port,
    enabled: true,
    profile: c.profile,
  });
  await listeningOf(lab, conn.id);
  return { id: conn.id, port };
}

async function messagesIn(connectionId: number): Promise<number> {
  const rows = await lab.database.db
    .selectFrom('interface_messages')
    .select('id')
    .where('connection_id', '=', connectionId)
    .where('direction', '=', 'in')
    .execute();
  return rows.length;
}

/** Replays and waits until lims has logged (and so applied) the messages: ASTM applies after EOT. */
async function replay(c: Capture, conn: { id: number; port: number }, bytes: Buffer): Promise<void> {
  const before = await messagesIn(conn.id);
  const expected = c.file.startsWith('hl7') ? mllpBlocks(bytes).length : 1;
  await send(c, conn.port, bytes);
  await until('the capture to be logged', async () => (await messagesIn(conn.id)) >= before + expected);
}

async function send(c: Capture, port: number, bytes: Buffer): Promise<void> {
  if (c.file.startsWith('hl7')) {
    const acks = await replayHl7(port, mllpBlocks(bytes));
    // One AA per message, naming its control ID (Tisenc sends `1` three times: each is answered).
    expect(acks.length).toBe(mllpBlocks(bytes).length);
    for (const a of acks) expect(a.code).toBe('AA');
  } else {
    const { replies, gaveUp } = await replayAstm(port, astmFrames(bytes));
    expect(gaveUp).toBe(false);
    expect(replies.every((b) => b === ACK)).toBe(true);
  }
}

async function unmatchedOf(connectionId: number) {
  return lab.database.db
    .selectFrom('interface_unmatched')
    .selectAll()
    .where('connection_id', '=', connectionId)
    .orderBy('id')
    .execute();
}

/** A catalogue test for a machine code: numeric when the machine sends numbers, else text. */
async function testFor(code: string, value: string): Promise<number> {
  testSeq += 1;
  const censored = /^([<>]=?)\s*(.+)$/.exec(value);
  const numeric = numericValue(censored ? censored[2]! : value) !== null;
  const res = await lab.admin.post('/api/tests', {
    name: `Peer ${testSeq} ${code}`.slice(0, 100),
    code: `PEER${testSeq}`,
    price: 100,
    result_type: numeric ? 'numeric' : 'text',
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ test: { id: number } }>().test.id;
}

beforeAll(async () => {
  lab = await makeLab();
  patient = (
    await lab.admin.post('/api/patients', {
      first_name: 'Peer',
      last_name: 'Replay',
      date_of_birth: '1980-01-01',
      gender: 'Female',
      phone: '9876543210',
    })
  ).json<{ patient: { id: number } }>().patient.id;
  listeners = await listenersFor(() => lab.database.db, lab.organizationId, { timings: { receiveTimeoutMs: 3_000 } });
});

afterAll(async () => {
  await listeners?.stop();
  await lab?.close();
});

describe.skipIf(!peerFixturesPresent())('real analysers, replayed as they send', () => {
  it.each(CAPTURES.map((c) => [c.file, c] as const))(
    '%s',
    async (_name, c) => {
      const bytes = peerFile(c.file);
      const conn = await connectionFor(c);

      // 1. The machine's own IDs: nothing matches; each result is queued with the ID it sent.
      await replay(c, conn, bytes);
      const queued = await unmatchedOf(conn.id);
      expect(queued).toHaveLength(c.results);
      for (const u of queued) {
        expect(c.ids).toContain(u.specimen_id);
        expect(['unknown_sample', 'unmapped_code']).toContain(u.reason);
        // Values exactly as the machine sent them: the text is in the capture.
        expect(bytes.includes(Buffer.from(u.value, 'utf8')) || bytes.includes(Buffer.from(u.value, 'latin1'))).toBe(
          true,
        );
      }
      expect(new Set(queued.map((u) => u.specimen_id))).toEqual(new Set(c.ids));
      for (const [code, value, unit] of c.spot)
        expect(
          queued.some((u) => u.code === code && u.value === value && (u.unit ?? '') === unit),
          `${code} ${value}`,
        ).toBe(true);

      // 2. The lab's barcodes in place of the machine's IDs, every code mapped.
      const barcodes = new Map(c.ids.map((id, i) => [id, `LAB${testSeq}X${i}`]));
      const codes = [...new Set(queued.map((u) => u.code).filter((x) => x !== ''))];
      const tests = new Map<string, number>();
      for (const code of codes) tests.set(code, await testFor(code, queued.find((u) => u.code === code)!.value));
      const put = await lab.admin.put(`/api/connections/${conn.id}`, {
        code_map: codes.map((code) => ({ code, test_id: tests.get(code) })),
      });
      expect(put.statusCode, put.body).toBe(200);
      const samples = new Map<string, number>();
      for (const [id, barcode] of barcodes) {
        const s = await seedSample(lab.database.db, lab.organizationId, {
          patientId: patient,
          testIds: [...new Set(queued.filter((u) => u.specimen_id === id && u.code).map((u) => tests.get(u.code)!))],
          status: 'collected',
          prefix: 'PEER',
        });
        await lab.database.db.updateTable('samples').set({ barcode }).where('id', '=', s.id).execute();
        samples.set(id, s.id);
      }
      await replay(c, conn, withBarcodes(bytes, c.file.startsWith('hl7') ? 'hl7' : 'astm', c.at, barcodes));
      const after = (await unmatchedOf(conn.id)).slice(queued.length);
      const results = await lab.database.db
        .selectFrom('test_results')
        .select(['sample_id', 'test_id', 'result_value', 'unit'])
        .where('sample_id', 'in', [...samples.values()])
        .execute();
      // Each (sample, test) once: a repeat of a test on one specimen (MAGLUMI re-runs TSH) is refused
      // as already entered and waits in the queue for a technician.
      const seen = new Set<string>();
      let repeats = 0;
      for (const u of queued) {
        if (!u.code) continue;
        const key = `${u.specimen_id}:${u.code}`;
        if (seen.has(key)) {
          repeats += 1;
          continue;
        }
        seen.add(key);
        const r = results.find((x) => x.sample_id === samples.get(u.specimen_id) && x.test_id === tests.get(u.code));
        expect(r, `${u.code} on ${u.specimen_id}`).toBeDefined();
        expect(r!.result_value).toBe(u.value);
        expect(r!.unit ?? '').toBe(u.unit ?? '');
      }
      expect(results).toHaveLength(seen.size);
      expect(after.filter((u) => u.reason === 'refused' && /already entered/.test(u.detail))).toHaveLength(repeats);
      expect(after.filter((u) => u.reason === 'unmapped_code')).toHaveLength(c.neverLand ?? 0);
      expect(after).toHaveLength(repeats + (c.neverLand ?? 0));
      for (const [code, value, unit] of c.spot) {
        const r = results.find((x) => x.test_id === tests.get(code) && x.result_value === value);
        expect(r, `${code} ${value}`).toBeDefined();
        expect(r!.unit ?? '').toBe(unit);
      }
    },
    60_000,
  );

  it('Yumizen H500 QC as published: the out-of-sequence frame is NAKed six times, the machine ends, nothing is applied', async () => {
    const c: Capture = {
      file: 'astm_horiba_yumizen_h500_qc.txt',
      profile: 'standard',
      at: 'O-3',
      ids: [],
      results: 0,
      spot: [],
    };
    const conn = await connectionFor(c);
    const frames = astmFrames(peerFile(c.file));
    const { replies, gaveUp } = await replayAstm(conn.port, frames);
    expect(gaveUp).toBe(true);
    expect(replies.slice(-6)).toEqual([NAK, NAK, NAK, NAK, NAK, NAK]);
    const logged = await lab.database.db
      .selectFrom('interface_messages')
      .select(['status', 'results_count'])
      .where('connection_id', '=', conn.id)
      .execute();
    expect(logged.map((m) => m.status)).toEqual(['incomplete']);
    expect(await unmatchedOf(conn.id)).toEqual([]);
    // The line still answers: the re-framed capture goes through.
    const again = await replayAstm(conn.port, astmFrames(peerFile('astm_horiba_yumizen_h500_qc_reframed.txt')));
    expect(again.gaveUp).toBe(false);
  }, 60_000);
});
