import { AsyncLocalStorage } from 'node:async_hooks';
import { and, eq, exists, is, Placeholder, type SQL, sql } from 'drizzle-orm';
import { type AnyPgColumn, QueryBuilder } from 'drizzle-orm/pg-core';
import { AppError } from '../lib/errors';
import type { DbOrTx } from './client';
import { teamMembers, teams } from './schema';

/**
 * Teams that require single sign-on (issue 41, decision 0031): a member whose session did not come from SAML (a
 * password, Google, LDAP session, or a personal API token) sees such a team as locked. The rule is applied in one place,
 * the caller's membership: the visibility fragments (db/visibility.ts `activeMembership`, which every membership read
 * composes) leave out the locked teams of a locked caller, and the membership guards (db/membership.ts) answer 403
 * `sso_required` instead of 404 for them. Who the caller is comes from a request-scoped context the app's onRequest
 * hook fills in (app.ts); outside a request (the CLI, the outbox, tests calling services) nothing is locked.
 */

interface Caller {
  userId: string | null;
  /** The caller is a member of a team that requires SSO, and their session is not a SAML one. */
  locked: boolean;
  /** Reads that must see the locked teams (the team list marks them locked). */
  exempt?: boolean;
}

const context = new AsyncLocalStorage<Caller>();

/** The name of the lock's placeholder in prepared statements. */
export const SSO_LOCK_PLACEHOLDER = 'ssoLocked';

/** Runs a request's work with an empty caller (the onRequest hook, before authentication, calls `done` through it). */
export function runRequestScope(done: () => void): void {
  context.run({ userId: null, locked: false }, done);
}

/** Sets the authenticated caller of the current request. */
export function setRequestCaller(userId: string, locked: boolean): void {
  const caller = context.getStore();
  if (caller) Object.assign(caller, { userId, locked });
}

/** True when the current request's caller is locked out of their SSO teams. */
export function isSsoLockedCaller(): boolean {
  const caller = context.getStore();
  return Boolean(caller?.locked && !caller.exempt);
}

/** True when `userId` (a value, not a column or a placeholder) is the current, locked caller. */
function lockedCallerIs(userId: unknown): boolean {
  const caller = context.getStore();
  return Boolean(caller?.locked && !caller.exempt && typeof userId === 'string' && userId === caller.userId);
}

/** Runs `fn` (a read whose SQL it builds) seeing the caller's locked teams too. */
export function withoutSsoLock<T>(fn: () => T): T {
  const caller = context.getStore();
  return caller ? context.run({ ...caller, exempt: true }, fn) : fn();
}

const qb = new QueryBuilder();

/** The team `teamId` requires SSO (an exists subquery). */
const requiresSso = (teamId: AnyPgColumn): SQL =>
  exists(
    qb
      .select({ one: sql`1` })
      .from(teams)
      .where(and(eq(teams.id, teamId), eq(teams.requiresSso, true))),
  );

/** The placeholder that carries the lock into a statement prepared with the user as a placeholder. */
const lockedPlaceholder = sql.placeholder(SSO_LOCK_PLACEHOLDER);

/**
 * The condition `activeMembership` adds for the caller's own membership rows (team column `teamId`): the team does not
 * require SSO, when the caller is locked. For a user given as a value it is decided now: undefined (the query unchanged)
 * for everyone but the locked caller. For a user given as a placeholder (a statement prepared once, run for anyone) the
 * lock is a placeholder too, filled at each run from the request's caller: `ssoLockValues` by the drizzle statements'
 * callers, `rowStatement.run` for the row statements. A run that forgets it fails loudly (drizzle: no value for
 * placeholder), never open.
 */
export function ssoLockCondition(teamId: AnyPgColumn, userId: unknown): SQL | undefined {
  if (is(userId, Placeholder)) return sql`not (${lockedPlaceholder}::boolean and ${requiresSso(teamId)})`;
  if (!lockedCallerIs(userId)) return undefined;
  return sql`not ${requiresSso(teamId)}`;
}

/** The lock's placeholder value for a prepared statement run for `userId` (true only for the current, locked caller). */
export function ssoLockValues(userId: unknown): { [SSO_LOCK_PLACEHOLDER]: boolean } {
  return { [SSO_LOCK_PLACEHOLDER]: lockedCallerIs(userId) };
}

/** Is `userId` an active member of a team that requires SSO (what makes a non-SAML session locked)? */
export function requiresSsoSomewhere(userId: AnyPgColumn | string): SQL<boolean> {
  return sql<boolean>`${exists(
    qb
      .select({ one: sql`1` })
      .from(teamMembers)
      .innerJoin(teams, eq(teams.id, teamMembers.teamId))
      .where(and(eq(teamMembers.userId, userId), sql`${teamMembers.status} = 'active'`, eq(teams.requiresSso, true))),
  )}`;
}

export async function hasSsoRequiredTeam(db: DbOrTx, userId: string): Promise<boolean> {
  const [row] = await db.select({ yes: requiresSsoSomewhere(userId) }).from(sql`(select 1) as one`);
  return Boolean(row?.yes);
}

/**
 * For a guard that found no membership: when the locked caller is a member of `teamId` and the team requires SSO, the
 * answer is 403 `sso_required` ('This team requires single sign-on.'), not the stranger's 404.
 */
export async function requireNotSsoLocked(db: DbOrTx, teamId: string, userId: string): Promise<void> {
  if (!lockedCallerIs(userId)) return;
  const [row] = await db
    .select({ one: sql`1` })
    .from(teamMembers)
    .innerJoin(teams, eq(teams.id, teamMembers.teamId))
    .where(
      and(
        eq(teamMembers.teamId, teamId),
        eq(teamMembers.userId, userId),
        sql`${teamMembers.status} = 'active'`,
        eq(teams.requiresSso, true),
      ),
    );
  if (row) throw new AppError('sso_required');
}
