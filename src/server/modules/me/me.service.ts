import { NOTIFICATION_PREFERENCE_KINDS } from '../../../domain/constants';
import { ERROR_MESSAGES } from '../../../domain/errors';
import { MSG } from '../../../domain/messages';
import { SETTINGS_MSG } from '../../../domain/settings-messages';
import {
  type ChangeEmailInput,
  confirmsEmail,
  type DeleteAccountInput,
  type NotificationPreferencesDto,
  type ProfileDto,
  type UpdateProfileInput,
} from '../../../domain/schemas/me';
import type { ChangePasswordInput } from '../../../domain/schemas/auth';
import { anonymousActor, type PersonActor, userActor } from '../../../domain/changes';
import type { Db } from '../../db/client';
import type { UserRow } from '../../db/schema';
import { deleteGuestRowsOfUser } from '../../db/project-guests';
import type { ChangeRecorder } from '../../lib/changes';
import { AppError, isUniqueViolation } from '../../lib/errors';
import type { AuthContext } from '../../lib/http';
import { hashPassword, verifyPassword } from '../../lib/passwords';
import type { RateLimiter, SignInGuard } from '../../lib/rate-limit';
import {
  consumeUserToken,
  mailNewLink,
  requireUncommonPassword,
  revokeAllSessionsOfUser,
  revokeUserTokens,
  signOutOtherSessions,
} from '../auth';
import * as preferencesRepo from '../notifications';
import { toUserDto } from '../users';
import * as usersRepo from '../users';
import * as repo from './me.repo';

/** A link to a new address lives a day, like a verification link. */
export const CHANGE_EMAIL_TTL_SECONDS = 24 * 60 * 60;

export interface MeServiceDeps {
  db: Db;
  changes: ChangeRecorder;
  rateLimiter: RateLimiter;
}

const wrongPassword = () => new AppError('wrong_password', { fields: { currentPassword: MSG.currentPasswordWrong } });

/** The signed-in person's own account: Settings → Profile, Account and Notifications. */
export class MeService {
  constructor(private readonly deps: MeServiceDeps) {}

  private get db() {
    return this.deps.db;
  }

  async profile(user: UserRow): Promise<ProfileDto> {
    const hasPassword = (await usersRepo.getPasswordHash(this.db, user.id)) !== null;
    return { user: toUserDto(user), timeZone: user.timeZone, hasPassword };
  }

  async updateProfile(userId: string, input: UpdateProfileInput): Promise<ProfileDto> {
    const row = await repo.updateProfile(this.db, userId, input);
    if (!row) throw new AppError('user_not_found');
    return this.profile(row);
  }

  /**
   * A password given again, counted as a sign-in's is (RateLimiter.signIn: the same failures, the same waits): a
   * stolen session cannot guess it any faster than the sign-in form could. With no stored hash (a Google account),
   * verifyPassword spends the same time and says no.
   */
  private async checkPassword(hash: string | null, given: string | undefined, guard: SignInGuard): Promise<void> {
    await guard.begin();
    if (given !== undefined && (await verifyPassword(hash, given))) return guard.succeeded();
    await guard.failed();
    throw wrongPassword();
  }

  /**
   * Asks for the password again before a change that could hand the account to someone else (OWASP ASVS 3.7.1). An
   * account without one (made by a Google sign-in) has nothing to ask for: its session is all the proof there is.
   */
  private async requirePasswordIfAny(userId: string, given: string | undefined, guard: SignInGuard): Promise<void> {
    const hash = await usersRepo.getPasswordHash(this.db, userId);
    if (hash !== null) await this.checkPassword(hash, given, guard);
  }

  /**
   * Sends a confirmation link to the new address; the address changes only when it is opened (confirmEmailChange).
   * A new request replaces the links before it. Limited per target address (with the reset links: nobody's inbox is
   * flooded) and per IP by the route.
   */
  async requestEmailChange(actor: PersonActor, user: UserRow, input: ChangeEmailInput, guard: SignInGuard): Promise<void> {
    if (input.email === user.email) throw new AppError('email_unchanged', { fields: { email: ERROR_MESSAGES.email_unchanged } });
    await this.requirePasswordIfAny(user.id, input.currentPassword, guard);
    if (await usersRepo.getOneByEmail(this.db, input.email))
      throw new AppError('email_taken', { fields: { email: MSG.emailTaken } });
    await this.deps.rateLimiter.take('mailLinkTarget', `email:${input.email}`);
    await this.deps.changes.run(this.db, actor, (tx, record) =>
      mailNewLink(tx, record, {
        userId: user.id,
        purpose: 'change_email',
        email: input.email,
        fullName: user.fullName,
        ttlSeconds: CHANGE_EMAIL_TTL_SECONDS,
        replacePrevious: true,
      }),
    );
  }

