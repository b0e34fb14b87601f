import { fillPlaceholders } from 'drizzle-orm';
import pg from 'pg';
import type { Database } from './client';
import { ssoLockValues } from './sso-lock';

/**
 * A read on the hot path (the board, a page of the task list), built by drizzle's query builder
 * once — so it composes the same visibility fragments as every other query — and run by name as a
 * prepared statement whose rows come back as arrays, with dates and times left as PostgreSQL's
 * text. The caller maps each row straight into its DTO: no per-cell mapping and no `Date` per
 * timestamp (decision 0022; on a page of 500 tasks drizzle's row mapping was a fifth of the
 * server's CPU).
 *
 * On PostgreSQL it runs on the prepared-statement pool (planned once per connection, see
 * `Database.preparedDb`), or with `plans: 'per-values'` on the main pool, where PostgreSQL plans it for each run's
 * values while that is cheaper (a generic plan cannot see them: see `cardStatements`); on PGlite on the one client.
 */
export interface RowStatement {
  readonly name: string;
  readonly text: string;
  /** Rows as arrays, in the select's column order. */
  run(database: Database, values: Record<string, unknown>): Promise<unknown[][]>;
}

/** Type ids whose text is kept as sent: date, timestamp, timestamptz (and interval, which no statement here reads). */
const TEXT_TYPES = new Set([1082, 1114, 1184, 1186]);
const keepText = (value: string) => value;

const pgTypes = {
  getTypeParser: (typeId: number, format?: 'text' | 'binary') =>
    TEXT_TYPES.has(typeId) ? keepText : pg.types.getTypeParser(typeId, format),
} as pg.CustomTypesConfig;

const pgliteParsers = Object.fromEntries([...TEXT_TYPES].map((id) => [id, keepText]));

export function rowStatement(
  name: string,
  query: { toSQL(): { sql: string; params: unknown[] } },
  { plans = 'generic' }: { plans?: 'generic' | 'per-values' } = {},
): RowStatement {
  const { sql: text, params } = query.toSQL();
  return {
    name,
    text,
    async run(database, values) {
      // The SSO lock's placeholder, when the statement's visibility carries one (db/sso-lock.ts), from the request's caller.
      const filled = fillPlaceholders(params, { ...values, ...ssoLockValues(values.userId) });
      if (database.pglite) {
        const result = await database.pglite.query<unknown[]>(text, filled, { rowMode: 'array', parsers: pgliteParsers });
        return result.rows;
      }
      const pool = plans === 'generic' ? (database.preparedPool ?? database.pool) : database.pool;
      if (!pool) throw new Error('no database connection');
      const result = await pool.query<unknown[]>({ name, text, values: filled, rowMode: 'array', types: pgTypes });
      return result.rows;
    },
  };
}

/**
 * A `timestamptz` as PostgreSQL writes it ("2026-11-27 15:51:02.123456+00") into the ISO 8601 form the API sends
 * ("2026-11-27T15:51:02.123Z"), the same text `new Date(value).toISOString()` gives: by slicing when the session's
 * time zone is UTC and the year has four digits, through `Date` otherwise.
 */
export function isoFromPg(text: string): string {
  const n = text.length;
  if (n >= 22 && text.charCodeAt(10) === 32 && text.endsWith('+00') && text.charCodeAt(4) === 45) {
    const head = `${text.slice(0, 10)}T${text.slice(11, 19)}`;
    if (n === 22) return `${head}.000Z`;
    if (text.charCodeAt(19) === 46) {
      const fraction = text.slice(20, n - 3);
      return `${head}.${fraction.length >= 3 ? fraction.slice(0, 3) : fraction.padEnd(3, '0')}Z`;
    }
  }
  return new Date(text).toISOString();
}
