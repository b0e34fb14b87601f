import QRCode from 'qrcode';
import type { SessionDto } from '../../../domain/schemas/auth';
import {
  type DisableTwoFactorInput,
  type MfaRequiredResponse,
  type RecoveryCodesDto,
  TWO_FACTOR,
  type TwoFactorReauthInput,
  type TwoFactorSetupDto,
  type TwoFactorStatusDto,
} from '../../../domain/schemas/security';
import type { SignInMethod } from '../../../domain/constants';
import { ERRORS, errorBody } from '../../../domain/errors';
import { MSG } from '../../../domain/messages';
import type { Db } from '../../db/client';
import type { UserRow } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { verifyPassword } from '../../lib/passwords';
import type { RateLimiter, RateLimitStore } from '../../lib/rate-limit';
import { userActor } from '../../../domain/changes';
import type { ChangeRecorder } from '../../lib/changes';
import type { AuthService } from '../auth';
import { Sealer } from '../oidc';
import * as usersRepo from '../users';
import { hashRecoveryCode, newRecoveryCodes } from './recovery-codes';
import * as repo from './security.repo';
import { looksLikeTotp, matchTotp, newTotpSecret, totpUrl } from './totp';

/** Where the client stands between the password and the code, and where it signs in from. */
export interface SignInClient {
  userAgent: string | null;
  ip: string;
}

/**
 * A used time step is remembered this long (per account), so that its code is refused a second time
 * (RFC 6238 §5.2): longer than the window in which the step's code is accepted.
 */
const USED_STEP_SECONDS = (2 * TWO_FACTOR.windowSteps + 2) * TWO_FACTOR.periodSeconds;

const invalidCode = () => new AppError('mfa_code_invalid', { fields: { code: ERRORS.mfa_code_invalid.message } });
const invalidChallenge = () => new AppError('mfa_token_invalid');

/**
 * Two-factor sign-in with TOTP (RFC 6238) and one-time recovery codes. The secret is kept sealed (AES-256-GCM
 * under a key derived from the app secret); recovery codes only as SHA-256 hashes. A right password for an
 * account with it on gets a sealed, five-minute `mfa_token` instead of a session; the token and a code then
 * get the session (POST /api/auth/token?grant_type=mfa).
 */
export class TwoFactorService {
  private readonly secrets: Sealer;
  private readonly challenges: Sealer;

  constructor(
    private readonly db: Db,
    private readonly changes: ChangeRecorder,
    private readonly auth: AuthService,
    private readonly limiter: RateLimiter,
    /** The rate-limit table, here as a record of used time steps shared by every app instance. */
    private readonly store: RateLimitStore,
    authSecret: string,
  ) {
    this.secrets = new Sealer(authSecret, 'totp-secret');
    this.challenges = new Sealer(authSecret, 'mfa');
  }

  async status(user: UserRow): Promise<TwoFactorStatusDto> {
    const enabled = user.totpEnabledAt !== null;
    return {
      enabled,
      enabledAt: user.totpEnabledAt?.toISOString() ?? null,
      recoveryCodesLeft: enabled ? await repo.countUnusedRecoveryCodes(this.db, user.id) : 0,
    };
  }

