import type { Db } from '../db/connection.js';
import type { Actor } from '../context.js';
import { nowIso } from '../context.js';
import { DomainError, ValidationError } from '../errors.js';
import { withSavepoint } from '../db/savepoint.js';
import { enterResult } from '../results/service.js';
import { orderedTests } from '../results/entry-repository.js';
import { findSampleRow, type SampleRow } from '../samples/repository.js';
import { numericValue } from '../../shared/flags.js';
import type { CodeMapEntry, UnmatchedReason } from '../../shared/schemas/connections.js';
import type { OrderAnswer } from './astm/records.js';
import { OPEN_FOR_ENTRY } from '../results/repository.js';
import type { Inbound, InboundQuery, InboundResult } from './inbound.js';
import { codeMapOf } from './service.js';
import { profileOf } from './profile.js';
import { insertUnmatchedRow, type ConnectionRow } from './repository.js';

/**
 * Placing what a machine sent: each result on its sample and test (entered, or queued as unmatched
 * with the reason), and the answer to a host query (the tests to run on a specimen).
 */
/** The machine as an actor: its connection's service account, in the connection's lab. */
export function machineActor(conn: Pick<ConnectionRow, 'organization_id' | 'service_user_id' | 'name'>): Actor {
  return {
    userId: conn.service_user_id,
    email: null,
    role: 'lab_technician',
    organizationId: conn.organization_id,
    userAgent: `interface: ${conn.name}`,
  };
}

/** A specimen ID is a sample's barcode, else its sample code. */
export async function sampleOfSpecimen(
  db: Db,
  organizationId: number,
  specimenId: string,
): Promise<SampleRow | undefined> {
  if (!specimenId) return undefined;
  return (
    (await findSampleRow(db, organizationId, { barcode: specimenId })) ??
    (await findSampleRow(db, organizationId, { code: specimenId }))
  );
}

export function mapEntryOf(map: CodeMapEntry[], code: string): CodeMapEntry | undefined {
  const key = code.trim().toUpperCase();
  return map.find((e) => e.code.trim().toUpperCase() === key);
}

/** The machine's value in the test's unit: times the factor when the code map gives one. */
export function convertValue(value: string, factor: number | null | undefined): string {
  if (!factor || factor === 1) return value;
  const n = numericValue(value);
  if (n === null) return value;
  const prefix = /^[<>]=?/.exec(value.trim())?.[0] ?? '';
  return `${prefix}${Number((n * factor).toPrecision(6))}`;
}

export interface Outcome {
  entered: number;
  unmatched: number;
  /** Values of codes the code map ignores: kept in the raw message only. */
  ignored: number;
}

/**
 * One result: matched to a sample (barcode or code), a mapped test, the unit the map expects, and
 * entered through enterResult (the same path as a typed result) inside a savepoint; anything that
 * does not match or is refused goes to the Unmatched queue with the reason. Never both.
 */
