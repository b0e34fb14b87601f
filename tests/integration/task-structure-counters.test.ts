// Migration 0013 (issue 37, decision 0025): the counters the triggers keep on tasks — a parent's sub-task counts
// (done: the completed category; total: all but canceled) and a task's open blockers (blockers not in the completed
// category) — exact after every kind of write, without touching the parent's version or updated_at; a parent in
// another project and a start date after the due date refused by the database; on PostgreSQL, exact under writers on
// two connections at once.
import { sql } from 'drizzle-orm';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBackup, restoreBackup } from '../../src/server/db/backup';
import type { Database } from '../../src/server/db/client';
import { insertDefaultStatuses } from '../../src/server/db/project-statuses';
import { pgCode } from '../../src/server/lib/errors';
import { openTestDatabase } from '../helpers/app';

let database: Database;
let drop: () => Promise<void>;

beforeAll(async () => {
  const opened = await openTestDatabase();
  database = opened.database;
  drop = opened.drop;
});
afterAll(async () => {
  await drop?.();
});

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;
const q = async <T>(query: ReturnType<typeof sql>) => rowsOf<T>(await database.db.execute(query));
const run = (query: ReturnType<typeof sql>) => database.db.execute(query);
/** The SQLSTATE a statement failed with ('ok' when it did not). */
const codeOf = (p: Promise<unknown>) =>
  p.then(
    () => 'ok',
    (e: unknown) => pgCode(e) ?? String(e),
  );

/** A team with two projects, each with the default four statuses and a canceled one. */
async function world() {
  const [user] = await q<{ id: string }>(
    sql`insert into users (email, full_name) values (${`s${Math.random()}@example.com`}, 'S') returning id`,
  );
  const [team] = await q<{ id: string }>(sql`insert into teams (name, owner_id) values ('Structure', ${user!.id}) returning id`);
  const ids: string[] = [];
  for (const name of ['A', 'B']) {
    const [p] = await q<{ id: string }>(
      sql`insert into projects (name, team_id, owner_id) values (${name}, ${team!.id}, ${user!.id}) returning id`,
    );
    ids.push(p!.id);
  }
  await insertDefaultStatuses(database.db, ids);
  await run(sql`insert into project_statuses (project_id, key, name, category, color, position)
    select id, 'canceled', 'Canceled', 'canceled', '#64748b', 4 from projects where id in (${ids[0]}, ${ids[1]})`);
  const [a, b] = ids as [string, string];
  const userId = user!.id;
  const task = async (title: string, status = 'todo', parentId: string | null = null, projectId = a) => {
    const [t] = await q<{ id: string }>(sql`insert into tasks (title, project_id, creator_id, status, parent_id)
      values (${title}, ${projectId}, ${userId}, ${status}, ${parentId}) returning id`);
    return t!.id;
  };
  return { a, b, userId, task };
}

/** Every task of the projects whose stored counters differ from a recount (none when exact). */
async function wrongCounters(projectIds: string[]) {
  return q<{ title: string; stored: string; recounted: string }>(sql`
    select t.title, concat_ws('/', t.subtask_done, t.subtask_total, t.open_blocker_count) as stored,
      concat_ws('/',
        (select count(*) from tasks c where c.parent_id = t.id and c.status_category = 'completed'),
        (select count(*) from tasks c where c.parent_id = t.id and c.status_category <> 'canceled'),
        (select count(*) from task_dependencies d join tasks b on b.id = d.blocked_by_id
          where d.task_id = t.id and b.status_category <> 'completed')) as recounted
    from tasks t where t.project_id in (${sql.join(
      projectIds.map((id) => sql`${id}::uuid`),
      sql`, `,
    )})
    and concat_ws('/', t.subtask_done, t.subtask_total, t.open_blocker_count) <> concat_ws('/',
        (select count(*) from tasks c where c.parent_id = t.id and c.status_category = 'completed'),
        (select count(*) from tasks c where c.parent_id = t.id and c.status_category <> 'canceled'),
        (select count(*) from task_dependencies d join tasks b on b.id = d.blocked_by_id
          where d.task_id = t.id and b.status_category <> 'completed'))`);
}

const countsOf = async (id: string) =>
  (
    await q<{ c: string }>(
      sql`select concat_ws('/', subtask_done, subtask_total, open_blocker_count, version, updated_at) as c from tasks where id = ${id}`,
    )
  )[0]!.c;

