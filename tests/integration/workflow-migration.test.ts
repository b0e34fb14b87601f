// Migrations 0011 and 0012 (issue 36, decision 0024) on a database made by the migrations before them: a scratch
// database migrated to 0010 only (a copy of the migrations folder whose journal stops there), written to as the app
// did then (projects, tasks in all four statuses, their status history, counters in several slots), then migrated to
// 0011. Every task stays in its status, each project gets the default four, and the counters, progress and the
// analytics' tables read the same as before. Then, at 0011, a project with a workflow of its own and its history, and
// the migration to 0012 (the history by category): every status row gets its categories, and the analytics' figures of
// the default projects are the same.
import { rmSync } from 'node:fs';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_STATUSES } from '../../src/domain/workflow';
import { AnalyticsService } from '../../src/server/modules/analytics';
import { type Database, openDatabase } from '../../src/server/db/client';
import { insertDefaultStatuses } from '../../src/server/db/project-statuses';
import { projects, taskActivity, tasks } from '../../src/server/db/schema';
import { recountAllProjects } from '../../src/server/db/task-counters';
import { pgCode } from '../../src/server/lib/errors';
import { projectCounters } from '../factories';
import { migrateWith, migrationsUpTo } from '../helpers/migrations';
import { createScratchTarget, type ScratchTarget } from '../helpers/scratch-db';

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

/** The SQLSTATE a statement failed with ('ok' when it did not). */
const codeOf = (p: Promise<unknown>) =>
  p.then(
    () => 'ok',
    (e: unknown) => pgCode(e) ?? String(e),
  );

const STATUSES = ['todo', 'in_progress', 'review', 'completed'] as const;
const CATEGORY_OF: Record<string, string> = {
  todo: 'unstarted',
  in_progress: 'started',
  review: 'started',
  completed: 'completed',
};

let database: Database;
let target: ScratchTarget;
let cutFolder: string;
const projectIds: string[] = [];
let userId: string;

/** What the app read before 0011, per project: the old counters' sums and progress ("total/todo/doing/review/done/progress"). */
let countsBefore: Map<string, string>;
let tasksBefore: string[];
let spansBefore: string[];
let monthsBefore: string[];
/** At 0011, before 0012: the spans and monthly completions, and the Mixed project's completions (figures below). */
let spans0011: string[];
let starts0011: Map<string, string | null>;
let months0011: string[];
let done0011: { from_at: string; hours: number | null }[];
/** The project with a workflow of its own, made at 0011, and its tasks by title. */
let customId: string;
const customTasks: Record<string, string> = {};

const q = async <T>(query: ReturnType<typeof sql>) => rowsOf<T>(await database.db.execute(query));

const allTasks = async () =>
  (await q<{ j: string }>(sql`select concat_ws('/', id, project_id, status) as j from tasks`)).map((r) => r.j).sort();
const allSpans = async () =>
  (
    await q<{ j: string }>(
      sql`select concat_ws('/', task_id, seq, project_id, status, from_at, to_at, due_date, started_at) as j from task_status_spans`,
    )
  )
    .map((r) => r.j)
    .sort();
/** Each span's start of work ("task/seq" → started_at), and the spans without it. */
const spanStarts = async () =>
  new Map(
    (
      await q<{ k: string; s: string | null }>(
        sql`select task_id || '/' || seq as k, started_at::text as s from task_status_spans`,
      )
    ).map((r) => [r.k, r.s]),
  );
const allSpansButStart = async () =>
  (
    await q<{ j: string }>(
      sql`select concat_ws('/', task_id, seq, project_id, status, from_at, to_at, due_date) as j from task_status_spans`,
    )
  )
    .map((r) => r.j)
    .sort();
let spansButStart0011: string[];
const allMonths = async () =>
  (
    await q<{ j: string }>(
      sql`select concat_ws('/', project_id, month, sum(completed)) as j from project_completion_months
        group by project_id, month having sum(completed) <> 0`,
    )
  )
    .map((r) => r.j)
    .sort();

