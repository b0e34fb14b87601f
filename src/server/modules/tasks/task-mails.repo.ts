import { eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { users } from '../../db/schema';

/**
 * What the 'assigned to you' mail needs, in one statement (issue 42: it runs in the change's transaction): the assignee
 * (undefined when there is none), the actor's name, and whether the assignee wants this mail (a kind without a
 * preference row is on, as notifications `wantsEmail`).
 */
export async function assignedMailFacts(db: DbOrTx, assigneeId: string, actorId: string) {
  const [row] = await db
    .select({
      id: users.id,
      email: users.email,
      isActive: users.isActive,
      emailVerified: users.emailVerified,
      actorName: sql<string | null>`(select a.full_name from users a where a.id = ${actorId})`,
      wanted: sql<boolean>`coalesce((select p.email from notification_preferences p where p.user_id = "users"."id" and p.kind = 'task_assigned'), true)`,
    })
    .from(users)
    .where(eq(users.id, assigneeId));
  return row;
}
