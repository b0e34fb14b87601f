import type { FastifyInstance } from 'fastify';
import { errorResponse, idParams } from '../../../domain/schemas/common';
import { intakeDto, intakeInput } from '../../../domain/schemas/outside';
import { actorOf, requireUser, typed } from '../../lib/http';
import { startPeriodic } from '../../lib/periodic';
import { AttachmentsService, FileLinks } from '../attachments';
import { Sealer } from '../oidc';
import { TaskCommentsService } from '../task-comments';
import { TasksService } from '../tasks';
import { ImapPoller } from './imap-poller';
import { InboundMail, pruneReceivedMail } from './inbound-mail.service';
import { IntakeService } from './intake.service';
import { SmtpListener } from './smtp-listener';

const errors = { 400: errorResponse, 403: errorResponse, 404: errorResponse, 409: errorResponse };
const tags = ['intake'];
/** Old reply addresses and received-mail rows are pruned this often (by each instance: twice is harmless). */
const PRUNE_EVERY_MS = 6 * 3600_000;

/** What a running app receives mail with (tests read the bound SMTP port, and hand messages in). */
export interface InboundMailRuntime {
  inbound: InboundMail;
  /** The SMTP listener's bound port, once the app is ready; null without INBOUND_SMTP_PORT. */
  smtpPort: number | null;
  poller: ImapPoller | null;
}

const runtimes = new WeakMap<FastifyInstance, InboundMailRuntime>();

/** The app's mail receiving, or undefined when INBOUND_MAIL_DOMAIN is not set. */
export const inboundMailOf = (app: FastifyInstance): InboundMailRuntime | undefined => runtimes.get(app);

/** The address mail is sent from (MAIL_FROM's, lower-cased), or null. */
function ownAddress(from: string): string | null {
  const match = /<([^>]+)>/.exec(from);
  return (match?.[1] ?? from).trim().toLowerCase() || null;
}

/**
 * Tasks by email (issue 40): the intake address routes, and, with INBOUND_MAIL_DOMAIN, the mail receiving (the SMTP
 * listener on INBOUND_SMTP_PORT, the IMAP poller of IMAP_URL), started when the app is ready and stopped when it
 * closes; old reply addresses and received-mail rows are pruned.
 */
export function registerInboundMail(app: FastifyInstance): void {
  const { database, changes, config, rateLimiter, storage } = app.deps;
  const db = database.db;
  const domain = config.inbound?.domain ?? null;
  const intake = new IntakeService(db, changes, new Sealer(config.authSecret, 'intake-address'), domain);
  intakeRoutes(app, intake);

  startPeriodic(app, {
    everyMs: PRUNE_EVERY_MS,
    run: () => pruneReceivedMail(db),
    failed: 'inbound mail: pruning reply addresses and received mail failed',
  });

  if (!domain || !config.inbound) return;
  const settings = config.inbound;
  const maxUploadBytes = config.maxUploadMb * 1024 * 1024;
  const inbound = new InboundMail({
    db,
    changes,
    rateLimiter,
    tasks: new TasksService(db, changes, database),
    comments: new TaskCommentsService(db, changes),
    attachments: new AttachmentsService({
      db,
      storage,
      changes,
      links: new FileLinks(config.authSecret),
      maxUploadBytes,
      log: app.log,
    }),
    domain,
    maxUploadBytes,
    ownAddress: ownAddress(config.mail.from),
    log: app.log,
  });
  const runtime: InboundMailRuntime = { inbound, smtpPort: null, poller: null };
  runtimes.set(app, runtime);

  if (settings.smtpPort !== null) {
    const listener = new SmtpListener(inbound, app.log);
    app.addHook('onReady', async () => {
      runtime.smtpPort = await listener.start(settings.smtpPort!, config.host);
      app.log.info(`mail in: SMTP listener on ${config.host}:${runtime.smtpPort} for @${domain}`);
    });
    app.addHook('onClose', async () => listener.stop());
  }
  if (settings.imapUrl) {
    const poller = new ImapPoller(settings.imapUrl, settings.imapPollMs, (raw) => inbound.receive(raw), app.log);
    runtime.poller = poller;
    app.addHook('onReady', async () => poller.start());
    app.addHook('onClose', async () => poller.stop());
  }
}

function intakeRoutes(app: FastifyInstance, service: IntakeService): void {
  const r = typed(app);

  r.get('/api/projects/:id/intake', {
    config: { auth: 'user' },
    schema: { tags, params: idParams, response: { 200: intakeDto, 400: errorResponse, 403: errorResponse, 404: errorResponse } },
    handler: async (req) => service.get(requireUser(req).userId, req.params.id),
  });

  r.post('/api/projects/:id/intake', {
    config: { auth: 'user' },
    schema: { tags, params: idParams, body: intakeInput, response: { 200: intakeDto, ...errors } },
    handler: async (req) => service.set(actorOf(req), req.params.id, req.body),
  });

  r.post('/api/projects/:id/intake/reset', {
    config: { auth: 'user' },
    schema: { tags, params: idParams, response: { 200: intakeDto, ...errors } },
    handler: async (req) => service.reset(actorOf(req), req.params.id),
  });
}
