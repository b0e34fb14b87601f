// The project counters (task_count, done_count, progress) kept by the triggers on tasks
// (migration 0003): exact after API writes, after bulk SQL that no app code sees, and after a restore.
import { eq, inArray, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createBackup, restoreBackup } from '../../src/server/db/backup';
import { projects, tasks } from '../../src/server/db/schema';
import { createUser, insertTeam } from '../factories';
import { openTestDatabase, setupTestApp } from '../helpers/app';

const ctx = setupTestApp();

/** Each project's stored counters beside a recount of its tasks: "total/todo/in progress/review/completed/progress". */
async function countersOf(ids: string[]) {
  const recount = (status: string) => `count(*) filter (where t.status = '${status}')`;
  const rows = await ctx.database.db
    .select({
      id: projects.id,
      stored: sql<string>`concat_ws('/', ${projects.taskCount}, ${projects.todoCount}, ${projects.inProgressCount}, ${projects.reviewCount}, ${projects.doneCount}, ${projects.progress})`,
      recounted: sql<string>`(select concat_ws('/', count(*), ${sql.raw(recount('todo'))}, ${sql.raw(recount('in_progress'))}, ${sql.raw(recount('review'))}, ${sql.raw(recount('completed'))},
        coalesce(round(100.0 * ${sql.raw(recount('completed'))} / nullif(count(*), 0))::int, 0))
        from tasks t where t.project_id = "projects"."id")`,
    })
    .from(projects)
    .where(inArray(projects.id, ids));
  return rows;
}

async function world() {
  const db = ctx.database.db;
  const owner = await createUser(ctx.app);
  const team = await insertTeam(db, owner);
  const [a, b] = await db
    .insert(projects)
    .values([
      { name: 'Counted A', teamId: team.id, ownerId: owner.id },
      { name: 'Counted B', teamId: team.id, ownerId: owner.id },
    ])
    .returning();
  return { db, owner, a: a!.id, b: b!.id };
}

describe('project task counters', () => {
  it('follow creates, moves, edits, project changes and deletes through the API', async () => {
    const { owner, a, b } = await world();
    const call = (method: 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
      ctx.app.inject({ method, url, headers: owner.auth, payload });
    const ids: string[] = [];
    for (const status of ['todo', 'completed', 'completed', 'review']) {
      const res = await call('POST', '/api/tasks', { title: `T ${status}`, projectId: a, status });
      expect(res.statusCode, res.body).toBe(201);
      ids.push(res.json().id);
    }
    expect(await countersOf([a])).toEqual([{ id: a, stored: '4/1/0/1/2/50', recounted: '4/1/0/1/2/50' }]);
    expect((await call('PATCH', `/api/tasks/${ids[0]}/status`, { status: 'completed' })).statusCode).toBe(200);
    expect((await call('PATCH', `/api/tasks/${ids[1]}`, { title: 'Renamed' })).statusCode).toBe(200);
    expect((await call('PATCH', `/api/tasks/${ids[2]}`, { projectId: b })).statusCode).toBe(200);
    expect((await call('DELETE', `/api/tasks/${ids[3]}`)).statusCode).toBe(204);
    const after = await countersOf([a, b]);
    expect(after.find((r) => r.id === a)).toEqual({ id: a, stored: '2/0/0/0/2/100', recounted: '2/0/0/0/2/100' });
    expect(after.find((r) => r.id === b)).toEqual({ id: b, stored: '1/0/0/0/1/100', recounted: '1/0/0/0/1/100' });
  });

  it('stay exact under bulk SQL that touches several projects at once', async () => {
    const { db, owner, a, b } = await world();
    const rows = Array.from({ length: 30 }, (_, i) => ({
      title: `Bulk ${i}`,
      projectId: i % 3 ? a : b,
      creatorId: owner.id,
      status: (['todo', 'in_progress', 'review', 'completed'] as const)[i % 4],
    }));
    await db.insert(tasks).values(rows);
    await db.update(tasks).set({ status: 'completed' }).where(sql`${tasks.projectId} = ${a} and ${tasks.status} = 'todo'`);
    await db.update(tasks).set({ status: 'review' }).where(sql`${tasks.projectId} = ${b} and ${tasks.status} = 'in_progress'`);
    await db.update(tasks).set({ title: sql`${tasks.title} || '!'` }).where(eq(tasks.projectId, b));
    await db.update(tasks).set({ projectId: b }).where(sql`${tasks.projectId} = ${a} and ${tasks.title} like 'Bulk 1%'`);
    await db.delete(tasks).where(sql`${tasks.projectId} = ${b} and ${tasks.status} = 'review'`);
    for (const r of await countersOf([a, b])) expect(r.stored, r.id).toBe(r.recounted);
    const [emptied] = await db.select().from(projects).where(eq(projects.id, a));
    expect(emptied!.taskCount).toBeGreaterThan(0);
    await db.delete(tasks).where(eq(tasks.projectId, a));
    expect(await countersOf([a])).toEqual([{ id: a, stored: '0/0/0/0/0/0', recounted: '0/0/0/0/0/0' }]);
  });

  it('are exact after a restore (the triggers count restored tasks on top of the restored counters)', async () => {
    const { db, owner, a } = await world();
    await db.insert(tasks).values(
      ['todo', 'completed', 'completed'].map((status, i) => ({ title: `Restored ${i}`, projectId: a, creatorId: owner.id, status })),
    );
    const backup = await createBackup(ctx.database.db);
    const target = await openTestDatabase();
    try {
      await restoreBackup(target.database.db, backup);
      const [restored] = await target.database.db.select().from(projects).where(eq(projects.id, a));
      const [original] = await ctx.database.db.select().from(projects).where(eq(projects.id, a));
      expect({ n: restored!.taskCount, done: restored!.doneCount, p: restored!.progress }).toEqual({ n: 3, done: 2, p: 67 });
      expect(original).toMatchObject({ taskCount: 3, doneCount: 2, progress: 67 });
    } finally {
      await target.drop();
    }
  });
});
