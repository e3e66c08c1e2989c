import { randomBytes } from 'node:crypto';
import type { Db } from '../db/connection.js';
import type { Actor } from '../context.js';
import { nowIso } from '../context.js';
import { auditLabSettings, writeAudit } from '../audit/audit.js';
import { NotFoundError, ValidationError } from '../errors.js';
import { organizationTimezone } from '../settings/service.js';
import { addDays, localDate, startOfLocalDayUtc } from '../../shared/time.js';
import { pageEnvelope } from '../../shared/schemas/common.js';
import { verifierName } from '../../shared/schemas/results.js';
import {
  DEPARTMENTS,
  LAB_REPORT_STATUSES,
  SIGNATURE_MAX_BYTES,
  departmentOf,
  type Department,
  type LabReport,
  type LabReportListQuery,
  type LabReportPage,
  type LabReportSummary,
  type ReportSettings,
  type ReportSettingsUpdate,
  type ReportTemplate,
  type SignatureUpload,
  type TemplateUpdate,
} from '../../shared/schemas/lab-reports.js';
import {
  completedBetween,
  insertSettingsRow,
  insertTemplateRow,
  registerPage,
  resultPeopleOfSamples,
  settingsRow,
  statusCounts,
  templateRow,
  templateRows,
  testsOfSamples,
  updateSettingsRow,
  updateTemplateRow,
  type RegisterRow,
} from './repository.js';

/** The lab's calendar days from..to (inclusive) as a UTC range. */
export function dayRange(timeZone: string, from: string, to: string) {
  return {
    fromUtc: startOfLocalDayUtc(timeZone, from).toISOString(),
    toUtc: startOfLocalDayUtc(timeZone, addDays(to, 1)).toISOString(),
  };
}

export async function listLabReports(db: Db, organizationId: number, q: LabReportListQuery): Promise<LabReportPage> {
  const tz = await organizationTimezone(db, organizationId);
  const { rows, total } = await registerPage(
    db,
    organizationId,
    {
      search: q.search ?? undefined,
      status: q.status,
      fromUtc: q.from ? startOfLocalDayUtc(tz, q.from).toISOString() : undefined,
      toUtc: q.to ? startOfLocalDayUtc(tz, addDays(q.to, 1)).toISOString() : undefined,
      criticalUncalled: q.critical === 'uncalled',
    },
    q.page,
    q.limit,
  );
  const ids = rows.map((r) => r.id);
  const [tests, people] = await Promise.all([testsOfSamples(db, ids), resultPeopleOfSamples(db, ids)]);
  return {
    reports: rows.map((r) =>
      toReport(
        r,
        tests.filter((t) => t.sample_id === r.id),
        people.filter((p) => p.sample_id === r.id),
      ),
    ),
    ...pageEnvelope(total, q.page, q.limit),
  };
}

function toReport(
  r: RegisterRow,
  tests: { name: string; category: string | null }[],
  people: Awaited<ReturnType<typeof resultPeopleOfSamples>>,
): LabReport {
  const byEntry = [...people].filter((p) => p.entered_at).sort((a, b) => (a.entered_at! < b.entered_at! ? -1 : 1));
  const verified = people.filter((p) => p.status === 'verified' && p.verified_at);
  const lastVerified = verified.sort((a, b) => (a.verified_at! < b.verified_at! ? 1 : -1))[0];
  const status = r.status;
  return {
    id: Number(r.id),
    report_number: `LR-${r.sample_code}`,
    sample_code: r.sample_code,
    barcode: r.barcode,
    patient_id: Number(r.patient_id),
    patient_name: `${r.first_name} ${r.last_name}`,
    patient_number: r.patient_code,
    test_name: tests.map((t) => t.name).join(', ') || '—',
    departments: [...new Set(tests.map((t) => departmentOf(t.category)))],
    status,
    sample_status: r.sample_status,
    test_count: Number(r.ordered),
    result_count: Number(r.entered),
    verified_count: Number(r.verified),
    critical_values: Number(r.critical),
    critical_uncalled: Number(r.critical_uncalled),
    generated_by: byEntry[0]?.technician_name ?? null,
    generated_at: byEntry[0]?.entered_at ?? null,
    // Reviewed: the verification that completed the report (the latest one), once every result is verified.
    reviewed_by:
      status === 'completed' && lastVerified
        ? verifierName(lastVerified.verifier_name, lastVerified.previous_verifier, lastVerified.autoverified_by)
        : null,
    reviewed_at: status === 'completed' ? (r.reported_at ?? lastVerified?.verified_at ?? null) : null,
    created_at: r.created_at,
  };
}

