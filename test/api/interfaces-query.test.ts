import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLab, type TestLab } from '../helpers.js';
import {
  ACK,
  createConnectionAs,
  ENQ,
  freePort,
  listeningOf,
  listenersFor,
  sampleWithBarcode,
  SimMachine,
  until,
} from './interface-support.js';
import { frameMessage } from '../../src/core/interfaces/astm/frames.js';
import { parseAstmMessage, splitRecords } from '../../src/core/interfaces/astm/records.js';
import { MllpDecoder, mllpWrap } from '../../src/core/interfaces/hl7/mllp.js';
import { parseHl7 } from '../../src/core/interfaces/hl7/message.js';
import type { Connection, InterfaceMessage } from '../../src/shared/schemas/connections.js';

/**
 * Host query over TCP: the analyser asks for a barcode's orders (ASTM Q), lims answers after the
 * machine's EOT with its own transmission (H, P, O, L), yielding to the machine on contention.
 */

let lab: TestLab;
let listeners: Awaited<ReturnType<typeof listenersFor>>;
const tests: Record<string, number> = {};
let patient: number;
let patientCode: string;
let conn: Connection;
let port: number;

const query = (range: string) => frameMessage(['H|\\^&|||cobas c311', `Q|1|${range}||ALL||||||||O`, 'L|1|N']);

async function messages(direction: 'in' | 'out'): Promise<InterfaceMessage[]> {
  const res = await lab.admin.get(`/api/connections/messages?connection_id=${conn.id}&limit=100`);
  return res.json<{ messages: InterfaceMessage[] }>().messages.filter((m) => m.direction === direction);
}

beforeAll(async () => {
  lab = await makeLab();
  const make = async (code: string, name: string, unit: string) => {
    const res = await lab.admin.post('/api/tests', { name, code, unit, normal_range: '1-100', price: 100 });
    expect(res.statusCode, res.body).toBe(201);
    tests[code] = res.json<{ test: { id: number } }>().test.id;
  };
  await make('ALT', 'ALT (SGPT)', 'U/L');
  await make('AST', 'AST (SGOT)', 'U/L');
  await make('CREA', 'Creatinine', 'umol/L');
  await make('ESR', 'ESR', 'mm/hr');
  const p = await lab.admin.post('/api/patients', {
    first_name: 'Query',
    last_name: 'Patient',
    date_of_birth: '1980-01-01',
    gender: 'Female',
  });
  patient = p.json<{ patient: { id: number } }>().patient.id;
  patientCode = (
    await lab.database.db
      .selectFrom('patients')
      .select('patient_code')
      .where('id', '=', patient)
      .executeTakeFirstOrThrow()
  ).patient_code;
  listeners = await listenersFor(() => lab.database.db, lab.organizationId, { timings: { contentionRetryMs: 300 } });
  port = await freePort();
  conn = await createConnectionAs(lab, {
    name: 'cobas c311',
    protocol: 'astm',
    transport: 'tcp-server',
    port,
    enabled: true,
    code_map: [
      { code: '685', test_id: tests.ALT },
      { code: '687', test_id: tests.AST },
      { code: '690', test_id: tests.CREA },
    ],
  });
  await listeningOf(lab, conn.id);
});

afterAll(async () => {
  await listeners?.stop();
  await lab?.close();
});

