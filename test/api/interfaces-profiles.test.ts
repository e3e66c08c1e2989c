import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLab, type TestLab } from '../helpers.js';
import { otherLabAdmin } from './support.js';
import { sampleWithBarcode } from './interface-support.js';
import { peerFile, peerFixturesPresent } from './peer-capture.js';
import type { CaptureReplay } from '../../src/shared/schemas/capture-replay.js';
import type { Connection } from '../../src/shared/schemas/connections.js';

/**
 * Instrument profiles on a connection (chosen, validated, stored) and the capture replay: what a
 * capture would become, shown before anything is stored.
 */

let lab: TestLab;
let patient: number;
const tests: Record<string, number> = {};

async function connection(body: Record<string, unknown>): Promise<Connection> {
  const res = await lab.admin.post('/api/connections', { transport: 'folder', path: `f${Date.now()}`, ...body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ connection: Connection }>().connection;
}

async function replay(id: number, capture: string, as = lab.admin) {
  return as.post(`/api/connections/${id}/replay`, { capture });
}

async function counts() {
  const one = async (t: 'interface_messages' | 'interface_unmatched' | 'test_results') =>
    Number(
      (
        await lab.database.db
          .selectFrom(t)
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  return {
    messages: await one('interface_messages'),
    unmatched: await one('interface_unmatched'),
    results: await one('test_results'),
  };
}

beforeAll(async () => {
  lab = await makeLab({ dropRoot: '/tmp' });
  for (const [code, name, unit] of [
    ['WBC', 'Total WBC Count', '10*3/uL'],
    ['HGB', 'Haemoglobin', 'g/dL'],
    ['TSH', 'TSH', 'uIU/mL'],
  ] as const) {
    const res = await lab.admin.post('/api/tests', { name, code: `P${code}`, unit, price: 100 });
    expect(res.statusCode, res.body).toBe(201);
    tests[code] = res.json<{ test: { id: number } }>().test.id;
  }
  patient = (
    await lab.admin.post('/api/patients', {
      first_name: 'Profile',
      last_name: 'Replay',
      date_of_birth: '1985-03-03',
      gender: 'Male',
      phone: '9876500000',
    })
  ).json<{ patient: { id: number } }>().patient.id;
});

afterAll(async () => {
  await lab?.close();
});

describe('instrument profile on a connection', () => {
  it('defaults to standard, takes a preset, and refuses what cannot read the line (400 naming the field)', async () => {
    const plain = await connection({ name: 'Plain', protocol: 'folder' });
    expect(plain.profile).toBe('standard');
    expect(plain.profile_settings).toBeNull();

    const hl7 = await lab.admin.post('/api/connections', {
      name: 'Hemo',
      protocol: 'hl7',
      transport: 'tcp-server',
      port: 5601,
      profile: 'pixcell-hemoscreen',
    });
    expect(hl7.statusCode, hl7.body).toBe(201);
    expect(hl7.json().connection.profile).toBe('pixcell-hemoscreen');

    const unknown = await lab.admin.post('/api/connections', {
      name: 'X',
      protocol: 'astm',
      transport: 'tcp-server',
      port: 5602,
      profile: 'sysmex-xyz',
    });
    expect(unknown.statusCode, unknown.body).toBe(400);
    expect(unknown.json().details[0].path).toBe('profile');
    expect(unknown.json().details[0].message).toMatch(/Profile must be one of standard/);

    // An ASTM preset on an HL7 line, on create and when the connection is changed.
    const wrong = await lab.admin.post('/api/connections', {
      name: 'Y',
      protocol: 'hl7',
      transport: 'tcp-server',
      port: 5603,
      profile: 'agappe-mispa',
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().details[0]).toMatchObject({ path: 'profile' });
    const put = await lab.admin.put(`/api/connections/${hl7.json().connection.id}`, { profile: 'cepheid-genexpert' });
    expect(put.statusCode).toBe(400);
    expect(put.json().details[0].path).toBe('profile');

    const badSetting = await lab.admin.post('/api/connections', {
      name: 'Z',
      protocol: 'astm',
      transport: 'tcp-server',
      port: 5604,
      profile_settings: { specimen: ['PID-2'] },
    });
    expect(badSetting.statusCode).toBe(400);
    expect(badSetting.json().details[0]).toMatchObject({
      path: 'profile_settings.specimen.0',
      message: 'PID-2 is not a location of ASTM (records are one letter: O-3, R-4)',
    });

    const badLocation = await lab.admin.post('/api/connections', {
      name: 'Z2',
      protocol: 'astm',
      transport: 'tcp-server',
      port: 5605,
      profile_settings: { specimen: ['O3'] },
    });
    expect(badLocation.statusCode).toBe(400);
    expect(badLocation.json().details[0].path).toMatch(/^profile_settings\.specimen/);

    const unknownKey = await lab.admin.post('/api/connections', {
      name: 'Z3',
      protocol: 'astm',
      transport: 'tcp-server',
      port: 5606,
      profile_settings: { specimn: ['O-3'] },
    });
    expect(unknownKey.statusCode).toBe(400);
    expect(unknownKey.json().details[0].path).toMatch(/^profile_settings/);

    // The lab's own settings are stored and returned (locations upper-cased).
    const own = await lab.admin.put(`/api/connections/${plain.id}`, {
      profile: 'agappe-mispa',
      profile_settings: { specimen: ['o-4', 'O-3'] },
    });
    expect(own.statusCode, own.body).toBe(200);
    expect(own.json().connection).toMatchObject({
      profile: 'agappe-mispa',
      profile_settings: { specimen: ['O-4', 'O-3'] },
    });
    const cleared = await lab.admin.put(`/api/connections/${plain.id}`, { profile_settings: null });
    expect(cleared.json().connection.profile_settings).toBeNull();
  });
});

describe.skipIf(!peerFixturesPresent())('replaying a capture (nothing stored)', () => {
  it('Sysmex XP-100: each record shown as entered, queued with its reason, and nothing is stored', async () => {
    const conn = await connection({
      name: 'XP-100',
      protocol: 'folder',
      code_map: [
        { code: 'WBC', test_id: tests.WBC },
        { code: 'HGB', test_id: tests.HGB },
        { code: 'PLT', ignore: true },
      ],
    });
    const sample = await sampleWithBarcode(lab, patient, '113', [tests.WBC!, tests.HGB!]);
    await lab.database.db.updateTable('samples').set({ status: 'collected' }).where('id', '=', sample).execute();
    const before = await counts();
    const res = await replay(conn.id, peerFile('astm_sysmex_xp100.txt').toString('latin1'));
    expect(res.statusCode, res.body).toBe(200);
    const r = res.json<{ replay: CaptureReplay }>().replay;
    expect(r).toMatchObject({ protocol: 'astm', profile: 'standard', messages: 1, notes: [] });
    expect(r.rows).toHaveLength(20);
    const by = (code: string) => r.rows.find((x) => x.code === code)!;
    expect(by('WBC')).toMatchObject({ outcome: 'entered', specimen_id: '113', value: '5.5', unit: '10*3/uL' });
    expect(by('WBC').test_name).toBe('Total WBC Count');
    expect(by('HGB')).toMatchObject({ outcome: 'entered', value: '10.1' });
    expect(by('PLT')).toMatchObject({ outcome: 'ignored' });
    expect(by('RBC')).toMatchObject({ outcome: 'unmatched', reason: 'unmapped_code' });
    expect(await counts()).toEqual(before);
  });

  it('MAGLUMI OUL^R22: the specimen in SPM (before OBR) is read; unknown IDs are shown as the queue would show them', async () => {
    const conn = await connection({
      name: 'MAGLUMI',
      protocol: 'hl7',
      transport: 'tcp-server',
      port: 5610,
      code_map: [{ code: 'TSH', test_id: tests.TSH }],
    });
    const sample = await sampleWithBarcode(lab, patient, 'MG-10', [tests.TSH!]);
    await lab.database.db.updateTable('samples').set({ status: 'collected' }).where('id', '=', sample).execute();
    const text = peerFile('hl7_snibe_maglumi_oul_r22.mllp').toString('utf8').replace('SPM|1|10^^|', 'SPM|1|MG-10^^|');
    const before = await counts();
    const r = (await replay(conn.id, text)).json<{ replay: CaptureReplay }>().replay;
    expect(r.messages).toBe(9);
    const tsh = r.rows.filter((x) => x.specimen_id === 'MG-10' && x.code === 'TSH');
    expect(tsh[0]).toMatchObject({
      outcome: 'entered',
      value: '4.11',
      unit: 'uIU/mL',
      sample_code: expect.any(String),
    });
    const unknown = r.rows.find((x) => x.specimen_id === '1' && x.code === 'TSH')!;
    expect(unknown).toMatchObject({ outcome: 'unmatched', reason: 'unknown_sample', value: '1.08' });
    expect(unknown.detail).toBe('No sample has the barcode or code 1 (sent in SPM-2)');
    // A repeat on one specimen would be refused as already entered (the first one is, in this replay).
    const repeats = r.rows.filter((x) => x.specimen_id === '11' && x.code === 'TSH');
    expect(repeats.map((x) => x.reason)).toEqual(['unknown_sample', 'unknown_sample', 'unknown_sample']);
    expect(await counts()).toEqual(before);
    // Pasted into a text box the segments end in LF and there is no MLLP: read the same.
    const pasted = text.split('\x0b').join('').split('\x1c').join('').replace(/\r/g, '\n');
    const again = (await replay(conn.id, pasted)).json<{ replay: CaptureReplay }>().replay;
    expect(again.rows.map((x) => [x.specimen_id, x.code, x.value, x.outcome])).toEqual(
      r.rows.map((x) => [x.specimen_id, x.code, x.value, x.outcome]),
    );
  });

  it('GeneXpert: with probe rows kept, a Ct sent as ^24.7 is a value; the preset ignores them', async () => {
    const raw = peerFile('astm_cepheid_genexpert.txt').toString('latin1');
    const preset = await connection({
      name: 'Xpert',
      protocol: 'astm',
      transport: 'tcp-server',
      port: 5611,
      profile: 'cepheid-genexpert',
    });
    const p = (await replay(preset.id, raw)).json<{ replay: CaptureReplay }>().replay;
    expect(
      p.rows.filter((x) => x.outcome !== 'ignored' && x.outcome !== 'skipped').map((x) => [x.code, x.value]),
    ).toEqual([['MTB-RIF^Xpert^MTB', 'NOT DETECTED']]);
    expect(p.rows.filter((x) => x.outcome === 'ignored').length).toBeGreaterThan(60);

    const probes = await connection({
      name: 'Xpert probes',
      protocol: 'astm',
      transport: 'tcp-server',
      port: 5612,
      profile: 'cepheid-genexpert',
      profile_settings: { ignore: [] },
    });
    const k = (await replay(probes.id, raw)).json<{ replay: CaptureReplay }>().replay;
    expect(k.rows.find((x) => x.code === 'MTB-RIF^Xpert^SPC^Ct')).toMatchObject({
      value: '24.7',
      outcome: 'unmatched',
    });
  });

  it('refuses a capture of the other protocol, an empty one, other labs and staff without manage_lab', async () => {
    const conn = await connection({ name: 'Guarded', protocol: 'astm', transport: 'tcp-server', port: 5613 });
    const hl7 = await replay(conn.id, peerFile('hl7_mindray_bc5130.mllp').toString('utf8'));
    expect(hl7.statusCode, hl7.body).toBe(400);
    expect(hl7.json().details[0]).toMatchObject({ path: 'capture' });
    const empty = await replay(conn.id, '');
    expect(empty.statusCode).toBe(400);
    expect(empty.json().details[0].path).toBe('capture');
    const nothing = await replay(conn.id, 'nothing a machine sent');
    expect(nothing.statusCode).toBe(400);
    expect(nothing.json().details[0].path).toBe('capture');
    const tech = await lab.as('lab_technician');
    expect((await replay(conn.id, 'H|\\^&\rL|1\r', tech)).statusCode).toBe(403);
    const { admin: other } = await otherLabAdmin(lab);
    expect((await replay(conn.id, 'H|\\^&\rL|1\r', other)).statusCode).toBe(404);
  });
});