describe('sub-task counts', () => {
  it('follow inserts, moves, recategorisations, re-parenting, cancels and deletes, leaving the parent itself alone', async () => {
    const { a, userId, task } = await world();
    const parent = await task('Parent');
    const other = await task('Other parent');
    const [before] = await q<{ version: number; updated_at: string }>(
      sql`select version, updated_at::text from tasks where id = ${parent}`,
    );
    // Several categories in one statement.
    await run(sql`insert into tasks (title, project_id, creator_id, status, parent_id)
      select 'Child ' || g, ${a}::uuid, ${userId}::uuid, (array['todo', 'in_progress', 'completed', 'canceled'])[1 + g % 4], ${parent}::uuid
      from generate_series(0, 11) g`);
    expect((await countsOf(parent)).split('/').slice(0, 2)).toEqual(['3', '9']);
    await run(sql`update tasks set status = 'completed' where parent_id = ${parent} and status = 'todo'`);
    expect((await countsOf(parent)).split('/').slice(0, 2)).toEqual(['6', '9']);
    // A status recategorised (as the workflow service does: the status row, then its tasks' category).
    await run(sql`update project_statuses set category = 'canceled' where project_id = ${a} and key = 'review'`);
    await run(sql`update tasks set status_category = 'canceled' where project_id = ${a} and status = 'review'`);
    await run(sql`update tasks set status = 'review' where title in ('Child 1', 'Child 5')`);
    expect((await countsOf(parent)).split('/').slice(0, 2)).toEqual(['6', '7']);
    await run(sql`update project_statuses set category = 'completed' where project_id = ${a} and key = 'review'`);
    await run(sql`update tasks set status_category = 'completed' where project_id = ${a} and status = 'review'`);
    expect((await countsOf(parent)).split('/').slice(0, 2)).toEqual(['8', '9']);
    // Cancel, re-parent (one to another parent, one to the top level), delete.
    await run(sql`update tasks set status = 'canceled' where title = 'Child 0'`);
    await run(sql`update tasks set parent_id = ${other} where title in ('Child 2', 'Child 3')`);
    await run(sql`update tasks set parent_id = null, title = 'Top now' where title = 'Child 6'`);
    await run(sql`delete from tasks where title in ('Child 9', 'Child 10')`);
    // A grandchild counts for its own parent only.
    const child = (await q<{ id: string }>(sql`select id from tasks where title = 'Child 4'`))[0]!.id;
    await task('Grandchild', 'completed', child);
    expect(await wrongCounters([a])).toEqual([]);
    const [after] = await q<{ version: number; updated_at: string }>(
      sql`select version, updated_at::text from tasks where id = ${parent}`,
    );
    expect(after).toEqual(before);
    // Deleting the parent takes its subtree (the cascade) and leaves the other parent exact.
    await run(sql`delete from tasks where id = ${parent}`);
    expect(await q(sql`select id from tasks where title = 'Grandchild'`)).toEqual([]);
    expect(await wrongCounters([a])).toEqual([]);
  });

  it('refuse a parent in another project, on insert and on update of the parent or the project', async () => {
    const { a, b, task } = await world();
    const parent = await task('Parent in A');
    const child = await task('Child in A', 'todo', parent);
    const inB = await task('Task in B', 'todo', null, b);
    expect(await codeOf(task('Child in B', 'todo', parent, b))).toBe('23514');
    expect(await codeOf(run(sql`update tasks set parent_id = ${parent} where id = ${inB}`))).toBe('23514');
    expect(await codeOf(run(sql`update tasks set project_id = ${b} where id = ${child}`))).toBe('23514');
    // Moved top-down (the parent first, then its children), the subtree may change projects.
    await run(sql`update tasks set project_id = ${b} where id = ${parent}`);
    await run(sql`update tasks set project_id = ${b} where id = ${child}`);
    expect(await wrongCounters([a, b])).toEqual([]);
  });

  it('refuse a start date after the due date', async () => {
    const { task } = await world();
    const id = await task('Dated');
    expect(await codeOf(run(sql`update tasks set start_date = '2026-03-02', due_date = '2026-03-01' where id = ${id}`))).toBe(
      '23514',
    );
    expect(await codeOf(run(sql`update tasks set start_date = '2026-03-01', due_date = '2026-03-01' where id = ${id}`))).toBe(
      'ok',
    );
    expect(await codeOf(run(sql`update tasks set due_date = null, start_date = '2026-04-01' where id = ${id}`))).toBe('ok');
  });
});

