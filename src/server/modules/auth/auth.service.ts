import { anonymousActor, type PersonActor, type SignInMethod, userActor } from '../../../domain/changes';
import type { SessionDto, SignupInput, UserDto } from '../../../domain/schemas/auth';
import type { Db, Tx } from '../../db/client';
import type { ChangeRecorder, RecordChange } from '../../lib/changes';
import { AppError, isUniqueViolation } from '../../lib/errors';
import { hashPassword, verifyPassword } from '../../lib/passwords';
import type { SignInGuard } from '../../lib/rate-limit';
import { hashToken, type TokenService } from '../../lib/tokens';
import { toUserDto } from '../users';
import * as usersRepo from '../users';
import type { UserRow } from '../../db/schema';
import * as repo from './auth.repo';
import { signOutOtherSessions } from './credentials';
import {
  type DirectorySignIn,
  DirectoryUnreachable,
  type LocalPasswordPolicy,
  mayUseLocalPassword,
  type PasswordDirectory,
} from './directory';
import { requireUncommonPassword } from './password-policy';
import { DEFAULT_SESSION_POLICY, isWithinReuseGrace, type SessionPolicy, sessionExpiry } from './session-policy';

export interface AuthHooks {
  /**
   * Runs inside the sign-up transaction, e.g. to notify about pending invitations or to mail a verification link
   * (`record`: changes by the new account).
   */
  onUserCreated?: (tx: Tx, record: RecordChange, user: UserRow) => Promise<void>;
}

export type { SignInMethod };

/**
 * A right password: the session, or, with two-factor sign-in on, the user who must give a code next and `method`, how
 * the password was checked ('ldap': the directory's, which the session then records; 'password': 'two_factor' as before).
 */
export type PasswordSignIn = { session: SessionDto } | { secondFactor: UserRow; method: SignInMethod };

const invalidCredentials = () => new AppError('invalid_credentials');
const invalidGrant = () => new AppError('invalid_grant');

export class AuthService {
  private readonly sessionWithUser: ReturnType<typeof repo.prepareSessionWithUser>;
  private directory: PasswordDirectory | null = null;
  private localPasswords: LocalPasswordPolicy = { enabled: true, breakGlassEmail: null };

  constructor(
    private readonly db: Db,
    private readonly tokens: TokenService,
    private readonly changes: ChangeRecorder,
    private readonly hooks: AuthHooks = {},
    private readonly sessionPolicy: SessionPolicy = DEFAULT_SESSION_POLICY,
  ) {
    this.sessionWithUser = repo.prepareSessionWithUser(db);
  }

  async signup(input: SignupInput, ip: string | null = null): Promise<UserDto> {
    // LOCAL_PASSWORDS=off: an account made here could never sign in with its password (issue 41).
    if (!mayUseLocalPassword(this.localPasswords, input.email)) throw new AppError('local_passwords_off');
    requireUncommonPassword(input.password);
    const passwordHash = await hashPassword(input.password);
    try {
      const user = await this.changes.run(this.db, anonymousActor(input.email, ip), async (tx, record) => {
        const created = await usersRepo.createOne(tx, { email: input.email, fullName: input.fullName });
        await usersRepo.setPassword(tx, created.id, passwordHash);
        await this.afterUserCreated(tx, record, created, 'password', ip);
        return created;
      });
      return toUserDto(user);
    } catch (error) {
      if (isUniqueViolation(error, 'users_email_key')) throw new AppError('email_taken');
      throw error;
    }
  }

  /**
   * Records a new account (a sign-up, or a first Google or directory sign-in: `via`) and runs the sign-up hooks, in the transaction
   * that created it; what follows is the new account's doing.
   */
  async afterUserCreated(
    tx: Tx,
    record: RecordChange,
    user: UserRow,
    via: 'password' | 'oidc' | 'ldap' | 'saml',
    ip: string | null = null,
  ): Promise<void> {
    const newcomer = userActor(user.id, user.email, ip);
    const recordByNewcomer: RecordChange = (change) => record(change, newcomer);
    await recordByNewcomer({ kind: 'account.created', userId: user.id, email: user.email, via });
    await this.hooks.onUserCreated?.(tx, recordByNewcomer, user);
  }

  /**
   * The directory that checks passwords first (LDAP, issue 41), and who may still use a local password
   * (LOCAL_PASSWORDS / BREAK_GLASS_EMAIL). Set once by the composition root: the directory needs this service.
   */
  useDirectory(directory: PasswordDirectory | null, localPasswords: LocalPasswordPolicy): void {
    this.directory = directory;
    this.localPasswords = localPasswords;
  }

  /** Is there a directory to sign in with (the form's first field then takes a directory username too)? */
  get hasDirectory(): boolean {
    return this.directory !== null;
  }

