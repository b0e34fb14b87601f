import { and, asc, count, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import type { SavedViewConfig } from '../../../domain/schemas/saved-view';
import type { DbOrTx } from '../../db/client';
import { lockFor } from '../../db/locks';
import { savedViews, teams, users } from '../../db/schema';
import { activeRole, visibleTeamIds, wholeTeamIds } from '../../db/visibility';

export type SavedViewRow = typeof savedViews.$inferSelect;

/** A view with what its DTO shows, and the caller's active role in the team it is shared with (null otherwise). */
const viewColumns = (userId: string) => ({
  view: savedViews,
  ownerName: users.fullName,
  teamName: teams.name,
  callerRole: activeRole(savedViews.teamId, userId),
});

/**
 * The views `userId` sees: their personal ones, and those shared with a team where they are an active member
 * (their own shared views too only while they are). A guest (decision 0031) sees of a team's shared views only their
 * own: the others' filters may name projects and people not theirs to see.
 */
const visibleTo = (userId: string) =>
  or(
    and(isNull(savedViews.teamId), eq(savedViews.ownerId, userId)),
    inArray(savedViews.teamId, wholeTeamIds(userId)),
    and(eq(savedViews.ownerId, userId), inArray(savedViews.teamId, visibleTeamIds(userId))),
  )!;

const selectViews = (db: DbOrTx, userId: string) =>
  db
    .select(viewColumns(userId))
    .from(savedViews)
    .innerJoin(users, eq(users.id, savedViews.ownerId))
    .leftJoin(teams, eq(teams.id, savedViews.teamId));

export type ViewWithNames = Awaited<ReturnType<ReturnType<typeof selectViews>['execute']>>[number];

/** Personal views first, then shared ones; each by name. */
export async function listVisible(db: DbOrTx, userId: string): Promise<ViewWithNames[]> {
  return selectViews(db, userId)
    .where(visibleTo(userId))
    .orderBy(asc(sql`${savedViews.teamId} is not null`), asc(sql`lower(${savedViews.name})`), asc(savedViews.id));
}

/** One view if `userId` sees it; with `lock`, its row is locked for the rest of the transaction. */
export async function getVisibleById(db: DbOrTx, userId: string, id: string, lock = false): Promise<ViewWithNames | undefined> {
  const query = selectViews(db, userId).where(and(eq(savedViews.id, id), visibleTo(userId)));
  const [row] = lock ? await query.for('update', { of: savedViews }) : await query;
  return row;
}

/**
 * How many views `userId` owns, counted under a lock of theirs held to the end of the transaction, so that two
 * concurrent creations cannot both pass the limit.
 */
export async function countOwnedLocked(db: DbOrTx, userId: string): Promise<number> {
  await lockFor(db, 'saved_views', userId);
  const [row] = await db.select({ n: count() }).from(savedViews).where(eq(savedViews.ownerId, userId));
  return Number(row?.n ?? 0);
}

export async function createOne(
  db: DbOrTx,
  values: { ownerId: string; teamId: string | null; name: string; config: SavedViewConfig },
): Promise<SavedViewRow> {
  const [row] = await db.insert(savedViews).values(values).returning();
  return row!;
}

export async function updateOne(
  db: DbOrTx,
  id: string,
  values: { name?: string; teamId?: string | null; config?: SavedViewConfig },
): Promise<void> {
  await db
    .update(savedViews)
    .set({ ...values, updatedAt: sql`now()` })
    .where(eq(savedViews.id, id));
}

export async function deleteOne(db: DbOrTx, id: string): Promise<void> {
  await db.delete(savedViews).where(eq(savedViews.id, id));
}
