import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLab, type TestLab } from '../helpers.js';
import {
  createConnectionAs,
  freePort,
  listeningOf,
  listenersFor,
  sampleWithBarcode,
  SimMachine,
  until,
} from './interface-support.js';
import { orderSendsOf } from '../../src/core/interfaces/orders-repository.js';
import { MllpDecoder, mllpWrap } from '../../src/core/interfaces/hl7/mllp.js';
import { parseHl7 } from '../../src/core/interfaces/hl7/message.js';
import { parseAstmMessage, splitRecords } from '../../src/core/interfaces/astm/records.js';
import type { Connection, InterfaceMessage } from '../../src/shared/schemas/connections.js';

/**
 * Order download (broadcast): an ASTM connection with send_orders sends each sample collected since
 * the option was switched on to its machine, with the mapped tests that have no result yet; a
 * machine that is not connected or does not take it gets it later; nothing is sent twice or empty.
 */

let lab: TestLab;
let listeners: Awaited<ReturnType<typeof listenersFor>>;
const tests: Record<string, number> = {};
let patient: number;

async function outbound(conn: Connection): Promise<InterfaceMessage[]> {
  const res = await lab.admin.get(`/api/connections/messages?connection_id=${conn.id}&limit=100`);
  return res.json<{ messages: InterfaceMessage[] }>().messages.filter((m) => m.direction === 'out');
}

beforeAll(async () => {
  lab = await makeLab();
  for (const [code, name] of [
    ['WBC', 'Total WBC Count'],
    ['HGB', 'Haemoglobin'],
    ['ESR', 'ESR'],
  ]) {
    const res = await lab.admin.post('/api/tests', { name, code, unit: 'x', normal_range: '1-100', price: 100 });
    expect(res.statusCode, res.body).toBe(201);
    tests[code!] = res.json<{ test: { id: number } }>().test.id;
  }
  patient = (
    await lab.admin.post('/api/patients', {
      first_name: 'Order',
      last_name: 'Download',
      date_of_birth: '1980-01-01',
      gender: 'Female',
    })
  ).json<{ patient: { id: number } }>().patient.id;
  listeners = await listenersFor(() => lab.database.db, lab.organizationId, {
    timings: { orderPollMs: 50, ackTimeoutMs: 200, busyRetryMs: 50, maxAttempts: 2 },
  });
});

afterAll(async () => {
  await listeners?.stop();
  await lab?.close();
});

