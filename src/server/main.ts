import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { Server as NetServer, type Socket } from 'node:net';
import { startAdminSocket } from './admin-socket';
import { buildApp } from './app';
import { loadConfig } from './config';
import { openDatabase } from './db/client';
import { MigrationFailedError, migrateSafely } from './db/migrate-safely';
import { PRIVATE_UMASK } from './lib/private-dir';
import { logDestination } from './lib/request-log';
import pino from 'pino';

/** How long a stopping instance behind a proxy waits for it to close its idle connections (deploy/nginx: 4 s). */
const DRAIN_MS = 5_000;

/**
 * The first step of a stop behind a proxy (docs/deploy.md): accept no new connection (the proxy sends what was refused
 * to another instance, a POST too), but cut no open one, as Node's own close cuts the idle ones: the proxy may be
 * sending a request on one at that moment, and it resends no POST that reached an instance. From then on no
 * connection takes another request: each answer says `Connection: close`, or (one already under way: an event
 * stream) its connection is closed once it ends; the proxy closes its idle ones after its keepalive timeout.
 * Resolves once none is idle (busy ones finish in app.close(), which also ends event streams and note sockets), or
 * after `limitMs`.
 */
function drainer(server: Server): (limitMs: number) => Promise<void> {
  const idle = new Set<Socket>();
  const busy = new Map<Socket, ServerResponse>();
  server.on('connection', (socket: Socket) => {
    idle.add(socket);
    socket.once('close', () => {
      idle.delete(socket);
      busy.delete(socket);
    });
  });
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    idle.delete(req.socket);
    busy.set(req.socket, res);
    res.once('finish', () => {
      busy.delete(req.socket);
      if (!req.socket.destroyed) idle.add(req.socket);
    });
  });
  server.on('upgrade', (req: IncomingMessage) => idle.delete(req.socket));
  const lastOn = (socket: Socket, res: ServerResponse) => {
    if (!res.headersSent) res.setHeader('connection', 'close');
    // A route may still answer `keep-alive` (the event streams do): the connection closes after the answer anyway.
    res.once('finish', () => socket.end());
  };
  return async (limitMs) => {
    server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => lastOn(req.socket, res));
    for (const [socket, res] of busy) lastOn(socket, res);
    NetServer.prototype.close.call(server);
    const until = Date.now() + limitMs;
    while (idle.size > 0 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 50));
  };
}

async function main() {
  // Before DATA_DIR is created or opened: what the server writes is its owner's alone.
  process.umask(PRIVATE_UMASK);
  const config = loadConfig();
  const database = await openDatabase(config);
  const stream = logDestination();
  const startLog = pino({ level: config.logLevel }, stream);
  try {
    // A backup first when it upgrades a database with applied migrations; all pending migrations in one transaction.
    await migrateSafely(database, {
      dataDir: config.dataDir,
      databaseUrl: config.databaseUrl,
      backup: config.backupBeforeMigrate,
      folder: config.migrationsDir,
      log: (message) => startLog.info(message),
    });
  } catch (error) {
    if (!(error instanceof MigrationFailedError)) throw error;
    // One line, on stderr: which migration, and where the backup is. Nothing of this start's migrations was kept.
    try {
      stream.flushSync();
    } catch {
      // nothing written yet
    }
    process.stderr.write(`Crewboard did not start: ${error.message}\n`);
    await database.close().catch(() => undefined);
    process.exit(1);
  }
  const app = await buildApp({
    config,
    database,
    logger: {
      level: config.logLevel,
      stream,
      redact: ['req.headers.authorization', 'req.headers.cookie', 'req.body.password', 'req.body.refresh_token'],
    },
  });
  let socket: Server | undefined;
  if (database.kind === 'pglite') socket = await startAdminSocket(database.db, config.dataDir, app.deps.changes);

  // Every connection is followed from the first, so that a stop knows which are idle.
  const drain = drainer(app.server);
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const behindProxy = config.trustProxy !== false;
    const timer = setTimeout(() => process.exit(1), (behindProxy ? DRAIN_MS : 0) + 10_000);
    timer.unref();
    let code = 0;
    try {
      socket?.close();
      if (behindProxy) await drain(DRAIN_MS);
      await app.close();
      await database.close();
    } catch (error) {
      // A failed close is no clean stop: say so, in the log and the exit code (systemd, the smoke).
      code = 1;
      app.log.error({ err: error }, 'shutdown failed');
    } finally {
      process.exit(code);
    }
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ port: config.port, host: config.host });
  // Prometheus metrics on a port of their own (METRICS_PORT), never the app's: closed with the app.
  if (app.metrics && config.metricsPort) {
    await app.metrics.listen(config.metricsPort, config.host);
    app.log.info(`Metrics at http://${config.host}:${config.metricsPort}/metrics`);
  }
  app.log.info(`Crewboard is running at ${config.publicUrl} (${database.kind})`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