  /**
   * Spends the link and moves the account to the address it was sent to, now verified; tells the old address. The
   * account's other open links (verification, reset, other changes) were for the old address: they are spent too.
   * A link unknown, spent or expired, or of an account deactivated since, is `link_invalid`; an address taken
   * meanwhile is `email_taken`, and the link stays unspent (the transaction rolls back).
   */
  async confirmEmailChange(token: string, ip: string | null = null): Promise<void> {
    try {
      await this.deps.changes.run(this.db, anonymousActor(null, ip), async (tx, record) => {
        const spent = await consumeUserToken(tx, 'change_email', token);
        const user = spent && (await usersRepo.getOneById(tx, spent.userId));
        if (!spent || !user?.isActive) throw new AppError('link_invalid');
        if (user.email === spent.email) return;
        await repo.setVerifiedEmail(tx, user.id, spent.email);
        for (const purpose of ['change_email', 'verify_email', 'reset_password'] as const) {
          await revokeUserTokens(tx, user.id, purpose);
        }
        // The link is the proof of who acts: the account's owner, named by the address they are leaving.
        await record(
          { kind: 'account.email_changed', userId: user.id, oldEmail: user.email, newEmail: spent.email },
          userActor(user.id, user.email, ip),
        );
      });
    } catch (error) {
      if (isUniqueViolation(error, 'users_email_key')) throw new AppError('email_taken');
      throw error;
    }
  }

  /**
   * A new password for the signed-in user, after the current one: the /signup rules and not a common one. Every
   * other session is signed out (this one stays), a pending reset link stops working, and a notice is mailed. With
   * `revokeTokens` (the default), every API token and the calendar feed are revoked too.
   */
  async changePassword(
    caller: AuthContext,
    input: ChangePasswordInput,
    guard: SignInGuard,
    ip: string | null = null,
  ): Promise<void> {
    requireUncommonPassword(input.password);
    const hash = await usersRepo.getPasswordHash(this.db, caller.userId);
    await this.checkPassword(hash, input.currentPassword, guard);
    const passwordHash = await hashPassword(input.password);
    const { userId, user, sessionId } = caller;
    await this.deps.changes.run(this.db, userActor(userId, user.email, ip), async (tx, record) => {
      await usersRepo.setPassword(tx, userId, passwordHash);
      await revokeUserTokens(tx, userId, 'reset_password');
      const reason = input.revokeTokens ? 'password_changed' : null;
      const { sessions, revoked } = await signOutOtherSessions(tx, record, userId, sessionId, reason);
      await record({ kind: 'account.password_changed', userId, email: user.email, otherSessionsSignedOut: sessions, revoked });
    });
  }

  /**
   * Deletes the account by anonymising it (me.repo.ts anonymiseUser: the tasks it created stay), after the typed
   * confirmation and the password. The owner of a team is refused, with the teams named: a team cannot lose its owner
   * (they transfer it to another member, or delete it, first).
   */
  async deleteAccount(user: UserRow, input: DeleteAccountInput, guard: SignInGuard): Promise<void> {
    if (!confirmsEmail(input.email, user.email)) {
      throw new AppError('delete_confirmation_mismatch', { fields: { email: ERROR_MESSAGES.delete_confirmation_mismatch } });
    }
    await this.requirePasswordIfAny(user.id, input.currentPassword, guard);
    await this.deps.changes.run(this.db, userActor(user.id, user.email), async (tx, record) => {
      await repo.lockOneById(tx, user.id);
      const owned = await repo.listOwnedTeamNames(tx, user.id);
      if (owned.length > 0) throw new AppError('owns_teams', { fields: { teams: SETTINGS_MSG.ownsTeams(owned) } });
      const memberships = await repo.anonymiseUser(tx, user.id, {
        email: `deleted-${user.id}@deleted.invalid`,
        fullName: SETTINGS_MSG.deletedUserName,
      });
      // Nor a guest of any project (issue 41).
      await deleteGuestRowsOfUser(tx, user.id);
      await revokeAllSessionsOfUser(tx, user.id);
      await record({ kind: 'account.sessions_revoked', userId: user.id, sessionIds: null });
      await record({ kind: 'account.deleted', userId: user.id, memberships });
    });
  }

  async notificationPreferences(user: UserRow): Promise<NotificationPreferencesDto> {
    const stored = new Map((await preferencesRepo.listByUserId(this.db, user.id)).map((r) => [r.kind, r]));
    const preferences = Object.fromEntries(
      NOTIFICATION_PREFERENCE_KINDS.map((kind) => {
        const row = stored.get(kind);
        return [kind, { inApp: row?.inApp ?? true, email: row?.email ?? true }];
      }),
    ) as NotificationPreferencesDto['preferences'];
    return { preferences, digestEnabled: user.digestEnabled };
  }

  async setNotificationPreferences(userId: string, input: NotificationPreferencesDto): Promise<NotificationPreferencesDto> {
    await this.db.transaction(async (tx) => {
      await preferencesRepo.upsertMany(
        tx,
        userId,
        NOTIFICATION_PREFERENCE_KINDS.map((kind) => ({ kind, ...input.preferences[kind] })),
      );
      await repo.setDigestEnabled(tx, userId, input.digestEnabled);
    });
    return input;
  }
}
