/**
 * Sub-tasks and start dates in the tasks API (issue 37 step 3, decision 0025): the parent rule (visibility first, then
 * cycle, depth, project), the counts the database keeps on the parent, the order route, deleting a subtree, completing
 * a parent with its open sub-tasks and moving a subtree to another project (step 3b), and the start date against the
 * due date.
 */
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { SUBTASK_LIMITS } from '../../src/domain/constants';
import { ERROR_MESSAGES } from '../../src/domain/errors';
import type { ActivityListDto } from '../../src/domain/schemas/task-detail';
import type { StatusDto, StatusListDto } from '../../src/domain/schemas/workflow';
import type { SubtaskListDto, TaskBoardDto, TaskDto, TaskListDto } from '../../src/domain/schemas/task';
import { tasks, webhookDeliveries } from '../../src/server/db/schema';
import type { DomainEvent } from '../../src/server/lib/events';
import { insertOwnerMemberStranger, insertTeam, type TestUser } from '../factories';
import { apiRequests, projectsAndQueuedHook } from '../helpers/api';
import { setupTestApp } from '../helpers/app';

// A hook that is never delivered (the worker polls once a minute): its queued deliveries are what is read.
const ctx = setupTestApp({ webhooksAllowPrivate: true, webhookPollIntervalMs: 60_000 });
const { call, ok, fails } = apiRequests(ctx);

let owner: TestUser;
let member: TestUser;
let stranger: TestUser;
let teamId: string;
let projectId: string;
let otherProjectId: string;
let strangerProjectId: string;
let canceledKey: string;
let hookId: string;

beforeAll(async () => {
  let team: { id: string };
  ({ owner, member, stranger, team } = await insertOwnerMemberStranger(ctx.app, ctx.database.db, { strangerTeam: true }));
  teamId = team.id;
  ({ projectId, otherProjectId, strangerProjectId, hookId } = await projectsAndQueuedHook(
    ok,
    { owner, stranger, teamId },
    ['Trees', 'Elsewhere'],
    ['task.updated', 'task.moved', 'task.deleted'],
  ));
  canceledKey = (
    await ok<StatusDto>(
      owner,
      'POST',
      `/api/projects/${projectId}/statuses`,
      { name: "Won't do", category: 'canceled', color: '#6b7280' },
      201,
    )
  ).key;
});

const create = (body: Record<string, unknown>, user = owner) =>
  ok<TaskDto>(user, 'POST', '/api/tasks', { title: 'Task', projectId, ...body }, 201);
const get = (id: string, user = owner) => ok<TaskDto>(user, 'GET', `/api/tasks/${id}`);
const patch = (id: string, body: Record<string, unknown>, user = owner) => ok<TaskDto>(user, 'PATCH', `/api/tasks/${id}`, body);
const subtasks = async (id: string, user = owner) => (await ok<SubtaskListDto>(user, 'GET', `/api/tasks/${id}/subtasks`)).tasks;

/** The webhook deliveries queued (never sent: the worker polls once a minute) of `type` about task `taskId`. */
const deliveries = async (type: string, taskId: string) =>
  (
    await ctx.database.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.webhookId, hookId))
      .orderBy(webhookDeliveries.id)
  ).filter((d) => d.eventType === type && (JSON.parse(d.body) as { data: { task: { id: string } } }).data.task.id === taskId);

/** A chain of `n` tasks, each the sub-task of the one before; the top first. */
async function chain(n: number): Promise<TaskDto[]> {
  const levels: TaskDto[] = [];
  for (let i = 0; i < n; i++) levels.push(await create({ title: `Level ${i + 1}`, parentId: levels.at(-1)?.id ?? null }));
  return levels;
}