beforeAll(async () => {
  cutFolder = migrationsUpTo('0010_import_audit');
  target = await createScratchTarget('crewboard_wfmig');
  database = target.databaseUrl
    ? await openDatabase({ databaseUrl: target.databaseUrl })
    : await openDatabase({ dataDir: 'memory://' });
  await migrateWith(database, cutFolder);

  // The data, written as the app of 0010 wrote it (plain SQL: the Drizzle schema is 0011's).
  const [user] = await q<{ id: string }>(
    sql`insert into users (email, full_name) values ('migrated@example.com', 'Migrated') returning id`,
  );
  userId = user!.id;
  const [team] = await q<{ id: string }>(sql`insert into teams (name, owner_id) values ('Migrated', ${userId}) returning id`);
  for (const name of ['Mixed', 'Done', 'Empty']) {
    const [p] = await q<{ id: string }>(
      sql`insert into projects (name, team_id, owner_id) values (${name}, ${team!.id}, ${userId}) returning id`,
    );
    projectIds.push(p!.id);
  }
  const [mixed, done] = projectIds as [string, string, string];
  const day = (n: number) => new Date(Date.UTC(2026, 9, 1 + n)).toISOString();
  // Mixed: three of each status, created on different days; Done: five completed.
  for (let i = 0; i < 12; i++) {
    await database.db.execute(sql`insert into tasks (title, project_id, creator_id, status, created_at)
      values (${`Mixed ${i}`}, ${mixed}, ${userId}, ${STATUSES[i % 4]!}, ${day(i)}::timestamptz)`);
  }
  await database.db.execute(sql`insert into tasks (title, project_id, creator_id, status, created_at)
    select 'Done ' || g, ${done}::uuid, ${userId}::uuid, 'completed', ${day(3)}::timestamptz from generate_series(1, 5) g`);
  // History: a task that went todo -> in_progress -> review -> completed, and one sent back to todo.
  const [walked] = await q<{ id: string }>(sql`insert into tasks (title, project_id, creator_id, status, created_at)
    values ('Walked', ${mixed}, ${userId}, 'completed', ${day(0)}::timestamptz) returning id`);
  const [back] = await q<{ id: string }>(sql`insert into tasks (title, project_id, creator_id, status, created_at)
    values ('Sent back', ${mixed}, ${userId}, 'todo', ${day(0)}::timestamptz) returning id`);
  const moves: [string, string, string, number][] = [
    [walked!.id, 'todo', 'in_progress', 1],
    [walked!.id, 'in_progress', 'review', 4],
    [walked!.id, 'review', 'completed', 6],
    [back!.id, 'todo', 'in_progress', 2],
    [back!.id, 'in_progress', 'todo', 5],
  ];
  for (const [taskId, from, to, d] of moves) {
    await database.db.execute(sql`insert into task_activity (task_id, actor_id, field, old_value, new_value, created_at)
      values (${taskId}, ${userId}, 'status', ${from}, ${to}, ${day(d)}::timestamptz)`);
  }
  // Moves and deletes after the inserts, so the counters have rows to add to and take from.
  await database.db.execute(
    sql`update tasks set status = 'review' where project_id = ${mixed} and title in ('Mixed 0', 'Mixed 1')`,
  );
  await database.db.execute(sql`delete from tasks where project_id = ${mixed} and title = 'Mixed 2'`);
  await database.db.execute(sql`update tasks set project_id = ${mixed} where project_id = ${done} and title = 'Done 1'`);

  countsBefore = new Map(
    (
      await q<{
        id: string;
        j: string;
      }>(sql`select p.id, concat_ws('/', coalesce(sum(c.todo_count + c.in_progress_count + c.review_count + c.done_count), 0),
          coalesce(sum(c.todo_count), 0), coalesce(sum(c.in_progress_count), 0), coalesce(sum(c.review_count), 0),
          coalesce(sum(c.done_count), 0),
          coalesce(round(100.0 * sum(c.done_count) / nullif(sum(c.todo_count + c.in_progress_count + c.review_count + c.done_count), 0))::int, 0)) as j
        from projects p left join project_task_counts c on c.project_id = p.id group by p.id`)
    ).map((r) => [r.id, r.j]),
  );
  tasksBefore = await allTasks();
  spansBefore = await allSpans();
  monthsBefore = await allMonths();

  // 0011, and what 0012 must keep: the completions as 0008 defined them (the current span in 'completed', cycle time
  // from the first move into In Progress).
  await migrateWith(database, migrationsUpTo('0011_workflows'));
  spans0011 = await allSpans();
  starts0011 = await spanStarts();
  spansButStart0011 = await allSpansButStart();
  months0011 = await allMonths();
  done0011 = await q<{ from_at: string; hours: number | null }>(sql`select from_at::text,
      extract(epoch from (from_at - started_at))::float8 / 3600 as hours
    from task_status_spans where project_id = ${mixed} and to_at is null and status = 'completed' order by from_at`);
  await writeCustomWorkflow(team!.id, day);

  await database.migrate();
}, 120_000);

