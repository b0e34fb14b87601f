import { setTimeout as sleep } from 'node:timers/promises';
import type { Db } from '../../db/client';
import { AppError } from '../../lib/errors';
import type { EventBus } from '../../lib/events';
import { hashPassword } from '../../lib/passwords';
import type { RateLimiter } from '../../lib/rate-limit';
import { ownAccountAudit, recordAudit } from '../audit';
import { enqueueMail } from '../mail';
import * as usersRepo from '../users';
import { passwordChangedMail, resetPasswordMail } from './account-mails';
import { revokeAllSessionsOfUser } from './auth.repo';
import { revokeCredentialsOfUser, revokedDetails } from './credentials';
import { requireUncommonPassword } from './password-policy';
import { consumeUserToken, createUserToken, revokeUserTokens } from './user-tokens.repo';

/** A reset link lives an hour. */
export const RESET_PASSWORD_TTL_SECONDS = 60 * 60;

/**
 * A reset request is answered no sooner than this after it arrived, whether the address has an account or not: the
 * work done for a known address (a token and a mail queued, tens of milliseconds) is hidden inside it, so the time of
 * the answer says nothing about the address.
 */
export const FORGOT_PASSWORD_MIN_MS = 250;

/** 'Forgot password?': a link by mail, then a new password that signs out every session. */
export class PasswordResetService {
  constructor(
    private readonly db: Db,
    private readonly rateLimiter: RateLimiter,
    private readonly events: EventBus,
    private readonly publicUrl: string,
  ) {}

  /**
   * Queues a reset link if an active account has this address; nothing otherwise. Either way the caller gets the same
   * answer at about the same time (FORGOT_PASSWORD_MIN_MS); the per-address limit applies to known and unknown
   * addresses alike, so its 429 tells nothing either.
   */
  async request(email: string): Promise<void> {
    const started = performance.now();
    try {
      await this.rateLimiter.take('mailLinkTarget', `email:${email}`);
      await this.db.transaction(async (tx) => {
        const user = await usersRepo.getOneByEmail(tx, email);
        if (!user?.isActive) return;
        const token = await createUserToken(tx, {
          userId: user.id,
          purpose: 'reset_password',
          email: user.email,
          ttlSeconds: RESET_PASSWORD_TTL_SECONDS,
        });
        const url = `${this.publicUrl}/reset-password?token=${encodeURIComponent(token)}`;
        await enqueueMail(tx, { kind: 'reset_password', to: user.email, ...resetPasswordMail({ url }) });
      });
    } finally {
      const left = FORGOT_PASSWORD_MIN_MS - (performance.now() - started);
      if (left > 0) await sleep(left);
    }
  }

  /**
   * Spends the link and sets the new password, in one transaction with its consequences: every other reset link of
   * the account spent, every session signed out, every API token and the calendar feed revoked (issue 35), the address
   * marked verified (the link proved the mailbox), and the 'password changed' mail queued. The password is checked before the link is spent, so a refused one costs nothing.
   */
  async reset(token: string, password: string, ip: string | null = null): Promise<void> {
    requireUncommonPassword(password);
    const passwordHash = await hashPassword(password);
    const done = await this.db.transaction(async (tx) => {
      const spent = await consumeUserToken(tx, 'reset_password', token);
      if (!spent) return null;
      const user = await usersRepo.getOneById(tx, spent.userId);
      // A link sent to an address the account has since left resets nothing.
      if (!user || user.email !== spent.email) return null;
      await usersRepo.setPassword(tx, user.id, passwordHash);
      await revokeUserTokens(tx, user.id, 'reset_password');
      await usersRepo.markEmailVerified(tx, user.id, user.email);
      await revokeAllSessionsOfUser(tx, user.id);
      // Tokens and the calendar feed too: whoever held the account before its owner took it back keeps nothing.
      const by = { actorId: user.id, actorEmail: user.email, ip };
      const revoked = await revokeCredentialsOfUser(tx, user.id, by, 'password_reset');
      await enqueueMail(tx, {
        kind: 'password_changed',
        to: user.email,
        ...passwordChangedMail({ email: user.email, forgotUrl: `${this.publicUrl}/forgot-password`, signedOut: true }),
      });
      // The emailed link proves the mailbox: its owner acts.
      await recordAudit(tx, {
        action: 'auth.password_reset',
        ...ownAccountAudit(user, ip),
        details: revokedDetails(revoked),
      });
      return { userId: user.id, apiTokenIds: revoked.apiTokenIds };
    });
    if (!done) throw new AppError('link_invalid');
    const { userId } = done;
    this.events.publish({ type: 'session.revoked', actorId: userId, userId, sessionId: null });
    // A revoked token's event streams close as a session's do (its id stands for the session).
    for (const id of done.apiTokenIds) this.events.publish({ type: 'session.revoked', actorId: userId, userId, sessionId: id });
  }
}
