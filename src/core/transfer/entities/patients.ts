import { z } from 'zod';
import {
  patientCreateChecks,
  patientFields,
  patientUpdateChecks,
  type PatientCreate,
  type PatientUpdate,
} from '../../../shared/schemas/patients.js';
import { GENDERS, MEMBERSHIP_TYPES } from '../../../shared/constants.js';
import { isRealDate } from '../../../shared/age.js';
import {
  patientArrayPages,
  patientPages,
  patientParallelPlan,
  PATIENT_CSV_COLUMNS,
  type PatientExportFilters,
  applyPatientUpdate,
  PatientStage,
  insertPatientsBulk,
  PATIENT_CODE,
  type BulkPatient,
} from '../../patients/service.js';
import { patientsByCodes, type PatientRow } from '../../patients/repository.js';
import { PrefixCounts, writePrefixCounts } from '../../db/patient-search.js';
import type { Db } from '../../db/connection.js';
import type { ColumnKind } from '../cells.js';
import type { ExportQuery, TransferColumn, TransferEntity } from '../entity.js';
import { oneOf, pastInstant, upperKey, utcRangeOf } from './common.js';
import { patientsByLegacyIds } from '../../patients/legacy-repository.js';
import { quoted } from '../errors.js';
import { formatCount } from '../../../shared/count.js';

/** What a lims patient code starts like: such a value that is not a whole code is a typing mistake. */
const LIMS_LIKE = /^PAT\d{6}/;

/** The old IDs an import has met so far and their first row (a file may not give one to two patients). */
const legacyRows = new WeakMap<object, Map<string, number>>();

/** The search prefix counts of an import's new patients, written once when its store pass ends. */
const prefixCounts = new WeakMap<object, PrefixCounts>();
function prefixesOf(ctx: object): PrefixCounts {
  let p = prefixCounts.get(ctx);
  if (!p) prefixCounts.set(ctx, (p = new PrefixCounts()));
  return p;
}

/**
 * Patients: the columns of the patients CSV the UI downloads (so the CLI's CSV is the same bytes),
 * keyed by the patient code (`patient_id`). A row without a code is registered with the next code
 * of the lab's day; a row with one keeps it (a lims code, PAT + day + number, not already used).
 * `created_at` keeps the registration date of an earlier system; `age` stands in for a birth date
 * left empty (a walk-in's age), as in the API.
 *
 * A lab's first import usually comes from its earlier system: a patient_id that is not a lims code
 * (not PAT...) is that system's number, kept as the patient's legacy_id (found by the search) while
 * the patient gets the next lims code; M/F/O are Male/Female/Other.
 */

const KIND: Partial<Record<(typeof PATIENT_CSV_COLUMNS)[number], ColumnKind>> = {
  date_of_birth: 'date',
  age: 'number',
  created_at: 'timestamp',
  dob_estimated: 'boolean',
};
const READ_ONLY = new Set(['status']);

const columns: TransferColumn[] = PATIENT_CSV_COLUMNS.map((name) => ({
  name,
  kind: KIND[name] ?? 'text',
  readOnly: READ_ONLY.has(name),
}));

/** The one-letter genders of older systems and spreadsheets (M, F, O; any case). */
const SHORT_GENDERS: Record<string, string> = { M: 'Male', F: 'Female', O: 'Other' };

const importFields = {
  gender: z.preprocess(
    (v) => (typeof v === 'string' ? (SHORT_GENDERS[v.trim().toUpperCase()] ?? v) : v),
    patientFields.gender,
  ),
  patient_id: z.string().optional(),
  created_at: pastInstant('The registration time'),
  dob_estimated: z.boolean({ error: 'dob_estimated must be true or false' }).optional(),
};

/**
 * The API's patient schema (its fields and its checks across fields, from shared/schemas/patients)
 * with the import's own fields, as one object: the same rules and messages as
 * `z.object(importFields).and(patientCreateSchema)`, without an intersection's second pass and
 * merge of every row (the merge alone was about 5% of a profiled 100,000-row import).
 */
const createSchema = z.object({ ...patientFields, ...importFields }).superRefine(patientCreateChecks);
const updateSchema = z
  .object({ ...patientFields, ...importFields })
  .partial()
  .superRefine(patientUpdateChecks);

type Input = z.infer<typeof createSchema> & PatientCreate;
type Plan = { insert: BulkPatient } | { update: PatientRow; input: PatientUpdate };

/** --where and --from/--to as the patients walk takes them. */
async function exportFilters(db: Db, organizationId: number, q: ExportQuery): Promise<PatientExportFilters> {
  const range = await utcRangeOf(db, organizationId, q);
  return {
    search: q.where.search as string | undefined,
    gender: q.where.gender as PatientCreate['gender'] & string,
    membership: q.where.membership_type as (typeof MEMBERSHIP_TYPES)[number] | undefined,
    createdFrom: range.from,
    createdBefore: range.before,
  };
}

