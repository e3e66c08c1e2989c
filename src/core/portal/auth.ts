import { randomBytes } from 'node:crypto';
import type { Db } from '../db/connection.js';
import type { Actor } from '../context.js';
import { writeAudit } from '../audit/audit.js';
import { TooManyRequestsError, UnauthorizedError } from '../errors.js';
import { dummyPasswordHash, verifyPassword } from '../auth/password.js';
import { hashToken } from '../auth/sessions.js';
import { LoginThrottle } from '../auth/throttle.js';
import { mobileKey } from './pin.js';
import { PORTAL_INVALID_LOGIN, PORTAL_SESSION_HOURS, type PortalLogin } from '../../shared/schemas/portal.js';

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
  readonly byPatient = new LoginThrottle(PORTAL_MAX_FAILURES_PER_PATIENT);
  readonly byIp = new LoginThrottle(PORTAL_MAX_FAILURES_PER_IP);

  constructor(private readonly db: Db) {}

  async login(input: PortalLogin, meta: Meta): Promise<{ token: string; expiresAt: Date; session: PortalSession }> {
    const code = input.patient_id.trim().toUpperCase();
    const patientKey = [`patient:${code}`];
    const ipKey = [`ip:${meta.ip}`];
    const wait = Math.max(this.byPatient.retryAfter(patientKey), this.byIp.retryAfter(ipKey));
    if (wait > 0) {
      throw new TooManyRequestsError(
        `Too many failed sign-in attempts. Try again in ${Math.ceil(wait / 60)} minute(s).`,
        wait,
      );
    }
    // Codes are unique per lab; an installation with several labs may repeat one, so every candidate is tried.
    const candidates = await this.db
      .selectFrom('patients as p')
      .innerJoin('patient_portal_access as a', (j) =>
        j.onRef('a.patient_id', '=', 'p.id').onRef('a.organization_id', '=', 'p.organization_id'),
      )
      .select(['p.id', 'p.organization_id', 'p.patient_code', 'p.phone', 'a.pin_hash'])
      .where('p.patient_code', '=', code)
      .execute();
    const mobile = mobileKey(input.mobile);
    const match = mobile.length >= 7 ? candidates.find((c) => mobileKey(c.phone) === mobile) : undefined;
    const ok = match
      ? await verifyPassword(input.pin, match.pin_hash)
      : await verifyPassword(input.pin, await dummyPasswordHash()).then(() => false);
    if (!match || !ok) {
      this.byPatient.fail(patientKey);
      this.byIp.fail(ipKey);
      for (const c of candidates) {
        await writeAudit(this.db, portalActor(c, meta), {
          action: 'login',
          entity: 'portal_session',
          entityId: c.id,
          status: 'failed',
          newValues: { reason: match === c ? 'wrong PIN' : 'mobile number does not match' },
        });
      }
      throw new UnauthorizedError(PORTAL_INVALID_LOGIN);
    }
    this.byPatient.succeed(patientKey);
    const token = randomBytes(32).toString('base64url');
    const now = new Date();
    const expiresAt = new Date(now.getTime() + PORTAL_SESSION_HOURS * 3600_000);
    const sessionId = hashToken(token);
    await this.db.transaction().execute(async (trx) => {
      // Tidy this patient's expired sessions while here; nothing else reads them.
      await trx
        .deleteFrom('portal_sessions')
        .where('patient_id', '=', match.id)
        .where('expires_at', '<=', now.toISOString())
        .execute();
      await trx
        .insertInto('portal_sessions')
        .values({
          id: sessionId,
          patient_id: match.id,
          organization_id: match.organization_id,
          created_at: now.toISOString(),
          last_seen_at: now.toISOString(),
          expires_at: expiresAt.toISOString(),
        })
        .execute();
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

  /** The patient a portal cookie stands for, or null when unknown or expired (then it is removed). */
  async resolve(token: string, now = new Date()): Promise<PortalSession | null> {
    const row = await this.db
      .selectFrom('portal_sessions as s')
      .innerJoin('patients as p', (j) =>
        j.onRef('p.id', '=', 's.patient_id').onRef('p.organization_id', '=', 's.organization_id'),
      )
      .select(['s.id', 's.patient_id', 's.organization_id', 's.expires_at', 's.last_seen_at', 'p.patient_code'])
      .where('s.id', '=', hashToken(token))
      .executeTakeFirst();
    if (!row) return null;
    if (Date.parse(row.expires_at) <= now.getTime()) {
      await this.db.deleteFrom('portal_sessions').where('id', '=', row.id).execute();
      return null;
    }
    // Activity is recorded at most once a minute, so reading results does not turn into writes.
    if (now.getTime() - Date.parse(row.last_seen_at) >= 60_000) {
      await this.db
        .updateTable('portal_sessions')
        .set({ last_seen_at: now.toISOString() })
        .where('id', '=', row.id)
        .execute();
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
      await trx.deleteFrom('portal_sessions').where('id', '=', session.sessionId).execute();
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
