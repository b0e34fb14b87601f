// The project counters (per status key, and so the task count and progress) kept by the trigger on
// tasks (migrations 0003, 0004, 0011): exact after API writes, after bulk SQL that no app code sees,
// through several connections at once, and after a restore.
import { eq, sql } from 'drizzle-orm';
import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import { createBackup, restoreBackup } from '../../src/server/db/backup';
import { insertDefaultStatuses } from '../../src/server/db/project-statuses';
import { projects, projectStatusCounts, tasks } from '../../src/server/db/schema';
import { createUser, insertTeam, projectCounters } from '../factories';
import { openTestDatabase, setupTestApp } from '../helpers/app';

const ctx = setupTestApp();

/** Each project's counters as the app reads them beside a recount of its tasks: "total/todo/in progress/review/completed/progress". */
async function countersOf(ids: string[]) {
  const recount = (status: string) => `count(*) filter (where t.status = '${status}')`;
  return Promise.all(
    ids.map(async (id) => {
      const c = await projectCounters(ctx.database.db, id);
      const [row] = await ctx.database.db
        .select({
          recounted: sql<string>`(select concat_ws('/', count(*), ${sql.raw(recount('todo'))}, ${sql.raw(recount('in_progress'))}, ${sql.raw(recount('review'))}, ${sql.raw(recount('completed'))},
            coalesce(round(100.0 * ${sql.raw(recount('completed'))} / nullif(count(*), 0))::int, 0))
            from tasks t where t.project_id = ${id})`,
        })
        .from(projects)
        .where(eq(projects.id, id));
      return {
        id,
        stored: [c.taskCount, c.todo, c.in_progress, c.review, c.completed, c.progress].join('/'),
        recounted: row!.recounted,
      };
    }),
  );
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
  await insertDefaultStatuses(db, [a!.id, b!.id]);
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
    await db
      .update(tasks)
      .set({ title: sql`${tasks.title} || '!'` })
      .where(eq(tasks.projectId, b));
    await db.update(tasks).set({ projectId: b }).where(sql`${tasks.projectId} = ${a} and ${tasks.title} like 'Bulk 1%'`);
    await db.delete(tasks).where(sql`${tasks.projectId} = ${b} and ${tasks.status} = 'review'`);
    for (const r of await countersOf([a, b])) expect(r.stored, r.id).toBe(r.recounted);
    expect((await projectCounters(db, a)).taskCount).toBeGreaterThan(0);
    await db.delete(tasks).where(eq(tasks.projectId, a));
    expect(await countersOf([a])).toEqual([{ id: a, stored: '0/0/0/0/0/0', recounted: '0/0/0/0/0/0' }]);
  });

  it('are exact after a restore (the counters are not in the backup: the triggers count the restored tasks, then one recount)', async () => {
    const { db, owner, a } = await world();
    await db.insert(tasks).values(
      (['todo', 'completed', 'completed'] as const).map((status, i) => ({
        title: `Restored ${i}`,
        projectId: a,
        creatorId: owner.id,
        status,
      })),
    );
    const backup = await createBackup(ctx.database.db);
    const target = await openTestDatabase();
    try {
      await restoreBackup(target.database.db, backup);
      const restored = await projectCounters(target.database.db, a);
      expect({ n: restored.taskCount, done: restored.completed, p: restored.progress }).toEqual({ n: 3, done: 2, p: 67 });
      expect(await projectCounters(ctx.database.db, a)).toMatchObject({ taskCount: 3, completed: 2, progress: 67 });
      // One row per project and status after the recount.
      const rows = await target.database.db.select().from(projectStatusCounts).where(eq(projectStatusCounts.projectId, a));
      expect(rows.map(({ status, slot, n }) => ({ status, slot, n })).sort((x, y) => x.status.localeCompare(y.status))).toEqual([
        { status: 'completed', slot: 0, n: 2 },
        { status: 'todo', slot: 0, n: 1 },
      ]);
    } finally {
      await target.drop();
    }
  });
});

describe.skipIf(!process.env.DATABASE_URL)('project task counters on PostgreSQL', () => {
  it('let a writer on another connection go on while one holds its transaction open in the same project', async () => {
    const { owner, a } = await world();
    const pool = ctx.database.pool!;
    const holder = await pool.connect();
    const others: pg.PoolClient[] = [];
    try {
      await holder.query('begin');
      await holder.query(`insert into tasks (title, project_id, creator_id, status) values ('Held', $1, $2, 'todo')`, [
        a,
        owner.id,
      ]);
      const slotOf = async (c: pg.PoolClient) => (await c.query<{ s: number }>('select pg_backend_pid() % 8 as s')).rows[0]!.s;
      const held = await slotOf(holder);
      // Another connection of the pool with another slot (pools of up to 8 connections can collide).
      let other: pg.PoolClient | undefined;
      for (let i = 0; i < 6 && !other; i++) {
        const c = await pool.connect();
        others.push(c);
        if ((await slotOf(c)) !== held) other = c;
      }
      expect(other, 'no connection with another slot').toBeDefined();
      // On one counter row per project this insert waited for the holder's commit; now it must not.
      await other!.query(`set statement_timeout = '2s'`);
      await other!.query(
        `insert into tasks (title, project_id, creator_id, status) values ('Not blocked', $1, $2, 'completed')`,
        [a, owner.id],
      );
      await other!.query(`set statement_timeout = 0`);
      await holder.query('commit');
      expect(await countersOf([a])).toEqual([{ id: a, stored: '2/1/0/0/1/50', recounted: '2/1/0/0/1/50' }]);
    } finally {
      for (const c of others) await c.query('reset statement_timeout').catch(() => {});
      await holder.query('rollback').catch(() => {});
      holder.release();
      for (const c of others) c.release();
    }
  });
});
