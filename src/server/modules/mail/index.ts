// The mail module's public surface: rendering and queueing a mail, when one may be sent unprompted, the outbox's
// figures, and the transport and worker the composition root starts.
export { MAIL_RETRY, mayMailUnprompted, type RetryPolicy } from './mail.policy';
export { type RenderedMail, renderMail } from './mail.render';
export { type ReplyAddressFor, replyParts } from './mail.reply';
export { enqueueMail, enqueueMails, getOutboxStats, type OutgoingMail } from './mail.repo';
export { createMailTransport, type MailTransport, transportKind } from './mail.transport';
export { OutboxWorker } from './mail.worker';
