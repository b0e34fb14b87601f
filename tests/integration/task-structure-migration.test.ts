// Migration 0013 (issue 37, decision 0025) on a database made by the migrations before it: a scratch database migrated
// to 0012 only (a copy of the migrations folder whose journal stops there), with projects and tasks written as the app
// of 0012 wrote them, then migrated. Every task is a top-level task with no sub-tasks, no start date and no blockers,
// and keeps everything it had; the new triggers count from there.
import { rmSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../../src/server/db/client';
import { insertDefaultStatuses } from '../../src/server/db/project-statuses';
import { migrateWith, migrationsUpTo } from '../helpers/migrations';
import { createScratchTarget, type ScratchTarget } from '../helpers/scratch-db';

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

let database: Database;
let target: ScratchTarget;
let cutFolder: string;
let projectId: string;
let userId: string;
/** Every task's own fields before the migration ("id/project/status/category/version/updated_at/…"). */
let tasksBefore: string[];

const q = async <T>(query: ReturnType<typeof sql>) => rowsOf<T>(await database.db.execute(query));
const ownFields = async () =>
  (
    await q<{ j: string }>(sql`select concat_ws('/', id, project_id, status, status_category, version, updated_at, due_date,
      comment_count, checklist_total, checklist_done) as j from tasks`)
  )
    .map((r) => r.j)
    .sort();

beforeAll(async () => {
  cutFolder = migrationsUpTo('0012_analytics_categories');
  target = await createScratchTarget('crewboard_tsmig');
  database = target.databaseUrl
    ? await openDatabase({ databaseUrl: target.databaseUrl })
    : await openDatabase({ dataDir: 'memory://' });
  await migrateWith(database, cutFolder);

  // Written as the app of 0012 wrote it (plain SQL: the Drizzle schema is 0013's).
  const [user] = await q<{ id: string }>(
    sql`insert into users (email, full_name) values ('structure@example.com', 'Structure') returning id`,
  );
  userId = user!.id;
  const [team] = await q<{ id: string }>(sql`insert into teams (name, owner_id) values ('Structure', ${userId}) returning id`);
  const [project] = await q<{ id: string }>(
    sql`insert into projects (name, team_id, owner_id) values ('Migrated', ${team!.id}, ${userId}) returning id`,
  );
  projectId = project!.id;
  await insertDefaultStatuses(database.db, [projectId]);
  await database.db.execute(sql`insert into tasks (title, project_id, creator_id, status, due_date, version)
    select 'Task ' || g, ${projectId}::uuid, ${userId}::uuid, (array['todo', 'in_progress', 'review', 'completed'])[1 + g % 4],
      case when g % 2 = 0 then date '2026-12-01' end, g % 3
    from generate_series(1, 20) g`);
  await database.db.execute(sql`insert into task_checklist_items (task_id, title, done, position)
    select id, 'Item', true, 1 from tasks where title = 'Task 1'`);
  await database.db.execute(sql`update tasks set status = 'completed' where title = 'Task 2'`);
  tasksBefore = await ownFields();

  await database.migrate();
});

afterAll(async () => {
  await database?.close();
  await target?.drop();
  if (cutFolder) rmSync(cutFolder, { recursive: true, force: true });
});

describe('migration 0013 (sub-tasks, start dates, dependencies)', () => {
  it('makes every task a top-level task with no sub-tasks, start date or blockers', async () => {
    const rows = await q<{ n: number; parented: number; positioned: number; counted: number; started: number }>(sql`
      select count(*)::int as n,
        count(*) filter (where parent_id is not null)::int as parented,
        count(*) filter (where subtask_position is not null)::int as positioned,
        count(*) filter (where subtask_done <> 0 or subtask_total <> 0 or open_blocker_count <> 0)::int as counted,
        count(*) filter (where start_date is not null)::int as started
      from tasks`);
    expect(rows).toEqual([{ n: 20, parented: 0, positioned: 0, counted: 0, started: 0 }]);
    expect(await q(sql`select * from task_dependencies`)).toEqual([]);
  });

  it('keeps every task as it was', async () => {
    expect(await ownFields()).toEqual(tasksBefore);
  });

  it('counts from there: a migrated task given sub-tasks and blockers, its own fields untouched', async () => {
    const [parent] = await q<{ id: string }>(sql`select id from tasks where title = 'Task 3'`);
    await database.db.execute(sql`update tasks set parent_id = ${parent!.id}, subtask_position = 0
      where title in ('Task 4', 'Task 5', 'Task 11')`);
    await database.db.execute(sql`insert into task_dependencies (task_id, blocked_by_id)
      select ${parent!.id}::uuid, id from tasks where title in ('Task 7', 'Task 8')`);
    const [counts] = await q<{ done: number; total: number; open: number }>(sql`
      select subtask_done as done, subtask_total as total, open_blocker_count as open from tasks where id = ${parent!.id}`);
    // Task 7 and Task 11 are completed (g % 4 = 3), Task 4, Task 5 and Task 8 are not.
    expect(counts).toEqual({ done: 1, total: 3, open: 1 });
    const changed = (await ownFields()).filter((j) => !tasksBefore.includes(j));
    expect(changed).toEqual([]);
  });
});
