import type { AddressInfo } from 'node:net';
import type { SMTPServer } from 'smtp-server';
import { OUTSIDE_LIMITS } from '../../../domain/constants';
import type { InboundMail } from './inbound-mail.service';

interface Logger {
  warn(obj: object, msg: string): void;
}

/** An SMTP answer: `code` is the reply code the client reads (5xx: do not try again, 4xx: try later). */
const answer = (code: number, message: string) => Object.assign(new Error(message), { responseCode: code });

/**
 * Recipients of ours in one transaction: more are answered 452 (the client sends them in another one). A mail makes
 * one task or comment however many of ours it names; this bounds what one message costs in look-ups.
 */
const MAX_RECIPIENTS = 10;

/**
 * Crewboard's own SMTP listener (INBOUND_SMTP_PORT, issue 40). No sign-in and no TLS (it is meant to sit behind the
 * MX or a relay that checks SPF, DKIM and DMARC, and hands it the mail: README "Tasks by email"); every recipient must
 * be a live address at INBOUND_MAIL_DOMAIN (else 550 at RCPT), at most MAX_RECIPIENTS a transaction (452), a message
 * at most OUTSIDE_LIMITS.inboundMessageBytes (SIZE; 552). A message is answered 250 once InboundMail has taken it (made
 * a task or a comment, or dropped it), 451 when it must come again later (rate limit, a failure).
 */
export class SmtpListener {
  private server: SMTPServer | null = null;

  constructor(
    private readonly inbound: InboundMail,
    private readonly log: Logger,
  ) {}

  /** Listens on `port` (0: any free one) at `host`; resolves with the port bound. */
  async start(port: number, host: string): Promise<number> {
    // Loaded here, not with the server: a server without INBOUND_SMTP_PORT never loads it (issue 42, memory).
    const { SMTPServer } = await import('smtp-server');
    const server = new SMTPServer({
      name: 'crewboard',
      banner: 'Crewboard mail in',
      authOptional: true,
      disabledCommands: ['AUTH', 'STARTTLS'],
      size: OUTSIDE_LIMITS.inboundMessageBytes,
      maxClients: 50,
      logger: false,
      closeTimeout: 1_000,
      // No DNS look-up of each client (nothing here reads its name; a slow resolver would hold every connection).
      disableReverseLookup: true,
      onRcptTo: (address, session, callback) => {
        if (!this.inbound.isOurDomain(address.address)) {
          callback(answer(550, '5.7.1 Relaying denied: not a Crewboard address'));
          return;
        }
        if (session.envelope.rcptTo.length >= MAX_RECIPIENTS) {
          callback(answer(452, '4.5.3 Too many recipients'));
          return;
        }
        this.inbound.accepts(address.address).then(
          (ok) => callback(ok ? undefined : answer(550, '5.1.1 No such address')),
          (error) => {
            this.log.warn({ err: error }, 'inbound mail: a recipient could not be checked');
            callback(answer(451, '4.3.0 Try again later'));
          },
        );
      },
      onData: (stream, session, callback) => {
        const to = session.envelope.rcptTo.map((r) => r.address);
        const limit = OUTSIDE_LIMITS.inboundMessageBytes;
        const chunks: Buffer[] = [];
        let size = 0;
        // All of it is read (the client waits for its answer after the last line), at most the limit kept.
        stream.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size <= limit) chunks.push(chunk);
        });
        stream.on('end', () => {
          if (stream.sizeExceeded || size > limit) {
            callback(answer(552, '5.3.4 Message too big'));
            return;
          }
          this.inbound.receive(Buffer.concat(chunks), { to }).then(
            (result) => callback(result.outcome === 'deferred' ? answer(451, '4.7.1 Try again later') : null),
            (error) => {
              this.log.warn({ err: error }, 'inbound mail: a message could not be taken');
              callback(answer(451, '4.3.0 Try again later'));
            },
          );
        });
      },
    });
    server.on('error', (error) => this.log.warn({ err: error }, 'inbound mail: SMTP listener error'));
    await new Promise<void>((resolve, reject) => {
      server.server.once('error', reject);
      server.listen(port, host, () => {
        server.server.off('error', reject);
        resolve();
      });
    });
    this.server = server;
    return (server.server.address() as AddressInfo).port;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
