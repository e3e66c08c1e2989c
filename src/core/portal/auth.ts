import {
  deleteExpiredPortalSessions,
  deletePortalSession,
  findPortalSession,
  insertPortalSession,
  portalCandidates,
  touchPortalSession,
} from './repository.js';
import { randomBytes } from 'node:crypto';
import type { Db } from '../db/connection.js';
import type { Actor } from '../context.js';
import { writeAudit } from '../audit/audit.js';
import { TooManyRequestsError, UnauthorizedError } from '../errors.js';
import { CLOSED_LAB_STATUSES, LabClosedError } from '../tenants/service.js';
import type { TenantStatus } from '../../shared/schemas/tenants.js';
import {
  dummyPasswordHash,
  verifyPassword,
  hashToken,
  SignInLimits,
  waitText,
  type SignInTicket,
} from '../auth/service.js';
import { mobileKey } from './pin.js';
import { tenantIdByDomain } from '../tenants/repository.js';
import {
  PORTAL_INVALID_LOGIN,
  PORTAL_LAB_CLOSED,
  PORTAL_SESSION_HOURS,
  type PortalLogin,
} from '../../shared/schemas/portal.js';

const labClosed = (status: string) => CLOSED_LAB_STATUSES.includes(status as TenantStatus);

/** Failed portal sign-ins allowed per patient code and per client address within the throttle window. */
export const PORTAL_MAX_FAILURES_PER_PATIENT = 5;
export const PORTAL_MAX_FAILURES_PER_IP = 20;

export interface PortalSession {
  sessionId: string;
  patientId: number;
  patientCode: string;
  organizationId: number;
}

interface Meta {
  ip: string;
  userAgent: string | null;
  /** The request's host name: a lab's domain limits the sign-in to that lab's patients. */
  host?: string | null;
}

/** Portal actions in the audit trail: no staff user, the patient named by their code. */
export function portalActor(p: { patient_code: string; organization_id: number }, meta: Partial<Meta>): Actor {
  return {
    userId: null,
    email: `patient:${p.patient_code}`,
    role: 'system',
    organizationId: p.organization_id,
    ip: meta.ip ?? null,
    userAgent: meta.userAgent ?? null,
  };
}

/**
 * Patient sign-in for the portal: patient code + mobile number + portal PIN. Entirely separate from
 * staff sessions (own table, own cookie). Unknown code, wrong mobile, wrong PIN and "no PIN issued"
 * all answer the same 401 after the same scrypt work, so the answer tells nothing.
 */
export class PortalAuth {
  /**
   * A 6-digit PIN is 1,000,000 guesses: per (patient code, address) 5 failures lock that pair, an
   * address 20, and past 10 failures from everywhere each further try for the patient waits up to
   * five minutes (a slowed account, never a locked one: nobody can lock a patient out by guessing).
   */
  readonly limits = new SignInLimits({
    perPair: PORTAL_MAX_FAILURES_PER_PATIENT,
    perAddress: PORTAL_MAX_FAILURES_PER_IP,
    backoffAfter: 10,
    maxBackoffSeconds: 300,
  });

  constructor(private readonly db: Db) {}

  async login(input: PortalLogin, meta: Meta): Promise<{ token: string; expiresAt: Date; session: PortalSession }> {
    const code = input.patient_id.trim().toUpperCase();
    const ticket = this.limits.reserve(`patient:${code}`, meta.ip);
    if (typeof ticket === 'number') {
      throw new TooManyRequestsError(`Too many failed sign-in attempts. Try again in ${waitText(ticket)}.`, ticket);
    }
    try {
      return await this.#check(input, meta, code, ticket);
    } finally {
      ticket.release();
    }
  }

