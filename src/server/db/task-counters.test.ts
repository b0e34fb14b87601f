import { inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectProgress } from '../../domain/progress';
import { type Database, openDatabase } from './client';
import { insertDefaultStatuses } from './project-statuses';
import { projects, tasks, teams, users } from './schema';
import { projectTotals } from './task-counters';

// The progress rule lives in SQL (triggers and projectTotals) and in domain/progress.ts: they must agree.
describe('project progress in SQL', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openDatabase({ dataDir: 'memory://' });
    await database.migrate();
  }, 60_000);
  afterAll(() => database?.close());

  it('matches projectProgress(completed, total), halves rounded up', async () => {
    const { db } = database;
    // Every split of up to 8 tasks (eighths give the halves), plus 1 and 199 of 200.
    const cases = [
      ...Array.from({ length: 9 }, (_, total) =>
        Array.from({ length: total + 1 }, (_, completed) => ({ completed, total })),
      ).flat(),
      { completed: 1, total: 200 },
      { completed: 199, total: 200 },
    ];
    const [user] = await db.insert(users).values({ email: 'progress@example.com', fullName: 'P' }).returning();
    const [team] = await db.insert(teams).values({ name: 'Progress', ownerId: user!.id }).returning();
    const made = await db
      .insert(projects)
      .values(cases.map((_, i) => ({ name: `P${i}`, teamId: team!.id, ownerId: user!.id })))
      .returning({ id: projects.id });
    await insertDefaultStatuses(
      db,
      made.map((p) => p.id),
    );
    // One statement, as a bulk insert: the triggers count every project's tasks at once.
    await db.insert(tasks).values(
      cases.flatMap(({ completed, total }, i) =>
        Array.from({ length: total }, (_, k) => ({
          title: `T${k}`,
          projectId: made[i]!.id,
          creatorId: user!.id,
          status: k < completed ? ('completed' as const) : ('todo' as const),
        })),
      ),
    );
    const totals = projectTotals(db, projects.id);
    const rows = await db
      .select({ id: projects.id, progress: totals.progress })
      .from(projects)
      .leftJoinLateral(totals, sql`true`)
      .where(
        inArray(
          projects.id,
          made.map((p) => p.id),
        ),
      );
    const byId = new Map(rows.map((r) => [r.id, Number(r.progress ?? 0)]));
    const got = cases.map((c, i) => ({ ...c, progress: byId.get(made[i]!.id) }));
    expect(got).toEqual(cases.map((c) => ({ ...c, progress: projectProgress(c.completed, c.total) })));
  });
});
