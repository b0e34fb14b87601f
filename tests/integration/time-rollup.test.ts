// Migration 0019 (issue 39, decision 0027 "Time"): a task's `logged_minutes` (its own entries) and
// `subtask_logged_minutes` (its sub-tasks' totals, at every level), kept by triggers, exact after every kind of write —
// entries inserted, changed, moved and deleted; three levels deep; a sub-task re-parented, moved to the top, deleted
// with its subtree and entries (nothing counted twice); a project moved with its tasks; a backup restored — without
// touching any task's version or updated_at (and a restore breaks the series ↔ task foreign-key cycle); on PostgreSQL, exact under writers on two connections at once.
import { sql } from 'drizzle-orm';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBackup, restoreBackup } from '../../src/server/db/backup';
import type { Database } from '../../src/server/db/client';
import { insertDefaultStatuses } from '../../src/server/db/project-statuses';
import { openTestDatabase } from '../helpers/app';

let database: Database;
let databaseUrl: string | undefined;
let drop: () => Promise<void>;

beforeAll(async () => {
  const opened = await openTestDatabase();
  database = opened.database;
  databaseUrl = opened.databaseUrl;
  drop = opened.drop;
});
afterAll(async () => {
  await drop?.();
});

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;
const q = async <T>(query: ReturnType<typeof sql>) => rowsOf<T>(await database.db.execute(query));
const run = (query: ReturnType<typeof sql>) => database.db.execute(query);

/** A team with two projects (default statuses) and a user; `task` inserts one (under a parent), `log` an entry. */
async function world() {
  const [user] = await q<{ id: string }>(
    sql`insert into users (email, full_name) values (${`t${Math.random()}@example.com`}, 'T') returning id`,
  );
  const [team] = await q<{ id: string }>(sql`insert into teams (name, owner_id) values ('Time', ${user!.id}) returning id`);
  const ids: string[] = [];
  for (const name of ['A', 'B']) {
    const [p] = await q<{ id: string }>(
      sql`insert into projects (name, team_id, owner_id) values (${name}, ${team!.id}, ${user!.id}) returning id`,
    );
    ids.push(p!.id);
  }
  await insertDefaultStatuses(database.db, ids);
  const [a, b] = ids as [string, string];
  const userId = user!.id;
  const task = async (title: string, parentId: string | null = null, projectId = a) => {
    const [t] = await q<{ id: string }>(sql`insert into tasks (title, project_id, creator_id, parent_id)
      values (${title}, ${projectId}, ${userId}, ${parentId}) returning id`);
    return t!.id;
  };
  const log = async (taskId: string, minutes: number) => {
    const [e] = await q<{ id: string }>(sql`insert into time_entries (task_id, user_id, date, minutes)
      values (${taskId}, ${userId}, '2026-11-02', ${minutes}) returning id`);
    return e!.id;
  };
  return { a, b, userId, task, log };
}

/** logged/subtask_logged of a task. */
const timeOf = async (id: string) =>
  (await q<{ t: string }>(sql`select concat(logged_minutes, '/', subtask_logged_minutes) as t from tasks where id = ${id}`))[0]
    ?.t;

/** Every task whose stored figures differ from a recount from the entries (none when exact). */
async function wrongTimes() {
  return q<{ title: string; stored: string; recounted: string }>(sql`
    with recursive own as (
      select t.id, t.parent_id, coalesce((select sum(e.minutes) from time_entries e where e.task_id = t.id), 0)::int as m
      from tasks t
    ),
    up as (
      select o.id, o.parent_id as ancestor, o.m from own o where o.parent_id is not null
      union all
      select u.id, o.parent_id, u.m from up u join own o on o.id = u.ancestor where o.parent_id is not null
    ),
    sub as (select ancestor as id, sum(m)::int as m from up group by ancestor)
    select t.title, concat(t.logged_minutes, '/', t.subtask_logged_minutes) as stored,
      concat(o.m, '/', coalesce(sub.m, 0)) as recounted
    from tasks t join own o on o.id = t.id left join sub on sub.id = t.id
    where (t.logged_minutes, t.subtask_logged_minutes) is distinct from (o.m, coalesce(sub.m, 0))`);
}

/** version and updated_at of every task (the triggers must not change them). */
const stamps = async () =>
  (await q<{ s: string }>(sql`select string_agg(concat(id, ':', version, ':', updated_at), ',' order by id) as s from tasks`))[0]!
    .s;

