import { createHash, randomInt } from 'node:crypto';
import type { Db } from '../db/connection.js';
import { DomainError, TooManyRequestsError, ValidationError, ConflictError } from '../errors.js';
import { SignInLimits, waitText } from '../auth/service.js';
import { getOrganization } from '../settings/service.js';
import { CLOSED_LAB_STATUSES } from '../tenants/service.js';
import type { TenantStatus } from '../../shared/schemas/tenants.js';
import { sampleOfVerificationToken } from '../lab-reports/service.js';
import { reportHead } from '../results/entry-repository.js';
import { sampleReport } from '../results/service.js';
import { verifiedTestsOf } from '../lab-reports/verification-repository.js';
import { SendError } from '../messaging/service.js';
import type { LinkOpened, LinkReport } from '../../shared/schemas/report-delivery.js';
import { consentRow } from './repository.js';
import {
  countLinkFailure,
  insertOpen,
  latestLinkOf,
  linkById,
  tokenAfter,
  tokenByHash,
  updateLink,
} from './links-repository.js';
import { isLinkToken, signedLabOf, tokenHash } from './tokens.js';
import { deliveryConfig, type DeliveryConfig } from './settings.js';
import { codeChannels, codeLimits, OTP_MINUTES, OTP_RESEND_MS, sendCode, type CodeChannel } from './otp.js';
import type { LinkProof, ReportLinksTable } from './tables.js';
import type { Selectable } from 'kysely';

/**
 * The public report link page's side in core: resolving a token (a link's, or the QR code printed on
 * the report), what the patient must prove, checking the answer (limited like the portal PIN, plus
 * a count kept on the link), the PDF, and the one-time code (otp.ts). Every open, proof, refusal and
 * download is logged with its time and the caller's address; nothing here is written to the log.
 */

/** Wrong answers a link takes, from anywhere, before it closes: a birth year is one of ~100. */
export const LINK_MAX_FAILURES = 10;
export { OTP_MINUTES, OTP_RESEND_MS };

type Link = Selectable<ReportLinksTable>;

export interface Caller {
  ip: string;
}

/** Who answers the phone when a link no longer opens. */
function gone(code: string, what: string, lab: { phone: string | null }): DomainError {
  const call = lab.phone ? ` Call the lab on ${lab.phone}.` : ' Please contact the lab.';
  return new DomainError(410, code, `${what}${call}`);
}

const notALink = () =>
  new DomainError(404, 'NOT_FOUND', 'This is not a valid report link. Check the address you were sent.');

interface Resolved {
  link: Link;
  lab: { name: string; phone: string | null };
  /** The token's expiry; null for a report's QR code (the printed report is its own proof of age). */
  expiresAt: string | null;
}

async function logOpen(
  db: Db,
  link: Link,
  caller: Caller,
  outcome: 'opened' | 'proved' | 'refused' | 'downloaded' | 'gone',
) {
  await insertOpen(db, {
    organization_id: link.organization_id,
    link_id: link.id,
    at: new Date().toISOString(),
    address: caller.ip,
    outcome,
  });
}

/** The link a token opens, or the reason it does not: 404 for nothing of ours, 410 for ours no longer open. */
async function resolve(db: Db, token: string, caller: Caller, now = new Date()): Promise<Resolved> {
  let link: Link | undefined;
  let expiresAt: string | null = null;
  let mintedAt: string | null = null;
  if (isLinkToken(token)) {
    const organizationId = await signedLabOf(db, token);
    if (organizationId === null) throw notALink();
    const row = await tokenByHash(db, tokenHash(token));
    if (!row || row.organization_id !== organizationId) throw notALink();
    link = await linkById(db, row.link_id);
    expiresAt = row.expires_at;
    mintedAt = row.created_at;
  } else {
    const named = await sampleOfVerificationToken(db, token);
    if (!named) throw notALink();
    link = await latestLinkOf(db, named.organizationId, named.sampleId);
    if (!link) {
      const org = await getOrganization(db, named.organizationId);
      throw gone('NO_REPORT_LINK', 'This report cannot be downloaded here.', org);
    }
  }
  if (!link) throw notALink();
  const org = await getOrganization(db, link.organization_id);
  const lab = { name: org.name, phone: org.phone };
  const refuse = async (code: string, what: string) => {
    await logOpen(db, link, caller, 'gone');
    return gone(code, what, lab);
  };
  if (CLOSED_LAB_STATUSES.includes(org.status as TenantStatus))
    throw await refuse('LAB_CLOSED', 'This lab does not hand out reports online at the moment.');
  if (link.replaced_by !== null)
    throw await refuse(
      'LINK_REPLACED',
      'This report was replaced by an amended report; a new link was sent for it. This one no longer opens.',
    );
  // Revoking ends every token handed out until then; the desk may give the report out again later.
  const revoked =
    link.revoked_at !== null &&
    (mintedAt !== null ? mintedAt <= link.revoked_at : !(await tokenAfter(db, link.id, link.revoked_at)));
  if (revoked) throw await refuse('LINK_REVOKED', 'This link was withdrawn by the lab.');
  if (expiresAt !== null && expiresAt <= now.toISOString())
    throw await refuse('LINK_EXPIRED', 'This link has expired.');
  if (Number(link.failures) >= LINK_MAX_FAILURES)
    throw await refuse('LINK_LOCKED', 'This link was closed after too many wrong answers. Ask the lab for a new one.');
  return { link, lab, expiresAt };
}

