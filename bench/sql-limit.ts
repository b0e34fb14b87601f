// "The limit" of a read: the SQL a request issues, run directly on the same database (no HTTP, no
// JSON shaping). The app is built in-process on a database opened the way the server opens it
// (`openDatabase`: the same pools, and on PostgreSQL the same generic-plan pool for prepared
// statements) and fed the same request through inject. Every statement it hands the driver is
// recorded as handed (text, values, and on PostgreSQL the prepared statement's name, row mode and
// type parsers), then replayed the same way on the same connection and timed: the database's time for
// exactly the work the server asks of it, plus the driver's reading of the rows.
import { buildApp } from '../src/server/app';
import { loadConfig } from '../src/server/config';
import { type Database, openDatabase } from '../src/server/db/client';
import { BENCH_PASSWORD } from './seed';

export interface LimitResult {
  /** Median over the iterations of the serial run of every reading statement the request issues. */
  ms: number;
  statements: { sql: string; ms: number; rows: number; prepared: boolean }[];
}

/** One call to the driver, as the app made it; `replay` makes it again and returns the row count. */
interface Call {
  text: string;
  prepared: boolean;
  replay(): Promise<number>;
}

/**
 * Writes (a GET's fire-and-forget `last_seen_at`, say) and transaction control (`begin`, and the `set
 * transaction …` drizzle sends on PGlite) are not the read's SQL: they are left out, so a read inside a
 * transaction is replayed as its statements alone, a little under what the server pays.
 */
const isReadingStatement = (text: string) =>
  !/^\s*(insert|update|delete|begin|commit|rollback|savepoint|release|set)\b/i.test(text);

type QueryFn = (...args: unknown[]) => Promise<unknown>;

/**
 * Wraps `target.query` so that, while `sink()` is an array, each call is recorded with a way to make
 * it again (through `replayOn`, by default the same target). A trailing callback (pg-pool's own
 * call) is not part of the statement: the replay awaits the promise instead.
 */
function interceptQuery(
  target: { query: unknown },
  sink: () => Call[] | null,
  describe: (args: unknown[]) => { text: string; prepared: boolean },
  rowsOf: (result: unknown) => number,
  replayOn: { query: unknown } = target,
) {
  const original = (target.query as QueryFn).bind(target);
  const again = replayOn === target ? original : (...args: unknown[]) => (replayOn.query as QueryFn).apply(replayOn, args);
  target.query = (...args: unknown[]) => {
    const calls = sink();
    if (calls) {
      const statement = args.filter((a) => typeof a !== 'function').map((a) => (Array.isArray(a) ? [...a] : a));
      calls.push({ ...describe(statement), replay: async () => rowsOf(await again(...statement)) });
    }
    return original(...args);
  };
}

const pgStatement = (args: unknown[]) => {
  const first = args[0] as string | { text: string; name?: string };
  return typeof first === 'string' ? { text: first, prepared: false } : { text: first.text, prepared: Boolean(first.name) };
};
const pgliteStatement = (args: unknown[]) => ({ text: String(args[0]), prepared: false });
const rowsOf = (r: unknown) => (r as { rows: unknown[] }).rows.length;

/**
 * Records every statement that reaches the database: on PostgreSQL at each connection of both pools
 * (so statements inside a transaction are seen too, and replayed on the same connection, where a
 * prepared statement is already prepared); on PGlite on the client and inside its transactions
 * (replayed on the client, after the transaction has ended).
 */
function recordStatements(database: Database, sink: () => Call[] | null) {
  for (const pool of [database.pool, database.preparedPool]) {
    pool?.on('connect', (client) => interceptQuery(client, sink, pgStatement, rowsOf));
  }
  const lite = database.pglite;
  if (lite) {
    interceptQuery(lite, sink, pgliteStatement, rowsOf);
    const transaction = lite.transaction.bind(lite);
    lite.transaction = (fn) =>
      transaction((tx) => {
        interceptQuery(tx, sink, pgliteStatement, rowsOf, lite);
        return fn(tx);
      });
  }
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
  let captured: Call[] | null = null;
  const sink = () => captured;
  const database = await openDatabase({ databaseUrl: target.databaseUrl, dataDir: target.dataDir });
  recordStatements(database, sink);

  const config = loadConfig({ ...target.env, DATABASE_URL: target.databaseUrl ?? '' });
  const app = await buildApp({ config, database });
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
      captured = [];
      const res = await app.inject({ method: 'GET', url, headers });
      const statements = (captured as Call[]).filter((c) => isReadingStatement(c.text));
      captured = null;
      if (res.statusCode >= 300) throw new Error(`${url}: the in-process request for its SQL limit answered ${res.statusCode}`);
      if (!statements.length) throw new Error(`${url}: no statement reached the driver`);
      const perStatement = statements.map(() => [] as number[]);
      const rows = statements.map(() => 0);
      const totals: number[] = [];
      for (let i = 0; i < iterations + 3; i++) {
        let total = 0;
        for (const [k, s] of statements.entries()) {
          const t0 = performance.now();
          rows[k] = await s.replay();
          const dt = performance.now() - t0;
          total += dt;
          if (i >= 3) perStatement[k]!.push(dt);
        }
        if (i >= 3) totals.push(total);
      }
      results[name] = {
        ms: median(totals),
        statements: statements.map((s, k) => ({
          sql: s.text.replace(/\s+/g, ' ').slice(0, 400),
          ms: median(perStatement[k]!),
          rows: rows[k]!,
          prepared: s.prepared,
        })),
      };
    }
  } finally {
    await app.close();
    await database.close();
  }
  return results;
}
