import { type SQL, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, type DbOrTx, openDatabase } from './client';
import { type LockName, lockFor } from './locks';

// The keys must not move: an instance still running the previous version takes the lock by its old spelling.
describe('lockFor', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openDatabase({ dataDir: 'memory://' });
  }, 60_000);
  afterAll(() => database?.close());

  /** The advisory locks this session holds after `take`, inside one transaction (released at its end). */
  const locksTakenBy = (take: (tx: DbOrTx) => Promise<unknown>) =>
    database.db.transaction(async (tx) => {
      await take(tx);
      const result = (await tx.execute(
        sql`select classid::text, objid::text, objsubid::text from pg_locks where locktype = 'advisory' and pid = pg_backend_pid()`,
      )) as unknown as { rows: { classid: string; objid: string; objsubid: string }[] };
      return result.rows;
    });

  const key = '6f1c2a34-0d7e-4b8a-9c55-1e2f3a4b5c6d';
  const cases: [LockName, string | undefined, SQL][] = [
    ['api_tokens', key, sql`select pg_advisory_xact_lock(hashtext('crewboard.api_tokens'), hashtext(${key}))`],
    ['notes', key, sql`select pg_advisory_xact_lock(hashtext('crewboard.notes'), hashtext(${key}))`],
    ['saved_views', key, sql`select pg_advisory_xact_lock(hashtext('crewboard.saved_views'), hashtext(${key}))`],
    ['webhooks', key, sql`select pg_advisory_xact_lock(hashtext('crewboard.webhooks'), hashtext(${key}))`],
    ['digest', undefined, sql`select pg_advisory_xact_lock(hashtext('crewboard.digest'))`],
  ];

  it.each(cases)('takes the same lock as the statement the %s repo wrote by hand', async (name, lockKey, legacy) => {
    const ours = await locksTakenBy((tx) => lockFor(tx, name, lockKey));
    const theirs = await locksTakenBy((tx) => tx.execute(legacy));
    expect(ours).toHaveLength(1);
    expect(ours).toEqual(theirs);
  });

  it('gives each name, and each key of a name, a lock of its own', async () => {
    const a = await locksTakenBy((tx) => lockFor(tx, 'api_tokens', 'a'));
    const b = await locksTakenBy((tx) => lockFor(tx, 'api_tokens', 'b'));
    const c = await locksTakenBy((tx) => lockFor(tx, 'saved_views', 'a'));
    expect(new Set([a, b, c].map((rows) => JSON.stringify(rows))).size).toBe(3);
  });
});
