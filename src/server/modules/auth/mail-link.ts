import type { UserTokenPurpose } from '../../../domain/constants';
import type { DbOrTx } from '../../db/client';
import type { RecordChange } from '../../lib/changes';
import { createUserToken, revokeUserTokens } from './user-tokens.repo';

export interface NewLink {
  userId: string;
  purpose: UserTokenPurpose;
  /** Where the link goes (for an email change, the new address). */
  email: string;
  /** The name the mail greets. */
  fullName: string;
  ttlSeconds: number;
  /** Whether the user's open links of this purpose are spent first, so that only the newest works. */
  replacePrevious: boolean;
}

/**
 * Makes a one-time link with `tx`, the transaction of the change that causes it, and records it: the mail subscriber
 * mails it (subscribers/mail.ts, account-mails.ts accountLinkMail).
 */
export async function mailNewLink(tx: DbOrTx, record: RecordChange, link: NewLink): Promise<void> {
  if (link.replacePrevious) await revokeUserTokens(tx, link.userId, link.purpose);
  const token = await createUserToken(tx, {
    userId: link.userId,
    purpose: link.purpose,
    email: link.email,
    ttlSeconds: link.ttlSeconds,
  });
  await record({
    kind: 'account.link_issued',
    userId: link.userId,
    purpose: link.purpose,
    to: link.email,
    fullName: link.fullName,
    token,
  });
}
