import type { DbOrTx } from '../../db/client';
import { hashToken } from '../../lib/tokens';
import { newAddressToken, replyAddress } from './addresses';
import * as repo from './inbound-mail.repo';

/** How long a reply address works (the periodic prune deletes older ones). */
export const MAIL_REPLY_KEEP_DAYS = 90;
/** How long a received mail is remembered (a second delivery later than this would make a second task). */
export const INBOUND_MESSAGE_KEEP_DAYS = 30;

/**
 * A new reply address (`reply+<token>@<domain>`) for a notification mail about `taskId` to `userId`, in the mail's
 * transaction: a reply from that person's address becomes their comment (InboundMail). The token is kept hashed only.
 */
export async function issueReplyAddress(db: DbOrTx, domain: string, taskId: string, userId: string): Promise<string> {
  const token = newAddressToken();
  await repo.insertReplyToken(db, { tokenHash: hashToken(token), taskId, userId });
  return replyAddress(token, domain);
}
