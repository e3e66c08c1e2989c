import { createHash } from 'node:crypto';
import type { Db } from '../db/connection.js';
import { getOrganization, type OrganizationRow } from '../settings/service.js';
import { reportSettingsRow, templatesForPdf } from '../lab-reports/service.js';
import { getPatient } from '../patients/service.js';
import { findUser } from '../users/repository.js';
import type { Department } from '../../shared/schemas/lab-reports.js';
import type { Patient } from '../../shared/schemas/patients.js';
import type { Letterhead, PdfTemplate } from '../pdf/report-types.js';
import { imageRows, insertImageRow, insertSnapshotRow, latestSnapshotRow, latestSnapshotRows } from './repository.js';

/**
 * What a released report and an issued bill print, kept at that moment (docs/decisions.md
 * "Printing"): a reprint draws from here, so a later change of the lab's name, address, letterhead,
 * signatories or footers does not rewrite what the patient already holds. A report or bill from
 * before these snapshots existed has none and prints with today's settings, as it always did.
 */

export interface ReportPrintSettings {
  letterhead: Letterhead;
  templates: Map<Department, PdfTemplate>;
  /** When these settings were taken; null: today's settings (nothing released yet, or released before snapshots). */
  taken_at: string | null;
}

interface StoredTemplate extends Omit<PdfTemplate, 'signature_base64'> {
  signature: { digest: string; mime: string } | null;
}
interface StoredReport {
  letterhead: Letterhead;
  templates: Partial<Record<Department, StoredTemplate>>;
}

/** The report settings as they are now. */
export async function currentReportSettings(db: Db, organizationId: number): Promise<ReportPrintSettings> {
  const org = await getOrganization(db, organizationId);
  const settings = await reportSettingsRow(db, organizationId);
  const rows = await templatesForPdf(db, organizationId);
  const templates = new Map<Department, PdfTemplate>();
  for (const [d, r] of rows)
    templates.set(d, {
      group_by: r.group_by,
      header_text: r.header_text,
      footer_text: r.footer_text,
      interpretation_notes: r.interpretation_notes,
      signatory_name: r.signatory_name,
      signatory_qualification: r.signatory_qualification,
      signatory_registration: r.signatory_registration,
      signature_base64: r.signature_base64,
    });
  return {
    letterhead: {
      name: org.name,
      address: org.address,
      phone: org.phone,
      email: org.email,
      date_format: org.date_format,
      timezone: org.timezone,
      accreditation: settings?.accreditation_number
        ? [settings.accreditation_body, `Certificate No. ${settings.accreditation_number}`].filter(Boolean).join(' · ')
        : null,
      stationery: settings?.stationery === 'preprinted' ? 'preprinted' : 'letterhead',
      preprinted_header_mm: settings ? Number(settings.preprinted_header_mm) : 40,
    },
    templates,
    taken_at: null,
  };
}

/** Keeps what a sample's report prints at its release (inside the releasing transaction); returns its version. */
export async function snapshotReport(trx: Db, organizationId: number, sampleId: number, at: string): Promise<number> {
  const now = await currentReportSettings(trx, organizationId);
  const stored: StoredReport = { letterhead: now.letterhead, templates: {} };
  for (const [d, t] of now.templates) {
    const { signature_base64, ...rest } = t;
    let signature: StoredTemplate['signature'] = null;
    if (signature_base64) {
      const bytes = Buffer.from(signature_base64, 'base64');
      const digest = createHash('sha256').update(bytes).digest('hex');
      const mime = bytes[0] === 0x89 ? 'image/png' : 'image/jpeg';
      await insertImageRow(trx, {
        organization_id: organizationId,
        digest,
        mime,
        data_base64: signature_base64,
        created_at: at,
      });
      signature = { digest, mime };
    }
    stored.templates[d] = { ...rest, signature };
  }
  return insertSnapshotRow(trx, {
    organization_id: organizationId,
    kind: 'report',
    entity_id: sampleId,
    taken_at: at,
    content: JSON.stringify(stored),
  });
}

/**
 * The settings a report of these samples prints with: those kept at the latest release among them
 * (a visit's report takes the moment its last sample was released), else today's.
 */
