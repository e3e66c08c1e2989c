import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ACK, buildFrame, checkFrame, checksum, ENQ, EOT, ETB, ETX, frameMessage, NAK, STX } from './astm/frames.js';
import { AstmLink } from './astm/link.js';
import { decodeTranscript } from './astm/transcript.js';
import { buildOrderRecords, parseAstmMessage, splitRecords } from './astm/records.js';
import { buildAck, parseHl7 } from './hl7/message.js';
import { MllpDecoder, mllpWrap } from './hl7/mllp.js';
import { astmMessages, inboundFromAstm, inboundFromHl7 } from './inbound.js';

const DIR = join(import.meta.dirname, '../../../test/fixtures/external');
const fixture = (name: string) => readFileSync(join(DIR, name));
const SHA: Record<string, string> = {
  'hl7_ORU_R01_cdc_oracle_004.hl7': '83053d5656b94d65d447e73de0a846678627c92ef1eeee40a0b5d7a8809e036b',
  'hl7_ORM_O01_cdc_epic_001.hl7': 'd3c0de6df2c87782b06e96f56114216b062d00a553de227d408079b70269ec10',
  'hl7_ORU_R01_nist_2.5.1_case1.er7': '307c724b03673566273d519c4e1b86c71d4456e0d14ba2b6f2b38f245661407a',
  'astm_e1381_roche_cobas_c311.txt': 'e9dda63cc501eb6b57b9a8842c2d311b2156bd4f40f3e0222c82ca0f53574596',
  'astm_e1381_sysmex_xn550_cbc.txt': '4fde3a3823d862a9d7d9875947b641799583241cab5d91077c51b6f55b2ed339',
};

describe('fixtures', () => {
  it('are the copies the README names, byte for byte', () => {
    for (const [name, sha] of Object.entries(SHA)) {
      expect(createHash('sha256').update(fixture(name)).digest('hex'), name).toBe(sha);
    }
  });
});

describe('ASTM E1381 frames', () => {
  it('the cobas c311 frame: checksum 06, over the 247-byte limit, refused strictly and read leniently', () => {
    const bytes = fixture('astm_e1381_roche_cobas_c311.txt');
    expect(bytes.length).toBe(624);
    expect(checkFrame(bytes, { lenient: false })).toMatchObject({ ok: false, reason: 'too_long' });
    const r = checkFrame(bytes, { lenient: true });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.frame).toMatchObject({ number: 1, final: true });
    expect(bytes.subarray(-4).toString('latin1')).toBe('06\r\n');
  });

  it('the Sysmex XN-550 frame: checksum 45, a CR and no LF after it, 2,613 bytes', () => {
    const bytes = fixture('astm_e1381_sysmex_xn550_cbc.txt');
    expect(bytes.length).toBe(2613);
    expect(bytes.subarray(-3).toString('latin1')).toBe('45\r');
    expect(checksum(bytes, 1, bytes.length - 4)).toBe('45');
    const r = checkFrame(bytes, { lenient: true });
    expect(r.ok).toBe(true);
    expect(checkFrame(bytes, { lenient: false }).ok).toBe(false);
  });

  it('a changed byte fails the checksum; frames it builds check out and split at 240 characters', () => {
    const bytes = Buffer.from(fixture('astm_e1381_roche_cobas_c311.txt'));
    bytes[10] = bytes[10]! + 1;
    expect(checkFrame(bytes, { lenient: true })).toMatchObject({ ok: false, reason: 'checksum' });
    const long = `R|1|^^^X|${'9'.repeat(600)}`;
    const frames = frameMessage(['H|\\^&', long, 'L|1|N']);
    expect(frames.map((f) => f[f.length - 5])).toEqual([ETX, ETB, ETB, ETX, ETX]);
    expect(frames.map((f) => f[1]! - 0x30)).toEqual([1, 2, 3, 4, 5]);
    for (const f of frames) {
      expect(f.length).toBeLessThanOrEqual(247);
      expect(checkFrame(f, { lenient: false }).ok).toBe(true);
    }
    expect(frameMessage(Array.from({ length: 9 }, (_, i) => `C|${i}`)).map((f) => f[1]! - 0x30)).toEqual([
      1, 2, 3, 4, 5, 6, 7, 0, 1,
    ]);
  });
});

