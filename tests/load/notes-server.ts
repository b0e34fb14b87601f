/**
 * One app instance for the notes load script (tests/load/notes.ts), in a process of its own so that its memory is its
 * own: DATABASE_URL (migrated by the parent) and AUTH_SECRET (the same on every instance: tickets are checked by any)
 * from the environment. Prints `listening <port>` and serves until it is sent SIGTERM.
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../../src/server/app';
import type { Config } from '../../src/server/config';
import { openDatabase } from '../../src/server/db/client';

async function main() {
  const database = await openDatabase({ databaseUrl: process.env.DATABASE_URL, poolSize: 10 });
  // Test settings (as tests/helpers/app.ts testConfig, without importing the test runner).
  const config: Config = {
    port: 0,
    host: '127.0.0.1',
    publicUrl: 'http://localhost:3000',
    dataDir: join(tmpdir(), 'crewboard-notes-load'),
    databaseUrl: process.env.DATABASE_URL,
    authSecret: process.env.AUTH_SECRET!,
    accessTokenTtl: 3600,
    invitationTtlDays: 7,
    emailVerification: 'off',
    mail: { smtpUrl: null, from: 'Crewboard <no-reply@localhost>', pollIntervalMs: 1000 },
    rateLimitEnabled: false,
    clientDir: '/nonexistent',
    logLevel: 'silent',
    google: null,
    trustProxy: false,
    storage: { kind: 'local', dir: join(tmpdir(), 'crewboard-notes-load-files') },
    maxUploadMb: 25,
  } as Config;
  const app = await buildApp({ config, database });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  console.log(`listening ${typeof address === 'object' && address ? address.port : 0}`);
  const stop = async () => {
    await app.close();
    await database.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop());
  process.on('SIGINT', () => void stop());
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
