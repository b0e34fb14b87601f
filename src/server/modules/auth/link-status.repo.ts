import type { UserTokenPurpose } from '../../../domain/constants';
import type { DbOrTx } from '../../db/client';
import { userTokens } from '../../db/schema';
import * as usersRepo from '../users';
import { isOpenToken } from './user-tokens.repo';

/**
 * Whether the link with this token would still work, read without spending it (the page of a link asks when it opens,
 * so that a used or expired one says so before anyone types). The same conditions as spending it:
 * - reset_password (PasswordResetService.reset): open, and the account still has the address it was sent to;
 * - verify_email (EmailVerificationService.verify): open, and that address is still the account's;
 * - change_email (MeService.confirmEmailChange): open, and the account is active.
 * An unknown, spent or expired token is false, like a link whose account moved on: the answer is the same for all.
 */
export async function isLinkUsable(db: DbOrTx, purpose: UserTokenPurpose, token: string): Promise<boolean> {
  const [open] = await db
    .select({ userId: userTokens.userId, email: userTokens.email })
    .from(userTokens)
    .where(isOpenToken(purpose, token))
    .limit(1);
  if (!open) return false;
  const user = await usersRepo.getOneById(db, open.userId);
  if (!user) return false;
  switch (purpose) {
    case 'reset_password':
      return user.email === open.email;
    case 'verify_email':
      return user.email === open.email.toLowerCase();
    case 'change_email':
      return user.isActive;
  }
}
