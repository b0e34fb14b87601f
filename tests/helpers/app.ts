import { randomBytes, randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { buildApp } from '../../src/server/app';
import type { Config } from '../../src/server/config';
import type { Database } from '../../src/server/db/client';
import { openScratchDatabase } from './scratch-db';

export interface TestContext {
  app: FastifyInstance;
  database: Database;
  /** The scratch PostgreSQL database's URL (DATABASE_URL set), for a second connection to it. */
  databaseUrl?: string;
  config: Config;
}

export function testConfig(overrides: Partial<Config> = {}): Config {
  return {
    port: 0,
    host: '127.0.0.1',
    publicUrl: 'http://localhost:3000',
    dataDir: '/tmp/crewboard-test-unused',
    databaseUrl: undefined,
    authSecret: randomBytes(32).toString('hex'),
    accessTokenTtl: 3600,
    invitationTtlDays: 7,
    emailVerification: 'off',
    mail: { smtpUrl: null, from: 'Crewboard <no-reply@localhost>', pollIntervalMs: 100 },
    rateLimitEnabled: false,
    clientDir: '/nonexistent',
    logLevel: 'silent',
    google: null,
    trustProxy: false,
    // A folder of its own per app, created only when a file is stored.
    storage: { kind: 'local', dir: join(tmpdir(), 'crewboard-test-files', randomUUID()) },
    maxUploadMb: 25,
    // Cheap argon2id: the suites hash hundreds of passwords (security.test.ts checks the production parameters).
    passwordHashing: 'test',
    ...overrides,
  };
}

/** A migrated database for one test file (or one test): see openScratchDatabase. */
export function openTestDatabase(): Promise<{ database: Database; databaseUrl?: string; drop: () => Promise<void> }> {
  return openScratchDatabase('crewboard_t');
}

/** Builds the app on a fresh database before the file's tests, and tears it down after. */
export function setupTestApp(overrides: Partial<Config> = {}): TestContext {
  const ctx = {} as TestContext;
  let drop: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    const opened = await openTestDatabase();
    drop = opened.drop;
    ctx.database = opened.database;
    ctx.databaseUrl = opened.databaseUrl;
    ctx.config = testConfig(overrides);
    ctx.app = await buildApp({ config: ctx.config, database: ctx.database });
    await ctx.app.ready();
  }, 60_000);
  afterAll(async () => {
    await ctx.app?.close();
    await drop?.();
  });
  return ctx;
}

export type Json = Record<string, unknown>;

export function json<T = Json>(res: LightMyRequestResponse): T {
  return res.json() as T;
}