describe('open blocker counts', () => {
  it('follow dependencies added and removed and blockers completed, reopened and deleted', async () => {
    const { a, b, userId, task } = await world();
    const blocked = await task('Blocked');
    const second = await task('Second blocked');
    const blockers = [await task('B open'), await task('B done', 'completed'), await task('B canceled', 'canceled')];
    const inB = await task('B in B', 'in_progress', null, b);
    await run(sql`insert into task_dependencies (task_id, blocked_by_id, created_by)
      select ${blocked}::uuid, x, ${userId}::uuid from unnest(${`{${[...blockers, inB].join(',')}}`}::uuid[]) x`);
    await run(
      sql`insert into task_dependencies (task_id, blocked_by_id) values (${second}, ${blockers[0]}), (${second}, ${inB})`,
    );
    // A canceled blocker still blocks ("blockers not all completed").
    expect((await countsOf(blocked)).split('/')[2]).toBe('3');
    expect((await countsOf(second)).split('/')[2]).toBe('2');
    await run(sql`update tasks set status = 'completed' where id = ${blockers[0]}`);
    expect((await countsOf(blocked)).split('/')[2]).toBe('2');
    expect((await countsOf(second)).split('/')[2]).toBe('1');
    await run(sql`update tasks set status = 'review' where id = ${blockers[1]}`);
    await run(sql`update tasks set status = 'completed' where id = ${inB}`);
    await run(sql`update tasks set status = 'in_progress' where id = ${inB}`);
    expect((await countsOf(blocked)).split('/')[2]).toBe('3');
    expect(await wrongCounters([a, b])).toEqual([]);
    // A category change of a status reaches the tasks its tasks block.
    await run(sql`update project_statuses set category = 'completed' where project_id = ${b} and key = 'in_progress'`);
    await run(sql`update tasks set status_category = 'completed' where project_id = ${b} and status = 'in_progress'`);
    expect((await countsOf(blocked)).split('/')[2]).toBe('2');
    expect((await countsOf(second)).split('/')[2]).toBe('0');
    // Removed, and deleted blockers (open and completed): the cascade takes their rows.
    await run(sql`delete from task_dependencies where task_id = ${blocked} and blocked_by_id = ${blockers[1]}`);
    expect((await countsOf(blocked)).split('/')[2]).toBe('1');
    await run(sql`delete from tasks where id in (${blockers[2]}, ${blockers[0]})`);
    expect((await countsOf(blocked)).split('/')[2]).toBe('0');
    await run(sql`update tasks set status = 'todo' where id = ${inB}`);
    expect((await countsOf(second)).split('/')[2]).toBe('1');
    await run(sql`delete from tasks where id = ${inB}`);
    expect(await wrongCounters([a, b])).toEqual([]);
    expect(await q(sql`select * from task_dependencies where task_id in (${blocked}, ${second})`)).toEqual([]);
    // A task cannot block itself; a blocked task deleted takes its rows.
    expect(await codeOf(run(sql`insert into task_dependencies (task_id, blocked_by_id) values (${blocked}, ${blocked})`))).toBe(
      '23514',
    );
    const last = await task('Last blocker');
    await run(sql`insert into task_dependencies (task_id, blocked_by_id) values (${blocked}, ${last})`);
    await run(sql`delete from tasks where id = ${blocked}`);
    expect(await q(sql`select * from task_dependencies where blocked_by_id = ${last}`)).toEqual([]);
  });
});

describe('a restore', () => {
  it('writes parents before their sub-tasks and recounts the counters', async () => {
    const { a, b, userId, task } = await world();
    const top = await task('Restored parent');
    const mid = await task('Restored child', 'completed', top);
    await task('Restored grandchild', 'in_progress', mid);
    await run(sql`insert into tasks (title, project_id, creator_id, status, parent_id)
      select 'Restored many ' || g, ${a}::uuid, ${userId}::uuid, 'todo', ${top}::uuid from generate_series(1, 520) g`);
    await run(
      sql`insert into task_dependencies (task_id, blocked_by_id) values (${top}, ${mid}), (${mid}, ${await task('Open blocker')})`,
    );
    const backup = await createBackup(database.db);
    // Sub-tasks first, their parents more than a chunk (500 rows) later.
    backup.tables.find((t) => t.name === 'tasks')!.rows.reverse();
    const restored = await openTestDatabase();
    try {
      await restoreBackup(restored.database.db, backup);
      const counts = rowsOf<{ title: string; c: string }>(
        await restored.database.db.execute(sql`select title, concat_ws('/', subtask_done, subtask_total, open_blocker_count) as c
          from tasks where title in ('Restored parent', 'Restored child') order by title`),
      );
      expect(counts).toEqual([
        { title: 'Restored child', c: '0/1/1' },
        { title: 'Restored parent', c: '1/521/0' },
      ]);
    } finally {
      await restored.drop();
    }
    expect(await wrongCounters([a, b])).toEqual([]);
  });
});

