// The board on per-project workflows (issue 36, decision 0024 step 5): one project's statuses as columns (one lateral
// read), All Projects by category when the visible workflows differ and as today's four when they are all the default,
// the counts from the counters or counted under filters, a custom key as a filter, and the workflows the answer carries.
import { beforeAll, describe, expect, it } from 'vitest';
import { type TaskBoardDto, type TaskListDto, taskBoardDto } from '../../src/domain/schemas/task';
import { expandTaskList } from '../../src/domain/task-list';
import type { StatusDto, StatusListDto } from '../../src/domain/schemas/workflow';
import { boardColumns, DEFAULT_STATUSES, STATUS_CATEGORIES } from '../../src/domain/workflow';
import { createUser, insertMember, insertTeam, type TestUser } from '../factories';
import { apiRequests } from '../helpers/api';
import { setupTestApp } from '../helpers/app';

const ctx = setupTestApp();
const { call, ok } = apiRequests(ctx);

// Olive runs team Tango (projects Six, with six statuses, and Plain, the default four); Dora runs Delta, whose two
// projects keep the default workflow; Sam runs Sierra. Mia is a plain member of Tango.
let olive: TestUser;
let mia: TestUser;
let dora: TestUser;
let sam: TestUser;
let six: string;
let plain: string;
let samProject: string;

/** Six's statuses in workflow order (keys), and how many tasks each gets. */
const SIX_ORDER = ['backlog', 'todo', 'design', 'in_progress', 'review', 'completed'];
const SIX_TASKS: Record<string, number> = { backlog: 3, todo: 2, design: 5, in_progress: 1, review: 0, completed: 4 };
const PLAIN_TASKS: Record<string, number> = { todo: 2, in_progress: 2, review: 1, completed: 3 };

const board = (user: TestUser, query = '') => ok<TaskBoardDto>(user, 'GET', `/api/tasks/board?${query}`);
const list = (user: TestUser, query: string) => ok<TaskListDto>(user, 'GET', `/api/tasks?${query}`).then(expandTaskList);
const statusesOf = async (projectId: string) =>
  (await ok<StatusListDto>(olive, 'GET', `/api/projects/${projectId}/statuses`)).statuses;
const newProject = async (user: TestUser, teamId: string, name: string) =>
  (await ok<{ id: string }>(user, 'POST', '/api/projects', { teamId, name }, 201)).id;

async function addTasks(user: TestUser, projectId: string, perKey: Record<string, number>) {
  let n = 0;
  for (const [status, count] of Object.entries(perKey)) {
    for (let i = 0; i < count; i++) {
      const priority = n++ % 2 ? 'high' : 'low';
      await ok(user, 'POST', '/api/tasks', { projectId, title: `${status} ${i}`, status, priority }, 201);
    }
  }
}

/** The answer as the contract has it, and every column id in `order` with an entry in columns and counts. */
function expectWellFormed(b: TaskBoardDto) {
  expect(taskBoardDto.parse(b)).toEqual(b);
  expect(Object.keys(b.columns)).toEqual(b.order);
  expect(Object.keys(b.counts)).toEqual(b.order);
  // The server's columns are the domain's for the workflows it sent.
  const columns = boardColumns(b.workflows.map((w) => w.statuses));
  expect(b.order).toEqual(columns.map((c) => (c.kind === 'status' ? c.key : c.category)));
  expect(columns.every((c) => c.kind === b.columnKind)).toBe(true);
}

beforeAll(async () => {
  const people = await Promise.all(
    ['Olive Owner', 'Mia Member', 'Dora Default', 'Sam Stranger'].map((fullName) => createUser(ctx.app, { fullName })),
  );
  [olive, mia, dora, sam] = people as [TestUser, TestUser, TestUser, TestUser];
  const tango = await insertTeam(ctx.database.db, olive, 'Tango');
  await insertMember(ctx.database.db, tango.id, mia, 'member');
  const delta = await insertTeam(ctx.database.db, dora, 'Delta');
  const sierra = await insertTeam(ctx.database.db, sam, 'Sierra');
  six = await newProject(olive, tango.id, 'Six');
  plain = await newProject(olive, tango.id, 'Plain');
  samProject = await newProject(sam, sierra.id, 'Theirs');

  // Six: Backlog, To Do, Design (WIP 2), In Progress (WIP 3), Review, Completed; a status added and deleted again
  // (kept as a row, with its key reserved) is not a column.
  const add = (body: Record<string, unknown>) =>
    ok<StatusDto>(olive, 'POST', `/api/projects/${six}/statuses`, { color: '#7c3aed', ...body }, 201);
  await add({ name: 'Backlog', category: 'backlog' });
  await add({ name: 'Design', category: 'started', wipLimit: 2 });
  const temp = await add({ name: 'Temp', category: 'started' });
  await ok(olive, 'DELETE', `/api/statuses/${temp.id}`, {}, 204);
  const byKey = Object.fromEntries((await statusesOf(six)).map((s) => [s.key, s.id]));
  await ok(olive, 'PATCH', `/api/statuses/${byKey.in_progress}`, { wipLimit: 3 });
  await ok(olive, 'PUT', `/api/projects/${six}/statuses/order`, { ids: SIX_ORDER.map((k) => byKey[k]) });

  await addTasks(olive, six, SIX_TASKS);
  await addTasks(olive, plain, PLAIN_TASKS);
  for (const name of ['D1', 'D2'])
    await addTasks(dora, await newProject(dora, delta.id, name), { todo: 1, review: 1, completed: 1 });
  await addTasks(sam, samProject, { todo: 1 });
});