describe('sub-tasks', () => {
  it('creates sub-tasks last among their siblings, with the new fields on every read', async () => {
    const parent = await create({ title: 'Parent' });
    expect(parent).toMatchObject({ parentId: null, subtaskCounts: { done: 0, total: 0 }, startDate: null, blockedCount: 0 });
    const a = await create({ title: 'A', parentId: parent.id });
    const b = await create({ title: 'B', parentId: parent.id }, member);
    expect(a.parentId).toBe(parent.id);
    expect((await subtasks(parent.id, member)).map((t) => t.title)).toEqual(['A', 'B']);
    expect((await get(parent.id)).subtaskCounts).toEqual({ done: 0, total: 2 });

    // The list, the board (one project and All Projects) carry the same fields.
    const list = await ok<TaskListDto>(owner, 'GET', `/api/tasks?projectId=${projectId}`);
    expect(list.tasks.find((t) => t.id === parent.id)?.subtaskCounts).toEqual({ done: 0, total: 2 });
    expect(list.tasks.find((t) => t.id === b.id)?.parentId).toBe(parent.id);
    const filtered = await ok<TaskListDto>(owner, 'GET', `/api/tasks?projectId=${projectId}&sort=title`);
    expect(filtered.tasks.find((t) => t.id === parent.id)?.subtaskCounts).toEqual({ done: 0, total: 2 });
    const board = await ok<TaskBoardDto>(owner, 'GET', `/api/tasks/board?projectId=${projectId}&limit=100`);
    const card = Object.values(board.columns)
      .flat()
      .find((t) => t.id === parent.id);
    expect(card).toMatchObject({ parentId: null, subtaskCounts: { done: 0, total: 2 }, blockedCount: 0 });
    const all = await ok<TaskBoardDto>(owner, 'GET', '/api/tasks/board?limit=100');
    expect(
      Object.values(all.columns)
        .flat()
        .find((t) => t.id === a.id)?.parentId,
    ).toBe(parent.id);
  });

  it('gives sub-tasks added at once each their own place', async () => {
    const parent = await create({ title: 'Busy parent' });
    const created = await Promise.all(
      Array.from({ length: 6 }, (_, i) => create({ title: `Racer ${i}`, parentId: parent.id }, i % 2 ? member : owner)),
    );
    const rows = await ctx.database.db
      .select({ position: tasks.subtaskPosition })
      .from(tasks)
      .where(eq(tasks.parentId, parent.id));
    expect(new Set(rows.map((r) => r.position)).size).toBe(created.length);
    expect((await get(parent.id)).subtaskCounts).toEqual({ done: 0, total: 6 });
  });

  it("counts the parent's sub-tasks by category: completed is done, canceled leaves the total", async () => {
    const parent = await create({ title: 'Counted' });
    const [a, b, c] = [
      await create({ parentId: parent.id }),
      await create({ parentId: parent.id }),
      await create({ parentId: parent.id }),
    ];
    expect((await get(parent.id)).subtaskCounts).toEqual({ done: 0, total: 3 });
    await ok(member, 'PATCH', `/api/tasks/${a!.id}/status`, { status: 'completed' });
    expect((await get(parent.id)).subtaskCounts).toEqual({ done: 1, total: 3 });
    await patch(b!.id, { status: canceledKey });
    expect((await get(parent.id)).subtaskCounts).toEqual({ done: 1, total: 2 });
    await patch(c!.id, { status: 'in_progress' });
    expect((await get(parent.id)).subtaskCounts).toEqual({ done: 1, total: 2 });
    // A child's change leaves the parent's version alone.
    expect((await get(parent.id)).version).toBe(parent.version);
  });

  it(`allows chains of ${SUBTASK_LIMITS.maxDepth} tasks and refuses a deeper one, or a cycle`, async () => {
    const deep = await chain(SUBTASK_LIMITS.maxDepth);
    const res = await fails(owner, 'POST', '/api/tasks', { title: 'Too deep', projectId, parentId: deep.at(-1)!.id }, 400);
    expect(res.json().error).toMatchObject({
      code: 'validation_failed',
      message: ERROR_MESSAGES.subtask_too_deep,
      fields: { parentId: ERROR_MESSAGES.subtask_too_deep },
    });
    // Moving a task with its own sub-task under a chain counts the sub-task too.
    const [top, second] = await chain(2);
    await fails(owner, 'PATCH', `/api/tasks/${top!.id}`, { parentId: deep[3]!.id }, 400, 'subtask_too_deep');
    await fails(owner, 'PATCH', `/api/tasks/${top!.id}`, { parentId: deep[2]!.id }, 200);
    expect((await get(second!.id)).parentId).toBe(top!.id);

    // A cycle: the top under its own descendant, or a task under itself.
    const cycle = await call(owner, 'PATCH', `/api/tasks/${deep[0]!.id}`, { parentId: deep[2]!.id });
    expect(cycle.statusCode).toBe(400);
    expect(cycle.json().error.message).toBe(ERROR_MESSAGES.subtask_cycle);
    await fails(owner, 'PATCH', `/api/tasks/${deep[1]!.id}`, { parentId: deep[1]!.id }, 400, 'subtask_cycle');
  });

  it('two re-parentings at once that lock no task in common cannot make a chain longer than the limit', async () => {
    const depthOf = async (id: string) => {
      let depth = 1;
      for (let task = await get(id); task.parentId; task = await get(task.parentId)) depth++;
      return depth;
    };
    for (let round = 0; round < 4; round++) {
      // Three levels, and two: the second's top under the first's bottom makes five; a task under the second's
      // bottom makes three. Each alone is allowed; both would make six.
      const upper = await chain(SUBTASK_LIMITS.maxDepth - 2);
      const [lowerTop, lowerBottom] = await chain(2);
      const [moved, added] = await Promise.all([
        call(owner, 'PATCH', `/api/tasks/${lowerTop!.id}`, { parentId: upper.at(-1)!.id }),
        call(owner, 'POST', '/api/tasks', { title: 'Below', projectId, parentId: lowerBottom!.id }),
      ]);
      // Whichever goes first is allowed; the other then sees it, and is refused.
      const succeeded = [moved.statusCode === 200, added.statusCode === 201];
      expect(succeeded.filter(Boolean), `${moved.body} ${added.body}`).toHaveLength(1);
      const refused = succeeded[0] ? added : moved;
      expect(refused.statusCode).toBe(400);
      expect(refused.json().error.message).toBe(ERROR_MESSAGES.subtask_too_deep);
      if (added.statusCode === 201) expect(await depthOf(added.json().id)).toBeLessThanOrEqual(SUBTASK_LIMITS.maxDepth);
    }
  });

  it("refuses a parent in another project (400) and a stranger's parent (404, before any rule)", async () => {
    const elsewhere = await create({ title: 'Elsewhere', projectId: otherProjectId });
    const other = await fails(owner, 'POST', '/api/tasks', { title: 'x', projectId, parentId: elsewhere.id }, 400);
    expect(other.json().error.message).toBe(ERROR_MESSAGES.subtask_other_project);
    const theirs = await create({ title: 'Theirs', projectId: strangerProjectId }, stranger);
    const notFound = await fails(owner, 'POST', '/api/tasks', { title: 'x', projectId, parentId: theirs.id }, 404);
    expect(notFound.json().error.message).toBe(ERROR_MESSAGES.subtask_parent_not_found);
    // Even where a rule would also refuse (another project, and deep enough), the stranger's task answers 404.
    const task = await create({ title: 'Mine' });
    await fails(owner, 'PATCH', `/api/tasks/${task.id}`, { parentId: theirs.id }, 404, 'subtask_parent_not_found');
    await fails(owner, 'PATCH', `/api/tasks/${task.id}`, { parentId: crypto.randomUUID() }, 404, 'subtask_parent_not_found');
    expect((await get(task.id)).parentId).toBeNull();
  });

  it('re-parents a task and makes it top level again, moving the counts with it', async () => {
    const first = await create({ title: 'First parent' });
    const second = await create({ title: 'Second parent' });
    const earlier = await create({ title: 'Already there', parentId: second.id });
    const child = await create({ title: 'Child', parentId: first.id, status: 'completed' });
    expect((await get(first.id)).subtaskCounts).toEqual({ done: 1, total: 1 });

    const moved = await patch(child.id, { parentId: second.id });
    expect(moved.parentId).toBe(second.id);
    expect(moved.version).toBe(child.version + 1);
    expect((await get(first.id)).subtaskCounts).toEqual({ done: 0, total: 0 });
    expect((await get(second.id)).subtaskCounts).toEqual({ done: 1, total: 2 });
    // Last among its new siblings.
    expect((await subtasks(second.id)).map((t) => t.id)).toEqual([earlier.id, child.id]);

    expect((await patch(child.id, { parentId: null })).parentId).toBeNull();
    expect((await get(second.id)).subtaskCounts).toEqual({ done: 0, total: 1 });
    expect(await subtasks(first.id)).toEqual([]);
  });

  it('publishes one task.updated for re-parenting with a start date', async () => {
    const parent = await create({ title: 'Recorded parent' });
    const task = await create({ title: 'Recorded' });
    const seen: DomainEvent[] = [];
    const unsubscribe = ctx.app.deps.events.subscribe((e) => {
      if (e.type === 'task.updated' && e.taskId === task.id) seen.push(e);
    });
    try {
      await patch(task.id, { parentId: parent.id, startDate: '2026-03-01' });
    } finally {
      unsubscribe();
    }
    expect(seen).toHaveLength(1);
    const [delivery] = await deliveries('task.updated', task.id);
    expect(JSON.parse(delivery!.body).data.task).toMatchObject({ parentId: parent.id, startDate: '2026-03-01' });
  });

  it('writes the history of a start date and of each parent, named by its title at the time (migration 0014)', async () => {
    const first = await create({ title: 'History parent' });
    const second = await create({ title: 'Second history parent' });
    const task = await create({ title: 'Has a history' });
    await patch(task.id, { parentId: first.id, startDate: '2026-03-01' });
    await patch(first.id, { title: 'Renamed parent' });
    await patch(task.id, { parentId: second.id });
    await patch(task.id, { parentId: null, startDate: null });
    const { activity } = await ok<ActivityListDto>(owner, 'GET', `/api/tasks/${task.id}/activity`);
    expect(activity.map((a) => [a.field, a.oldValue, a.newValue, a.oldLabel, a.newLabel])).toEqual([
      ['start_date', null, '2026-03-01', null, null],
      ['parent', null, first.id, null, 'History parent'],
      ['parent', first.id, second.id, 'Renamed parent', 'Second history parent'],
      ['start_date', '2026-03-01', null, null, null],
      ['parent', second.id, null, 'Second history parent', null],
    ]);
  });

  it('moves a sub-task to another project out of its parent, or into another project under a parent there', async () => {
    const parent = await create({ title: 'Stays' });
    const child = await create({ title: 'Leaves', parentId: parent.id });
    const moved = await patch(child.id, { projectId: otherProjectId });
    expect(moved).toMatchObject({ projectId: otherProjectId, parentId: null });
    expect((await get(parent.id)).subtaskCounts).toEqual({ done: 0, total: 0 });
    expect((await get(parent.id)).projectId).toBe(projectId);
    // Into another project under a parent there, in one edit.
    const there = await create({ title: 'Parent there', projectId: otherProjectId });
    const task = await create({ title: 'Goes under' });
    expect(await patch(task.id, { projectId: otherProjectId, parentId: there.id })).toMatchObject({
      projectId: otherProjectId,
      parentId: there.id,
    });
  });

  it('orders sub-tasks: exactly the current ones (409 otherwise), 404 to a stranger', async () => {
    const parent = await create({ title: 'Ordered' });
    const ids = [
      (await create({ title: '1', parentId: parent.id })).id,
      (await create({ title: '2', parentId: parent.id })).id,
      (await create({ title: '3', parentId: parent.id })).id,
    ];
    const seen: DomainEvent[] = [];
    const unsubscribe = ctx.app.deps.events.subscribe((e) => {
      if (e.type === 'task.detail_changed' && e.taskId === parent.id) seen.push(e);
    });
    let reordered: SubtaskListDto;
    try {
      reordered = await ok<SubtaskListDto>(member, 'PUT', `/api/tasks/${parent.id}/subtasks/order`, {
        ids: [ids[2], ids[0], ids[1]],
      });
    } finally {
      unsubscribe();
    }
    expect(reordered.tasks.map((t) => t.title)).toEqual(['3', '1', '2']);
    expect((await subtasks(parent.id)).map((t) => t.title)).toEqual(['3', '1', '2']);
    expect(seen).toMatchObject([{ type: 'task.detail_changed', part: 'subtasks', projectId }]);

    const url = `/api/tasks/${parent.id}/subtasks/order`;
    await fails(owner, 'PUT', url, { ids: [ids[0], ids[1]] }, 409, 'subtask_order_mismatch');
    await fails(owner, 'PUT', url, { ids: [...ids, crypto.randomUUID()] }, 409, 'subtask_order_mismatch');
    await fails(owner, 'PUT', url, { ids: [ids[0], ids[0], ids[1]] }, 409, 'subtask_order_mismatch');
    await fails(owner, 'PUT', url, { ids: [] }, 400);
    await fails(stranger, 'PUT', url, { ids }, 404, 'task_not_found');
    await fails(stranger, 'GET', `/api/tasks/${parent.id}/subtasks`, undefined, 404, 'task_not_found');
    await fails(null, 'GET', `/api/tasks/${parent.id}/subtasks`, undefined, 401);
    expect((await subtasks(parent.id)).map((t) => t.title)).toEqual(['3', '1', '2']);
  });

  it('deletes a parent with its subtree, recording task.deleted for each task', async () => {
    const [top, middle, bottom] = await chain(3);
    const sibling = await create({ title: 'Sibling', parentId: top!.id });
    const deleted: string[] = [];
    const unsubscribe = ctx.app.deps.events.subscribe((e) => {
      if (e.type === 'task.deleted') deleted.push(e.taskId);
    });
    try {
      await ok(owner, 'DELETE', `/api/tasks/${top!.id}`, undefined, 204);
    } finally {
      unsubscribe();
    }
    expect(deleted.sort()).toEqual([top!.id, middle!.id, bottom!.id, sibling.id].sort());
    for (const id of [top!.id, middle!.id, bottom!.id, sibling.id]) expect(await deliveries('task.deleted', id)).toHaveLength(1);
    for (const id of [top!.id, middle!.id, bottom!.id, sibling.id]) await fails(owner, 'GET', `/api/tasks/${id}`, undefined, 404);
  });

  it("refuses a plain member deleting a parent whose subtree holds someone else's task", async () => {
    const parent = await create({ title: 'Member parent' }, member);
    const child = await create({ title: "Owner's child", parentId: parent.id });
    await fails(member, 'DELETE', `/api/tasks/${parent.id}`, undefined, 403);
    expect((await get(child.id)).parentId).toBe(parent.id);
    await ok(owner, 'DELETE', `/api/tasks/${parent.id}`, undefined, 204);
  });
});