describe('host query (ASTM Q over TCP)', () => {
  it('a barcode is answered after the machine EOT with the mapped tests still to run', async () => {
    // ALT and AST mapped, ESR ordered but not on this machine, CREA mapped but not ordered.
    await sampleWithBarcode(lab, patient, 'Q-1001', [tests.ALT!, tests.ESR!, tests.AST!]);
    const machine = await SimMachine.connect(port);
    expect(await machine.send(query('^^Q-1001^0^50001^021^^S1^SC'))).toEqual([ACK, ACK, ACK, ACK]);
    const answer = splitRecords(await machine.receive());
    expect(answer.map((r) => r[0])).toEqual(['H', 'P', 'O', 'L']);
    const o = answer[2]!.split('|');
    // O-3 the barcode, O-4 the query's range echoed, O-5 the tests, O-26 Q (a response to a query).
    expect([o[2], o[3], o[4], o[25]]).toEqual(['Q-1001', '^^Q-1001^0^50001^021^^S1^SC', '^^^685\\^^^687', 'Q']);
    expect(answer[1]!.split('|')[2]).toBe(patientCode);
    expect(answer[3]).toBe('L|1|N');
    await machine.close();

    const inbound = await until('the query in the log', async () => {
      const m = await messages('in');
      return m.length === 1 ? m : undefined;
    });
    expect(inbound[0]).toMatchObject({ status: 'answered', results_count: 0, unmatched_count: 0 });
    const out = await until('the answer in the log', async () => {
      const m = await messages('out');
      return m.length === 1 ? m : undefined;
    });
    expect(out[0]).toMatchObject({ status: 'sent', message_type: 'ASTM order' });

    // The machine runs ALT and sends its result; asked again, only AST is left to run.
    const results = frameMessage([
      'H|\\^&|||cobas c311',
      'P|1',
      'O|1|Q-1001||^^^685|R',
      'R|1|^^^685|31|U/l||N||F',
      'L|1|N',
    ]);
    const again = await SimMachine.connect(port);
    await again.send(results);
    expect(await again.quiet(150)).toBe(true);
    await again.send(query('^^Q-1001^0^50001^021^^S1^SC'));
    const second = parseAstmMessage(splitRecords(await again.receive()));
    expect(second.patients[0]!.orders[0]!.testIds).toEqual(['687']);
    await again.close();
  });

  it('an unknown barcode, or a sample with nothing left for this machine, is answered "no orders"', async () => {
    const sample = await sampleWithBarcode(lab, patient, 'Q-1002', [tests.ESR!]);
    expect(sample).toBeGreaterThan(0);
    const machine = await SimMachine.connect(port);
    await machine.send(query('^NO-SUCH-TUBE'));
    const unknown = splitRecords(await machine.receive());
    expect(unknown.map((r) => r[0])).toEqual(['H', 'P', 'O', 'L']);
    const o = unknown[2]!.split('|');
    expect([o[2], o[4], o[25]]).toEqual(['NO-SUCH-TUBE', '', 'Y']);
    expect(unknown[1]!.split('|')[2]).toBe('');
    expect(unknown[3]).toBe('L|1|I');
    // Sysmex style: rack ^ position ^ sample number ^ B.
    await machine.send(query('7^3^Q-1002^B'));
    const none = splitRecords(await machine.receive());
    expect(none[2]!.split('|')[2]).toBe('Q-1002');
    expect(none[2]!.split('|')[25]).toBe('Y');
    expect(none[1]!.split('|')[2]).toBe(patientCode);
    expect(none[3]).toBe('L|1|I');
    await machine.close();
  });

  it('contention: the machine sends ENQ instead of answering ours; lims yields, takes its results, then answers', async () => {
    await sampleWithBarcode(lab, patient, 'Q-1003', [tests.ALT!, tests.CREA!]);
    const held = await sampleWithBarcode(lab, patient, 'Q-1004', [tests.AST!]);
    const machine = await SimMachine.connect(port);
    await machine.send(query('^Q-1003'));
    expect(await machine.next()).toBe(ENQ); // lims wants the line
    // The machine has results of its own and bids for the line too: it wins (E1381 8.2.7.1).
    const replies = await machine.send(
      frameMessage(['H|\\^&|||cobas c311', 'P|1', 'O|1|Q-1004||^^^687|R', 'R|1|^^^687|44|U/l||N||F', 'L|1|N']),
    );
    expect(replies).toEqual([ACK, ACK, ACK, ACK, ACK, ACK]);
    const started = Date.now();
    const answer = parseAstmMessage(splitRecords(await machine.receive()));
    // lims waited before bidding again (300 ms here; 20 s with the standard's timers).
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    expect(answer.patients[0]!.orders[0]).toMatchObject({ specimenId: 'Q-1003', testIds: ['685', '690'] });
    await machine.close();
    const entered = await until('the AST result', async () => {
      const r = await lab.database.db
        .selectFrom('test_results')
        .select(['result_value', 'test_id'])
        .where('sample_id', '=', held)
        .execute();
      return r.length ? r : undefined;
    });
    expect(entered).toEqual([{ result_value: '44', test_id: tests.AST }]);
  });
});

