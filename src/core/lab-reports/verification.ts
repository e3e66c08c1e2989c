import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Db } from '../db/connection.js';
import { nowIso } from '../context.js';
import { NotFoundError } from '../errors.js';
import { type ReportVerification } from '../../shared/schemas/lab-reports.js';
import { settingsRow } from './repository.js';
import { verificationHead, verifiedTestsOf } from './verification-repository.js';
import { ensureSettings } from './service.js';

function sign(secret: string, organizationId: number, sampleId: number): string {
  return createHmac('sha256', secret).update(`lab-report:${organizationId}:${sampleId}`).digest('base64url');
}

/** The report's verification token: lab, sample and their HMAC with the lab's secret. */
export async function verificationToken(db: Db, organizationId: number, sampleId: number): Promise<string> {
  const s = await ensureSettings(db, organizationId);
  return `${organizationId}.${sampleId}.${sign(s.verify_secret, organizationId, sampleId)}`;
}

/** The address the report's QR code opens; null when neither the lab nor the request gives a base. */
export async function verificationUrl(
  db: Db,
  organizationId: number,
  sampleId: number,
  requestBase: string | null,
): Promise<string | null> {
  const s = await ensureSettings(db, organizationId);
  const base = s.public_url ?? requestBase;
  if (!base) return null;
  // The report link page checks the report as /verify-report does and, when the lab sends reports
  // by link, lets the patient who proves who they are download it (src/core/report-delivery).
  return `${base}/report-link#${await verificationToken(db, organizationId, sampleId)}`;
}

const TOKEN = /^(\d{1,10})\.(\d{1,12})\.([A-Za-z0-9_-]{43})$/;

/** The lab and sample a report's QR token names, when its signature is the lab's; else null. */
export async function sampleOfVerificationToken(
  db: Db,
  token: string,
): Promise<{ organizationId: number; sampleId: number } | null> {
  const m = TOKEN.exec(token.trim());
  if (!m) return null;
  const organizationId = Number(m[1]);
  const sampleId = Number(m[2]);
  const row = await settingsRow(db, organizationId);
  if (!row) return null;
  const expected = Buffer.from(sign(row.verify_secret, organizationId, sampleId));
  const given = Buffer.from(m[3]!);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  return { organizationId, sampleId };
}

/** The public verification page: a genuine link answers what the report is; anything else is refused as not genuine. */
export async function verifyReport(db: Db, token: string): Promise<ReportVerification> {
  const refused = () => new NotFoundError('Report', 'this link') as Error;
  const m = TOKEN.exec(token.trim());
  if (!m) throw refused();
  const organizationId = Number(m[1]);
  const sampleId = Number(m[2]);
  const row = await settingsRow(db, organizationId);
  if (!row) throw refused();
  const expected = Buffer.from(sign(row.verify_secret, organizationId, sampleId));
  const given = Buffer.from(m[3]!);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw refused();
  const head = await verificationHead(db, organizationId, sampleId);
  if (!head) throw refused();
  const initials = `${head.first_name.trim().charAt(0)}${head.last_name.trim().charAt(0)}`.toUpperCase();
  return {
    genuine: true,
    lab_name: head.lab_name,
    patient_initials: initials.split('').join('. ') + '.',
    sample_code: head.sample_code,
    collected_at: head.collection_date,
    reported_at: head.reported_at,
    tests: (await verifiedTestsOf(db, sampleId)).map((t) => ({ name: t.name, verified_at: t.verified_at })),
    verified_at: nowIso(),
  };
}
