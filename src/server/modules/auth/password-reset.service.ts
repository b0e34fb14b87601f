import { setTimeout as sleep } from 'node:timers/promises';
import { anonymousActor, userActor } from '../../../domain/changes';
import type { Db } from '../../db/client';
import type { ChangeRecorder, RecordChange } from '../../lib/changes';
import { AppError } from '../../lib/errors';
import { hashPassword } from '../../lib/passwords';
import type { RateLimiter } from '../../lib/rate-limit';
import * as usersRepo from '../users';
import { revokeAllSessionsOfUser } from './auth.repo';
import { revokeCredentialsOfUser } from './credentials';
import { mailNewLink } from './mail-link';
import { requireUncommonPassword } from './password-policy';
import { consumeUserToken, revokeUserTokens } from './user-tokens.repo';

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
    private readonly changes: ChangeRecorder,
    private readonly rateLimiter: RateLimiter,
  ) {}

  /**
   * Queues a reset link if an active account has this address; nothing otherwise. Either way the caller gets the same
   * answer at about the same time (FORGOT_PASSWORD_MIN_MS); the per-address limit applies to known and unknown
   * addresses alike, so its 429 tells nothing either. Links sent before it keep working until one is used.
   */
  async request(email: string, ip: string | null = null): Promise<void> {
    const started = performance.now();
    try {
      await this.rateLimiter.take('mailLinkTarget', `email:${email}`);
      await this.changes.run(this.db, anonymousActor(email, ip), async (tx, record) => {
        const user = await usersRepo.getOneByEmail(tx, email);
        if (!user?.isActive) return;
        await mailNewLink(tx, record, {
          userId: user.id,
          purpose: 'reset_password',
          email: user.email,
          fullName: user.fullName,
          ttlSeconds: RESET_PASSWORD_TTL_SECONDS,
          replacePrevious: false,
        });
      });
    } finally {
      const left = FORGOT_PASSWORD_MIN_MS - (performance.now() - started);
      if (left > 0) await sleep(left);
    }
  }

  /**
   * Spends the link and sets the new password, in one transaction with its consequences: every other reset link of
   * the account spent, every session signed out, every API token and the calendar feed revoked (issue 35), the address
   * marked verified (the link proved the mailbox), and the 'password changed' mail queued. The password is checked
   * before the link is spent, so a refused one costs nothing.
   */
  async reset(token: string, password: string, ip: string | null = null): Promise<void> {
    requireUncommonPassword(password);
    const passwordHash = await hashPassword(password);
    const done = await this.changes.run(this.db, anonymousActor(null, ip), async (tx, recordAnyone) => {
      const spent = await consumeUserToken(tx, 'reset_password', token);
      if (!spent) return false;
      const user = await usersRepo.getOneById(tx, spent.userId);
      // A link sent to an address the account has since left resets nothing.
      if (!user || user.email !== spent.email) return false;
      // The emailed link proves the mailbox: its owner acts.
      const owner = userActor(user.id, user.email, ip);
      const record: RecordChange = (change) => recordAnyone(change, owner);
      await usersRepo.setPassword(tx, user.id, passwordHash);
      await revokeUserTokens(tx, user.id, 'reset_password');
      await usersRepo.markEmailVerified(tx, user.id, user.email);
      await revokeAllSessionsOfUser(tx, user.id);
      await record({ kind: 'account.sessions_revoked', userId: user.id, sessionIds: null });
      // Tokens and the calendar feed too: whoever held the account before its owner took it back keeps nothing.
      const revoked = await revokeCredentialsOfUser(tx, record, user.id, 'password_reset');
      await record({ kind: 'account.password_reset', userId: user.id, email: user.email, revoked });
      return true;
    });
    if (!done) throw new AppError('link_invalid');
  }
}