  /**
   * `guard` (RateLimiter.signIn) may make this client wait before the check; only a wrong password
   * (or an unknown email) counts against it, and a right one clears its count. With a directory, `email` may be a
   * directory username: the directory is asked first, then the local passwords (unless LOCAL_PASSWORDS=off, except
   * for BREAK_GLASS_EMAIL).
   */
  async signInWithPassword(
    email: string,
    password: string,
    userAgent: string | null,
    guard: SignInGuard,
    ip: string | null = null,
  ): Promise<PasswordSignIn> {
    await guard.begin();
    let directoryDown = false;
    if (this.directory) {
      let answer: DirectorySignIn = null;
      try {
        answer = await this.directory.signIn(email, password, ip);
      } catch (error) {
        if (!(error instanceof DirectoryUnreachable)) throw error;
        directoryDown = true;
      }
      if (answer && 'refused' in answer) {
        await this.signInFailed(email, answer.userId, ip, 'ldap', answer.refused);
        throw new AppError(answer.refused);
      }
      if (answer) return this.signedIn(answer.user, guard, email, userAgent, ip, 'ldap');
    }
    if (!mayUseLocalPassword(this.localPasswords, email)) {
      if (directoryDown) throw new AppError('directory_unavailable');
      await guard.failed();
      await this.signInFailed(email, null, ip, this.directory ? 'ldap' : 'password', 'invalid_credentials');
      throw invalidCredentials();
    }
    const row = await usersRepo.getWithPasswordByEmail(this.db, email);
    const ok = await verifyPassword(row?.passwordHash, password);
    if (!row || !ok) {
      // The directory could not say: not the person's fault, and not a guess to count.
      if (directoryDown) throw new AppError('directory_unavailable');
      await guard.failed();
      // With a directory, the name was tried there first: the attempt is the directory's as much as ours.
      const method = this.directory ? 'ldap' : 'password';
      await this.signInFailed(email, row?.user.id ?? null, ip, method, 'invalid_credentials');
      throw invalidCredentials();
    }
    return this.signedIn(row.user, guard, email, userAgent, ip, 'password');
  }

  /** A right password (local or the directory's): the session, or the second factor's turn. */
  private async signedIn(
    user: UserRow,
    guard: SignInGuard,
    email: string,
    userAgent: string | null,
    ip: string | null,
    method: SignInMethod,
  ): Promise<PasswordSignIn> {
    await guard.succeeded();
    if (!user.isActive) {
      await this.signInFailed(email, user.id, ip, method, 'account_deactivated');
      throw new AppError('account_deactivated');
    }
    // Two-factor sign-in on: no session yet; the caller asks for a code (security/two-factor.service.ts).
    if (user.totpEnabledAt) return { secondFactor: user, method };
    return { session: await this.startSession(user, userAgent, ip, method) };
  }

  /**
   * A failed sign-in (its audit row): by nobody signed in, from `ip`, with the attempted address (never the password);
   * the account's id when the address has one.
   */
  async signInFailed(
    email: string,
    userId: string | null,
    ip: string | null,
    method: SignInMethod,
    reason: string,
  ): Promise<void> {
    await this.changes.run(this.db, anonymousActor(email, ip), (_tx, record) =>
      record({ kind: 'account.sign_in_failed', userId, email, method, reason }),
    );
  }

  /**
   * Opens a session for a user who has proven who they are (password, password and second factor, or OpenID
   * Connect), and records the sign-in (its audit row) in the same transaction.
   */
  async startSession(
    user: UserRow,
    userAgent: string | null,
    ip: string | null = null,
    method: SignInMethod = 'password',
  ): Promise<SessionDto> {
    const refresh = this.tokens.newRefreshToken();
    const session = await this.changes.run(this.db, userActor(user.id, user.email, ip), async (tx, record) => {
      const s = await repo.createSession(tx, user.id, userAgent?.slice(0, 300) ?? null, ip, method);
      await repo.insertRefreshToken(tx, s.id, hashToken(refresh), null);
      await record({ kind: 'account.signed_in', userId: user.id, email: user.email, method, sessionId: s.id });
      return s;
    });
    return this.sessionDto(user, session.id, refresh);
  }

