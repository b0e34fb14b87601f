import nodemailer from 'nodemailer';
import type { MailTransportKind } from '../../../domain/schemas/admin';
import type { MailConfig } from '../../config';

/** One message as a transport hands it on. */
export interface MailMessage {
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  /** The Reply-To header, when the mail has one (a task's reply address). */
  replyTo?: string;
}

/** Where mail goes: an SMTP server, or (without SMTP_URL) the server log. */
export interface MailTransport {
  readonly kind: MailTransportKind;
  /** Resolves once the receiver has taken the message; `signal` abandons it (a timeout, or the server stopping). */
  send(message: MailMessage, signal: AbortSignal): Promise<void>;
  close(): void;
}

interface InfoLogger {
  info(obj: object, msg: string): void;
}

/** A link's end without the punctuation of the sentence around it (a closing parenthesis only if unopened). */
function trimLink(link: string): string {
  let end = link.replace(/[.,;:!?]+$/, '');
  while (end.endsWith(')') && end.split('(').length < end.split(')').length) end = end.slice(0, -1).replace(/[.,;:!?]+$/, '');
  return end;
}

/** Every http(s) link in a text, in order, each once. */
export function linksIn(text: string): string[] {
  return [...new Set((text.match(/https?:\/\/[^\s<>"']+/g) ?? []).map(trimLink))];
}

/**
 * Without SMTP_URL: each message goes to the server log, with its recipient, its subject and every link in it (a
 * first run can verify, reset and accept invitations without a mail server). The links carry one-time tokens: such a
 * log is as sensitive as the mailboxes would be.
 */
export function logTransport(log: InfoLogger): MailTransport {
  return {
    kind: 'log',
    async send(message) {
      log.info(
        { mail: { to: message.to, subject: message.subject, links: linksIn(message.text) } },
        'mail (SMTP_URL not set: logged, not sent)',
      );
    },
    close() {},
  };
}

/** Bounds on one SMTP conversation, so that a silent server fails a delivery instead of holding it. */
const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000, dnsTimeout: 10_000 };

/** SMTP through nodemailer; the URL's own options (e.g. `?requireTLS=true`) are honoured. One connection per message. */
export function smtpTransport(url: string): MailTransport {
  const transporter = nodemailer.createTransport({ url, ...SMTP_TIMEOUTS });
  return {
    kind: 'smtp',
    async send(message, signal) {
      await transporter.sendMail({ ...message, signal });
    },
    close() {
      transporter.close();
    },
  };
}

/** SMTP when SMTP_URL is set, else the log. */
export const transportKind = (config: MailConfig): MailTransportKind => (config.smtpUrl ? 'smtp' : 'log');

export function createMailTransport(config: MailConfig, log: InfoLogger): MailTransport {
  return config.smtpUrl ? smtpTransport(config.smtpUrl) : logTransport(log);
}
