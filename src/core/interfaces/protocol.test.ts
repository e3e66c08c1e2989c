import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkFrame, checksum, ETB, ETX, frameMessage } from './astm/frames.js';
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