interface Subject {
  head: NonNullable<Awaited<ReturnType<typeof reportHead>>>;
  proof: LinkProof;
  /** The number codes and the last four digits are checked against: the recipient's, else the patient's. */
  phones: string[];
  otpTo: string | null;
  /** The channels the code can go by (WhatsApp when the patient chose it, SMS), best first. */
  codeBy: CodeChannel[];
  config: DeliveryConfig;
}

const digits = (p: string | null | undefined) => (p ?? '').replace(/\D/g, '');

/** What this link's patient proves: the lab's choice, or the birth year when the choice cannot work for them. */
async function subjectOf(db: Db, link: Link): Promise<Subject> {
  const head = await reportHead(db, link.organization_id, link.sample_id);
  if (!head) throw notALink();
  const config = await deliveryConfig(db, link.organization_id);
  const consent = await consentRow(db, link.organization_id, head.patient_id);
  const phones = [consent?.recipient_phone, head.phone].map(digits).filter((d) => d.length >= 7);
  let proof: LinkProof = config.proof;
  if (proof !== 'birth_year' && !phones.length) proof = 'birth_year';
  const codeBy = proof === 'otp' ? await codeChannels(db, config, consent?.channel) : [];
  if (proof === 'otp' && !codeBy.length) proof = 'birth_year';
  return { head, proof, phones, otpTo: proof === 'otp' ? phones[0]! : null, codeBy, config };
}

const masked = (phone: string) => `${'*'.repeat(Math.max(0, phone.length - 4))}${phone.slice(-4)}`;
const otpHash = (linkId: number, code: string) => createHash('sha256').update(`${linkId}:${code}`).digest('hex');

function answerRight(link: Link, s: Subject, answer: string, now: Date): boolean {
  if (s.proof === 'birth_year') return answer === s.head.date_of_birth.slice(0, 4);
  if (s.proof === 'mobile_last4') return answer.length === 4 && s.phones.some((p) => p.endsWith(answer));
  return (
    !!link.otp_hash &&
    !!link.otp_expires_at &&
    link.otp_expires_at > now.toISOString() &&
    link.otp_hash === otpHash(link.id, answer)
  );
}

const PROOF_WORDS: Record<LinkProof, string> = {
  birth_year: 'That is not the year of birth the lab has',
  mobile_last4: 'Those are not the last 4 digits of the mobile number the lab has',
  otp: 'That code is not right or has expired',
};

/**
 * The page's guard: one per server, like the portal's sign-in limits (the same SignInLimits: per link
 * and address, per address, and a slowing down past a number of failures), plus LINK_MAX_FAILURES
 * counted on the link itself, so the birth year's few values cannot be walked from many addresses.
 */
export class ReportLinkGate {
  readonly limits = new SignInLimits({
    perPair: 5,
    perAddress: 20,
    backoffAfter: LINK_MAX_FAILURES,
    maxBackoffSeconds: 300,
  });

  /** Codes sent, per link and address: limited like wrong answers (otp.ts). */
  readonly codes = codeLimits();

  constructor(
    private readonly db: Db,
    private readonly outbound: { allowPrivate: boolean } = { allowPrivate: false },
  ) {}

  /** What the page asks before anything is shown; the open is logged. */
  async open(token: string, caller: Caller): Promise<LinkOpened> {
    const r = await resolve(this.db, token, caller);
    const s = await subjectOf(this.db, r.link);
    await logOpen(this.db, r.link, caller, 'opened');
    return { lab: r.lab, proof: s.proof, amended: r.link.version > 1, otp_to: s.otpTo ? masked(s.otpTo) : null };
  }

