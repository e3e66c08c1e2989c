import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Duplex } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLab, type TestLab } from '../helpers.js';
import { ACK, createConnectionAs, ENQ, EOT, listenersFor, sampleWithBarcode, until } from './interface-support.js';
import type { SerialLine, SerialOpener } from '../../src/core/interfaces/serial.js';
import type { Connection } from '../../src/shared/schemas/connections.js';

/**
 * Serial transport through the serialport package's mock binding (SerialPortMock): lims opens the
 * port with the connection's settings, takes the Sysmex transcript over E1381 as it would off an
 * RS-232 line, and shows a port that cannot be opened as an error on the connection.
 */

/** The parts of serialport's SerialPortMock used here (the package is loaded at run time, as lims loads it). */
interface MockLine extends Duplex {
  readonly isOpen: boolean;
  open(cb: (err: Error | null) => void): void;
  close(cb?: (err: Error | null) => void): void;
  readonly settings: { baudRate: number; dataBits: number; parity: string; stopBits: number };
  readonly port?: { emitData(d: Buffer): void; recording: Buffer };
}
interface SerialPortModule {
  SerialPortMock: (new (o: object) => MockLine) & {
    binding: { createPort(path: string, o: { echo?: boolean; record?: boolean }): void; reset(): void };
  };
}

const SERIALPORT: string = 'serialport';
const fixture = (name: string) => readFileSync(join(import.meta.dirname, '../fixtures/external', name));

let lab: TestLab;
let listeners: Awaited<ReturnType<typeof listenersFor>>;
let mock: SerialPortModule['SerialPortMock'];
const opened: MockLine[] = [];
const tests: Record<string, number> = {};

beforeAll(async () => {
  mock = ((await import(SERIALPORT)) as SerialPortModule).SerialPortMock;
  mock.binding.reset();
  mock.binding.createPort('/dev/ttyLAB0', { echo: false, record: true });
  lab = await makeLab();
  for (const code of ['WBC', 'HGB']) {
    const res = await lab.admin.post('/api/tests', { name: code, code, unit: 'x', normal_range: '1-100', price: 10 });
    tests[code] = res.json<{ test: { id: number } }>().test.id;
  }
  const openSerial: SerialOpener = async (o) => {
    const line = new mock({ ...o, autoOpen: false });
    await new Promise<void>((resolve, reject) => line.open((err) => (err ? reject(err) : resolve())));
    opened.push(line);
    return line as SerialLine;
  };
  listeners = await listenersFor(() => lab.database.db, lab.organizationId, { openSerial });
});

afterAll(async () => {
  await listeners?.stop();
  await lab?.close();
  mock?.binding.reset();
});

/** The bytes lims has written to the port since `from`, once there are `n` of them. */
async function written(line: MockLine, from: number, n: number): Promise<number[]> {
  return until(`${n} byte(s) from lims`, async () => {
    const rec = line.port?.recording ?? Buffer.alloc(0);
    return rec.length >= from + n ? [...rec.subarray(from, from + n)] : undefined;
  });
}

describe('serial transport', () => {
  it('takes the Sysmex CBC over a serial line (9600 8N1 by default; 7E1 when set) and shows a missing port as an error', async () => {
    const sample = await sampleWithBarcode(lab, await patientId(), '27', [tests.WBC!, tests.HGB!]);
    const c = await createConnectionAs(lab, {
      name: 'Sysmex on COM1',
      protocol: 'astm',
      transport: 'serial',
      path: '/dev/ttyLAB0',
      enabled: true,
      code_map: [
        { code: 'WBC', test_id: tests.WBC },
        { code: 'HGB', test_id: tests.HGB },
      ],
    });
    expect(c).toMatchObject({ baud_rate: 9600, data_bits: 8, parity: 'none', stop_bits: 1, port: null });
    await until('the port open', async () => {
      const x = (await lab.admin.get(`/api/connections/${c.id}`)).json<{ connection: Connection }>().connection;
      return x.listen_status === 'connected' ? x : undefined;
    });
    const line = opened.at(-1)!;
    expect(line.settings).toMatchObject({ baudRate: 9600, dataBits: 8, parity: 'none', stopBits: 1 });

    // The machine: ENQ, the frame, EOT, each answered ACK on the line.
    line.port!.emitData(Buffer.from([ENQ]));
    expect(await written(line, 0, 1)).toEqual([ACK]);
    line.port!.emitData(fixture('astm_e1381_sysmex_xn550_cbc.txt'));
    expect(await written(line, 1, 1)).toEqual([ACK]);
    line.port!.emitData(Buffer.from([EOT]));
    const results = await until('the CBC', async () => {
      const rows = await lab.database.db
        .selectFrom('test_results')
        .select(['test_id', 'result_value', 'technician_id', 'verified_by'])
        .where('sample_id', '=', sample)
        .execute();
      return rows.length === 2 ? rows : undefined;
    });
    expect(new Map(results.map((r) => [r.test_id, r.result_value]))).toEqual(
      new Map([
        [tests.WBC, '8.13'],
        [tests.HGB, '8.0'],
      ]),
    );
    expect(results.every((r) => r.technician_id === c.service_user_id && r.verified_by === null)).toBe(true);

    // Other line settings reopen the port with them.
    const changed = await lab.admin.put(`/api/connections/${c.id}`, {
      data_bits: 7,
      parity: 'even',
      baud_rate: '19200',
    });
    expect(changed.json().connection).toMatchObject({ baud_rate: 19200, data_bits: 7, parity: 'even', stop_bits: 1 });
    const reopened = await until('the port reopened', async () => (opened.length === 2 ? opened[1] : undefined));
    expect(reopened.settings).toMatchObject({ baudRate: 19200, dataBits: 7, parity: 'even', stopBits: 1 });
    await lab.admin.post(`/api/connections/${c.id}/disable`);

    // A device that is not there: an error on the connection, not a crash.
    const gone = await createConnectionAs(lab, {
      name: 'Unplugged',
      protocol: 'astm',
      transport: 'serial',
      path: '/dev/ttyNOTHERE',
      enabled: true,
    });
    const shown = await until('the error', async () => {
      const x = (await lab.admin.get(`/api/connections/${gone.id}`)).json<{ connection: Connection }>().connection;
      return x.listen_status === 'error' ? x : undefined;
    });
    expect(shown.last_error).toMatch(/^Cannot open \/dev\/ttyNOTHERE \(.+\)$/);
    await lab.admin.post(`/api/connections/${gone.id}/disable`);
  });
});

async function patientId(): Promise<number> {
  const res = await lab.admin.post('/api/patients', {
    first_name: 'Serial',
    last_name: 'Line',
    date_of_birth: '1980-01-01',
    gender: 'Male',
  });
  return res.json<{ patient: { id: number } }>().patient.id;
}
