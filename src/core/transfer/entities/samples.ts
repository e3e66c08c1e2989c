import { z } from 'zod';
import { SAMPLE_PRIORITIES, SAMPLE_STATUSES, SAMPLE_TYPES, isValidBarcode } from '../../../shared/samples.js';
import { TUBE_IDS } from '../../../shared/tubes.js';
import { optionalEmail, optionalText, requiredText } from '../../../shared/schemas/common.js';
import { isRealDate } from '../../../shared/age.js';
import { SAMPLE_CODE, insertHistoricalSample, type HistoricalSample } from '../../samples/service.js';
import {
  barcodesTaken,
  billsByNumbers,
  sampleExportPage,
  samplesByCodes,
  testCodesOfSamples,
} from '../../samples/transfer-repository.js';
import { itemsByCodes } from '../../catalogue/repository.js';
import { patientsByCodes } from '../../patients/repository.js';
import { usersByEmails } from '../../users/repository.js';
import { reserveSequence } from '../../sequences.js';
import type { EntityError, TransferColumn, TransferEntity } from '../entity.js';
import { insertEach, oneOf, pastInstant, upperKey, keysetPages } from './common.js';
import { codeList } from './catalogue.js';

/**
 * Samples, keyed by sample code (`sample_id`, as the API names it). Imported samples are history:
 * status, barcode and times as the file says (no status machine). The patient by code
 * (`patient_number`), the ordered tests by code, the collector by email, the ordering bill by number
 * (it must be the same patient's). A row without a code gets the next code of the lab's day. A
 * stored sample is not changed by an import (--update is refused).
 */

const columns: TransferColumn[] = [
  { name: 'sample_id' },
  { name: 'barcode' },
  { name: 'patient_number' },
  { name: 'first_name', readOnly: true },
  { name: 'last_name', readOnly: true },
  { name: 'sample_type' },
  { name: 'container' },
  { name: 'test_codes', kind: 'list' },
  { name: 'priority' },
  { name: 'status' },
  { name: 'location' },
  { name: 'notes' },
  { name: 'rejection_reason' },
  { name: 'collector_email' },
  { name: 'bill_number' },
  { name: 'collection_date', kind: 'timestamp' },
  { name: 'completed_at', kind: 'timestamp' },
  { name: 'reported_at', kind: 'timestamp' },
  { name: 'created_at', kind: 'timestamp' },
];

const blank = (v: unknown) => (v === '' || v === null ? undefined : v);

const schema = z
  .object({
    sample_id: z.string().optional(),
    barcode: z.preprocess(
      (v) => (typeof v === 'string' ? blank(v.trim().toUpperCase()) : blank(v)),
      z.string().refine(isValidBarcode, 'a barcode is BC, two letters of the sample type and 11 digits').optional(),
    ),
    patient_number: requiredText('The patient code (patient_number)', 30).transform(upperKey),
    sample_type: z.enum(SAMPLE_TYPES, { error: `Sample type must be one of ${SAMPLE_TYPES.join(', ')}` }),
    container: z.preprocess(
      blank,
      z.enum(TUBE_IDS, { error: `Tube must be one of ${TUBE_IDS.join(', ')}` }).optional(),
    ),
    test_codes: codeList('test_codes').default([]),
    priority: z.preprocess(
      blank,
      z.enum(SAMPLE_PRIORITIES, { error: `Priority must be one of ${SAMPLE_PRIORITIES.join(', ')}` }).default('normal'),
    ),
    status: z.preprocess(
      blank,
      z.enum(SAMPLE_STATUSES, { error: `Status must be one of ${SAMPLE_STATUSES.join(', ')}` }).default('collected'),
    ),
    location: optionalText(100),
    notes: optionalText(1000),
    rejection_reason: optionalText(1000),
    collector_email: optionalEmail,
    bill_number: z.preprocess(
      (v) => (typeof v === 'string' ? blank(v.trim().toUpperCase()) : blank(v)),
      z.string().max(30).optional(),
    ),
    collection_date: pastInstant('The collection time'),
    completed_at: pastInstant('The completion time'),
    reported_at: pastInstant('The report time'),
    created_at: pastInstant('The time the sample was recorded'),
  })
  .superRefine((s, ctx) => {
    if (s.status === 'rejected' && !s.rejection_reason)
      ctx.addIssue({ code: 'custom', path: ['rejection_reason'], message: 'a rejected sample needs its reason' });
    if (s.status === 'completed' && !s.completed_at && !s.collection_date)
      ctx.addIssue({
        code: 'custom',
        path: ['completed_at'],
        message: 'a completed sample needs when it was completed',
      });
  });
type Input = z.infer<typeof schema>;