describe('ASTM E1394 records', () => {
  it('cobas c311: 7 results of specimen 11625 by Roche application code, with units and flags', () => {
    const t = decodeTranscript(fixture('astm_e1381_roche_cobas_c311.txt'), true);
    expect(t.ok).toBe(true);
    if (!t.ok) return;
    const { messages, incomplete } = astmMessages(t.text);
    expect(incomplete).toBe(0);
    expect(messages).toHaveLength(1);
    const m = messages[0]!;
    expect(m.terminated).toBe(true);
    expect(m.sender).toBe('c311 1');
    const { results } = inboundFromAstm(m);
    expect(results.map((r) => [r.specimenId, r.code, r.value, r.unit, r.flag])).toEqual([
      ['11625', '685/', '22.4', 'U/l', 'A'],
      ['11625', '687/', '15.0', 'U/l', 'N'],
      ['11625', '712/', '4.1', 'umol/l', 'L'],
      ['11625', '158/', '301', 'U/l', 'N'],
      ['11625', '735/', '1.6', 'umol/l', 'N'],
      ['11625', '717/', '5.85', 'mmol/l', 'N'],
      ['11625', '690/', '34', 'umol/l', 'A'],
    ]);
    expect(m.patients[0]!.orders[0]!.testIds).toEqual(['685/', '687/', '712/', '158/', '735/', '717/', '690/']);
    expect(results[0]!.comments).toEqual(['43']);
  });

  it('Sysmex XN-550: 41 R records for sample 27, the CBC values and flags; escapes undone', () => {
    const t = decodeTranscript(fixture('astm_e1381_sysmex_xn550_cbc.txt'), true);
    expect(t.ok).toBe(true);
    if (!t.ok) return;
    const m = astmMessages(t.text).messages[0]!;
    expect(m.version).toBe('E1394-97');
    expect(m.patients[0]!.id).toBe('37182');
    const order = m.patients[0]!.orders[0]!;
    expect(order.results).toHaveLength(41);
    expect(order.testIds).toHaveLength(23);
    const byCode = new Map(inboundFromAstm(m).results.map((r) => [r.code, r]));
    expect(byCode.get('WBC')).toMatchObject({ specimenId: '27', value: '8.13', unit: '10*3/uL', flag: 'N' });
    expect(byCode.get('HGB')).toMatchObject({ value: '8.0', unit: 'g/dL' });
    expect(byCode.get('HCT')).toMatchObject({ value: '22.7', unit: '%', flag: 'L' });
    expect(byCode.get('PLT')).toMatchObject({ value: '99', unit: '10*3/uL' });
    expect(byCode.get('EO%')).toMatchObject({ value: '22.1', flag: 'H' });
    expect(byCode.get('SCAT_WDF')!.value).toBe('PNG\\20240628\\2024_06_27_13_54_27_WDF.PNG');
    // R records with a flag and no value (Anemia, Eosinophilia) are not results.
    expect(byCode.has('Anemia')).toBe(false);
    const units = new Set(order.results.filter((r) => r.value !== '').map((r) => r.unit));
    expect(units).toEqual(new Set(['10*3/uL', '10*6/uL', 'g/dL', '%', 'fL', 'pg', '']));
  });

  it('a Q record asks for a barcode; the answer lists the ordered tests and parses back', () => {
    const m = parseAstmMessage(splitRecords('H|\\^&|||XN\rQ|1|^SMP-9||^^^ALL||||||||O\rL|1|N\r'));
    expect(inboundFromAstm(m).queries).toEqual([{ specimenId: 'SMP-9', range: ['', 'SMP-9'] }]);
    const answer = buildOrderRecords([
      { specimenId: 'SMP-9', range: ['', 'SMP-9'], patientId: 'PAT|1', testCodes: ['WBC', 'HGB'] },
    ]);
    expect(answer.at(-1)).toBe('L|1|N');
    const o = answer[2]!.split('|');
    expect(o).toHaveLength(26);
    expect([o[0], o[2], o[3], o[4], o[11], o[25]]).toEqual(['O', 'SMP-9', '^SMP-9', '^^^WBC\\^^^HGB', 'N', 'Q']);
    const back = parseAstmMessage(answer);
    expect(back.patients[0]!.id).toBe('PAT|1');
    expect(back.patients[0]!.orders[0]).toMatchObject({ specimenId: 'SMP-9', testIds: ['WBC', 'HGB'] });
    // Nothing to run: O-26 Y and no tests; L-3 I (no information) when no specimen has any.
    const none = buildOrderRecords([{ specimenId: 'X1', range: ['', 'X1'], patientId: '', testCodes: [] }]);
    expect(none[2]!.split('|')[25]).toBe('Y');
    expect(none[2]!.split('|')[4]).toBe('');
    expect(none.at(-1)).toBe('L|1|I');
  });

  it('the specimen ID of a query, by maker: LIS2-A2, Sysmex, Roche cobas', () => {
    const q = (line: string) => inboundFromAstm(parseAstmMessage(['H|\\^&', line, 'L|1|N'])).queries;
    expect(q('Q|1|^SMP-9||^^^ALL||||||||O')[0]!.specimenId).toBe('SMP-9');
    // Sysmex XN: rack ^ position ^ sample number ^ attribute (B: read from the barcode).
    expect(q('Q|1|2^1^          1234^B||||20010820174502|||||||')[0]!.specimenId).toBe('1234');
    expect(q('Q|1|^^         1^1026004819^B||ALL||||||||O')[0]!.specimenId).toBe('1026004819');
    // Roche cobas c311/e411: ^^barcode^sequence^rack^position^^S1^SC
    const roche = q('Q|1|^^11625               ^0^50001^021^^S1^SC||ALL||||||||O')[0]!;
    expect(roche.specimenId).toBe('11625');
    expect(roche.range).toEqual(['', '', '11625', '0', '50001', '021', '', 'S1', 'SC']);
    expect(q('Q|1|ALL||||||||||O')).toEqual([]);
  });
});

