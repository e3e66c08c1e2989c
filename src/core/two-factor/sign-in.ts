import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../db/connection.js';
import { writeAudit } from '../audit/audit.js';
import { nowIso, type Actor } from '../context.js';
import { DomainError, TooManyRequestsError, UnauthorizedError, ValidationError } from '../errors.js';
import { labSettings } from '../settings/service.js';
import { findUser, type UserRow } from '../users/repository.js';
import { staffAccountKey, waitText, type SignInLimits } from '../auth/service.js';
import { deleteOtherSessionRowsOfUser } from '../auth/repository.js';
import { LOGIN_MAX_FAILURES } from '../../shared/constants.js';
import type { User } from '../../shared/schemas/users.js';
import {
  TWO_FACTOR_CHALLENGE_MINUTES,
  type LoginTwoFactorInput,
  type TwoFactorChallenge,
  type TwoFactorSetup,
} from '../../shared/schemas/two-factor.js';
import {
  addChallengeAttempt,
  deleteChallenge,
  deleteExpiredChallenges,
  findLiveChallenge,
  findTwoFactor,
  insertChallenge,
  recoveryCodesLeft,
  saveEnabled,
  setChallengeSecret,
  spendRecoveryCode,
  useStep,
  type ChallengeRow,
} from './repository.js';
import type { SecretBox } from './secret-box.js';
import { issueRecoveryCodes, sealContext, setupAnswer, WRONG_SETUP_CODE } from './service.js';
import { matchingStep, newTotpSecret, recoveryCodeHash } from './totp.js';

/**
 * The second step of staff sign-in. A right password for a user with two-factor on, or
 * for any staff member when the lab requires two-factor, starts no session: it answers a challenge
 * (a random token; the database keeps its SHA-256), bound to that user, good for 5 minutes and for
 * one sign-in. The challenge then takes a TOTP code (the step before or after is accepted, a step
 * already used is not) or a recovery code (spent once used), and only then is the session created.
 *
 * Wrong codes count in the same limits as wrong passwords (per account and address, per address,
 * and the account's backoff), and the right password alone never clears them: the limits forget an
 * account's failures only when a sign-in completes. A challenge also dies after 5 wrong codes.
 *
 * An `enrol` challenge (the lab requires two-factor and the user has none) can only be had with the
 * password just given: it shows a new secret (sealed on the challenge row) and takes a code of it,
 * which switches two-factor on, answers the recovery codes once and starts the session.
 */

/** Starts the session after every check passed (AuthService's own ending of a sign-in). */
export type StartSession = (
  row: UserRow,
  meta: SignInMeta,
  audit: Record<string, unknown>,
) => Promise<{ token: string; expiresAt: Date; user: User }>;

export interface SignInMeta {
  ip: string;
  userAgent: string | null;
}

/** A wrong code at enrolment is a typing or clock problem, not a guess: more tries, not counted as failures. */
const ENROL_ATTEMPTS = 10;

export const CHALLENGE_GONE = 'Your sign-in has expired or was already used. Enter your email and password again.';

class ChallengeGoneError extends DomainError {
  constructor(message = CHALLENGE_GONE) {
    super(401, 'TWO_FACTOR_EXPIRED', message);
  }
}

const hashToken = (token: string) => createHash('sha256').update(`two-factor:${token}`).digest('hex');

function actorOf(row: UserRow, meta: SignInMeta): Actor {
  return {
    userId: row.id,
    email: row.email,
    role: row.role as Actor['role'],
    organizationId: row.organization_id,
    ip: meta.ip,
    userAgent: meta.userAgent,
  };
}

export class TwoFactorSignIn {
  constructor(
    private readonly db: Db,
    private readonly box: SecretBox,
    private readonly limits: SignInLimits,
    private readonly startSession: StartSession,
  ) {}

  /**
   * After a right password: the challenge when a second step is needed (two-factor on: verify;
   * required by the lab and not set up: enrol), else null and the session starts at once.
   */
  async afterPassword(row: UserRow): Promise<TwoFactorChallenge | null> {
    const tf = await findTwoFactor(this.db, row.organization_id, row.id);
    let step: TwoFactorChallenge['step'];
    if (tf?.secret) step = 'verify';
    else if ((await labSettings(this.db, row.organization_id)).twoFactorAuth) step = 'enrol';
    else return null;
    const token = randomBytes(32).toString('base64url');
    const now = new Date();
    const expiresAt = new Date(now.getTime() + TWO_FACTOR_CHALLENGE_MINUTES * 60_000).toISOString();
    await deleteExpiredChallenges(this.db, now.toISOString());
    await insertChallenge(this.db, {
      id: hashToken(token),
      user_id: row.id,
      organization_id: row.organization_id,
      purpose: step,
      pending_secret: null,
      attempts: 0,
      created_at: now.toISOString(),
      expires_at: expiresAt,
    });
    return { challenge: token, step, expires_at: expiresAt };
  }