describe('the roll-up', () => {
  it('adds entries up three levels, follows changed and deleted entries, and leaves versions and updated_at alone', async () => {
    const { task, log } = await world();
    const top = await task('Top');
    const mid = await task('Mid', top);
    const leaf = await task('Leaf', mid);
    const sibling = await task('Sibling', top);
    const before = await stamps();

    const e1 = await log(leaf, 30);
    expect([await timeOf(leaf), await timeOf(mid), await timeOf(top)]).toEqual(['30/0', '0/30', '0/30']);
    await log(mid, 10);
    await log(top, 5);
    await log(sibling, 7);
    expect([await timeOf(leaf), await timeOf(mid), await timeOf(top)]).toEqual(['30/0', '10/30', '5/47']);
    // Several entries of several tasks in one statement.
    await run(sql`insert into time_entries (task_id, user_id, date, minutes)
      select t.id, t.creator_id, '2026-11-03', 1 from tasks t, generate_series(1, 3) where t.id in (${leaf}, ${sibling})`);
    expect([await timeOf(leaf), await timeOf(sibling), await timeOf(top)]).toEqual(['33/0', '10/0', '5/53']);
    // An entry's minutes changed; its day or note alone changes nothing.
    await run(sql`update time_entries set minutes = 60 where id = ${e1}`);
    await run(sql`update time_entries set date = '2026-11-04', note = 'n' where id = ${e1}`);
    expect([await timeOf(leaf), await timeOf(mid), await timeOf(top)]).toEqual(['63/0', '10/63', '5/83']);
    // An entry moved to another task (SQL may; the API does not).
    await run(sql`update time_entries set task_id = ${sibling} where id = ${e1}`);
    expect([await timeOf(leaf), await timeOf(sibling), await timeOf(mid), await timeOf(top)]).toEqual([
      '3/0',
      '70/0',
      '10/3',
      '5/83',
    ]);
    // Deleted entries.
    await run(sql`delete from time_entries where id = ${e1}`);
    await run(sql`delete from time_entries where task_id = ${leaf}`);
    expect([await timeOf(leaf), await timeOf(mid), await timeOf(top)]).toEqual(['0/0', '10/0', '5/20']);
    expect(await wrongTimes()).toEqual([]);
    expect(await stamps()).toBe(before);
  });

  it('moves a subtree’s time when a sub-task is re-parented, made top-level, or moved to another project with its parent', async () => {
    const { b, task, log } = await world();
    const one = await task('One');
    const two = await task('Two');
    const child = await task('Child', one);
    const grandchild = await task('Grandchild', child);
    await log(child, 20);
    await log(grandchild, 40);
    expect([await timeOf(one), await timeOf(two)]).toEqual(['0/60', '0/0']);
    const before = await stamps();

    await run(sql`update tasks set parent_id = ${two} where id = ${child}`);
    expect([await timeOf(one), await timeOf(two), await timeOf(child)]).toEqual(['0/0', '0/60', '20/40']);
    await run(sql`update tasks set parent_id = null where id = ${grandchild}`);
    expect([await timeOf(two), await timeOf(child), await timeOf(grandchild)]).toEqual(['0/20', '20/0', '40/0']);
    await run(sql`update tasks set parent_id = ${child} where id = ${grandchild}`);
    expect(await timeOf(two)).toBe('0/60');
    // A parent moved to another project with its subtree (as the service does it: top-down, one statement a level).
    await run(sql`update tasks set project_id = ${b} where id = ${two}`);
    await run(sql`update tasks set project_id = ${b} where id = ${child}`);
    await run(sql`update tasks set project_id = ${b} where id = ${grandchild}`);
    expect([await timeOf(two), await timeOf(child), await timeOf(grandchild)]).toEqual(['0/60', '20/40', '40/0']);
    // A task without time re-parented changes nothing.
    const empty = await task('Empty', one);
    await run(sql`update tasks set parent_id = ${two}, project_id = ${b} where id = ${empty}`);
    expect([await timeOf(one), await timeOf(two)]).toEqual(['0/0', '0/60']);
    expect(await wrongTimes()).toEqual([]);
    // Every task that was there keeps its version and updated_at (plain SQL updates leave them; so do the triggers).
    const after = new Set((await stamps()).split(','));
    expect(before.split(',').filter((s) => !after.has(s))).toEqual([]);
  });

  it('takes a deleted sub-task’s whole subtree off its ancestors once (entries and sub-tasks deleted by the cascade)', async () => {
    const { task, log } = await world();
    const top = await task('Top');
    const mid = await task('Mid', top);
    const leaf = await task('Leaf', mid);
    const other = await task('Other', top);
    await log(top, 1);
    await log(mid, 10);
    await log(leaf, 100);
    await log(leaf, 100);
    await log(other, 1000);
    expect(await timeOf(top)).toBe('1/1210');
    await run(sql`delete from tasks where id = ${mid}`);
    expect(await timeOf(top)).toBe('1/1000');
    expect(await q(sql`select 1 from time_entries where task_id in (${mid}, ${leaf})`)).toEqual([]);
    // A leaf deleted; then a top task with everything under it.
    const leaf2 = await task('Leaf 2', other);
    await log(leaf2, 3);
    expect(await timeOf(top)).toBe('1/1003');
    await run(sql`delete from tasks where id = ${leaf2}`);
    expect([await timeOf(top), await timeOf(other)]).toEqual(['1/1000', '1000/0']);
    await run(sql`delete from tasks where id = ${top}`);
    expect(await q(sql`select 1 from tasks where id in (${top}, ${other})`)).toEqual([]);
    expect(await wrongTimes()).toEqual([]);
  });

  it('deletes a parent and its sub-task in one statement, and a project with its tasks, counting nothing twice', async () => {
    const { b, task, log } = await world();
    const keep = await task('Keep');
    const gone = await task('Gone', keep);
    const goneChild = await task('Gone child', gone);
    const stays = await task('Stays', keep);
    await log(gone, 5);
    await log(goneChild, 6);
    await log(stays, 7);
    await run(sql`delete from tasks where id in (${gone}, ${goneChild})`);
    expect(await timeOf(keep)).toBe('0/7');
    // A project deleted with its tasks (the other project's figures are untouched).
    const elsewhere = await task('Elsewhere', null, b);
    const under = await task('Under', elsewhere, b);
    await log(under, 9);
    await run(sql`delete from projects where id = ${b}`);
    expect(await timeOf(keep)).toBe('0/7');
    expect(await wrongTimes()).toEqual([]);
  });

  it('comes back exact from a backup (the restore recounts what the triggers added to the restored figures)', async () => {
    const { a, userId, task, log } = await world();
    const top = await task('Backed up');
    const mid = await task('Backed up mid', top);
    const leaf = await task('Backed up leaf', mid);
    await log(leaf, 12);
    await log(mid, 3);
    await log(top, 1);
    expect(await wrongTimes()).toEqual([]);
    // A series carried by the top task (migration 0019): series and task name each other, a foreign-key cycle the
    // restore breaks by setting the series' task last.
    const [series] = await q<{ id: string }>(sql`insert into task_series (team_id, project_id, creator_id, rule, mode, timezone,
        anchor_date, current_task_id)
      select p.team_id, p.id, ${userId}::uuid, 'FREQ=DAILY', 'on_completion', 'UTC', '2026-11-02', ${top}::uuid
      from projects p where p.id = ${a} returning id`);
    await run(sql`update tasks set series_id = ${series!.id}, occurrence_date = '2026-11-02' where id = ${top}`);
    const backup = await createBackup(database.db);
    const target = await openTestDatabase();
    try {
      await restoreBackup(target.database.db, backup);
      const restored = rowsOf<{ title: string; t: string }>(
        await target.database.db.execute(
          sql`select title, concat(logged_minutes, '/', subtask_logged_minutes) as t from tasks where title like 'Backed up%' order by title`,
        ),
      );
      expect(restored).toEqual([
        { title: 'Backed up', t: '1/15' },
        { title: 'Backed up leaf', t: '12/0' },
        { title: 'Backed up mid', t: '3/12' },
      ]);
      const carried = rowsOf<{ current: string; carrier: string }>(
        await target.database.db.execute(sql`select s.current_task_id as current, t.id as carrier
          from task_series s join tasks t on t.series_id = s.id where s.id = ${series!.id}`),
      );
      expect(carried).toEqual([{ current: top, carrier: top }]);
    } finally {
      await target.drop();
    }
  });
});

