import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { unaccent } from '@electric-sql/pglite/contrib/unaccent';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { makePrivateDir } from '../lib/private-dir';
import * as schema from './schema';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type DbOrTx = Db | Tx;

export interface Database {
  db: Db;
  /**
   * Where the statements the app prepares run (the board): on PostgreSQL, a small pool of its own
   * whose connections plan a prepared statement once, for every later run (`plan_cache_mode =
   * force_generic_plan`). On the main pool PostgreSQL plans them again at each run, as it judges a
   * plan made for the caller's own values cheaper: at 100,000 tasks that planning costs more than
   * running the board. Every other statement keeps plans made for its values. On PGlite, `db`.
   */
  preparedDb: Db;
  kind: 'pglite' | 'postgres';
  migrate(): Promise<void>;
  close(): Promise<void>;
  /** A plain query, for health checks and benchmarks. */
  ping(): Promise<void>;
  pglite?: PGlite;
  pool?: pg.Pool;
  /** The pool behind `preparedDb` on PostgreSQL. */
  preparedPool?: pg.Pool;
}

/** The migrations folder: beside the bundled server in dist, or in the source tree. */
export function migrationsFolder(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  for (const candidate of [join(here, 'migrations'), join(here, 'db/migrations')]) {
    if (existsSync(join(candidate, 'meta/_journal.json'))) return candidate;
  }
  throw new Error(`migrations folder not found near ${here}`);
}

export interface DatabaseOptions {
  databaseUrl?: string;
  /** PGlite data folder; 'memory://' for an in-memory database. */
  dataDir?: string;
  /**
   * PGlite only: a new database starts as this dump of another (`dumpDataDir`) instead of an empty cluster. The tests
   * load one migrated database this way: unpacking it takes a quarter of the time a new cluster's initdb does.
   */
  loadDataDir?: Blob;
  /** PostgreSQL connections of the main pool (default 10; the prepared statements' pool has a third as many). */
  poolSize?: number;
  /** How long a request waits for a connection (a new one, or a free one of a busy pool): then 503. Default 5 s. */
  connectTimeoutMs?: number;
  /** How long a query waits for PostgreSQL's answer before it fails (a dead link that never closes). Default: no limit. */
  queryTimeoutMs?: number;
}

/**
 * drizzle's node-postgres transaction sends `begin` before its try/finally, so when the connection
 * dies between checkout and `begin` the client is never released and the pool shrinks for good
 * (found by tests/integration/db-faults.test.ts). This pool releases — and discards — such a client.
 */
class GuardedPool extends pg.Pool {
  override connect(): Promise<pg.PoolClient>;
  override connect(callback: NonNullable<Parameters<pg.Pool['connect']>[0]>): void;
  override connect(callback?: NonNullable<Parameters<pg.Pool['connect']>[0]>): Promise<pg.PoolClient> | undefined {
    if (callback) {
      super.connect(callback);
      return undefined;
    }
    return super.connect().then((client) => {
      const guarded = client as pg.PoolClient & { __crewboardGuard?: true };
      if (!guarded.__crewboardGuard) {
        guarded.__crewboardGuard = true;
        const query = client.query.bind(client) as (...args: unknown[]) => unknown;
        (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
          const result = query(...args);
          const first = args[0] as string | { text?: string } | undefined;
          const text = typeof first === 'string' ? first : first?.text;
          if (result instanceof Promise && text && /^\s*begin\b/i.test(text)) {
            return result.catch((error: unknown) => {
              client.release(error instanceof Error ? error : new Error(String(error)));
              throw error;
            });
          }
          return result;
        };
      }
      return client;
    });
  }
}

function openPool(options: DatabaseOptions, max: number, extra: pg.PoolConfig = {}): pg.Pool {
  const pool = new GuardedPool({
    connectionString: options.databaseUrl,
    max,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 5_000,
    // Off unless asked for: TCP keep-alive already notices a dead server.
    query_timeout: options.queryTimeoutMs,
    keepAlive: true,
    idleTimeoutMillis: 30_000,
    ...extra,
  });
  // An idle client's error (e.g. the server restarting) must not crash the process.
  pool.on('error', () => {});
  // A checked-out client whose connection dies between two queries (inside a transaction) emits
  // 'error' with no listener of the pool's attached: that would crash the process. Its next query
  // fails instead ("not queryable"), which the app answers with 503.
  pool.on('connect', (client) => {
    client.on('error', () => {});
  });
  return pool;
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.databaseUrl) {
    const size = options.poolSize ?? 10;
    const pool = openPool(options, size);
    const preparedPool = openPool(options, Math.max(1, Math.ceil(size / 3)), {
      options: '-c plan_cache_mode=force_generic_plan',
    });
    const db = drizzlePg(pool, { schema }) as unknown as Db;
    return {
      db,
      preparedDb: drizzlePg(preparedPool, { schema }) as unknown as Db,
      kind: 'postgres',
      pool,
      preparedPool,
      migrate: () => migratePg(db as never, { migrationsFolder: migrationsFolder() }),
      close: async () => {
        await Promise.all([pool.end(), preparedPool.end()]);
      },
      ping: async () => {
        await pool.query('select 1');
      },
    };
  }
  const dataDir = options.dataDir ?? 'memory://';
  const onDisk = !dataDir.startsWith('memory://');
  // Private before PGlite writes into it (so there is no window), and again after: PGlite unpacks a
  // new database with its files chmod-ed 0666 and writes its relcache files 0644, whatever the umask.
  if (onDisk) makePrivateDir(dataDir);
  // The extensions search needs (migration 0007): PGlite bundles them, loaded on demand.
  const client = await PGlite.create(dataDir, { extensions: { pg_trgm, unaccent }, loadDataDir: options.loadDataDir });
  if (onDisk) makePrivateDir(dataDir);
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  return {
    db,
    preparedDb: db,
    kind: 'pglite',
    pglite: client,
    migrate: () => migratePglite(db as never, { migrationsFolder: migrationsFolder() }),
    close: () => client.close(),
    ping: async () => {
      await client.query('select 1');
    },
  };
}