type TaskEvent = Extract<DomainEvent, { type: 'task.created' | 'task.updated' | 'task.deleted' }>;

/** The `task.updated` events published while `act` runs, in order. */
async function updatedDuring(act: () => Promise<unknown>): Promise<TaskEvent[]> {
  const seen: TaskEvent[] = [];
  const unsubscribe = ctx.app.deps.events.subscribe((e) => {
    if (e.type === 'task.updated') seen.push(e);
  });
  try {
    await act();
  } finally {
    unsubscribe();
  }
  return seen;
}

const statusesOf = async (project: string) =>
  (await ok<StatusListDto>(owner, 'GET', `/api/projects/${project}/statuses`)).statuses;
const newProject = async (name: string) => (await ok<{ id: string }>(owner, 'POST', '/api/projects', { name, teamId }, 201)).id;
const addStatus = (project: string, name: string, category: string) =>
  ok<StatusDto>(owner, 'POST', `/api/projects/${project}/statuses`, { name, category, color: '#6b7280' }, 201);
const byId = (ids: string[]) => [...ids].sort();

describe('completing and moving a subtree (step 3b)', () => {
  it("completes the open sub-tasks at every level with completeSubtasks, each in its workflow's first completed status", async () => {
    // A workflow whose first completed status is 'Shipped' (placed before 'Completed'), with a canceled 'Dropped'.
    const flow = await newProject('Release flow');
    const shipped = await addStatus(flow, 'Shipped', 'completed');
    const dropped = await addStatus(flow, 'Dropped', 'canceled');
    const ids = (await statusesOf(flow)).map((s) => s.id).filter((id) => id !== shipped.id);
    const completedId = (await statusesOf(flow)).find((s) => s.key === 'completed')!.id;
    ids.splice(ids.indexOf(completedId), 0, shipped.id);
    await ok(owner, 'PUT', `/api/projects/${flow}/statuses/order`, { ids });

    const parent = await create({ title: 'Release', projectId: flow });
    const done = await create({ title: 'Done already', projectId: flow, parentId: parent.id, status: 'completed' });
    const canceled = await create({ title: 'Not doing', projectId: flow, parentId: parent.id, status: dropped.key });
    const open = await create({ title: 'Open', projectId: flow, parentId: parent.id, status: 'in_progress' }, member);
    const grandchild = await create({ title: 'Open grandchild', projectId: flow, parentId: open.id });
    expect((await get(parent.id)).subtaskCounts).toEqual({ done: 1, total: 2 });

    let answer: TaskDto | undefined;
    const seen = await updatedDuring(async () => {
      answer = await patch(parent.id, { status: 'completed', completeSubtasks: true, version: parent.version }, member);
    });
    // The answer's counts are read after the children changed.
    expect(answer).toMatchObject({ status: 'completed', subtaskCounts: { done: 2, total: 2 }, version: parent.version + 1 });
    expect(await get(open.id)).toMatchObject({
      status: shipped.key,
      statusCategory: 'completed',
      subtaskCounts: { done: 1, total: 1 },
      version: open.version + 1,
    });
    expect(await get(grandchild.id)).toMatchObject({ status: shipped.key, statusCategory: 'completed' });
    // Closed ones are left as they were: the completed one keeps its status, the canceled one stays canceled.
    expect(await get(done.id)).toMatchObject({ status: 'completed', version: done.version });
    expect(await get(canceled.id)).toMatchObject({ status: dropped.key, version: canceled.version });

    // One change: a task.updated per task changed, the parent first, then its sub-tasks top-down.
    expect(seen.map((e) => e.taskId)).toEqual([parent.id, open.id, grandchild.id]);
    expect(seen.slice(1).map((e) => [e.previousStatus, e.status, e.category])).toEqual([
      ['in_progress', shipped.key, 'completed'],
      ['todo', shipped.key, 'completed'],
    ]);
    for (const id of [parent.id, open.id, grandchild.id]) expect(await deliveries('task.moved', id)).toHaveLength(1);
    expect(await deliveries('task.moved', done.id)).toHaveLength(0);
    const { activity } = await ok<ActivityListDto>(owner, 'GET', `/api/tasks/${grandchild.id}/activity`);
    expect(activity.map((a) => [a.field, a.oldValue, a.newValue])).toEqual([['status', 'todo', shipped.key]]);
  });

  it('leaves the sub-tasks as they are without the flag, or with a status that is not completed', async () => {
    const parent = await create({ title: 'Done alone' });
    const child = await create({ title: 'Still open', parentId: parent.id });
    const grandchild = await create({ title: 'Still open below', parentId: child.id });
    // The flag with another category's status, or with no status, is ignored.
    expect(await patch(parent.id, { status: 'in_progress', completeSubtasks: true })).toMatchObject({
      subtaskCounts: { done: 0, total: 1 },
    });
    await patch(parent.id, { title: 'Done alone, renamed', completeSubtasks: true });
    const seen = await updatedDuring(() => patch(parent.id, { status: 'completed' }));
    expect(seen.map((e) => e.taskId)).toEqual([parent.id]);
    await patch(parent.id, { status: 'in_progress' });
    await patch(parent.id, { status: 'completed', completeSubtasks: false });
    expect(await get(child.id)).toMatchObject({ status: 'todo', version: child.version });
    expect(await get(grandchild.id)).toMatchObject({ status: 'todo', version: grandchild.version });
    expect((await get(parent.id)).subtaskCounts).toEqual({ done: 0, total: 1 });
    await fails(owner, 'PATCH', `/api/tasks/${parent.id}`, { status: 'completed', completeSubtasks: 'yes' }, 400);
  });

  it('moves a parent with its subtree to another project, each status mapped into its workflow', async () => {
    // The target has no Review and a canceled 'Dropped'; the source has the default four and "Won't do".
    const target = await newProject('Other flow');
    const review = (await statusesOf(target)).find((s) => s.key === 'review')!;
    await ok(owner, 'DELETE', `/api/statuses/${review.id}`, undefined, 204);
    const dropped = await addStatus(target, 'Dropped', 'canceled');

    const parent = await create({ title: 'Moving parent', status: 'in_progress' });
    const inReview = await create({ title: 'In review', parentId: parent.id, status: 'review' });
    const wontDo = await create({ title: 'Not doing', parentId: parent.id, status: canceledKey });
    const done = await create({ title: 'Done', parentId: parent.id, status: 'completed' }, member);
    const grandchild = await create({ title: 'Deep', parentId: inReview.id });
    const greatGrandchild = await create({ title: 'Deeper', parentId: grandchild.id, status: 'review' });
    const order = (await subtasks(parent.id)).map((t) => t.id);

    let moved: TaskDto | undefined;
    const seen = await updatedDuring(async () => {
      moved = await patch(parent.id, { projectId: target }, member);
    });
    expect(moved).toMatchObject({
      projectId: target,
      status: 'in_progress',
      parentId: null,
      subtaskCounts: { done: 1, total: 2 },
    });
    expect(await get(inReview.id)).toMatchObject({
      projectId: target,
      projectName: 'Other flow',
      status: 'in_progress',
      parentId: parent.id,
      subtaskCounts: { done: 0, total: 1 },
      version: inReview.version + 1,
    });
    expect(await get(wontDo.id)).toMatchObject({ projectId: target, status: dropped.key, statusCategory: 'canceled' });
    expect(await get(done.id)).toMatchObject({ projectId: target, status: 'completed' });
    expect(await get(grandchild.id)).toMatchObject({
      projectId: target,
      status: 'todo',
      parentId: inReview.id,
      subtaskCounts: { done: 0, total: 1 },
    });
    expect(await get(greatGrandchild.id)).toMatchObject({ projectId: target, status: 'in_progress', parentId: grandchild.id });
    // Their order among siblings holds, and the target's list holds the whole subtree.
    expect((await subtasks(parent.id)).map((t) => t.id)).toEqual(order);
    const list = await ok<TaskListDto>(owner, 'GET', `/api/tasks?projectId=${target}`);
    expect(byId(list.tasks.map((t) => t.id))).toEqual(
      byId([parent.id, inReview.id, wontDo.id, done.id, grandchild.id, greatGrandchild.id]),
    );

    // A task.updated per moved task, top-down (a level in id order), each with its history.
    expect(seen.map((e) => e.taskId)).toEqual([
      parent.id,
      ...byId([inReview.id, wontDo.id, done.id]),
      grandchild.id,
      greatGrandchild.id,
    ]);
    expect(seen.every((e) => e.projectId === target)).toBe(true);
    expect(await deliveries('task.updated', greatGrandchild.id)).toHaveLength(1);
    const { activity } = await ok<ActivityListDto>(owner, 'GET', `/api/tasks/${greatGrandchild.id}/activity`);
    expect(activity.map((a) => a.field).sort()).toEqual(['project', 'status']);
  });

  it('moves a subtree into another team only with the right to move each task (403) and its assignees there (400)', async () => {
    // Mia runs a team of her own; in Olive's team she is a plain member, who may take out only her own tasks.
    const theirTeam = await insertTeam(ctx.database.db, member);
    const theirProject = (await ok<{ id: string }>(member, 'POST', '/api/projects', { name: "Mia's", teamId: theirTeam.id }, 201))
      .id;
    const parent = await create({ title: "Mia's parent" }, member);
    const mine = await create({ title: "Mia's child", parentId: parent.id }, member);
    const olives = await create({ title: "Olive's grandchild", parentId: mine.id });
    await fails(member, 'PATCH', `/api/tasks/${parent.id}`, { projectId: theirProject }, 403, 'task_move_denied');
    for (const t of [parent, mine, olives]) expect(await get(t.id)).toMatchObject({ projectId, version: t.version });

    // Without Olive's task, but with one assigned to Olive, who is not in Mia's team.
    await ok(owner, 'DELETE', `/api/tasks/${olives.id}`, undefined, 204);
    await patch(mine.id, { assigneeId: owner.id });
    await fails(member, 'PATCH', `/api/tasks/${parent.id}`, { projectId: theirProject }, 400, 'assignee_not_member');
    await patch(mine.id, { assigneeId: member.id });

    const moved = await ok<TaskDto>(member, 'PATCH', `/api/tasks/${parent.id}`, { projectId: theirProject });
    expect(moved).toMatchObject({ projectId: theirProject, subtaskCounts: { done: 0, total: 1 } });
    expect(await get(mine.id, member)).toMatchObject({ projectId: theirProject, parentId: parent.id });
    // It left Olive's team: she no longer sees it, and her team's hook heard each task leave.
    await fails(owner, 'GET', `/api/tasks/${mine.id}`, undefined, 404);
    expect(await deliveries('task.deleted', mine.id)).toHaveLength(1);
  });

  it('answers a stranger 404 and a project they cannot see 404, touching nothing', async () => {
    const parent = await create({ title: 'Not theirs' });
    const child = await create({ title: 'Not theirs either', parentId: parent.id });
    const body = { status: 'completed', completeSubtasks: true };
    await fails(stranger, 'PATCH', `/api/tasks/${parent.id}`, body, 404, 'task_not_found');
    await fails(stranger, 'PATCH', `/api/tasks/${parent.id}`, { projectId: strangerProjectId }, 404, 'task_not_found');
    await fails(null, 'PATCH', `/api/tasks/${parent.id}`, body, 401);
    await fails(owner, 'PATCH', `/api/tasks/${parent.id}`, { projectId: strangerProjectId }, 404, 'project_not_found');
    expect(await get(parent.id)).toMatchObject({ status: 'todo', projectId, version: parent.version });
    expect(await get(child.id)).toMatchObject({ status: 'todo', projectId, version: child.version });
  });

  it('completes a subtree while its tasks change at once: every write lands, and the counts stay exact', async () => {
    const parent = await create({ title: 'Busy release' });
    const children: TaskDto[] = [];
    for (let i = 0; i < 6; i++) children.push(await create({ title: `Busy ${i}`, parentId: parent.id }));
    const below = await create({ title: 'Busy below', parentId: children[0]!.id });
    const responses = await Promise.all([
      call(owner, 'PATCH', `/api/tasks/${parent.id}`, { status: 'completed', completeSubtasks: true }),
      ...children.slice(0, 3).map((c) => call(member, 'PATCH', `/api/tasks/${c.id}/status`, { status: 'in_progress' })),
      ...children.slice(3).map((c) => call(member, 'PATCH', `/api/tasks/${c.id}`, { title: `${c.title}, renamed` })),
      call(member, 'PATCH', `/api/tasks/${below.id}`, { status: canceledKey }),
      call(member, 'POST', '/api/tasks', { title: 'Late', projectId, parentId: children[1]!.id }),
    ]);
    expect(responses.filter((r) => r.statusCode >= 300).map((r) => `${r.statusCode} ${r.body}`)).toEqual([]);
    // Every count is its sub-tasks' (done: completed; total: all but canceled).
    const rows = await ctx.database.db.select().from(tasks).where(eq(tasks.projectId, projectId));
    const tree = new Set([parent.id, ...children.map((c) => c.id)]);
    for (const task of rows.filter((t) => tree.has(t.id))) {
      const kids = rows.filter((t) => t.parentId === task.id);
      expect([task.subtaskDone, task.subtaskTotal], task.title).toEqual([
        kids.filter((k) => k.statusCategory === 'completed').length,
        kids.filter((k) => k.statusCategory !== 'canceled').length,
      ]);
    }
    expect((await get(parent.id)).status).toBe('completed');
  });
});

