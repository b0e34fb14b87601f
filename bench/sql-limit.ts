// "The limit" of a read: the SQL a request issues, run directly on the same database (no HTTP, no
// JSON shaping). The statements are captured from the real app (built in-process on a Drizzle client
// with a query logger, fed the same request through inject), so they stay exactly what the server
// runs; then each is replayed raw on the driver and timed.
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import type { Logger } from 'drizzle-orm/logger';
import pg from 'pg';
import { buildApp } from '../src/server/app';
import { loadConfig } from '../src/server/config';
import type { Database, Db } from '../src/server/db/client';
import * as schema from '../src/server/db/schema';
import { BENCH_PASSWORD } from './seed';

export interface Statement {
  text: string;
  params: unknown[];
}

export interface LimitResult {
  /** Median over the iterations of the serial run of every SELECT the request issues. */
  ms: number;
  /** Status of the captured in-process request. */
  status: number;
  statements: { sql: string; ms: number; rows: number }[];
}

interface Capturing {
  database: Database;
  captured: Statement[] | null;
  run(s: Statement): Promise<number>;
}

async function openCapturing(target: { databaseUrl?: string; dataDir: string }): Promise<Capturing> {
  const state: Capturing = { captured: null } as Capturing;
  const logger: Logger = {
    logQuery(text, params) {
      state.captured?.push({ text, params: [...params] });
    },
  };
  if (target.databaseUrl) {
    const pool = new pg.Pool({ connectionString: target.databaseUrl, max: 4 });
    const db = drizzlePg(pool, { schema, logger }) as unknown as Db;
    state.database = {
      db,
      preparedDb: db,
      kind: 'postgres',
      pool,
      migrate: async () => {},
      close: () => pool.end(),
      ping: async () => void (await pool.query('select 1')),
    };
    state.run = async (s) => (await pool.query({ text: s.text, values: s.params, rowMode: 'array' })).rowCount ?? 0;
  } else {
    const client = await PGlite.create(target.dataDir);
    const db = drizzlePglite(client, { schema, logger }) as unknown as Db;
    state.database = {
      db,
      preparedDb: db,
      kind: 'pglite',
      pglite: client,
      migrate: async () => {},
      close: () => client.close(),
      ping: async () => void (await client.query('select 1')),
    };
    state.run = async (s) => (await client.query(s.text, s.params, { rowMode: 'array' })).rows.length;
  }
  return state;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor((s.length - 1) / 2)]! : 0;
};

/**
 * Captures and times the SQL of each read. `paths` maps a scenario name to its URL;
 * the caller signs in as `email`.
 */
export async function measureLimits(
  target: { databaseUrl?: string; dataDir: string; env: NodeJS.ProcessEnv },
  email: string,
  paths: Record<string, string>,
  iterations: number,
): Promise<Record<string, LimitResult>> {
  const cap = await openCapturing(target);
  const config = loadConfig({ ...target.env, DATABASE_URL: target.databaseUrl ?? '' });
  const app = await buildApp({ config, database: cap.database });
  const results: Record<string, LimitResult> = {};
  try {
    const signIn = await app.inject({
      method: 'POST',
      url: '/api/auth/token?grant_type=password',
      payload: { email, password: BENCH_PASSWORD },
    });
    if (signIn.statusCode !== 200) throw new Error(`in-process sign-in failed: ${signIn.statusCode} ${signIn.body}`);
    const headers = { authorization: `Bearer ${signIn.json().access_token}` };
    for (const [name, url] of Object.entries(paths)) {
      await app.inject({ method: 'GET', url, headers }); // warm the app's own caches first
      cap.captured = [];
      const res = await app.inject({ method: 'GET', url, headers });
      const statements = cap.captured.filter((s) => /^\s*(select|with)\b/i.test(s.text));
      cap.captured = null;
      if (res.statusCode >= 300) {
        results[name] = { ms: Number.NaN, status: res.statusCode, statements: [] };
        continue;
      }
      const perStatement = statements.map(() => [] as number[]);
      const rows = statements.map(() => 0);
      const totals: number[] = [];
      for (let i = 0; i < iterations + 3; i++) {
        let total = 0;
        for (const [k, s] of statements.entries()) {
          const t0 = performance.now();
          rows[k] = await cap.run(s);
          const dt = performance.now() - t0;
          total += dt;
          if (i >= 3) perStatement[k]!.push(dt);
        }
        if (i >= 3) totals.push(total);
      }
      results[name] = {
        ms: median(totals),
        status: res.statusCode,
        statements: statements.map((s, k) => ({
          sql: s.text.replace(/\s+/g, ' ').slice(0, 400),
          ms: median(perStatement[k]!),
          rows: rows[k]!,
        })),
      };
    }
  } finally {
    await app.close();
    await cap.database.close();
  }
  return results;
}
