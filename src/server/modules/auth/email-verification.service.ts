import type { EmailVerificationMode } from '../../../domain/constants';
import type { PersonActor } from '../../../domain/changes';
import type { Db, DbOrTx } from '../../db/client';
import type { UserRow } from '../../db/schema';
import type { ChangeRecorder, RecordChange } from '../../lib/changes';
import { AppError } from '../../lib/errors';
import type { RateLimiter } from '../../lib/rate-limit';
import { notifyPendingInvitations } from '../notifications';
import * as usersRepo from '../users';
import { mailNewLink } from './mail-link';
import { consumeUserToken, revokeUserTokens } from './user-tokens.repo';

/** A verification link lives a day. */
export const VERIFY_EMAIL_TTL_SECONDS = 24 * 60 * 60;

type Recipient = Pick<UserRow, 'id' | 'email' | 'fullName'>;

/**
 * Makes a fresh verification link for the user's address with `tx`, the transaction of the change that causes it
 * (a sign-up, a resend), to be mailed; the links sent before it stop working.
 */
export async function sendVerificationLink(tx: DbOrTx, record: RecordChange, user: Recipient): Promise<void> {
  await mailNewLink(tx, record, {
    userId: user.id,
    purpose: 'verify_email',
    email: user.email,
    fullName: user.fullName,
    ttlSeconds: VERIFY_EMAIL_TTL_SECONDS,
    replacePrevious: true,
  });
}

/**
 * The sign-up hook (a password sign-up or a first Google sign-in): with EMAIL_VERIFICATION=required, an address not
 * already vouched for gets its link in the transaction that creates the account. With `off`, no mail is sent.
 */
export async function sendLinkOnSignUp(
  tx: DbOrTx,
  record: RecordChange,
  user: Recipient & Pick<UserRow, 'emailVerified'>,
  config: { emailVerification: EmailVerificationMode },
): Promise<void> {
  if (config.emailVerification === 'required' && !user.emailVerified) await sendVerificationLink(tx, record, user);
}

/** Proving an address: following the emailed link, and asking for a new one. */
export class EmailVerificationService {
  constructor(
    private readonly db: Db,
    private readonly changes: ChangeRecorder,
    private readonly rateLimiter: RateLimiter,
    /** With EMAIL_VERIFICATION=required, a newly verified address is told of its pending invitations (issue 35). */
    private readonly invitations?: { emailVerification: EmailVerificationMode; invitationTtlDays: number },
  ) {}

  /**
   * Spends the link's token and marks the address it was sent to verified, if that is still the account's address.
   * An unknown, spent or expired token is `link_invalid`, the same answer for the three.
   */
  async verify(token: string): Promise<void> {
    const verified = await this.db.transaction(async (tx) => {
      const spent = await consumeUserToken(tx, 'verify_email', token);
      if (!spent || !(await usersRepo.markEmailVerified(tx, spent.userId, spent.email))) return false;
      await revokeUserTokens(tx, spent.userId, 'verify_email');
      // Invitations were not shown to the unproven address (notifyPendingInvitations): now they are.
      if (this.invitations?.emailVerification === 'required') {
        await notifyPendingInvitations(tx, { id: spent.userId, email: spent.email }, this.invitations.invitationTtlDays);
      }
      return true;
    });
    if (!verified) throw new AppError('link_invalid');
  }

  /** A new link for the signed-in user (rate-limited per account here, per IP by the route). */
  async resend(actor: PersonActor, user: Recipient & Pick<UserRow, 'emailVerified'>): Promise<void> {
    if (user.emailVerified) throw new AppError('email_already_verified');
    await this.rateLimiter.take('mailLinkTarget', `user:${user.id}`);
    await this.changes.run(this.db, actor, (tx, record) => sendVerificationLink(tx, record, user));
  }
}
