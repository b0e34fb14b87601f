import type { Server } from 'node:http';
import { startAdminSocket } from './admin-socket';
import { buildApp } from './app';
import { loadConfig } from './config';
import { openDatabase } from './db/client';
import { PRIVATE_UMASK } from './lib/private-dir';
import { logDestination } from './lib/request-log';

async function main() {
  // Before DATA_DIR is created or opened: what the server writes is its owner's alone.
  process.umask(PRIVATE_UMASK);
  const config = loadConfig();
  const database = await openDatabase(config);
  await database.migrate();
  const app = await buildApp({
    config,
    database,
    logger: {
      level: config.logLevel,
      stream: logDestination(),
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