/**
 * At 0011: a project with Backlog, Build (started), Done (completed) and Won't do (canceled), and its history in those
 * keys, written as the app of 0011 wrote it (no categories on the rows).
 */
async function writeCustomWorkflow(teamId: string, day: (n: number) => string) {
  const [p] = await q<{ id: string }>(
    sql`insert into projects (name, team_id, owner_id) values ('Custom', ${teamId}, ${userId}) returning id`,
  );
  customId = p!.id;
  await database.db.execute(sql`insert into project_statuses (project_id, key, name, category, color, position)
    values (${customId}, 'backlog', 'Backlog', 'backlog', '#64748b', 0), (${customId}, 'build', 'Build', 'started', '#0ea5e9', 1),
      (${customId}, 'done', 'Done', 'completed', '#22c55e', 2), (${customId}, 'won_t_do', 'Won''t do', 'canceled', '#94a3b8', 3)`);
  const history: [string, string, [string, string, number][]][] = [
    [
      'Built',
      'done',
      [
        ['backlog', 'build', 2],
        ['build', 'done', 5],
      ],
    ],
    ['Dropped', 'won_t_do', [['backlog', 'won_t_do', 3]]],
    ['Building', 'build', [['backlog', 'build', 4]]],
  ];
  for (const [title, status, moves] of history) {
    const [t] = await q<{ id: string }>(sql`insert into tasks (title, project_id, creator_id, status, created_at)
      values (${title}, ${customId}, ${userId}, ${status}, ${day(1)}::timestamptz) returning id`);
    customTasks[title] = t!.id;
    for (const [from, to, d] of moves) {
      await database.db.execute(sql`insert into task_activity (task_id, actor_id, field, old_value, new_value, created_at)
        values (${t!.id}, ${userId}, 'status', ${from}, ${to}, ${day(d)}::timestamptz)`);
    }
  }
}

afterAll(async () => {
  await database?.close();
  await target?.drop();
  if (cutFolder) rmSync(cutFolder, { recursive: true, force: true });
});

/** A project's counters as the app reads them now, in the order of countsBefore. */
async function countsNow(id: string) {
  const c = await projectCounters(database.db, id);
  return [c.taskCount, c.todo, c.in_progress, c.review, c.completed, c.progress].join('/');
}

