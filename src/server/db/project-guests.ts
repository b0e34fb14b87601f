import { and, eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from './client';
import { projectGuests, projects } from './schema';

// The project guests a membership leaves behind: below the modules, so every way a member goes (removed, left, a
// directory or SCIM removal) can clear them without one module importing another.

/**
 * Deletes `userId`'s guest rows on the projects of team `teamId` (issue 41): a member removed from a team, or who left
 * it, is no longer a guest of its projects (a re-invited guest starts with none).
 */
export async function deleteGuestRowsInTeam(db: DbOrTx, teamId: string, userId: string): Promise<void> {
  await db
    .delete(projectGuests)
    .where(
      and(
        eq(projectGuests.userId, userId),
        inArray(projectGuests.projectId, db.select({ id: projects.id }).from(projects).where(eq(projects.teamId, teamId))),
      ),
    );
}

/** Deletes every guest row of `userId` (their account deleted: no membership is left to count them). */
export async function deleteGuestRowsOfUser(db: DbOrTx, userId: string): Promise<void> {
  await db.delete(projectGuests).where(eq(projectGuests.userId, userId));
}