describe('start dates', () => {
  const message = 'Start date must be on or before the due date';

  it('takes a start date on or before the due date, and refuses one after it (field startDate)', async () => {
    const same = await create({ startDate: '2026-05-01', dueDate: '2026-05-01' });
    expect(same).toMatchObject({ startDate: '2026-05-01', dueDate: '2026-05-01' });
    const res = await fails(
      owner,
      'POST',
      '/api/tasks',
      { title: 'x', projectId, startDate: '2026-05-02', dueDate: '2026-05-01' },
      400,
    );
    expect(res.json().error).toMatchObject({ code: 'validation_failed', fields: { startDate: message } });

    // Against the existing due date, and a new due date against the existing start.
    const task = await create({ dueDate: '2026-06-10' });
    expect((await patch(task.id, { startDate: '2026-06-01' })).startDate).toBe('2026-06-01');
    const late = await fails(owner, 'PATCH', `/api/tasks/${task.id}`, { startDate: '2026-06-11' }, 400);
    expect(late.json().error.fields).toEqual({ startDate: message });
    await fails(owner, 'PATCH', `/api/tasks/${task.id}`, { dueDate: '2026-05-31' }, 400);
    // Both at once, and clearing either.
    expect(await patch(task.id, { startDate: '2026-07-01', dueDate: '2026-07-02' })).toMatchObject({
      startDate: '2026-07-01',
      dueDate: '2026-07-02',
    });
    expect((await patch(task.id, { dueDate: null })).dueDate).toBeNull();
    expect((await patch(task.id, { startDate: '2026-08-01' })).startDate).toBe('2026-08-01');
    expect((await patch(task.id, { startDate: null })).startDate).toBeNull();
    await fails(owner, 'PATCH', `/api/tasks/${task.id}`, { startDate: 'tomorrow' }, 400);
  });
});
