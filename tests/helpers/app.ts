import { randomBytes } from 'node:crypto';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { buildApp } from '../../src/server/app';
import type { Config } from '../../src/server/config';
import { openDatabase, type Database } from '../../src/server/db/client';

export interface TestContext {
  app: FastifyInstance;
  database: Database;
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
    rateLimitEnabled: false,
    clientDir: '/nonexistent',
    logLevel: 'silent',
    google: null,
    trustProxy: false,
    ...overrides,
  };
}

/**
 * A migrated database for one test file: PGlite in memory by default; with DATABASE_URL, a fresh
 * PostgreSQL database created for the file and dropped afterwards.
 */
export async function openTestDatabase(): Promise<{ database: Database; drop: () => Promise<void> }> {
  const url = process.env.DATABASE_URL;
  if (!url) {
    const database = await openDatabase({ dataDir: 'memory://' });
    await database.migrate();
    return { database, drop: () => database.close() };
  }
  const name = `crewboard_t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const u = new URL(url);
  u.pathname = `/${name}`;
  const database = await openDatabase({ databaseUrl: u.toString() });
  await database.migrate();
  return {
    database,
    drop: async () => {
      await database.close();
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

/** Builds the app on a fresh database before the file's tests, and tears it down after. */
export function setupTestApp(overrides: Partial<Config> = {}): TestContext {
  const ctx = {} as TestContext;
  let drop: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    const opened = await openTestDatabase();
    drop = opened.drop;
    ctx.database = opened.database;
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