describe('one project with its own workflow', () => {
  it('has its live statuses as columns in order, WIP limits in workflows, exact counts, at most `limit` cards a column', async () => {
    for (const limit of [3, 20]) {
      const b = await board(mia, `projectId=${six}&limit=${limit}`);
      expectWellFormed(b);
      expect(b.columnKind).toBe('status');
      expect(b.order).toEqual(SIX_ORDER);
      expect(b.workflows).toEqual([{ projectId: six, statuses: await statusesOf(six) }]);
      const wip = Object.fromEntries(b.workflows[0]!.statuses.map((s) => [s.key, s.wipLimit]));
      expect(wip).toEqual({ backlog: null, todo: null, design: 2, in_progress: 3, review: null, completed: null });
      expect(b.counts).toEqual(SIX_TASKS);
      expect(b.total).toBe(15);
      for (const key of SIX_ORDER) {
        // The lateral read: the newest `limit` of each key, as the column's list page has them.
        expect(b.columns[key]!.length, key).toBe(Math.min(limit, SIX_TASKS[key]!));
        const page = await list(mia, `projectId=${six}&status=${key}&limit=${limit}`);
        expect(b.columns[key], `${key}, limit ${limit}`).toEqual(page.tasks);
      }
    }
  });

  it('gives the list page every key’s count from the counters: one project, All Projects, one custom key', async () => {
    // The default four always (Review at 0), and every other key that has tasks; Temp (deleted, no tasks) is not one.
    const one = await list(mia, `projectId=${six}&limit=1`);
    expect(one.counts).toEqual(SIX_TASKS);
    expect(one.total).toBe(15);
    const all = await list(mia, 'limit=1');
    expect(all.counts).toEqual({ backlog: 3, todo: 4, design: 5, in_progress: 3, review: 1, completed: 7 });
    expect(all.total).toBe(23);
    const design = await list(mia, `projectId=${six}&status=design&limit=2`);
    expect(design.counts).toEqual({ todo: 0, in_progress: 0, review: 0, completed: 0, design: 5 });
    expect(design.total).toBe(5);
    // The same figures as counting the tasks (a filter takes that path): high and low priority make every task.
    const [high, low] = await Promise.all(['high', 'low'].map((p) => list(mia, `projectId=${six}&priority=${p}&limit=1`)));
    expect(Object.fromEntries(Object.keys(one.counts).map((k) => [k, (high!.counts[k] ?? 0) + (low!.counts[k] ?? 0)]))).toEqual(
      one.counts,
    );
  });

  it('takes a custom key as the status filter, a category filter, and other filters, counting the matching tasks', async () => {
    const design = await board(mia, `projectId=${six}&status=design&limit=3`);
    expectWellFormed(design);
    expect(design.order).toEqual(SIX_ORDER);
    expect(design.columns.design!.map((t) => t.id)).toEqual(
      (await list(mia, `projectId=${six}&status=design&limit=3`)).tasks.map((t) => t.id),
    );
    expect(
      Object.entries(design.columns)
        .filter(([, cards]) => cards.length > 0)
        .map(([key]) => key),
    ).toEqual(['design']);
    expect(design.counts).toEqual({ backlog: 0, todo: 0, design: 5, in_progress: 0, review: 0, completed: 0 });
    expect(design.total).toBe(5);

    const started = await board(mia, `projectId=${six}&category=started`);
    expectWellFormed(started);
    expect(started.counts).toEqual({ backlog: 0, todo: 0, design: 5, in_progress: 1, review: 0, completed: 0 });
    expect(started.columns.backlog).toEqual([]);
    expect(started.columns.design).toHaveLength(5);

    const high = await board(mia, `projectId=${six}&priority=high&limit=2`);
    expectWellFormed(high);
    for (const key of SIX_ORDER) {
      const page = await list(mia, `projectId=${six}&status=${key}&priority=high&limit=2`);
      expect(high.columns[key], key).toEqual(page.tasks);
      expect(high.counts[key], key).toBe(page.total);
    }
    expect(high.total).toBe((await list(mia, `projectId=${six}&priority=high`)).total);
  });

  it("answers 404 to a stranger for another team's project board, with or without filters", async () => {
    for (const query of [`projectId=${six}`, `projectId=${six}&status=design`, `projectId=${six}&q=x`]) {
      const res = await call(sam, 'GET', `/api/tasks/board?${query}`);
      expect(res.statusCode, query).toBe(404);
      expect(res.json().error.reason).toBe('project_not_found');
    }
  });
});

