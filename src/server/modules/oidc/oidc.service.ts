import type { JWTPayload } from 'jose';
import { LIMITS } from '../../../domain/constants';
import type { OidcCallbackQuery } from '../../../domain/schemas/oidc';
import type { SessionDto } from '../../../domain/schemas/auth';
import { anonymousActor } from '../../../domain/changes';
import type { Db } from '../../db/client';
import type { ChangeRecorder } from '../../lib/changes';
import { AppError, isUniqueViolation } from '../../lib/errors';
import type { AuthService } from '../auth';
import * as usersRepo from '../users';
import type { UserRow } from '../../db/schema';
import * as repo from './oidc.repo';
import { OidcFlowError, type OidcProvider } from './oidc.provider';
import { CODE_TTL_SECONDS, sealSignInCode } from './oidc.handoff';
import { matchesDigest, pkceChallenge, randomToken, type Sealer, sha256 } from './oidc.seal';

/** How long a started sign-in may take at the provider. */
export const STATE_TTL_SECONDS = 10 * 60;
/** How long the browser keeps its binding: from the start of a sign-in to the exchange of its code. */
export const BINDING_TTL_SECONDS = STATE_TTL_SECONDS + CODE_TTL_SECONDS;
/** How long the login page may open a sealed error description. */
const ERROR_TTL_SECONDS = 5 * 60;

const expired = () =>
  new OidcFlowError('invalid_request', 'The sign-in request expired or was not started here. Please try again.');

/** The profile's name: full_name, name, the email's local part, else 'User' (spec §4). */
export function displayName(claims: Record<string, unknown>, email: string | null): string {
  for (const key of ['full_name', 'name']) {
    const value = claims[key];
    if (typeof value === 'string' && value.trim()) return value.trim().slice(0, LIMITS.fullNameMax);
  }
  const local = email?.split('@')[0]?.trim();
  return local ? local.slice(0, LIMITS.fullNameMax) : 'User';
}

const isVerified = (value: unknown) => value === true || value === 'true';

/** Why a Google sign-in is not linked onto an existing account that has not proven its address (shown on /login). */
export const LINK_NEEDS_VERIFIED_ACCOUNT =
  'An account with this email already exists and its address is not verified yet. Sign in with your password and verify your email address first; then you can use Google sign-in.';

export class OidcService {
  constructor(
    private readonly db: Db,
    private readonly changes: ChangeRecorder,
    private readonly auth: AuthService,
    private readonly provider: OidcProvider | null,
    private readonly sealers: { state: Sealer; code: Sealer; error: Sealer },
    private readonly redirectUri: string,
  ) {}

  get isConfigured(): boolean {
    return this.provider !== null;
  }

  private requireProvider(): OidcProvider {
    if (!this.provider) throw new OidcFlowError('not_configured', 'Google sign-in is not configured on this server.');
    return this.provider;
  }

  /**
   * The provider's authorization URL, the sealed state to keep in a cookie until the callback, and
   * the browser's binding: a random value kept in a cookie until the exchange, whose digest the
   * state and then the one-time code carry, so that only this browser can redeem the code.
   */
  async begin(): Promise<{ url: string; sealedState: string; binding: string }> {
    const provider = this.requireProvider();
    const state = randomToken();
    const nonce = randomToken();
    const verifier = randomToken();
    const binding = randomToken();
    const url = await provider.authorizationUrl({
      redirectUri: this.redirectUri,
      state,
      nonce,
      codeChallenge: pkceChallenge(verifier),
    });
    const sealedState = await this.sealers.state.seal({ state, nonce, verifier, b: sha256(binding) }, STATE_TTL_SECONDS);
    return { url, sealedState, binding };
  }

  /** Completes the provider round trip; returns the one-time code for the SPA. */
  async complete(
    query: OidcCallbackQuery,
    sealedState: string | undefined,
    userAgent: string | null,
    ip: string | null = null,
  ): Promise<string> {
    const provider = this.requireProvider();
    const saved = sealedState ? await this.sealers.state.open(sealedState) : null;
    // Checked before the provider's error too: a hand-made link here must not get its text shown as ours.
    if (!saved || !query.state || saved.state !== query.state) throw expired();
    if (query.error) {
      const error = /^[a-z_]{1,64}$/.test(query.error) ? query.error : 'access_denied';
      const description = (query.error_description || query.error).slice(0, 300);
      throw new OidcFlowError(error, description);
    }
    if (!query.code) throw new OidcFlowError('invalid_request', 'The sign-in provider sent no authorization code.');

    const tokens = await provider.exchangeCode(query.code, String(saved.verifier), this.redirectUri);
    const claims: Record<string, unknown> = { ...(await provider.verifyIdToken(tokens.idToken, String(saved.nonce))) };
    if (typeof claims.email !== 'string' && tokens.accessToken) {
      const info = await provider.userinfo(tokens.accessToken);
      // Only claims about the same subject count.
      if (info.sub === claims.sub) Object.assign(claims, { ...info, ...claims });
    }
    let user: UserRow;
    try {
      user = await this.findOrCreateUser(provider.issuer, claims as JWTPayload & Record<string, unknown>, ip);
    } catch (error) {
      // Refused for an address the provider vouched for (not linked onto an unproven account, …): a failed sign-in.
      const email = typeof claims.email === 'string' ? claims.email.trim().toLowerCase().slice(0, LIMITS.emailMax) : '';
      if (error instanceof OidcFlowError && email) await this.auth.signInFailed(email, null, ip, 'oidc', error.error);
      throw error;
    }
    if (!user.isActive) {
      await this.auth.signInFailed(user.email, user.id, ip, 'oidc', 'account_deactivated');
      throw new OidcFlowError('access_denied', 'This account has been deactivated');
    }
    // No second factor here: the provider did the proving (issue 21).
    const session = await this.auth.startSession(user, userAgent, ip, 'oidc');
    return sealSignInCode(this.sealers.code, session.refresh_token, saved.b);
  }