describe('on PostgreSQL, two connections at once', () => {
  it.skipIf(!process.env.DATABASE_URL)(
    'keep the figures exact with entries logged on siblings and a parent concurrently',
    async () => {
      const { Pool } = (await import('pg')).default as unknown as { Pool: typeof pg.Pool };
      const pool = new Pool({ connectionString: databaseUrl, max: 4 });
      try {
        const { task, userId } = await world();
        const top = await task('Concurrent top');
        const kids = await Promise.all([task('Kid 1', top), task('Kid 2', top), task('Kid 3', top)]);
        const writes = Array.from({ length: 40 }, (_, i) => {
          const target = i % 4 === 0 ? top : kids[i % 3]!;
          return pool.query(`insert into time_entries (task_id, user_id, date, minutes) values ($1, $2, '2026-11-02', $3)`, [
            target,
            userId,
            1 + (i % 5),
          ]);
        });
        await Promise.all(writes);
        expect(await wrongTimes()).toEqual([]);
        await Promise.all([
          pool.query('delete from time_entries where task_id = $1', [kids[0]]),
          pool.query('update time_entries set minutes = minutes + 1 where task_id = $1', [kids[1]]),
          pool.query('delete from tasks where id = $1', [kids[2]]),
        ]);
        expect(await wrongTimes()).toEqual([]);
      } finally {
        await pool.end();
      }
    },
  );
});