describe('migrations 0011 (per-project workflows) and 0012 (history by category) on a database of 0010', () => {
  it('had tasks in all four statuses and counters to move', () => {
    expect(tasksBefore).toHaveLength(18);
    for (const s of STATUSES) expect(tasksBefore.some((t) => t.endsWith(`/${s}`))).toBe(true);
    expect(countsBefore.get(projectIds[0]!)).toBe('14/3/2/4/5/36');
    expect(countsBefore.get(projectIds[1]!)).toBe('4/0/0/0/4/100');
    expect(countsBefore.get(projectIds[2]!)).toBe('0/0/0/0/0/0');
  });

  it('keeps every task in its project and status, with its status category', async () => {
    expect((await allTasks()).filter((t) => !t.includes(customId))).toEqual(tasksBefore);
    const rows = await q<{ status: string; status_category: string }>(
      sql`select status, status_category from tasks where project_id <> ${customId}`,
    );
    for (const r of rows) expect(r.status_category, r.status).toBe(CATEGORY_OF[r.status]);
  });

  it('gives every project the default four, in order, as the domain has them', async () => {
    const rows = await q<{
      project_id: string;
      key: string;
      name: string;
      category: string;
      color: string;
      position: number;
      wip_limit: number | null;
      deleted_at: string | null;
    }>(
      sql`select project_id, key, name, category, color, position, wip_limit, deleted_at from project_statuses
        where project_id <> ${customId} order by project_id, position`,
    );
    const expected = DEFAULT_STATUSES.map(({ key, name, category, color, position }) => ({
      key,
      name,
      category,
      color,
      position,
      wip_limit: null,
      deleted_at: null,
    }));
    for (const id of projectIds) {
      expect(rows.filter((r) => r.project_id === id).map(({ project_id: _, ...rest }) => rest)).toEqual(expected);
    }
    expect(rows).toHaveLength(projectIds.length * 4);
  });

  it('moves the counters: the same counts and progress per project, and the same after a recount', async () => {
    for (const id of projectIds) expect(await countsNow(id), id).toBe(countsBefore.get(id));
    await database.db.transaction((tx) => recountAllProjects(tx));
    for (const id of projectIds) expect(await countsNow(id), id).toBe(countsBefore.get(id));
    const [old] = await q<{ t: string | null }>(sql`select to_regclass('project_task_counts')::text as t`);
    expect(old!.t).toBeNull();
  });

  it("leaves the analytics' spans and monthly completions as they were", () => {
    expect(spans0011).toEqual(spansBefore);
    expect(months0011).toEqual(monthsBefore);
  });

  it('gives every status row of the history its categories, in the default four and in a workflow of its own', async () => {
    const rows = await q<{ project: string; old_value: string; new_value: string; old_category: string; new_category: string }>(
      sql`select t.project_id as project, a.old_value, a.new_value, a.old_category, a.new_category
        from task_activity a join tasks t on t.id = a.task_id where a.field = 'status'`,
    );
    expect(rows).toHaveLength(9);
    const custom: Record<string, string> = { backlog: 'backlog', build: 'started', done: 'completed', won_t_do: 'canceled' };
    for (const r of rows) {
      const of = r.project === customId ? custom : CATEGORY_OF;
      expect([r.old_category, r.new_category], `${r.old_value} → ${r.new_value}`).toEqual([of[r.old_value], of[r.new_value]]);
    }
  });

  it('keeps the spans and monthly completions of the default four, with their categories (0012)', async () => {
    const spans = await q<{ j: string; status: string; category: string; from_at: string; entered_at: string; task_id: string }>(
      sql`select concat_ws('/', s.task_id, s.seq, s.project_id, s.status, s.from_at, s.to_at, s.due_date, s.started_at) as j,
          s.status, s.category, s.from_at::text, s.entered_at::text, s.task_id
        from task_status_spans s where s.project_id <> ${customId}`,
    );
    for (const s of spans) {
      expect(s.category, s.status).toBe(CATEGORY_OF[s.status]);
      if (s.category === 'completed') expect(s.entered_at).toBe(s.from_at);
    }
    // The same spans, but "started" is now the first entry into any started status (decision 0024): a task created in
    // Review that never went through In Progress is started since its creation. Nothing else changes.
    expect((await allSpansButStart()).filter((j) => !j.includes(customId))).toEqual(spansButStart0011);
    const changed: string[] = [];
    for (const [k, started] of await spanStarts()) {
      if (!starts0011.has(k) || starts0011.get(k) === started) continue;
      const span = spans.find((s) => `${s.task_id}/${s.j.split('/')[1]}` === k)!;
      expect([span.status, starts0011.get(k), started]).toEqual(['review', null, span.from_at]);
      changed.push(k);
    }
    // Mixed 6 and 10, created in Review (Mixed 2 was deleted), and Mixed 0 and 1, put in Review with no status row
    // (the definition's "no row: its current status since its creation").
    expect(changed).toHaveLength(4);
    expect((await allMonths()).filter((m) => !m.startsWith(`${customId}/`))).toEqual(months0011);
  });

  it("gives the default projects' analytics the figures they had before 0012", async () => {
    const [mixed] = projectIds as [string];
    await database.db.execute(sql`insert into team_members (team_id, user_id, role)
      select team_id, ${userId}, 'admin' from projects where id = ${mixed}`);
    const service = new AnalyticsService(database.db);
    const a = await service.get(
      { userId, timeZone: null },
      { projectId: mixed, from: '2026-09-28', to: '2026-10-25' },
      new Date('2026-11-01T00:00:00Z'),
    );
    const weekOf = (at: string) =>
      a.scope.weeks.filter((w) => `${w}T00:00:00Z` <= `${at.replace(' ', 'T').slice(0, 19)}Z`).at(-1);
    const inPeriod = done0011.filter((d) => d.from_at >= '2026-09-28');
    expect(a.throughput.map((w) => w.completed)).toEqual(
      a.scope.weeks.map((w) => inPeriod.filter((d) => weekOf(d.from_at) === w).length),
    );
    expect(a.throughput.reduce((n, w) => n + w.completed, 0)).toBe(5);
    expect(a.cycleTime.weeks.map((w) => w.count)).toEqual(
      a.scope.weeks.map((w) => inPeriod.filter((d) => weekOf(d.from_at) === w && d.hours !== null).length),
    );
    expect(a.cycleTime.weeks.flatMap((w) => (w.medianHours === null ? [] : [w.medianHours]))).toEqual(
      inPeriod.flatMap((d) => (d.hours === null ? [] : [d.hours])),
    );
  });

  it("gives a workflow of its own its categories: started at Build, completed at Done, Won't do not completed", async () => {
    const spans = await q<{ title: string; status: string; category: string; started: boolean; open: boolean }>(
      sql`select t.title, s.status, s.category, s.started_at is not null as started, s.to_at is null as open
        from task_status_spans s join tasks t on t.id = s.task_id where s.project_id = ${customId} order by t.title, s.seq`,
    );
    expect(spans.map((s) => `${s.title}:${s.status}:${s.category}:${s.started ? 'started' : '-'}`)).toEqual([
      'Building:backlog:backlog:-',
      'Building:build:started:started',
      'Built:backlog:backlog:-',
      'Built:build:started:started',
      'Built:done:completed:started',
      'Dropped:backlog:backlog:-',
      'Dropped:won_t_do:canceled:-',
    ]);
    expect((await allMonths()).filter((m) => m.startsWith(`${customId}/`))).toEqual([`${customId}/2026-10-01/1`]);
  });

  it('fills the categories of status rows written without them, and keeps those the writer gave', async () => {
    const built = customTasks.Built!;
    await database.db.update(tasks).set({ status: 'won_t_do' }).where(eq(tasks.id, built));
    const [row] = await database.db
      .insert(taskActivity)
      .values({ taskId: built, field: 'status', oldValue: 'done', newValue: 'won_t_do' })
      .returning();
    expect([row!.oldCategory, row!.newCategory]).toEqual(['completed', 'canceled']);
    // A task moved from another project: only the writer knows what its old key meant there.
    const [given] = await database.db
      .insert(taskActivity)
      .values({
        taskId: built,
        field: 'status',
        oldValue: 'won_t_do',
        newValue: 'won_t_do',
        oldCategory: 'started',
        newCategory: 'canceled',
      })
      .returning();
    expect([given!.oldCategory, given!.newCategory]).toEqual(['started', 'canceled']);
    const other = await q<{ old_category: string | null }>(sql`select old_category from task_activity where field <> 'status'`);
    expect(other.every((r) => r.old_category === null)).toBe(true);
    expect((await allMonths()).filter((m) => m.startsWith(`${customId}/`))).toEqual([]);
  });

  it('gives new and moved tasks their category, and counts them per key', async () => {
    const [mixed, done, empty] = projectIds as [string, string, string];
    const [created] = await database.db
      .insert(tasks)
      .values({ title: 'After', projectId: empty, creatorId: userId, status: 'review' })
      .returning();
    expect(created!.statusCategory).toBe('started');
    const [raw] = await q<{
      status_category: string;
    }>(sql`insert into tasks (title, project_id, creator_id, status, status_category)
      values ('Says otherwise', ${empty}, ${userId}, 'todo', 'completed') returning status_category`);
    expect(raw!.status_category).toBe('unstarted');
    const [moved] = await database.db.update(tasks).set({ status: 'completed' }).where(eq(tasks.id, created!.id)).returning();
    expect(moved!.statusCategory).toBe('completed');
    await database.db.update(tasks).set({ projectId: done }).where(eq(tasks.id, created!.id));
    expect(await countsNow(empty)).toBe('1/1/0/0/0/0');
    expect(await countsNow(done)).toBe('5/0/0/0/5/100');
    expect(await countsNow(mixed)).toBe(countsBefore.get(mixed));
  });

  it('refuses a status key the project does not have, and a deleted status', async () => {
    const [, , empty] = projectIds as [string, string, string];
    const insert = (status: string) =>
      database.db.execute(
        sql`insert into tasks (title, project_id, creator_id, status) values ('Refused', ${empty}, ${userId}, ${status})`,
      );
    expect(await codeOf(insert('qa'))).toBe('23503');
    expect(await codeOf(database.db.execute(sql`update tasks set status = 'qa' where project_id = ${empty}`))).toBe('23503');
    // A deleted status keeps its row (its key stays taken) but takes no task.
    await database.db.transaction(async (tx) => {
      await tx.execute(sql`insert into project_statuses (project_id, key, name, category, color, position)
        values (${empty}, 'qa', 'QA', 'started', '#123abc', 4)`);
      await tx.execute(
        sql`update project_statuses set deleted_at = now(), position = null where project_id = ${empty} and key = 'qa'`,
      );
    });
    expect(await codeOf(insert('qa'))).toBe('23503');
    const counted = await q<{ n: number }>(sql`select count(*)::int as n from tasks where status = 'qa'`);
    expect(counted[0]!.n).toBe(0);
  });

  it('holds the statuses to their constraints', async () => {
    const [mixed] = projectIds as [string];
    const add = (values: { key: string; name: string; category?: string; color?: string; position?: number | null }) =>
      database.db.execute(sql`insert into project_statuses (project_id, key, name, category, color, position)
        values (${mixed}, ${values.key}, ${values.name}, ${values.category ?? 'started'}, ${values.color ?? '#aabbcc'},
          ${values.position === undefined ? 9 : values.position})`);
    expect(await codeOf(add({ key: 'todo', name: 'Other' }))).toBe('23505');
    expect(await codeOf(add({ key: 'todo_2', name: 'TO DO' }))).toBe('23505');
    expect(await codeOf(add({ key: 'x', name: 'X', category: 'doing' }))).toBe('23514');
    expect(await codeOf(add({ key: 'x', name: 'X', color: '#AABBCC' }))).toBe('23514');
    expect(await codeOf(add({ key: 'x', name: 'X', position: null }))).toBe('23514');
    expect(
      await codeOf(
        database.db.execute(sql`update project_statuses set wip_limit = 0 where project_id = ${mixed} and key = 'todo'`),
      ),
    ).toBe('23514');
    // Positions are checked at the commit: a reorder rewrites them in one statement.
    await database.db.execute(sql`update project_statuses set position = 3 - position where project_id = ${mixed}`);
    const order = await q<{ key: string }>(
      sql`select key from project_statuses where project_id = ${mixed} and deleted_at is null order by position`,
    );
    expect(order.map((r) => r.key)).toEqual(['completed', 'review', 'in_progress', 'todo']);
    expect(
      await codeOf(
        database.db.transaction(async (tx) => {
          await tx.execute(sql`update project_statuses set position = 0 where project_id = ${mixed} and key = 'review'`);
        }),
      ),
    ).toBe('23505');
  });

  it('gives a project made after it the default four (the same rows as the migration wrote)', async () => {
    const [first] = projectIds as [string];
    const [team] = await q<{ team_id: string }>(sql`select team_id from projects where id = ${first}`);
    const [made] = await database.db.insert(projects).values({ name: 'New', teamId: team!.team_id, ownerId: userId }).returning();
    await insertDefaultStatuses(database.db, [made!.id]);
    const statusesOf = async (id: string) =>
      q<{ j: string }>(sql`select concat_ws('/', key, name, category, color, position, wip_limit, deleted_at) as j
        from project_statuses where project_id = ${id} order by position`);
    const migrated = projectIds[2]!;
    expect(await statusesOf(made!.id)).toEqual(await statusesOf(migrated).then((rows) => rows.slice(0, 4)));
  });

  it('deletes a project with its statuses, tasks and counters', async () => {
    const [mixed] = projectIds as [string];
    await database.db.delete(projects).where(eq(projects.id, mixed));
    const left = await q<{ n: number }>(sql`select
      (select count(*) from project_statuses where project_id = ${mixed})
      + (select count(*) from tasks where project_id = ${mixed})
      + (select count(*) from project_status_counts where project_id = ${mixed}) as n`);
    expect(Number(left[0]!.n)).toBe(0);
  });
});