describe('HL7 v2', () => {
  it('NIST ORU^R01 2.5.1 (CR): blood lead 50 ug/dL H on specimen 9700123 (OBR-3, SPM-2 empty)', () => {
    const m = parseHl7(fixture('hl7_ORU_R01_nist_2.5.1_case1.er7').toString('utf8'));
    expect(m.type).toBe('ORU^R01');
    expect(m.version).toBe('2.5.1');
    expect(m.controlId).toBe('NIST-100929110701660');
    expect(m.segments.map((s) => s.name)).toEqual(['MSH', 'SFT', 'PID', 'ORC', 'OBR', 'OBX', 'SPM']);
    // subcomponents: PID-3.4 is HIS&OID&ISO
    expect(m.get(m.segment('PID'), 3, 4, 2)).toBe('2.16.840.1.113883.19.3.2.1');
    expect(inboundFromHl7(m).results).toEqual([
      {
        specimenId: '9700123',
        specimenFrom: 'OBR-3',
        code: '10368-9',
        value: '50',
        unit: 'ug/dL',
        flag: 'H',
        referenceRange: '<9 mcg/dL:  Acceptable background lead exposure',
        comments: [],
      },
    ]);
  });

  it('CDC Oracle ORU (LF ends): three results on 335707581, the invalid UCUM unit kept as sent, NTE as comments', () => {
    const m = parseHl7(fixture('hl7_ORU_R01_cdc_oracle_004.hl7').toString('utf8'));
    expect(m.version).toBe('2.3');
    const r = inboundFromHl7(m).results;
    expect(r.map((x) => [x.specimenId, x.code, x.value, x.unit, x.flag])).toEqual([
      ['335707581', '20260', '2.1', 'mg/dL', ''],
      ['335707581', '10710', '59', 'mg/dL', ''],
      ['335707581', '20281', '36', 'mg/g crea', 'H'],
    ]);
    expect(r[2]!.comments).toContain('CLIA NUMBER 44D0889744');
    expect(m.get(m.all('OBX')[0], 3, 4)).toBe('14957-5');
  });

  it('CDC Epic ORM (LF ends): a cancel (ORC-1 CA) with repeats and escapes', () => {
    const m = parseHl7(fixture('hl7_ORM_O01_cdc_epic_001.hl7').toString('utf8'));
    expect(m.type).toBe('ORM^O01');
    expect(m.get(m.segment('ORC'), 1)).toBe('CA');
    expect(m.repeats(m.segment('GT1'), 6)).toEqual(['2253351752', '2253351752']);
    const e = m.encoding;
    const x = parseHl7(`MSH|^~\\&|A|B|C|D|20240101||ORU^R01|1|P|2.5.1\rNTE|1||a\\F\\b\\S\\c\\T\\d\\R\\e\\E\\f\\X41\\`);
    expect(x.get(x.segment('NTE'), 3)).toBe(`a|b^c&d~e\\fA`);
    expect(e.escape).toBe('\\');
  });

  it('ACK: AA, AE and AR name the message control ID; refuses text that is not HL7', () => {
    const m = parseHl7(fixture('hl7_ORU_R01_nist_2.5.1_case1.er7').toString('utf8'));
    const ack = parseHl7(buildAck(m, 'AA', '', 'L1'));
    expect(ack.type).toBe('ACK^R01');
    expect(ack.get(ack.segment('MSA'), 1)).toBe('AA');
    expect(ack.get(ack.segment('MSA'), 2)).toBe('NIST-100929110701660');
    expect(ack.get(ack.segment('MSH'), 5)).toBe('EHR Application');
    const ae = parseHl7(buildAck(m, 'AE', 'Unknown specimen | 1', 'L2'));
    expect(ae.get(ae.segment('MSA'), 3)).toBe('Unknown specimen | 1');
    expect(ae.segment('ERR')).toBeDefined();
    expect(() => parseHl7('hello')).toThrow();
    expect(() => parseHl7('MSH|^^^^|x')).toThrow();
  });

  it('MLLP: blocks split anywhere come out whole; bytes outside blocks and oversize blocks are dropped', () => {
    const got: string[] = [];
    let big = 0;
    const d = new MllpDecoder(
      (b) => got.push(b.toString()),
      () => (big += 1),
      100,
    );
    const all = Buffer.concat([
      Buffer.from('noise'),
      mllpWrap('MSH|one'),
      mllpWrap('X'.repeat(500)),
      mllpWrap('MSH|two'),
    ]);
    for (let i = 0; i < all.length; i += 3) d.receive(all.subarray(i, i + 3));
    expect(got).toEqual(['MSH|one', 'MSH|two']);
    expect(big).toBe(1);
  });
});

/** A simulated machine on the other end of an AstmLink. */
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