describe('All Projects', () => {
  const CATEGORY_COUNTS = { backlog: 3, unstarted: 4, started: 9, completed: 7 };

  it('by category when the visible workflows differ: the categories in use, their newest cards and counts', async () => {
    for (const limit of [2, 20]) {
      const b = await board(mia, `limit=${limit}`);
      expectWellFormed(b);
      expect(b.columnKind).toBe('category');
      // No project of Tango has a canceled status: no such column.
      expect(b.order).toEqual(STATUS_CATEGORIES.filter((c) => c !== 'canceled'));
      expect(b.counts).toEqual(CATEGORY_COUNTS);
      expect(b.total).toBe(23);
      expect(b.workflows).toEqual([six, plain].sort().map((projectId) => ({ projectId, statuses: expect.any(Array) })));
      for (const w of b.workflows) expect(w.statuses).toEqual(await statusesOf(w.projectId));
      for (const category of b.order) {
        const page = await list(mia, `category=${category}&limit=${limit}`);
        expect(b.columns[category], `${category}, limit ${limit}`).toEqual(page.tasks);
        expect(b.columns[category]!.every((t) => t.statusCategory === category)).toBe(true);
      }
    }
  });

  it('by category with filters: a custom key, a category, a search', async () => {
    const design = await board(mia, 'status=design');
    expectWellFormed(design);
    expect(design.columnKind).toBe('category');
    expect(design.counts).toEqual({ backlog: 0, unstarted: 0, started: 5, completed: 0 });
    expect(design.columns.started!.map((t) => t.status)).toEqual(Array(5).fill('design'));

    const backlog = await board(mia, 'category=backlog');
    expect(backlog.counts).toEqual({ backlog: 3, unstarted: 0, started: 0, completed: 0 });
    expect(backlog.columns.backlog).toEqual((await list(mia, 'category=backlog&limit=20')).tasks);

    const low = await board(mia, 'priority=low&limit=3');
    expectWellFormed(low);
    for (const category of low.order) {
      const page = await list(mia, `category=${category}&priority=low&limit=3`);
      expect(low.columns[category], category).toEqual(page.tasks);
      expect(low.counts[category], category).toBe(page.total);
    }
  });

  it("the default four only: today's columns and counts, its answer byte for byte beside the workflows", async () => {
    const b = await board(dora, 'limit=20');
    expectWellFormed(b);
    expect(b.columnKind).toBe('status');
    expect(b.order).toEqual(DEFAULT_STATUSES.map((s) => s.key));
    expect(b.workflows).toHaveLength(2);
    // Each project's statuses are the defaults, ids aside.
    const withoutId = (statuses: readonly Omit<StatusDto, 'id'>[]) =>
      statuses.map(({ key, name, category, color, position, wipLimit }) => ({ key, name, category, color, position, wipLimit }));
    for (const w of b.workflows) expect(withoutId(w.statuses)).toEqual(withoutId(DEFAULT_STATUSES));
    // What the board answered before workflows: each status's first page, the counts of the four, the total.
    const before = { columns: {} as Record<string, unknown>, counts: {} as Record<string, number>, total: 0 };
    for (const { key } of DEFAULT_STATUSES) {
      const page = await list(dora, `status=${key}&limit=20`);
      before.columns[key] = page.tasks;
      before.counts[key] = page.total;
      before.total += page.total;
    }
    expect(JSON.stringify({ columns: b.columns, counts: b.counts, total: b.total })).toBe(JSON.stringify(before));
    expect(b.counts).toEqual({ todo: 2, in_progress: 0, review: 2, completed: 2 });

    // A stranger to Tango sees only his own project's board, the default four.
    const theirs = await board(sam);
    expect(theirs.columnKind).toBe('status');
    expect(theirs.workflows.map((w) => w.projectId)).toEqual([samProject]);
    expect(theirs.total).toBe(1);
  });
});