export async function labReportSummary(db: Db, organizationId: number): Promise<LabReportSummary> {
  const tz = await organizationTimezone(db, organizationId);
  const today = localDate(tz);
  const counts = await statusCounts(db, organizationId);
  const by = Object.fromEntries(LAB_REPORT_STATUSES.map((s) => [s, 0])) as LabReportSummary['by_status'];
  let critical = 0;
  let uncalled = 0;
  for (const c of counts) {
    by[c.status] = Number(c.n);
    critical += Number(c.critical ?? 0);
    uncalled += Number(c.uncalled ?? 0);
  }
  const range = dayRange(tz, today, today);
  return {
    total: Object.values(by).reduce((a, b) => a + b, 0),
    by_status: by,
    completed_today: await completedBetween(db, organizationId, range.fromUtc, range.toUtc),
    critical_reports: critical,
    critical_uncalled: uncalled,
  };
}

// ---- templates ----

type TemplateRowT = NonNullable<Awaited<ReturnType<typeof templateRow>>>;

function toTemplate(department: Department, r: TemplateRowT | undefined): ReportTemplate {
  return {
    department,
    group_by: (r?.group_by as ReportTemplate['group_by']) ?? 'category',
    header_text: r?.header_text ?? null,
    footer_text: r?.footer_text ?? null,
    interpretation_notes: r?.interpretation_notes ?? null,
    signatory_name: r?.signatory_name ?? null,
    signatory_qualification: r?.signatory_qualification ?? null,
    signatory_registration: r?.signatory_registration ?? null,
    signature_type: r?.signature_type ?? null,
    updated_at: r?.updated_at ?? null,
  };
}

/** The six departments' templates (a department never saved answers the defaults). */
export async function listTemplates(db: Db, organizationId: number): Promise<ReportTemplate[]> {
  const rows = await templateRows(db, organizationId);
  return DEPARTMENTS.map((d) =>
    toTemplate(
      d,
      rows.find((r) => r.department === d),
    ),
  );
}

/** Templates with the signature image, for the report PDF. */
export async function templatesForPdf(db: Db, organizationId: number) {
  const rows = await templateRows(db, organizationId);
  return new Map(rows.map((r) => [r.department as Department, r]));
}

export async function saveTemplate(
  db: Db,
  actor: Actor,
  department: Department,
  input: TemplateUpdate,
): Promise<ReportTemplate> {
  const signatory = [input.signatory_name, input.signatory_qualification, input.signatory_registration];
  if (signatory.some(Boolean) && !signatory.every(Boolean)) {
    const missing = (['signatory_name', 'signatory_qualification', 'signatory_registration'] as const).filter(
      (k) => !input[k],
    );
    throw new ValidationError(
      'An authorised signatory needs a name, a qualification and a registration number',
      missing.map((path) => ({ path, message: 'Required when a signatory is named' })),
    );
  }
  return db.transaction().execute(async (trx) => {
    const before = await templateRow(trx, actor.organizationId, department);
    const now = nowIso();
    const values = {
      group_by: input.group_by,
      header_text: input.header_text ?? null,
      footer_text: input.footer_text ?? null,
      interpretation_notes: input.interpretation_notes ?? null,
      signatory_name: input.signatory_name ?? null,
      signatory_qualification: input.signatory_qualification ?? null,
      signatory_registration: input.signatory_registration ?? null,
      updated_by: actor.userId,
      updated_at: now,
    };
    if (before) await updateTemplateRow(trx, actor.organizationId, department, values);
    else
      await insertTemplateRow(trx, {
        ...values,
        organization_id: actor.organizationId,
        department,
        signature_type: null,
        signature_base64: null,
        created_at: now,
      });
    const { signature_base64: _s, ...old } = before ?? ({} as Partial<TemplateRowT>);
    await writeAudit(trx, actor, {
      action: before ? 'update' : 'create',
      entity: 'report_template',
      entityId: department,
      oldValues: before ? old : undefined,
      newValues: { department, ...values },
    });
    return toTemplate(department, await templateRow(trx, actor.organizationId, department));
  });
}