describe('order download', () => {
  it('needs a line to the machine: refused on a watched folder', async () => {
    const folder = await lab.admin.post('/api/connections', {
      name: 'X',
      protocol: 'folder',
      transport: 'folder',
      path: '/tmp/x',
      send_orders: true,
    });
    expect(folder.statusCode).toBe(400);
    expect(folder.json().details).toEqual([
      { path: 'send_orders', message: 'Order download needs a TCP or serial connection to the machine' },
    ]);
    expect((await lab.admin.get('/api/connections')).json().connections).toHaveLength(0);
  });

  it('sends each newly collected sample its mapped tests once the machine is connected; retries one not taken', async () => {
    const db = lab.database.db;
    const before = await sampleWithBarcode(lab, patient, 'OD-OLD', [tests.WBC!]);
    await new Promise((r) => setTimeout(r, 5));
    const port = await freePort();
    const conn = await createConnectionAs(lab, {
      name: 'Mindray BC',
      protocol: 'astm',
      transport: 'tcp-server',
      port,
      enabled: true,
      send_orders: true,
      code_map: [
        { code: 'WBC', test_id: tests.WBC },
        { code: 'HGB', test_id: tests.HGB },
      ],
    });
    expect(conn.send_orders).toBe(true);
    await listeningOf(lab, conn.id);
    const cbc = await sampleWithBarcode(lab, patient, 'OD-CBC', [tests.WBC!, tests.HGB!, tests.ESR!]);
    const esrOnly = await sampleWithBarcode(lab, patient, 'OD-ESR', [tests.ESR!]);

    // No machine connected: nothing goes out, nothing is lost.
    await new Promise((r) => setTimeout(r, 300));
    expect(await outbound(conn)).toEqual([]);

    // The machine connects: the CBC's two mapped tests arrive as an order; ESR alone is not sent.
    const machine = await SimMachine.connect(port);
    const text = await machine.receive();
    const msg = parseAstmMessage(splitRecords(text));
    expect(msg.patients).toHaveLength(1);
    const records = splitRecords(text);
    const o = records.find((r) => r.startsWith('O|'))!.split('|');
    expect(o[2]).toBe('OD-CBC');
    expect(o[4]).toBe('^^^WBC\\^^^HGB');
    expect(o[5]).toBe('R');
    expect(o[25]).toBe('O');
    expect(records.at(-1)).toBe('L|1|N');
    const sends = await until('the order marked sent', async () => {
      const rows = await orderSendsOf(db, conn.id);
      return rows.length === 2 && rows.every((r) => r.status !== 'pending') ? rows : undefined;
    });
    expect(sends.map((r) => [r.sample_id, r.status])).toEqual([
      [cbc, 'sent'],
      [esrOnly, 'skipped'],
    ]);
    expect(sends.some((r) => r.sample_id === before)).toBe(false);
    const out = await outbound(conn);
    expect(out.map((m) => [m.message_type, m.status])).toEqual([['ASTM order download', 'sent']]);
    expect(sends[0]!.message_id).toBe(out[0]!.id);
    // Nothing is sent twice.
    expect(await machine.quiet(300)).toBe(true);
    await machine.close();

    // A machine that does not answer: the order is logged as failed and due again later.
    const stat = await sampleWithBarcode(lab, patient, 'OD-STAT', [tests.HGB!]);
    await db.updateTable('samples').set({ priority: 'urgent' }).where('id', '=', stat).execute();
    const silent = await SimMachine.connect(port);
    const failed = await until('the order not taken', async () => {
      const row = (await orderSendsOf(db, conn.id)).find((r) => r.sample_id === stat);
      return row && row.attempts === 1 && row.claimed_until === null ? row : undefined;
    });
    expect(failed).toMatchObject({ status: 'pending', last_error: 'no answer to ENQ' });
    expect(Date.parse(failed.next_attempt_at)).toBeGreaterThan(Date.now() + 20_000);
    expect((await outbound(conn)).map((m) => m.status)).toEqual(['failed', 'sent']);
    await silent.close();

    // When it is due again and the machine listens, it goes out (STAT: O-6 S).
    await db
      .updateTable('interface_order_sends')
      .set({ next_attempt_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', failed.id)
      .execute();
    const back = await SimMachine.connect(port);
    const again = splitRecords(await back.receive());
    const o2 = again.find((r) => r.startsWith('O|'))!.split('|');
    expect([o2[2], o2[4], o2[5]]).toEqual(['OD-STAT', '^^^HGB', 'S']);
    await until('sent', async () =>
      (await orderSendsOf(db, conn.id)).find((r) => r.sample_id === stat)?.status === 'sent' ? true : undefined,
    );
    await back.close();

    // Switched off: a sample collected now is not sent.
    const listeningSince = (await lab.admin.get(`/api/connections/${conn.id}`)).json().connection.status_at;
    const off = await lab.admin.put(`/api/connections/${conn.id}`, { send_orders: false });
    expect(off.json().connection.send_orders).toBe(false);
    // The listener starts again with the new setting.
    await until('the listener restarted', async () => {
      const c = (await lab.admin.get(`/api/connections/${conn.id}`)).json<{ connection: Connection }>().connection;
      return c.listen_status === 'listening' && c.status_at !== listeningSince ? c : undefined;
    });
    const after = await sampleWithBarcode(lab, patient, 'OD-AFTER', [tests.WBC!]);
    const last = await SimMachine.connect(port);
    expect(await last.quiet(400)).toBe(true);
    await last.close();
    expect((await orderSendsOf(db, conn.id)).some((r) => r.sample_id === after)).toBe(false);
    await lab.admin.post(`/api/connections/${conn.id}/disable`);
  });

  it('HL7: an ORM^O01 per sample, sent when the machine ACKs it AA; an AE makes it due again', async () => {
    const db = lab.database.db;
    const port = await freePort();
    const conn = await createConnectionAs(lab, {
      name: 'Mindray BS-240',
      protocol: 'hl7',
      transport: 'tcp-server',
      port,
      enabled: true,
      send_orders: true,
      code_map: [{ code: 'HGB', test_id: tests.HGB }],
    });
    await listeningOf(lab, conn.id);
    const sample = await sampleWithBarcode(lab, patient, 'OD-HL7', [tests.HGB!, tests.ESR!]);
    const socket = net.connect({ port, host: '127.0.0.1' });
    const got: string[] = [];
    const decoder = new MllpDecoder((b) => got.push(b.toString('utf8')));
    socket.on('data', (d) => decoder.receive(d));
    await new Promise<void>((r) => socket.once('connect', r));
    const ack = (msg: string, code: string) => {
      const m = parseHl7(msg);
      socket.write(
        mllpWrap(`MSH|^~\\&|BS240|LAB|lims||20261126120000||ACK^O01|M1|P|2.3.1\rMSA|${code}|${m.controlId}\r`),
      );
    };

    const first = await until('the ORM^O01', async () => got[0]);
    const orm = parseHl7(first);
    expect(orm.type).toBe('ORM^O01');
    expect(orm.get(orm.segment('ORC'), 1)).toBe('NW');
    const obr = orm.segment('OBR');
    expect([orm.get(obr, 2), orm.get(obr, 4), orm.get(obr, 5), orm.get(obr, 15)]).toEqual([
      'OD-HL7',
      'HGB',
      'R',
      'Blood',
    ]);
    expect(orm.all('OBR')).toHaveLength(1);
    ack(first, 'AE');
    const refused = await until('the order not taken', async () => {
      const row = (await orderSendsOf(db, conn.id)).find((r) => r.sample_id === sample);
      return row?.attempts === 1 && row.claimed_until === null ? row : undefined;
    });
    expect(refused).toMatchObject({ status: 'pending', last_error: 'the machine answered AE' });

    await db
      .updateTable('interface_order_sends')
      .set({ next_attempt_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', refused.id)
      .execute();
    const second = await until('the ORM again', async () => got[1]);
    expect(parseHl7(second).controlId).not.toBe(orm.controlId);
    ack(second, 'AA');
    await until('sent', async () =>
      (await orderSendsOf(db, conn.id)).find((r) => r.sample_id === sample)?.status === 'sent' ? true : undefined,
    );
    socket.destroy();
    const out = await outbound(conn);
    expect(out.map((m) => [m.message_type, m.status])).toEqual([
      ['ORM^O01', 'sent'],
      ['ORM^O01', 'failed'],
    ]);
    await lab.admin.post(`/api/connections/${conn.id}/disable`);
  });
});