  async #live(token: string): Promise<{ challenge: ChallengeRow; user: UserRow }> {
    const challenge = await findLiveChallenge(this.db, hashToken(token), nowIso());
    if (!challenge) throw new ChallengeGoneError();
    const user = await findUser(this.db, challenge.organization_id, challenge.user_id);
    if (!user || user.is_active !== 1) {
      await deleteChallenge(this.db, challenge.id);
      throw new ChallengeGoneError();
    }
    return { challenge, user };
  }

  /** An enrol challenge's secret, QR code and URI (the same ones if asked again). */
  async setup(token: string): Promise<TwoFactorSetup> {
    const { challenge, user } = await this.#live(token);
    if (challenge.purpose !== 'enrol')
      throw ValidationError.field('challenge', 'This sign-in needs a code from your authenticator app, not a set-up');
    const context = sealContext(user.id);
    let secret: string;
    if (challenge.pending_secret) secret = this.box.open(challenge.pending_secret, context);
    else {
      secret = newTotpSecret();
      await setChallengeSecret(this.db, challenge.id, this.box.seal(secret, context));
    }
    return setupAnswer(this.db, user.organization_id, user.email, secret);
  }

  /** The code (or recovery code) for a challenge: the session, and for an enrolment the recovery codes. */
  async verify(
    input: LoginTwoFactorInput,
    meta: SignInMeta,
  ): Promise<{ token: string; expiresAt: Date; user: User; recovery_codes?: string[] }> {
    const { challenge, user } = await this.#live(input.challenge);
    return challenge.purpose === 'enrol'
      ? this.#enrol(challenge, user, input, meta)
      : this.#verify(challenge, user, input, meta);
  }

  async #enrol(challenge: ChallengeRow, user: UserRow, input: LoginTwoFactorInput, meta: SignInMeta) {
    if (input.code === undefined)
      throw ValidationError.field('code', 'Set up your authenticator app first, then enter the 6-digit code it shows');
    if (!challenge.pending_secret)
      throw ValidationError.field('code', 'Scan the QR code first, then enter the 6-digit code your app shows');
    const secret = this.box.open(challenge.pending_secret, sealContext(user.id));
    const step = matchingStep(secret, input.code);
    if (step === null) {
      if ((await addChallengeAttempt(this.db, challenge.id)) >= ENROL_ATTEMPTS) {
        await deleteChallenge(this.db, challenge.id);
        throw new ChallengeGoneError('Too many codes that did not match. Enter your email and password again.');
      }
      throw ValidationError.field('code', WRONG_SETUP_CODE);
    }
    const now = nowIso();
    const codes = await this.db.transaction().execute(async (trx) => {
      if (!(await deleteChallenge(trx, challenge.id))) throw new ChallengeGoneError();
      await saveEnabled(trx, user.organization_id, user.id, challenge.pending_secret!, step, now);
      const issued = await issueRecoveryCodes(trx, user.organization_id, user.id, now);
      // Sessions from before two-factor was on end; the one this sign-in starts is the only one.
      const ended = await deleteOtherSessionRowsOfUser(trx, user.organization_id, user.id, null);
      await writeAudit(trx, actorOf(user, meta), {
        action: 'create',
        entity: 'two_factor',
        entityId: user.id,
        newValues: { enabled: true, recovery_codes: issued.length, at_sign_in: true, other_sessions_ended: ended },
      });
      return issued;
    });
    const session = await this.startSession(user, meta, { two_factor: 'enrolled' });
    return { ...session, recovery_codes: codes };
  }

  async #verify(challenge: ChallengeRow, user: UserRow, input: LoginTwoFactorInput, meta: SignInMeta) {
    const ticket = this.limits.reserve(staffAccountKey(user.organization_id, user.email), meta.ip);
    if (typeof ticket === 'number')
      throw new TooManyRequestsError(`Too many failed sign-in attempts. Try again in ${waitText(ticket)}.`, ticket);
    try {
      const tf = await findTwoFactor(this.db, user.organization_id, user.id);
      // Reset by an administrator since the password was given: sign in again (and enrol if required).
      if (!tf?.secret) {
        await deleteChallenge(this.db, challenge.id);
        throw new ChallengeGoneError();
      }
      let failure: { reason: string; message: string } | null = null;
      let left: number | undefined;
      if (input.code !== undefined) {
        const step = matchingStep(this.box.open(tf.secret, sealContext(user.id)), input.code);
        if (step === null)
          failure = {
            reason: 'bad two-factor code',
            message: 'The code is wrong or has expired. Enter the code now shown in your authenticator app.',
          };
        else if (!(await useStep(this.db, user.organization_id, user.id, step)))
          failure = {
            reason: 'reused two-factor code',
            message: 'This code has been used already. Wait for the next code in your app.',
          };
      } else {
        const spent = await spendRecoveryCode(
          this.db,
          user.organization_id,
          user.id,
          recoveryCodeHash(input.recovery_code!),
          nowIso(),
        );
        if (!spent)
          failure = { reason: 'bad recovery code', message: 'That recovery code is wrong or has been used already.' };
      }
      if (failure) {
        ticket.fail();
        await writeAudit(this.db, actorOf(user, meta), {
          action: 'login',
          entity: 'session',
          entityId: user.id,
          status: 'failed',
          newValues: { reason: failure.reason },
        });
        if ((await addChallengeAttempt(this.db, challenge.id)) >= LOGIN_MAX_FAILURES) {
          await deleteChallenge(this.db, challenge.id);
          throw new ChallengeGoneError('Too many wrong codes. Enter your email and password again.');
        }
        throw new UnauthorizedError(failure.message);
      }
      if (!(await deleteChallenge(this.db, challenge.id))) throw new ChallengeGoneError();
      if (input.recovery_code !== undefined) {
        left = await recoveryCodesLeft(this.db, user.organization_id, user.id);
      }
      ticket.succeed();
      return await this.startSession(user, meta, {
        two_factor: input.code !== undefined ? 'code' : 'recovery code',
        ...(left !== undefined ? { recovery_codes_left: left } : {}),
      });
    } finally {
      ticket.release();
    }
  }
}