  /**
   * The one-time code → a session (single use, 60 s), only in the browser that started the sign-in
   * (its binding cookie). Refused elsewhere without being spent: a link sent to someone else cannot
   * sign them in to the sender's account (login CSRF), nor cancel the sender's sign-in.
   */
  async exchange(code: string, binding: string | undefined): Promise<SessionDto> {
    const payload = await this.sealers.code.open(code);
    const refused = () => new AppError('oidc_code_expired');
    if (!payload || typeof payload.r !== 'string') throw refused();
    if (!matchesDigest(binding, payload.b)) throw new AppError('oidc_code_wrong_browser');
    try {
      return await this.auth.redeemInitialRefreshToken(payload.r);
    } catch (error) {
      if (error instanceof AppError && error.code === 'invalid_grant') throw refused();
      throw error;
    }
  }

  /** A failure's description, sealed for the login page (which shows only descriptions that open). */
  sealDescription(description: string): Promise<string> {
    return this.sealers.error.seal({ d: description }, ERROR_TTL_SECONDS);
  }

  /** The description our callback sealed; anything else (a hand-made link's text) is refused. */
  async openDescription(sealed: string): Promise<string> {
    const payload = await this.sealers.error.open(sealed);
    if (typeof payload?.d !== 'string') throw new AppError('oidc_error_unverified');
    return payload.d;
  }

  /**
   * The account for these claims: the linked identity; else an existing account with the same
   * email, linked only when the provider says the email is verified and the account has proven it
   * too (else whoever registered the address first with a password would be handed the real
   * owner's Google sign-in, or the other way round); else a new profile, verified when the
   * provider vouches for its address.
   */
  private async findOrCreateUser(
    issuer: string,
    claims: JWTPayload & Record<string, unknown>,
    ip: string | null,
  ): Promise<UserRow> {
    const subject = claims.sub!;
    const linked = await repo.getUserByIdentity(this.db, issuer, subject);
    if (linked) return linked;

    const email = typeof claims.email === 'string' && claims.email.includes('@') ? claims.email.trim().toLowerCase() : null;
    if (!email || email.length > LIMITS.emailMax) {
      throw new OidcFlowError('invalid_request', 'The sign-in provider did not share an email address.');
    }
    const verified = isVerified(claims.email_verified);
    const attempt = () =>
      this.changes.run(this.db, anonymousActor(email, ip), async (tx, record) => {
        const existing = await usersRepo.getOneByEmail(tx, email);
        if (existing) {
          if (!verified) {
            throw new OidcFlowError(
              'access_denied',
              'An account with this email already exists. Sign in with your password, or verify your email with the provider.',
            );
          }
          if (!existing.emailVerified) throw new OidcFlowError('access_denied', LINK_NEEDS_VERIFIED_ACCOUNT);
          await repo.createIdentity(tx, { issuer, subject, userId: existing.id, email });
          return existing;
        }
        const created = await usersRepo.createOne(tx, {
          email,
          fullName: displayName(claims, email),
          avatarUrl: typeof claims.picture === 'string' && claims.picture.startsWith('https://') ? claims.picture : null,
          emailVerified: verified,
        });
        await repo.createIdentity(tx, { issuer, subject, userId: created.id, email });
        // Invitations sent before the account existed become notifications, as after a sign-up.
        await this.auth.afterUserCreated(tx, record, created, 'oidc', ip);
        return created;
      });
    try {
      return await attempt();
    } catch (error) {
      // Two first sign-ins racing: the loser finds what the winner created.
      if (isUniqueViolation(error)) {
        const again = await repo.getUserByIdentity(this.db, issuer, subject);
        return again ?? attempt();
      }
      throw error;
    }
  }
}
