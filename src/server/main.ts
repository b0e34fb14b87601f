import type { Server } from 'node:http';
import { startAdminSocket } from './admin-socket';
import { buildApp } from './app';
import { loadConfig } from './config';
import { openDatabase } from './db/client';
import { MigrationFailedError, migrateSafely } from './db/migrate-safely';
import { PRIVATE_UMASK } from './lib/private-dir';
import { logDestination } from './lib/request-log';
import pino from 'pino';

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

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const timer = setTimeout(() => process.exit(1), 10_000);
    timer.unref();
    try {
      socket?.close();
      await app.close();
      await database.close();
    } finally {
      process.exit(0);
    }
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ port: config.port, host: config.host });
  app.log.info(`Crewboard is running at ${config.publicUrl} (${database.kind})`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