/** PNG or JPEG, read from the first bytes (the name is not trusted). */
export function sniffSignatureType(bytes: Buffer): 'image/png' | 'image/jpeg' | null {
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (bytes.length > 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  return null;
}

export async function uploadSignature(
  db: Db,
  actor: Actor,
  department: Department,
  input: SignatureUpload,
): Promise<ReportTemplate> {
  const bytes = Buffer.from(input.content_base64.replace(/\s+/g, ''), 'base64');
  if (bytes.length === 0) throw ValidationError.field('content_base64', 'The image is empty');
  if (bytes.length > SIGNATURE_MAX_BYTES)
    throw ValidationError.field('content_base64', `The image is larger than ${SIGNATURE_MAX_BYTES / 1024} KB`);
  const type = sniffSignatureType(bytes);
  if (!type) throw ValidationError.field('content_base64', 'A signature must be a PNG or JPEG image');
  return db.transaction().execute(async (trx) => {
    const before = await templateRow(trx, actor.organizationId, department);
    if (!before?.signatory_name)
      throw ValidationError.field(
        'department',
        'Name the authorised signatory of this department before adding a signature',
      );
    const now = nowIso();
    await updateTemplateRow(trx, actor.organizationId, department, {
      signature_type: type,
      signature_base64: bytes.toString('base64'),
      updated_by: actor.userId,
      updated_at: now,
    });
    await writeAudit(trx, actor, {
      action: 'update',
      entity: 'report_template',
      entityId: department,
      oldValues: { signature_type: before.signature_type },
      newValues: { signature_type: type, signature_file: input.file_name, size: bytes.length },
    });
    return toTemplate(department, await templateRow(trx, actor.organizationId, department));
  });
}

export async function removeSignature(db: Db, actor: Actor, department: Department): Promise<ReportTemplate> {
  return db.transaction().execute(async (trx) => {
    const before = await templateRow(trx, actor.organizationId, department);
    if (!before?.signature_type) throw new NotFoundError('Signature', department);
    await updateTemplateRow(trx, actor.organizationId, department, {
      signature_type: null,
      signature_base64: null,
      updated_by: actor.userId,
      updated_at: nowIso(),
    });
    await writeAudit(trx, actor, {
      action: 'update',
      entity: 'report_template',
      entityId: department,
      oldValues: { signature_type: before.signature_type },
      newValues: { signature_type: null },
    });
    return toTemplate(department, await templateRow(trx, actor.organizationId, department));
  });
}

// ---- report settings and verification links ----

/** The lab's report settings row, created (with a fresh secret) the first time it is needed. */
export async function ensureSettings(db: Db, organizationId: number) {
  const row = await settingsRow(db, organizationId);
  if (row) return row;
  const now = nowIso();
  await insertSettingsRow(db, {
    organization_id: organizationId,
    accreditation_body: null,
    accreditation_number: null,
    public_url: null,
    verify_secret: randomBytes(32).toString('base64url'),
    created_at: now,
    updated_at: now,
  });
  return (await settingsRow(db, organizationId))!;
}

const toSettings = (r: {
  accreditation_body: string | null;
  accreditation_number: string | null;
  public_url: string | null;
  stationery: string;
  preprinted_header_mm: number;
}): ReportSettings => ({
  accreditation_body: r.accreditation_body,
  accreditation_number: r.accreditation_number,
  public_url: r.public_url,
  stationery: r.stationery === 'preprinted' ? 'preprinted' : 'letterhead',
  preprinted_header_mm: Number(r.preprinted_header_mm),
});

const DEFAULT_REPORT_SETTINGS: ReportSettings = {
  accreditation_body: null,
  accreditation_number: null,
  public_url: null,
  stationery: 'letterhead',
  preprinted_header_mm: 40,
};

export async function getReportSettings(db: Db, organizationId: number): Promise<ReportSettings> {
  const row = await settingsRow(db, organizationId);
  return row ? toSettings(row) : { ...DEFAULT_REPORT_SETTINGS };
}

export async function saveReportSettings(db: Db, actor: Actor, input: ReportSettingsUpdate): Promise<ReportSettings> {
  return db.transaction().execute(async (trx) => {
    const before = toSettings(await ensureSettings(trx, actor.organizationId));
    const after: ReportSettings = {
      accreditation_body: input.accreditation_body === undefined ? before.accreditation_body : input.accreditation_body,
      accreditation_number:
        input.accreditation_number === undefined ? before.accreditation_number : input.accreditation_number,
      public_url: input.public_url === undefined ? before.public_url : input.public_url,
      stationery: input.stationery ?? before.stationery,
      preprinted_header_mm: input.preprinted_header_mm ?? before.preprinted_header_mm,
    };
    await updateSettingsRow(trx, actor.organizationId, { ...after, updated_at: nowIso() });
    await auditLabSettings(trx, actor, 'report_settings', before, after);
    return after;
  });
}

export { settingsRow as reportSettingsRow };
export { sampleOfVerificationToken, verificationToken, verificationUrl } from './verification.js';