async function applyResult(
  trx: Db,
  conn: ConnectionRow,
  map: CodeMapEntry[],
  messageId: number,
  r: InboundResult,
  tried: string[],
): Promise<'entered' | 'unmatched' | 'ignored'> {
  const queue = async (reason: UnmatchedReason, detail: string) => {
    await insertUnmatchedRow(trx, {
      organization_id: conn.organization_id,
      connection_id: conn.id,
      message_id: messageId,
      specimen_id: r.specimenId.slice(0, 100),
      code: r.code.slice(0, 100),
      value: r.value.slice(0, 500),
      unit: r.unit ? r.unit.slice(0, 50) : null,
      flag: r.flag ? r.flag.slice(0, 20) : null,
      reason,
      detail: detail.slice(0, 500),
      status: 'open',
      result_id: null,
      discard_reason: null,
      resolved_by: null,
      resolved_at: null,
      created_at: nowIso(),
    });
    return 'unmatched' as const;
  };
  const entry = mapEntryOf(map, r.code);
  if (!entry) return queue('unmapped_code', `The code ${r.code} is not in the code map of ${conn.name}`);
  if (entry.ignore || !entry.test_id) return 'ignored';
  const testId = entry.test_id;
  if (entry.unit && r.unit && entry.unit.trim().toLowerCase() !== r.unit.trim().toLowerCase()) {
    return queue('unit_mismatch', `Sent in ${r.unit}; the code map expects ${entry.unit}`);
  }
  const sample = await sampleOfSpecimen(trx, conn.organization_id, r.specimenId);
  if (!sample) return queue('unknown_sample', unknownSampleDetail(r, tried));
  try {
    await withSavepoint(trx, () =>
      enterResult(
        trx,
        machineActor(conn),
        {
          sample_id: sample.id,
          test_id: testId,
          result_value: convertValue(r.value, entry.factor),
          unit: entry.factor ? undefined : r.unit || undefined,
          notes: r.comments.length ? r.comments.join('; ').slice(0, 1000) : undefined,
          equipment_id: conn.equipment_id ?? undefined,
        },
        { instrumentFlag: r.flag || null },
      ),
    );
    return 'entered';
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    const detail =
      err instanceof ValidationError && err.details?.length
        ? err.details.map((d) => d.message).join('; ')
        : err.message;
    return queue('refused', detail);
  }
}

/**
 * Why a result found no sample, naming what the machine sent and where: the technician looks for
 * the tube by that ID. With no ID at all, the locations the profile read.
 */
export function unknownSampleDetail(r: Pick<InboundResult, 'specimenId' | 'specimenFrom'>, tried: string[]): string {
  return r.specimenId
    ? `No sample has the barcode or code ${r.specimenId} (sent in ${r.specimenFrom})`
    : `The machine sent no specimen ID (read from ${tried.join(', ')})`;
}

export async function applyInbound(
  trx: Db,
  conn: ConnectionRow,
  protocol: 'astm' | 'hl7',
  messageId: number,
  inbound: Inbound,
): Promise<Outcome> {
  const map = codeMapOf(conn);
  const tried = profileOf(conn, protocol).specimen;
  const o: Outcome = { entered: 0, unmatched: 0, ignored: inbound.skipped.filter((x) => x.kind === 'ignored').length };
  for (const r of inbound.results) o[await applyResult(trx, conn, map, messageId, r, tried)] += 1;
  return o;
}

/**
 * The tests to run on each specimen asked about, as the machine's codes: the tests ordered on the
 * sample (barcode, else sample code) that have no result yet, and only those the code map knows.
 * A specimen lims does not know, or a sample no longer open for entry, has nothing to run.
 */
export async function answerQueries(db: Db, conn: ConnectionRow, queries: InboundQuery[]): Promise<OrderAnswer[]> {
  const map = codeMapOf(conn);
  const out: OrderAnswer[] = [];
  for (const q of queries) {
    const sample = await sampleOfSpecimen(db, conn.organization_id, q.specimenId);
    const open = sample && (OPEN_FOR_ENTRY as readonly string[]).includes(sample.status);
    const tests = open ? await orderedTests(db, sample.id) : [];
    const done = new Set(
      open && tests.length
        ? (await db.selectFrom('test_results').select('test_id').where('sample_id', '=', sample.id).execute()).map(
            (r) => r.test_id,
          )
        : [],
    );
    const codes = tests
      .filter((t) => !done.has(t.id))
      .flatMap((t) => {
        const e = map.find((m) => m.test_id === t.id);
        return e ? [e.code] : [];
      });
    out.push({
      specimenId: q.specimenId,
      range: q.range,
      patientId: sample?.patient_code ?? '',
      testCodes: codes,
      sample: sample && {
        sampleCode: sample.sample_code,
        sampleType: sample.sample_type,
        stat: sample.priority === 'urgent' || sample.priority === 'high',
        collectedAt: sample.collection_date,
        patientName: [sample.first_name, sample.last_name].filter(Boolean).join(' '),
        dateOfBirth: sample.patient_dob,
        gender: sample.patient_gender,
      },
    });
  }
  return out;
}
