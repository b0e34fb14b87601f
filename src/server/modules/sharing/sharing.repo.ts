import { and, asc, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { projects, projectShares, projectStatuses, tasks, teamMembers, users } from '../../db/schema';
import { activeMembership } from '../../db/visibility';

export type ShareRow = typeof projectShares.$inferSelect;

/**
 * How many cards the shared page shows at most (the newest of each column first): the page draws every card at once,
 * and a stranger's read must stay cheap. A project beyond it shows its first ones only.
 */
export const SHARED_CARDS_MAX = 1_000;

/** The project's team and name, held `for key share` to the end of the transaction (it cannot be deleted under us). */
export async function getProjectForShare(db: DbOrTx, projectId: string): Promise<{ teamId: string; name: string } | undefined> {
  const [row] = await db
    .select({ teamId: projects.teamId, name: projects.name })
    .from(projects)
    .where(eq(projects.id, projectId))
    .for('key share');
  return row;
}

/** The project's share row (on or off), or undefined when its link was never turned on. */
export async function getShare(db: DbOrTx, projectId: string): Promise<ShareRow | undefined> {
  const [row] = await db.select().from(projectShares).where(eq(projectShares.projectId, projectId));
  return row;
}

/** The project's share row, held `for update`: two writes to one project's link take turns. */
export async function lockShare(db: DbOrTx, projectId: string): Promise<ShareRow | undefined> {
  const [row] = await db.select().from(projectShares).where(eq(projectShares.projectId, projectId)).for('update');
  return row;
}

/** Writes the project's share row (created on its first write). */
export async function saveShare(
  db: DbOrTx,
  values: Pick<ShareRow, 'projectId' | 'tokenHash' | 'tokenSealed' | 'showPeople' | 'showDescriptions' | 'updatedById'>,
): Promise<ShareRow> {
  const { tokenHash, tokenSealed, showPeople, showDescriptions, updatedById } = values;
  const [row] = await db
    .insert(projectShares)
    .values(values)
    .onConflictDoUpdate({
      target: projectShares.projectId,
      set: { tokenHash, tokenSealed, showPeople, showDescriptions, updatedById, updatedAt: sql`now()` },
    })
    .returning();
  return row!;
}

/** The link a token hash opens: its project (id and name) and options, or undefined (unknown, off or reset). */
export async function findByTokenHash(
  db: DbOrTx,
  tokenHash: string,
): Promise<
  { projectId: string; teamId: string; projectName: string; showPeople: boolean; showDescriptions: boolean } | undefined
> {
  const [row] = await db
    .select({
      projectId: projectShares.projectId,
      teamId: projects.teamId,
      projectName: projects.name,
      showPeople: projectShares.showPeople,
      showDescriptions: projectShares.showDescriptions,
    })
    .from(projectShares)
    .innerJoin(projects, eq(projects.id, projectShares.projectId))
    .where(eq(projectShares.tokenHash, tokenHash));
  return row;
}

/** The project's live statuses, in workflow order. */
export function listColumns(db: DbOrTx, projectId: string) {
  return db
    .select({
      key: projectStatuses.key,
      name: projectStatuses.name,
      category: projectStatuses.category,
      color: projectStatuses.color,
    })
    .from(projectStatuses)
    .where(and(eq(projectStatuses.projectId, projectId), isNull(projectStatuses.deletedAt)))
    .orderBy(asc(projectStatuses.position));
}

/**
 * The project's top-level tasks in board order (by their status's place in the workflow, then newest first, as the
 * board draws them), with only the columns a shared card may show. The assignee's name is joined only when asked for.
 */
export function listCards(db: DbOrTx, projectId: string, withPeople: boolean) {
  return db
    .select({
      id: tasks.id,
      title: tasks.title,
      status: tasks.status,
      priority: tasks.priority,
      dueDate: tasks.dueDate,
      tags: tasks.tags,
      checklistDone: tasks.checklistDone,
      checklistTotal: tasks.checklistTotal,
      subtaskDone: tasks.subtaskDone,
      subtaskTotal: tasks.subtaskTotal,
      description: tasks.description,
      assigneeName: withPeople ? users.fullName : sql<string | null>`null`,
    })
    .from(tasks)
    .innerJoin(
      projectStatuses,
      and(
        eq(projectStatuses.projectId, tasks.projectId),
        eq(projectStatuses.key, tasks.status),
        isNull(projectStatuses.deletedAt),
      ),
    )
    .leftJoin(users, withPeople ? eq(users.id, tasks.assigneeId) : sql`false`)
    .where(and(eq(tasks.projectId, projectId), isNull(tasks.parentId)))
    .orderBy(asc(projectStatuses.position), desc(tasks.createdAt), desc(tasks.id))
    .limit(SHARED_CARDS_MAX);
}

/** The names of those of `ids` who are active members of the team (a mention of anyone else stays unnamed). */
export async function memberNames(db: DbOrTx, teamId: string, ids: readonly string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: users.id, name: users.fullName })
    .from(teamMembers)
    .innerJoin(users, eq(users.id, teamMembers.userId))
    .where(and(activeMembership({ teamId }), inArray(teamMembers.userId, [...ids])));
  return new Map(rows.map((r) => [r.id, r.name]));
}
