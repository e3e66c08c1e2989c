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

/**
 * Every capture of real analysers (../shared/fixtures/peer-interop, SOURCES.md) through a real
 * listener, as the machine sends it. First with the machine's own IDs: each result waits in the
 * Unmatched queue showing the ID the machine sent. Then with the lab's barcodes in their place and
 * every code mapped: each result is on its sample, its value exactly as sent, its unit as sent.
 */

interface Capture {
  file: string;
  profile: string;
  /** Where the machine put the specimen ID (where the lab's barcode goes). */
  at: string;
  ids: string[];
  /** Results (values that are results, after the profile's ignore rules). */
  results: number;
  /** [code, value, unit] as the capture has them. */
  spot: [string, string, string][];
  /** Results that cannot reach a sample whatever the lab does, by reason (a result with no code). */
  neverLand?: number;
}

const CAPTURES: Capture[] = [
  {
    file: 'astm_roche_cobas_c111.txt',
    profile: 'standard',
    at: 'O-4',
    ids: ['T20 10134GA D28'],
    results: 1,
    spot: [['413', '40.13', 'g/L']],
  },
  {
    file: 'astm_roche_cobas_c311_h7600.txt',
    profile: 'standard',
    at: 'O-3',
    ids: ['28987-S'],
    results: 11,
    spot: [
      ['989/', '129', 'mmol/l'],
      ['962/', '3.3', 'g/dL'],
      ['963/', '0.39', 'mg/dl'],
    ],
  },
  {
    file: 'astm_agappe_mispa_nano.txt',
    profile: 'agappe-mispa',
    at: 'O-4',
    ids: ['7207'],
    results: 14,
    spot: [
      ['ALBUMIN', '4.208448', 'g/dL'],
      ['BILIRUBIN DIRECT', '0.132357', 'mg/dL'],
      ['SGPT', '15.846873', 'IU/L'],
    ],
    // R-3 `^^^F` twice: the machine sent no name for these two tests.
    neverLand: 2,
  },
  {
    file: 'astm_horiba_pentra_xlr.txt',
    profile: 'standard',
    at: 'O-3',
    ids: ['S1234'],
    // 21 R records, BAS# and BAS% `-----` with R-9 X (could not be done).
    results: 19,
    spot: [
      ['HGB', '14.0', '1'],
      ['MCV', '88', '1'],
      ['PLT', '234', '1'],
    ],
  },
  {
    file: 'astm_horiba_yumizen_h500.txt',
    profile: 'standard',
    at: 'O-3',
    ids: ['AUTO_SID0001'],
    results: 27,
    spot: [
      ['RBC', '4.20', '10E6/uL'],
      ['RDW-SD', '50.0', 'um3'],
      ['PCT', '0.33', '%'],
    ],
  },
  {
    file: 'astm_horiba_yumizen_h500_qc_reframed.txt',
    profile: 'standard',
    at: 'O-3',
    ids: ['PX440N'],
    results: 21,
    spot: [
      ['NEU#', '4.20', '10E3/uL'],
      ['WBC', '8.30', '10E3/uL'],
    ],
  },
  {
    file: 'astm_siemens_atellica_hema580.txt',
    profile: 'standard',
    at: 'O-3',
    ids: ['81146'],
    results: 51,
    spot: [
      ['IMM#', '1.10', ''],
      ['RHCC', '26.0', ''],
      ['RBC_PLTO', 'RBC_PLTO', ''],
    ],
  },
  {
    file: 'astm_sysmex_xp100.txt',
    profile: 'standard',
    at: 'O-4',
    ids: ['113'],
    results: 20,
    spot: [
      ['WBC', '5.5', '10*3/uL'],
      ['PCT', '0.17', '%'],
      ['MCHC', '41.7', 'g/dL'],
    ],
  },
  {
    file: 'astm_beckman_access2.txt',
    profile: 'standard',
    at: 'O-3',
    ids: ['PTNTAA'],
    results: 1,
    spot: [['VitB12', '>1500', 'pg/mL']],
  },
  {
    file: 'astm_abbott_architect.txt',
    profile: 'abbott-architect',
    at: 'O-3',
    ids: ['SID13'],
    results: 2,
    spot: [
      ['0021^F', '< 1.20', 'mIU/mL'],
      ['0021^I', 'NEGATIVE', ''],
    ],
  },
  {
    file: 'astm_abbott_afinion2.txt',
    profile: 'abbott-afinion',
    at: 'P-4',
    ids: ['3643'],
    results: 1,
    spot: [['HbA1c', '5.9', '%']],
  },
  {
    file: 'astm_siemens_dca_vantage.txt',
    profile: 'siemens-dca-vantage',
    at: 'P-3',
    ids: ['BU24R554'],
    results: 3,
    spot: [
      ['Alb', '63.7', 'mg/L'],
      ['Crt', '230.8', 'mg/dL'],
      ['Ratio', '27.6', 'mg/g'],
    ],
  },
  {
    file: 'astm_cepheid_genexpert.txt',
    profile: 'cepheid-genexpert',
    at: 'O-3',
    ids: ['PR25A137'],
    // MTB, MTB Trace and RIF Resistance are main results; only MTB has a value in this run.
    results: 1,
    spot: [['MTB-RIF^Xpert^MTB', 'NOT DETECTED', '']],
  },
  {
    file: 'hl7_pixcell_hemoscreen.mllp',
    profile: 'pixcell-hemoscreen',
    at: 'PID-2',
    ids: ['35'],
    results: 20,
    spot: [
      ['HGB', '14.25', 'g/dL'],
      ['MCHC', '0.00', 'g/dL'],
      ['EOS%', '1.20', '%'],
    ],
  },
  {
    file: 'hl7_mindray_bc5130.mllp',
    profile: 'mindray-hl7',
    at: 'OBR-3',
    ids: ['1'],
    results: 25,
    spot: [
      ['6690-2', '7.52', '10*3/uL'],
      ['10002', '0.254', '%'],
      ['32207-3', '15.5', ''],
    ],
  },
  {
    file: 'hl7_snibe_maglumi_oul_r22.mllp',
    profile: 'standard',
    at: 'SPM-2',
    ids: ['1', '10', '11', '12', '13', '13re', '14', '15', '16'],
    results: 25,
    spot: [
      ['TSH', '1.08', 'uIU/mL'],
      ['25-OH VD II', '28.1', 'ng/mL'],
      ['FT4', '1.30', 'ng/dL'],
    ],
  },
  {
    file: 'hl7_tisenc_accre8.mllp',
    profile: 'standard',
    at: 'OBR-3',
    ids: ['20240831001', '20240801001'],
    results: 3,
    spot: [
      ['23', '83.961', 'nmol/L'],
      ['21', '1.1441', 'nmol/L'],
      ['20', '2.334', 'μIU/mL'],
    ],
  },
  {
    file: 'hl7_wondfo_finecare_plus.mllp',
    profile: 'wondfo-finecare',
    at: 'PID-5',
    ids: ['patientdddd', 'patiente'],
    results: 6,
    spot: [
      ['HbA1c', '12.6', '%'],
      ['HBA1C(IFCC)', '114.2', 'mmol/mol'],
      ['eGA(ADA)', '105.4', 'md/dl'],
    ],
  },
];

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