  async #check(input: PortalLogin, meta: Meta, code: string, ticket: SignInTicket) {
    // Codes are unique per lab; an installation with several labs may repeat one. At a lab's own
    // address only that lab's patients are candidates; elsewhere every lab's are, and the PIN is
    // tried against each whose mobile number matches, so an account another lab holds with the same
    // code and number (the same person, or one made to look like them) never stands in the way.
    const lab = meta.host ? await tenantIdByDomain(this.db, meta.host) : undefined;
    const candidates = (await portalCandidates(this.db, code)).filter((c) => !lab || c.organization_id === lab.id);
    const mobile = mobileKey(input.mobile);
    const matching = mobile.length >= 7 ? candidates.filter((c) => mobileKey(c.phone) === mobile) : [];
    let match: (typeof candidates)[number] | undefined;
    for (const c of matching) {
      if (await verifyPassword(input.pin, c.pin_hash)) {
        match = c;
        break;
      }
    }
    if (matching.length === 0) await verifyPassword(input.pin, await dummyPasswordHash());
    if (!match) {
      ticket.fail();
      for (const c of candidates) {
        await writeAudit(this.db, portalActor(c, meta), {
          action: 'login',
          entity: 'portal_session',
          entityId: c.id,
          status: 'failed',
          newValues: { reason: matching.includes(c) ? 'wrong PIN' : 'mobile number does not match' },
        });
      }
      throw new UnauthorizedError(PORTAL_INVALID_LOGIN);
    }
    ticket.succeed();
    // Only someone who knows the patient's PIN learns that the lab is closed; nothing is opened.
    if (labClosed(match.lab_status)) {
      await writeAudit(this.db, portalActor(match, meta), {
        action: 'login',
        entity: 'portal_session',
        entityId: match.id,
        status: 'failed',
        newValues: { reason: `the lab is ${match.lab_status}` },
      });
      throw new LabClosedError(PORTAL_LAB_CLOSED);
    }
    const token = randomBytes(32).toString('base64url');
    const now = new Date();
    const expiresAt = new Date(now.getTime() + PORTAL_SESSION_HOURS * 3600_000);
    const sessionId = hashToken(token);
    await this.db.transaction().execute(async (trx) => {
      // Tidy this patient's expired sessions while here; nothing else reads them.
      await deleteExpiredPortalSessions(trx, match.id, now.toISOString());
      await insertPortalSession(trx, {
        id: sessionId,
        patient_id: match.id,
        organization_id: match.organization_id,
        created_at: now.toISOString(),
        last_seen_at: now.toISOString(),
        expires_at: expiresAt.toISOString(),
      });
      await writeAudit(trx, portalActor(match, meta), {
        action: 'login',
        entity: 'portal_session',
        entityId: match.id,
      });
    });
    return {
      token,
      expiresAt,
      session: {
        sessionId,
        patientId: match.id,
        patientCode: match.patient_code,
        organizationId: match.organization_id,
      },
    };
  }

  /**
   * The patient a portal cookie stands for, or null when unknown or expired (then it is removed).
   * A session of a lab that is closed now throws LabClosedError and is removed: suspension ends it
   * (the tenant update deletes it too; this holds for a status changed any other way).
   */
  async resolve(token: string, now = new Date()): Promise<PortalSession | null> {
    const row = await findPortalSession(this.db, hashToken(token));
    if (!row) return null;
    if (labClosed(row.lab_status)) {
      await deletePortalSession(this.db, row.id);
      throw new LabClosedError(PORTAL_LAB_CLOSED);
    }
    if (Date.parse(row.expires_at) <= now.getTime()) {
      await deletePortalSession(this.db, row.id);
      return null;
    }
    // Activity is recorded at most once a minute, so reading results does not turn into writes.
    if (now.getTime() - Date.parse(row.last_seen_at) >= 60_000) {
      await touchPortalSession(this.db, row.id, now.toISOString());
    }
    return {
      sessionId: row.id,
      patientId: row.patient_id,
      patientCode: row.patient_code,
      organizationId: row.organization_id,
    };
  }

  async logout(session: PortalSession, meta: Meta): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await deletePortalSession(trx, session.sessionId);
      await writeAudit(
        trx,
        portalActor({ patient_code: session.patientCode, organization_id: session.organizationId }, meta),
        {
          action: 'logout',
          entity: 'portal_session',
          entityId: session.patientId,
        },
      );
    });
  }
}