  /** Checks the answer; a wrong one is a 400 on `answer` and counts against the link and the address. */
  async #prove(token: string, answer: string, caller: Caller): Promise<{ r: Resolved; s: Subject }> {
    const r = await resolve(this.db, token, caller);
    // Per token (a new token from the desk starts afresh); the link's own count spans its tokens.
    const ticket = this.limits.reserve(`report-link:${tokenHash(token)}`, caller.ip);
    if (typeof ticket === 'number')
      throw new TooManyRequestsError(`Too many wrong answers. Try again in ${waitText(ticket)}.`, ticket);
    try {
      const s = await subjectOf(this.db, r.link);
      if (answerRight(r.link, s, answer, new Date())) {
        ticket.succeed();
        return { r, s };
      }
      ticket.fail();
      const failures = await countLinkFailure(this.db, r.link.id);
      await logOpen(this.db, r.link, caller, 'refused');
      if (failures >= LINK_MAX_FAILURES)
        throw gone(
          'LINK_LOCKED',
          'This link was closed after too many wrong answers. Ask the lab for a new one.',
          r.lab,
        );
      throw ValidationError.field('answer', `${PROOF_WORDS[s.proof]}. ${LINK_MAX_FAILURES - failures} tries left.`);
    } finally {
      ticket.release();
    }
  }

  /** The report's summary (no values) once the patient has proved who they are. */
  async prove(token: string, answer: string, caller: Caller): Promise<LinkReport> {
    const { r, s } = await this.#prove(token, answer, caller);
    await logOpen(this.db, r.link, caller, 'proved');
    const tests = await verifiedTestsOf(this.db, r.link.sample_id);
    return {
      lab: r.lab,
      patient_first_name: s.head.first_name,
      sample_code: s.head.sample_code,
      reported_at: s.head.reported_at,
      amended: r.link.version > 1,
      tests: tests.map((t) => t.name),
    };
  }

  /** The PDF, as the portal gives it (a held or uncalled report is refused there too); the download is logged. */
  async pdf(
    token: string,
    answer: string,
    caller: Caller,
    requestBase: string | null,
  ): Promise<{ pdf: Buffer; sampleCode: string }> {
    const { r } = await this.#prove(token, answer, caller);
    const report = await sampleReport(
      this.db,
      r.link.organization_id,
      r.link.sample_id,
      { releasedOnly: true },
      requestBase,
    );
    await logOpen(this.db, r.link, caller, 'downloaded');
    return report;
  }

  /**
   * Sends a one-time code to the number the lab has (lab's proof: otp), by WhatsApp when the patient
   * chose it, else SMS; at most one a minute per link, and limited per link and address.
   */
  async sendOtp(token: string, caller: Caller): Promise<{ sent_to: string; channel: CodeChannel; expires_at: string }> {
    const r = await resolve(this.db, token, caller);
    const s = await subjectOf(this.db, r.link);
    if (s.proof !== 'otp' || !s.otpTo)
      throw new ConflictError('This link is opened with another answer, not a code', 'OTP_NOT_USED');
    const now = new Date();
    if (r.link.otp_sent_at && now.getTime() - Date.parse(r.link.otp_sent_at) < OTP_RESEND_MS)
      throw new TooManyRequestsError('A code was sent less than a minute ago. Wait for it, then try again.', 60);
    const ticket = this.codes.reserve(`report-code:${r.link.id}`, caller.ip);
    if (typeof ticket === 'number')
      throw new TooManyRequestsError(`Too many codes asked for. Try again in ${waitText(ticket)}.`, ticket);
    // Every code sent counts, used or not.
    ticket.fail();
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    const expiresAt = new Date(now.getTime() + OTP_MINUTES * 60_000).toISOString();
    await updateLink(this.db, r.link.id, {
      otp_hash: otpHash(r.link.id, code),
      otp_expires_at: expiresAt,
      otp_sent_at: now.toISOString(),
    });
    let channel: CodeChannel;
    try {
      channel = await sendCode(
        this.db,
        s.config,
        s.codeBy,
        { phone: s.otpTo, labName: r.lab.name, code, now },
        this.outbound,
      );
    } catch (err) {
      if (!(err instanceof SendError)) throw err;
      throw new DomainError(
        502,
        'CODE_NOT_SENT',
        'The code could not be sent. Try again in a minute, or call the lab.',
      );
    }
    return { sent_to: masked(s.otpTo), channel, expires_at: expiresAt };
  }
}