export const samples: TransferEntity<Input, true, HistoricalSample & { row: number }> = {
  name: 'samples',
  label: 'sample',
  auditEntity: 'sample',
  columns,
  key: 'sample_id',
  normalizeKey: upperKey,
  checkKey: (code) => {
    const m = SAMPLE_CODE.exec(code);
    if (!m || !isRealDate(`${m[1]!.slice(0, 4)}-${m[1]!.slice(4, 6)}-${m[1]!.slice(6, 8)}`))
      return 'a sample code is SMP, the day (YYYYMMDD) and a number, e.g. SMP202611210003; leave it empty for the next code';
    return null;
  },
  requiredColumns: ['patient_number', 'sample_type'],
  createSchema: schema,
  noUpdate: 'a stored sample is a lab record; change it on the Samples screen',
  batchSize: 300,

  async findExisting(ctx, keys) {
    const found = await samplesByCodes(ctx.db, ctx.organizationId, keys);
    return new Map([...found.keys()].map((k) => [k, true as const]));
  },

  async plan(ctx, rows) {
    const patients = await patientsByCodes(ctx.db, ctx.organizationId, [
      ...new Set(rows.map((r) => r.input.patient_number)),
    ]);
    const tests = await itemsByCodes<{ id: number; code: string }>(ctx.db, 'tests', ctx.organizationId, [
      ...new Set(rows.flatMap((r) => r.input.test_codes)),
    ]);
    const emails = [...new Set(rows.map((r) => r.input.collector_email).filter((e): e is string => !!e))];
    const collectors = new Map(
      (await usersByEmails(ctx.db, ctx.organizationId, emails)).map((u) => [u.email.toLowerCase(), u]),
    );
    const bills = await billsByNumbers(ctx.db, ctx.organizationId, [
      ...new Set(rows.map((r) => r.input.bill_number).filter((b): b is string => !!b)),
    ]);
    const barcodes = rows.map((r) => r.input.barcode).filter((b): b is string => !!b);
    const taken = await barcodesTaken(ctx.db, ctx.organizationId, barcodes);
    const seen = new Set<string>();
    const out = rows.map((r) => {
      const s = r.input;
      const errors: EntityError[] = [];
      const patient = patients.get(s.patient_number);
      if (!patient)
        errors.push({
          column: 'patient_number',
          message: `no patient with code ${s.patient_number} (import the patients first)`,
        });
      const unknown = s.test_codes.filter((c) => !tests.has(c));
      if (unknown.length)
        errors.push({ column: 'test_codes', message: `no test with code ${unknown.join(', ')} in the catalogue` });
      const collector = s.collector_email ? collectors.get(s.collector_email) : undefined;
      if (s.collector_email && !collector)
        errors.push({ column: 'collector_email', message: `no user with email ${s.collector_email} in this lab` });
      const bill = s.bill_number ? bills.get(s.bill_number) : undefined;
      if (s.bill_number && !bill) errors.push({ column: 'bill_number', message: `no bill numbered ${s.bill_number}` });
      else if (bill && patient && bill.patient_id !== patient.id)
        errors.push({ column: 'bill_number', message: `bill ${s.bill_number} is another patient's` });
      if (s.barcode && (taken.has(s.barcode) || seen.has(s.barcode)))
        errors.push({ column: 'barcode', message: `${s.barcode} is already the barcode of another sample` });
      if (s.barcode) seen.add(s.barcode);
      if (errors.length) return { row: r.row, errors };
      const created = s.created_at ?? s.collection_date ?? new Date().toISOString();
      const plan: HistoricalSample & { row: number } = {
        row: r.row,
        sample_code: s.sample_id ? upperKey(s.sample_id) : '',
        barcode: s.barcode ?? null,
        patient_id: patient!.id,
        bill_id: bill?.id ?? null,
        sample_type: s.sample_type,
        container: s.container ?? null,
        collector_id: collector?.id ?? null,
        location: s.location ?? null,
        priority: s.priority,
        status: s.status,
        notes: s.notes ?? null,
        rejection_reason: s.rejection_reason ?? null,
        collection_date: s.collection_date ?? (s.status === 'pending' ? null : created),
        completed_at: s.completed_at ?? (s.status === 'completed' ? (s.collection_date ?? created) : null),
        // A completed sample's report was released; without its own time, when it was completed
        // (as verification sets both), so Lab Reports counts it on that day (docs/decisions.md).
        reported_at:
          s.reported_at ?? (s.status === 'completed' ? (s.completed_at ?? s.collection_date ?? created) : null),
        created_at: created,
        test_ids: s.test_codes.map((c) => tests.get(c)!.id),
      };
      return { row: r.row, plan };
    });
    return out;
  },

  async write(ctx, plans) {
    // Rows without a code take the next codes of the lab's day, in file order.
    const fresh = plans.filter((p) => !p.sample_code);
    if (fresh.length) {
      const day = ctx.today.replace(/-/g, '');
      let next = (await reserveSequence(ctx.db, ctx.organizationId, `sample:${day}`, fresh.length)) - fresh.length + 1;
      for (const p of fresh) p.sample_code = `SMP${day}${String(next++).padStart(4, '0')}`;
    }
    return insertEach(ctx, plans, (sample) => insertHistoricalSample(ctx.db, ctx.actor, sample));
  },

  filters: {
    status: oneOf(SAMPLE_STATUSES),
    sample_type: oneOf(SAMPLE_TYPES),
    patient_number: z.string().trim().min(1).transform(upperKey),
  },
  dateField: 'collection time (collection_date, else when recorded)',
  exportPages(db, organizationId, q) {
    return keysetPages(db, organizationId, q, sampleExportPage, async (rows) => {
      const codes = await testCodesOfSamples(
        db,
        rows.map((r) => r.id),
      );
      return rows
        .filter((r) => !q.where.status || r.status === q.where.status)
        .filter((r) => !q.where.sample_type || r.sample_type === q.where.sample_type)
        .filter((r) => !q.where.patient_number || r.patient_code === q.where.patient_number)
        .map((r) => ({
          sample_id: r.sample_code,
          barcode: r.barcode,
          patient_number: r.patient_code,
          first_name: r.first_name,
          last_name: r.last_name,
          sample_type: r.sample_type,
          container: r.container,
          test_codes: codes.get(r.id) ?? [],
          priority: r.priority,
          status: r.status,
          location: r.location,
          notes: r.notes,
          rejection_reason: r.rejection_reason,
          collector_email: r.collector_email,
          bill_number: r.bill_number,
          collection_date: r.collection_date,
          completed_at: r.completed_at,
          reported_at: r.reported_at,
          created_at: r.created_at,
        }));
    });
  },
};