export async function reportSettingsFor(
  db: Db,
  organizationId: number,
  sampleIds: number[],
): Promise<ReportPrintSettings> {
  const rows = await latestSnapshotRows(db, organizationId, 'report', sampleIds);
  const latest = rows.reduce<(typeof rows)[number] | null>((a, r) => (!a || r.taken_at > a.taken_at ? r : a), null);
  if (!latest) return currentReportSettings(db, organizationId);
  const stored = JSON.parse(latest.content) as StoredReport;
  // The paper is what is in the printer today: a report released on plain paper and reprinted on
  // pre-printed stationery leaves the top blank (its name, address and signatories stay as released).
  const paper = await reportSettingsRow(db, organizationId);
  stored.letterhead.stationery = paper?.stationery === 'preprinted' ? 'preprinted' : 'letterhead';
  stored.letterhead.preprinted_header_mm = paper ? Number(paper.preprinted_header_mm) : 40;
  const digests = Object.values(stored.templates)
    .map((t) => t?.signature?.digest)
    .filter((d): d is string => Boolean(d));
  const images = new Map((await imageRows(db, organizationId, digests)).map((i) => [i.digest, i.data_base64]));
  const templates = new Map<Department, PdfTemplate>();
  for (const [d, t] of Object.entries(stored.templates) as [Department, StoredTemplate][]) {
    const { signature, ...rest } = t;
    templates.set(d, { ...rest, signature_base64: signature ? (images.get(signature.digest) ?? null) : null });
  }
  return { letterhead: stored.letterhead, templates, taken_at: latest.taken_at };
}

// ---- bills ----

type BillLab = Pick<OrganizationRow, 'name' | 'address' | 'phone' | 'email' | 'currency' | 'date_format' | 'timezone'>;
type BillPatient = Pick<Patient, 'first_name' | 'last_name' | 'patient_id' | 'age' | 'gender' | 'phone'>;
export interface BillDoctor {
  name: string;
  /** Their own title (Dr, Prof, ...); absent in headers kept before titles were a field: Dr then. */
  title?: string | null;
  specialization: string | null;
  department: string | null;
}

/** What a bill's header prints: the lab, the patient and the doctor. */
export interface BillHeader {
  lab: BillLab;
  patient: BillPatient;
  doctor: BillDoctor | null;
}

export async function currentBillHeader(
  db: Db,
  organizationId: number,
  patientId: number,
  doctorId: number | null,
): Promise<BillHeader> {
  const org = await getOrganization(db, organizationId);
  const p = await getPatient(db, organizationId, patientId);
  const d = doctorId ? await findUser(db, organizationId, doctorId) : undefined;
  return {
    lab: {
      name: org.name,
      address: org.address,
      phone: org.phone,
      email: org.email,
      currency: org.currency,
      date_format: org.date_format,
      timezone: org.timezone,
    },
    patient: {
      first_name: p.first_name,
      last_name: p.last_name,
      patient_id: p.patient_id,
      age: p.age,
      gender: p.gender,
      phone: p.phone,
    },
    doctor: d
      ? {
          name: `${d.first_name} ${d.last_name}`,
          title: d.title,
          specialization: d.specialization,
          department: d.department,
        }
      : null,
  };
}

/** Keeps a bill's header at its issue (inside the issuing transaction). */
export async function snapshotBill(
  trx: Db,
  organizationId: number,
  bill: { id: number; patient_id: number; doctor_id: number | null },
  at: string,
): Promise<void> {
  const header = await currentBillHeader(trx, organizationId, bill.patient_id, bill.doctor_id);
  await insertSnapshotRow(trx, {
    organization_id: organizationId,
    kind: 'bill',
    entity_id: bill.id,
    taken_at: at,
    content: JSON.stringify(header),
  });
}

/** The header a bill prints with: as issued, or today's for a bill issued before snapshots were kept. */
export async function billHeaderFor(
  db: Db,
  organizationId: number,
  bill: { id: number; patient_id: number; doctor_id: number | null },
): Promise<BillHeader> {
  const row = await latestSnapshotRow(db, organizationId, 'bill', bill.id);
  if (row) return JSON.parse(row.content) as BillHeader;
  return currentBillHeader(db, organizationId, bill.patient_id, bill.doctor_id);
}
