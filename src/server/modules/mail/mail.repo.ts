import type { MailKind } from '../../../domain/constants';
import type { DbOrTx } from '../../db/client';
import { mailOutbox } from '../../db/schema';
import type { RenderedMail } from './mail.render';

export interface OutgoingMail extends RenderedMail {
  kind: MailKind;
  to: string;
}

/**
 * Queues a mail in the outbox. Call it with the transaction of the change that causes the mail, so the two commit (or
 * roll back) together; the mail worker delivers it afterwards, with retries.
 */
export async function enqueueMail(db: DbOrTx, mail: OutgoingMail): Promise<void> {
  await db
    .insert(mailOutbox)
    .values({ kind: mail.kind, toEmail: mail.to, subject: mail.subject, textBody: mail.text, htmlBody: mail.html });
}