describe('host query (HL7 QRY^Q02 over MLLP)', () => {
  it('a barcode is answered QCK^Q02 OK then DSR^Q03 with the tests; unknown NF; the DSR ACK is not answered', async () => {
    await sampleWithBarcode(lab, patient, 'Q-2001', [tests.CREA!, tests.ESR!, tests.ALT!]);
    const hl7Port = await freePort();
    const c = await createConnectionAs(lab, {
      name: 'Mindray BS-240',
      protocol: 'hl7',
      transport: 'tcp-server',
      port: hl7Port,
      enabled: true,
      code_map: [
        { code: '1', test_id: tests.ALT },
        { code: '5', test_id: tests.CREA },
      ],
    });
    await listeningOf(lab, c.id);
    const socket = net.connect({ port: hl7Port, host: '127.0.0.1' });
    const got: string[] = [];
    const decoder = new MllpDecoder((b) => got.push(b.toString('utf8')));
    socket.on('data', (d) => decoder.receive(d));
    await new Promise<void>((r) => socket.once('connect', r));
    const qry = (id: string, barcode: string) =>
      mllpWrap(
        [
          `MSH|^~\\&|Mindray|BS-240|||20261126120000||QRY^Q02|${id}|P|2.3.1||||||ASCII|||`,
          `QRD|20261126120000|R|D|${id}|||RD|${barcode}|OTH|||T|`,
          'QRF|BS-240|||||RCT|COR|ALL||',
        ].join('\r') + '\r',
      );
    socket.write(qry('71', 'Q-2001'));
    await until('QCK and DSR', async () => got.length === 2);
    const qck = parseHl7(got[0]!);
    expect(qck.type).toBe('QCK^Q02');
    expect(qck.get(qck.segment('MSA'), 2)).toBe('71');
    expect(qck.get(qck.segment('QAK'), 2)).toBe('OK');
    const dsr = parseHl7(got[1]!);
    expect(dsr.type).toBe('DSR^Q03');
    expect(dsr.get(dsr.segment('QRD'), 8)).toBe('Q-2001');
    const dsp = new Map(dsr.all('DSP').map((s) => [Number(dsr.get(s, 1)), dsr.get(s, 3)]));
    expect(dsp.get(1)).toBe(patientCode);
    expect(dsp.get(3)).toBe('Query Patient');
    expect(dsp.get(4)).toBe('19800101000000');
    expect(dsp.get(5)).toBe('F');
    expect(dsp.get(21)).toBe('Q-2001');
    expect(dsp.get(24)).toBe('N');
    // Ordered CREA (5) and ALT (1), in order; ESR is not on this machine.
    expect([dsp.get(29), dsp.get(30), dsp.get(31)]).toEqual(['5', '1', undefined]);
    expect(dsr.all('DSP').find((s) => dsr.get(s, 1) === '29')!.fields[3]).toBe('5^^^');
    expect(dsr.segment('DSC')).toBeDefined();

    // The machine acknowledges the DSR: logged, never answered.
    socket.write(mllpWrap(`MSH|^~\\&|Mindray|BS-240|||20261126120001||ACK^Q03|72|P|2.3.1\rMSA|AA|LIMS1Q\r`));
    socket.write(qry('73', 'NO-SUCH-TUBE'));
    await until('the NF answer', async () => got.length === 3);
    const nf = parseHl7(got[2]!);
    expect(nf.type).toBe('QCK^Q02');
    expect(nf.get(nf.segment('MSA'), 2)).toBe('73');
    expect(nf.get(nf.segment('QAK'), 2)).toBe('NF');
    expect(await new Promise((r) => setTimeout(() => r(got.length), 200))).toBe(3);
    socket.end();
    const log = (await lab.admin.get(`/api/connections/messages?connection_id=${c.id}`)).json<{
      messages: InterfaceMessage[];
    }>().messages;
    expect(log.map((m) => [m.direction, m.message_type, m.status])).toEqual([
      ['in', 'QRY^Q02', 'answered'],
      ['in', 'ACK^Q03', 'processed'],
      ['out', 'DSR^Q03', 'sent'],
      ['in', 'QRY^Q02', 'answered'],
    ]);
  });
});
