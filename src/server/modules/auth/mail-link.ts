import type { MailKind, UserTokenPurpose } from '../../../domain/constants';
import type { DbOrTx } from '../../db/client';
import { enqueueMail, type RenderedMail } from '../mail';
import { createUserToken, revokeUserTokens } from './user-tokens.repo';

export interface NewLink {
  userId: string;
  purpose: UserTokenPurpose;
  /** Where the link goes (for an email change, the new address). */
  email: string;
  ttlSeconds: number;
  /** The page that opens it, from PUBLIC_URL (`${publicUrl}/verify-email`); the token goes in its query. */
  page: string;
  kind: MailKind;
  render: (url: string) => RenderedMail;
}

/**
 * Mails a one-time link with `tx`, the transaction of the change that causes it: the user's open links of this
 * purpose are spent first (only the newest works), then a new token is made and its mail queued.
 */
export async function mailNewLink(tx: DbOrTx, link: NewLink): Promise<void> {
  await revokeUserTokens(tx, link.userId, link.purpose);
  const token = await createUserToken(tx, {
    userId: link.userId,
    purpose: link.purpose,
    email: link.email,
    ttlSeconds: link.ttlSeconds,
  });
  const url = `${link.page}?token=${encodeURIComponent(token)}`;
  await enqueueMail(tx, { kind: link.kind, to: link.email, ...link.render(url) });
}
