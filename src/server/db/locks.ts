import { sql } from 'drizzle-orm';
import type { DbOrTx } from './client';

/**
 * The named transaction locks. The name is hashed into the lock key ('crewboard.<name>'), so renaming one changes
 * its key: two versions of the server running side by side would then no longer exclude each other.
 */
export type LockName =
  | 'api_tokens'
  | 'custom_fields'
  | 'dependencies'
  | 'digest'
  | 'hierarchy'
  | 'notes'
  | 'saved_views'
  | 'webhooks'
  | 'workflows';

/**
 * Takes the advisory lock `name` (of `key`, when given: one lock per user, team or note) and holds it to the end of
 * the transaction. Without a key it is one lock for the whole name (one bigint key, a key space apart from the
 * (int, int) pairs of the keyed ones).
 */
export async function lockFor(db: DbOrTx, name: LockName, key?: string): Promise<void> {
  const lockName = `crewboard.${name}`;
  await db.execute(
    key === undefined
      ? sql`select pg_advisory_xact_lock(hashtext(${lockName}))`
      : sql`select pg_advisory_xact_lock(hashtext(${lockName}), hashtext(${key}))`,
  );
}