export const patients: TransferEntity<Input, PatientRow, Plan> = {
  name: 'patients',
  label: 'patient',
  auditEntity: 'patient',
  columns,
  key: 'patient_id',
  normalizeKey: upperKey,
  checkKey: (code) => {
    // Another system's number is kept as the legacy ID; only a mistyped lims code is refused.
    if (!LIMS_LIKE.test(code)) return null;
    const m = PATIENT_CODE.exec(code);
    if (!m || !isRealDate(`${m[1]!.slice(0, 4)}-${m[1]!.slice(4, 6)}-${m[1]!.slice(6, 8)}`))
      return 'a patient code is PAT, the registration date (YYYYMMDD) and a number, e.g. PAT202611210007; leave it empty to give the patient the next code';
    return null;
  },
  requiredColumns: ['first_name'],
  createSchema: createSchema as z.ZodType<Input>,
  updateSchema: updateSchema as z.ZodType<Partial<Input>>,
  batchSize: 1000,

  findExisting: (ctx, keys) => patientsByCodes(ctx.db, ctx.organizationId, keys),

  async plan(ctx, rows) {
    const legacyOf = (r: (typeof rows)[number]) => {
      const id = r.input.patient_id?.trim();
      return id && !LIMS_LIKE.test(upperKey(id)) ? id : null;
    };
    const wanted = rows.flatMap((r) => [legacyOf(r), r.input.legacy_id].filter((v): v is string => !!v));
    const taken = wanted.length ? await patientsByLegacyIds(ctx.db, ctx.organizationId, wanted) : new Map();
    return rows.map((r) => {
      const { patient_id, created_at, dob_estimated, ...rest } = r.input;
      const legacy = legacyOf(r);
      if (legacy && rest.legacy_id && rest.legacy_id !== legacy) {
        const message = `${quoted(legacy)} is not a lims code and the row also has legacy_id ${quoted(rest.legacy_id)}; keep one`;
        return { row: r.row, errors: [{ column: 'patient_id', message }] };
      }
      if (legacy) rest.legacy_id = legacy;
      if (rest.legacy_id) {
        const seen = legacyRows.get(ctx) ?? new Map<string, number>();
        legacyRows.set(ctx, seen);
        const first = seen.get(rest.legacy_id);
        if (first !== undefined && first !== r.row) {
          const message = `the old patient ID ${quoted(rest.legacy_id)} is also on row ${formatCount(first)}; each patient may have it once`;
          return { row: r.row, errors: [{ column: legacy ? 'patient_id' : 'legacy_id', message }] };
        }
        seen.set(rest.legacy_id, r.row);
      }
      const holder = rest.legacy_id ? taken.get(rest.legacy_id) : undefined;
      if (holder && holder.id !== r.existing?.id) {
        const column = legacy ? 'patient_id' : 'legacy_id';
        const message = `the old patient ID ${quoted(rest.legacy_id)} is already ${holder.patient_code}'s`;
        return { row: r.row, errors: [{ column, message }] };
      }
      if (r.existing) return { row: r.row, plan: { update: r.existing, input: rest as PatientUpdate } };
      return {
        row: r.row,
        plan: {
          insert: {
            input: rest as PatientCreate,
            code: patient_id && !legacy ? upperKey(patient_id) : null,
            createdAt: created_at ?? null,
            dobEstimated: dob_estimated ?? false,
          },
        },
      };
    });
  },

  async write(ctx, plans) {
    const inserts: BulkPatient[] = [];
    let updated = 0;
    for (const p of plans) {
      if ('insert' in p) inserts.push(p.insert);
      else {
        await applyPatientUpdate(ctx.db, ctx.actor, p.update, p.input);
        updated += 1;
      }
    }
    const inserted = await insertPatientsBulk(ctx.db, ctx.actor, inserts, ctx.today, prefixesOf(ctx));
    return { inserted, updated };
  },

  async stage(ctx) {
    const stage = await PatientStage.open(ctx.db, ctx.actor, ctx.today);
    return {
      async add(db, plans) {
        const staged = plans.flatMap((p) => ('insert' in p.plan ? [{ row: p.row, patient: p.plan.insert }] : []));
        await stage.add(db, staged);
        return plans.filter((p) => !('insert' in p.plan));
      },
      ready: (db) => stage.ready(db),
      async commit(trx) {
        const done = await stage.commit(trx);
        return {
          inserted: done.inserted,
          errors: done.taken.map((t) => ({
            row: t.row,
            column: 'patient_id',
            message: `a patient with this patient_id was stored by someone else while the file was checked; import the file again`,
          })),
        };
      },
      drop: (db) => stage.drop(db),
    };
  },

  async finish(ctx, write) {
    if (write) await writePrefixCounts(ctx.db, prefixesOf(ctx));
    return { inserted: 0, updated: 0, errors: [] };
  },

  filters: {
    search: z.string().trim().min(1, 'give some text to search for').max(100),
    gender: z.preprocess(
      (v) => (typeof v === 'string' ? v.charAt(0).toUpperCase() + v.slice(1).toLowerCase() : v),
      oneOf(GENDERS),
    ),
    membership_type: oneOf(MEMBERSHIP_TYPES),
  },
  dateField: 'registration date (created_at)',
  async *exportPages(db, organizationId, q) {
    yield* patientPages(db, organizationId, await exportFilters(db, organizationId, q)) as AsyncIterable<
      Record<string, unknown>[]
    >;
  },
  async *exportArrayPages(db, organizationId, q) {
    yield* patientArrayPages(db, organizationId, await exportFilters(db, organizationId, q));
  },
  exportParallel: async (db, organizationId, q) =>
    patientParallelPlan(db, organizationId, await exportFilters(db, organizationId, q)),
};