  /**
   * Rotates a refresh token. A spent token revokes its session, except the immediate parent of
   * the live token within the reuse interval, which gets that same live token back (a retry after
   * a lost response). A session past its idle timeout or its absolute lifetime is revoked.
   */
  async refresh(refreshToken: string): Promise<SessionDto> {
    const result = await this.changes.run(this.db, anonymousActor(), async (tx, record) => {
      const token = await repo.getRefreshTokenByHash(tx, hashToken(refreshToken));
      if (!token) throw invalidGrant();
      const found = await repo.getSessionWithUser(tx, token.sessionId);
      if (!found || found.session.revokedAt || !found.user.isActive) throw invalidGrant();
      // Revoked and committed; the caller is refused after (its event streams close).
      const revoke = async () => {
        await repo.revokeSession(tx, token.sessionId);
        const { id: userId, email } = found.user;
        await record({ kind: 'account.sessions_revoked', userId, sessionIds: [token.sessionId] }, userActor(userId, email));
        return { ok: false as const };
      };
      if (sessionExpiry(found.session, found.now, this.sessionPolicy)) return revoke();
      const child = this.tokens.childRefreshToken(refreshToken);
      const spent = await repo.spendRefreshToken(tx, token.id);
      if (spent) {
        await repo.insertRefreshToken(tx, token.sessionId, hashToken(child), token.id);
        await repo.markSessionRefreshed(tx, token.sessionId);
        return { ok: true as const, user: found.user, sessionId: token.sessionId, refresh: child };
      }
      const live = await repo.getChildToken(tx, token.id);
      if (live && !live.usedAt && isWithinReuseGrace(token.usedAt, found.now, this.sessionPolicy)) {
        return { ok: true as const, user: found.user, sessionId: token.sessionId, refresh: child };
      }
      return revoke();
    });
    if (!result.ok) throw invalidGrant();
    return this.sessionDto(result.user, result.sessionId, result.refresh);
  }

  /**
   * Redeems a session's first refresh token exactly once (behind the one-time code of an OpenID
   * Connect sign-in). No grace for a repeat: a second use revokes the session.
   */
  async redeemInitialRefreshToken(refreshToken: string): Promise<SessionDto> {
    const result = await this.db.transaction(async (tx) => {
      const token = await repo.getRefreshTokenByHash(tx, hashToken(refreshToken));
      if (!token || token.parentId !== null) return { ok: false as const };
      const found = await repo.getSessionWithUser(tx, token.sessionId);
      if (!found || found.session.revokedAt || !found.user.isActive) return { ok: false as const };
      const spent = await repo.spendRefreshToken(tx, token.id);
      if (!spent) {
        await repo.revokeSession(tx, token.sessionId);
        return { ok: false as const };
      }
      const child = this.tokens.childRefreshToken(refreshToken);
      await repo.insertRefreshToken(tx, token.sessionId, hashToken(child), token.id);
      return { ok: true as const, user: found.user, sessionId: token.sessionId, refresh: child };
    });
    if (!result.ok) throw invalidGrant();
    return this.sessionDto(result.user, result.sessionId, result.refresh);
  }

  async logout(userId: string, sessionId: string): Promise<void> {
    await this.changes.run(this.db, userActor(userId), async (tx, record) => {
      await repo.revokeSession(tx, sessionId);
      await record({ kind: 'account.sessions_revoked', userId, sessionIds: [sessionId] });
    });
  }

  /** Records sessions that were revoked another way (Settings → Security): their event streams close. */
  async sessionsRevoked(userId: string, sessionIds: readonly string[]): Promise<void> {
    await this.changes.run(this.db, userActor(userId), (_tx, record) =>
      record({ kind: 'account.sessions_revoked', userId, sessionIds }),
    );
  }

  /**
   * Signs out every session of the actor but the current one, and with `revokeTokens` every API token and the
   * calendar feed (each token with its audit row): how many sessions.
   */
  async signOutOthers(actor: PersonActor, currentSessionId: string, revokeTokens: boolean): Promise<number> {
    const done = await this.changes.run(this.db, actor, (tx, record) =>
      signOutOtherSessions(tx, record, actor.userId, currentSessionId, revokeTokens ? 'other_sessions_signed_out' : null),
    );
    return done.sessions;
  }

  private async sessionDto(user: UserRow, sessionId: string, refresh: string): Promise<SessionDto> {
    const { token, expiresAt } = await this.tokens.signAccess({ sub: user.id, sid: sessionId });
    return {
      access_token: token,
      refresh_token: refresh,
      expires_in: this.tokens.ttlSeconds,
      expires_at: expiresAt,
      token_type: 'bearer',
      user: toUserDto(user),
    };
  }

  /** Resolves a bearer token to its live session and active user, or null. */
  async authenticate(accessToken: string) {
    const claims = await this.tokens.verifyAccess(accessToken);
    if (!claims) return null;
    const found = await this.sessionWithUser(claims.sid);
    if (!found || found.session.revokedAt || found.user.id !== claims.sub || !found.user.isActive) return null;
    // Locked out of the teams that require SSO unless the session came from SAML (issue 41, db/sso-lock.ts).
    const ssoLocked = found.session.method !== 'saml' && Boolean(found.ssoTeams);
    return { user: found.user, sessionId: found.session.id, ssoLocked };
  }
}