describe.skipIf(!process.env.DATABASE_URL)('task structure counters on PostgreSQL', () => {
  it('stay exact with writers on two connections at once', async () => {
    const { a, userId, task } = await world();
    const parents = [await task('P1'), await task('P2')];
    const blockers = [await task('K1'), await task('K2'), await task('K3')];
    const blocked = [await task('W1'), await task('W2')];
    const pool = database.pool!;
    const clients: pg.PoolClient[] = [await pool.connect(), await pool.connect()];
    const statuses = ['todo', 'in_progress', 'completed', 'canceled'];
    try {
      let committed = 0;
      // One transaction of a writer: sub-tasks inserted, moved, re-parented, deleted; dependencies added and removed
      // and their blockers' categories changed, crossing the other writer's rows.
      const step = async (c: pg.PoolClient, w: number, i: number) => {
        const parent = parents[(i + w) % 2]!;
        const [row] = (
          await c.query<{ id: string }>(
            `insert into tasks (title, project_id, creator_id, status, parent_id) values ($1, $2, $3, $4, $5) returning id`,
            [`C${w}-${i}`, a, userId, statuses[i % 4], parent],
          )
        ).rows;
        await c.query(`update tasks set status = $1 where parent_id = $2 and title like $3`, [
          statuses[(i + w) % 4],
          parent,
          `C${w}-%`,
        ]);
        if (i % 5 === 0) await c.query(`update tasks set parent_id = $1 where id = $2`, [parents[(i + w + 1) % 2], row!.id]);
        if (i % 7 === 3) await c.query(`delete from tasks where id = $1`, [row!.id]);
        const k = blockers[i % 3]!;
        await c.query(`insert into task_dependencies (task_id, blocked_by_id) values ($1, $2) on conflict do nothing`, [
          blocked[w]!,
          k,
        ]);
        await c.query(`update tasks set status = $1 where id = $2`, [i % 2 ? 'completed' : 'review', blockers[(i + w) % 3]]);
        if (i % 3 === 2)
          await c.query(`delete from task_dependencies where task_id = $1 and blocked_by_id = $2`, [blocked[1 - w], k]);
      };
      const writer = async (c: pg.PoolClient, w: number) => {
        for (let i = 0; i < 40; i++) {
          await c.query('begin');
          try {
            await step(c, w, i);
            await c.query('commit');
            committed++;
          } catch (e) {
            // A deadlock (rows locked in another order by the other writer) is a retry for the app, not a wrong count.
            expect(pgCode(e)).toBe('40P01');
            await c.query('rollback');
          }
        }
      };
      await Promise.all([writer(clients[0]!, 0), writer(clients[1]!, 1)]);
      expect(committed).toBeGreaterThan(60);
      expect(await wrongCounters([a])).toEqual([]);
    } finally {
      for (const c of clients) {
        await c.query('rollback').catch(() => {});
        c.release();
      }
    }
  });

  it('count a dependency removed while its blocker is completed on another connection once', async () => {
    const { a, task } = await world();
    const blocker = await task('Racing blocker');
    const blocked = await task('Racing blocked');
    await run(sql`insert into task_dependencies (task_id, blocked_by_id) values (${blocked}, ${blocker})`);
    const pool = database.pool!;
    const [one, two] = [await pool.connect(), await pool.connect()];
    try {
      await one.query('begin');
      await one.query(`delete from task_dependencies where task_id = $1`, [blocked]);
      await two.query('begin');
      const completing = two.query(`update tasks set status = 'completed' where id = $1`, [blocker]);
      await new Promise((r) => setTimeout(r, 100));
      await one.query('commit');
      await completing;
      await two.query('commit');
      expect(await wrongCounters([a])).toEqual([]);
      // And the other way round: the blocker reopened first, a dependency added meanwhile.
      await two.query('begin');
      await two.query(`update tasks set status = 'todo' where id = $1`, [blocker]);
      await one.query('begin');
      const adding = one.query(`insert into task_dependencies (task_id, blocked_by_id) values ($1, $2)`, [blocked, blocker]);
      await new Promise((r) => setTimeout(r, 100));
      await two.query('commit');
      await adding;
      await one.query('commit');
      expect(await wrongCounters([a])).toEqual([]);
      expect((await countsOf(blocked)).split('/')[2]).toBe('1');
    } finally {
      for (const c of [one, two]) {
        await c.query('rollback').catch(() => {});
        c.release();
      }
    }
  });
});
