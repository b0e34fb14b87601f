import type { FastifyInstance } from 'fastify';
import { DigestScheduler } from './modules/digest';
import { createMailTransport, type MailTransport, OutboxWorker } from './modules/mail';

export interface MailRuntime {
  transport: MailTransport['kind'];
  worker: OutboxWorker;
  digest: DigestScheduler;
}

declare module 'fastify' {
  interface FastifyInstance {
    mail: MailRuntime;
  }
}

const POLL_INTERVAL_MS = 2_000;
const DIGEST_INTERVAL_MS = 5 * 60_000;

/**
 * Outgoing mail: the outbox worker and the daily digest's scheduler, started with the app (every instance runs
 * both; the outbox's claims and the digest's lock share the work) and stopped when it closes, before the database.
 */
export function registerMail(app: FastifyInstance): void {
  const { config, database } = app.deps;
  const transport = createMailTransport(config.mail, app.log);
  const worker = new OutboxWorker(database.db, transport, app.log, {
    from: config.mail.from,
    pollIntervalMs: config.mail.pollIntervalMs ?? POLL_INTERVAL_MS,
    retry: config.mail.retry,
  });
  const digest = new DigestScheduler(database.db, config, app.log, config.mail.digestIntervalMs ?? DIGEST_INTERVAL_MS);
  app.decorate('mail', { transport: transport.kind, worker, digest });

  app.addHook('onReady', async () => {
    if (transport.kind === 'log') app.log.info('SMTP_URL is not set: mail is written to this log (links included), not sent');
    worker.start();
    digest.start();
  });
  app.addHook('onClose', async () => {
    await digest.stop();
    await worker.stop();
  });
}