  /**
   * A new secret, kept (sealed) but not in force until a code from it is confirmed; a second setup replaces it. The
   * password first (when the account has one): a session left open must not tie the account to someone else's phone.
   */
  async setup(user: UserRow, input: TwoFactorReauthInput, ip: string): Promise<TwoFactorSetupDto> {
    if (user.totpEnabledAt) throw new AppError('mfa_already_enabled');
    await this.requirePasswordIfAny(user, input.currentPassword, ip);
    const secret = newTotpSecret();
    if (!(await repo.setPendingSecret(this.db, user.id, await this.secrets.seal({ s: secret })))) {
      throw new AppError('mfa_already_enabled');
    }
    const otpauthUrl = totpUrl(secret, user.email);
    const svg = await QRCode.toString(otpauthUrl, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
    return { secret, otpauthUrl, qr: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}` };
  }

  /** A code from the pending secret turns two-factor sign-in on; the ten recovery codes are returned this once. */
  async enable(user: UserRow, code: string, ip: string | null = null): Promise<RecoveryCodesDto> {
    if (user.totpEnabledAt) throw new AppError('mfa_already_enabled');
    const sealed = user.totpSecret;
    const secret = sealed ? await this.openSecret(sealed) : null;
    if (!sealed || !secret) throw new AppError('mfa_setup_missing');
    if (!(await this.spendTotp(user.id, secret, code))) throw invalidCode();
    const codes = newRecoveryCodes();
    const enabled = await this.changes.run(this.db, userActor(user.id, user.email, ip), async (tx, record) => {
      // Only the secret that was confirmed: a setup in another tab meanwhile replaced it.
      if (!(await repo.enableOne(tx, user.id, sealed))) return false;
      await repo.replaceRecoveryCodes(tx, user.id, codes.map(hashRecoveryCode));
      await record({ kind: 'account.two_factor_enabled', userId: user.id, email: user.email });
      return true;
    });
    if (!enabled) throw new AppError('mfa_setup_missing');
    return { recoveryCodes: codes };
  }

  /**
   * Ten new recovery codes, returned this once; the old ones stop working in the same transaction. After the
   * password (when the account has one), as setting up.
   */
  async regenerateRecoveryCodes(user: UserRow, input: TwoFactorReauthInput, ip: string): Promise<RecoveryCodesDto> {
    if (!user.totpEnabledAt) throw new AppError('mfa_not_enabled');
    await this.requirePasswordIfAny(user, input.currentPassword, ip);
    const codes = newRecoveryCodes();
    const replaced = await this.db.transaction(async (tx) => {
      // Turned off meanwhile (another tab): no codes for an account without the second factor.
      if (!(await repo.lockEnabled(tx, user.id))) return false;
      await repo.replaceRecoveryCodes(tx, user.id, codes.map(hashRecoveryCode));
      return true;
    });
    if (!replaced) throw new AppError('mfa_not_enabled');
    return { recoveryCodes: codes };
  }

  /**
   * The account's password, counted as a sign-in's (RateLimiter.signIn: the same failures, the same waits). With no
   * stored hash (a Google account), verifyPassword spends the same time and says no.
   */
  private async checkPassword(user: UserRow, hash: string | null, given: string | undefined, ip: string, field: string) {
    const guard = this.limiter.signIn(user.email, ip);
    await guard.begin();
    if (given !== undefined && (await verifyPassword(hash, given))) return guard.succeeded();
    await guard.failed();
    throw new AppError('wrong_password', { fields: { [field]: MSG.currentPasswordWrong } });
  }

  /** The password, when the account has one (TwoFactorReauthInput). */
  private async requirePasswordIfAny(user: UserRow, given: string | undefined, ip: string): Promise<void> {
    const hash = await usersRepo.getPasswordHash(this.db, user.id);
    if (hash !== null) await this.checkPassword(user, hash, given, ip, 'currentPassword');
  }

  /** Turns it off, proven by a code (or a recovery code) or by the account's password; both are rate-limited. */
  async disable(user: UserRow, input: DisableTwoFactorInput, ip: string): Promise<void> {
    if (!user.totpEnabledAt) throw new AppError('mfa_not_enabled');
    if ('password' in input) {
      await this.checkPassword(user, await usersRepo.getPasswordHash(this.db, user.id), input.password, ip, 'password');
    } else {
      await this.requireCode(user, input.code);
    }
    await this.changes.run(this.db, userActor(user.id, user.email, ip), async (tx, record) => {
      await repo.disableOne(tx, user.id);
      await repo.deleteRecoveryCodes(tx, user.id);
      await record({
        kind: 'account.two_factor_disabled',
        userId: user.id,
        email: user.email,
        proof: 'password' in input ? 'password' : 'code',
      });
    });
  }

  /**
   * The answer to a right password when two-factor sign-in is on: 401 `mfa_required` with the sealed mfa_token. A
   * directory password (`method` 'ldap') is carried in it: the session then records 'ldap' (how the person proved who
   * they are; the code is an addition), a local password 'two_factor' as before.
   */
  async challenge(user: UserRow, method: SignInMethod = 'password'): Promise<MfaRequiredResponse> {
    // Bound to this enabling: turning it off (or off and on again) ends the challenges before it.
    const mfaToken = await this.challenges.seal(
      { sub: user.id, t: user.totpEnabledAt?.getTime() ?? 0, ...(method === 'ldap' ? { m: 'ldap' } : {}) },
      TWO_FACTOR.challengeSeconds,
    );
    const body = errorBody('mfa_required');
    return { error: { ...body.error, mfa_token: mfaToken } };
  }

  /** The second step of a password sign-in: the mfa_token of the first and a code (or a recovery code, once). */
  async signIn(mfaToken: string, code: string, client: SignInClient): Promise<SessionDto> {
    const claims = await this.challenges.open(mfaToken);
    if (typeof claims?.sub !== 'string') throw invalidChallenge();
    const user = await usersRepo.getOneById(this.db, claims.sub);
    if (!user?.isActive || !user.totpEnabledAt || user.totpEnabledAt.getTime() !== claims.t) throw invalidChallenge();
    try {
      await this.requireCode(user, code);
    } catch (error) {
      if (error instanceof AppError && error.reason === 'mfa_code_invalid') {
        await this.auth.signInFailed(user.email, user.id, client.ip, 'two_factor', 'mfa_code_invalid');
      }
      throw error;
    }
    return this.auth.startSession(user, client.userAgent, client.ip, claims.m === 'ldap' ? 'ldap' : 'two_factor');
  }

  /** A right code (spent: a TOTP step or a recovery code counts once), or 400; rate-limited per account. */
  private async requireCode(user: UserRow, code: string): Promise<void> {
    const guard = this.limiter.secondFactor(user.id);
    await guard.begin();
    const ok = looksLikeTotp(code)
      ? await this.spendTotp(user.id, user.totpSecret ? await this.openSecret(user.totpSecret) : null, code)
      : await repo.spendRecoveryCode(this.db, user.id, hashRecoveryCode(code));
    if (!ok) {
      await guard.failed();
      throw invalidCode();
    }
    await guard.succeeded();
  }

  /** True when the code is right now and its time step was not used before on this account (now it is). */
  private async spendTotp(userId: string, secret: string | null, code: string): Promise<boolean> {
    const step = secret ? matchTotp(secret, code) : null;
    return step !== null && (await this.store.count(`totpStep:${userId}:${step}`, USED_STEP_SECONDS)) === 1;
  }

  private async openSecret(sealed: string): Promise<string | null> {
    const payload = await this.secrets.open(sealed);
    return typeof payload?.s === 'string' ? payload.s : null;
  }
}
