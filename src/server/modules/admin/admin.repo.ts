import { and, count, desc, eq, gte, sql } from 'drizzle-orm';
import type { AdminStatsDto } from '../../../domain/schemas/admin';
import type { DbOrTx } from '../../db/client';
import { projects, tasks, teams, type UserRow, users } from '../../db/schema';
import { containsText } from '../../db/search';

async function countOf(query: Promise<{ n: number }[]>): Promise<number> {
  const [row] = await query;
  return Number(row?.n ?? 0);
}

export async function getStats(db: DbOrTx): Promise<AdminStatsDto> {
  const [totalUsers, activeUsers30d, teamCount, projectCount, taskCount, tasksCompletedThisMonth] = await Promise.all([
    countOf(db.select({ n: count() }).from(users)),
    countOf(db.select({ n: count() }).from(users).where(gte(users.lastSeenAt, sql`now() - interval '30 days'`))),
    countOf(db.select({ n: count() }).from(teams)),
    countOf(db.select({ n: count() }).from(projects)),
    countOf(db.select({ n: count() }).from(tasks)),
    // A completed task's last change is when it was completed (tasks carry no separate completion time).
    countOf(
      db
        .select({ n: count() })
        .from(tasks)
        .where(and(eq(tasks.statusCategory, 'completed'), gte(tasks.updatedAt, sql`date_trunc('month', now())`))),
    ),
  ]);
  return {
    totalUsers,
    activeUsers30d,
    teams: teamCount,
    projects: projectCount,
    tasks: taskCount,
    tasksCompletedThisMonth,
  };
}

export async function listUsers(db: DbOrTx, options: { limit: number; search?: string }): Promise<UserRow[]> {
  return db
    .select()
    .from(users)
    .where(options.search ? containsText(options.search, users.email, users.fullName) : undefined)
    .orderBy(desc(users.createdAt), desc(users.id))
    .limit(options.limit);
}

export async function setActive(db: DbOrTx, id: string, isActive: boolean): Promise<UserRow | undefined> {
  const [row] = await db.update(users).set({ isActive, updatedAt: sql`now()` }).where(eq(users.id, id)).returning();
  return row;
}

/** How many migrations drizzle recorded as applied, or null when that cannot be read. */
export async function countAppliedMigrations(db: DbOrTx): Promise<number | null> {
  try {
    const result = (await db.execute(sql`select count(*)::int as n from drizzle.__drizzle_migrations`)) as unknown as {
      rows: { n: number }[];
    };
    return Number(result.rows[0]?.n ?? 0);
  } catch {
    return null;
  }
}
