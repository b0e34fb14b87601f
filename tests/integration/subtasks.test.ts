/**
 * Sub-tasks and start dates in the tasks API (issue 37 step 3, decision 0025): the parent rule (visibility first, then
 * cycle, depth, project), the counts the database keeps on the parent, the order route, deleting a subtree, and the
 * start date against the due date.
 */
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { SUBTASK_LIMITS } from '../../src/domain/constants';
import { ERROR_MESSAGES } from '../../src/domain/errors';
import type { ActivityListDto } from '../../src/domain/schemas/task-detail';
import type { StatusDto } from '../../src/domain/schemas/workflow';
import type { SubtaskListDto, TaskBoardDto, TaskDto, TaskListDto } from '../../src/domain/schemas/task';
import { tasks, webhookDeliveries } from '../../src/server/db/schema';
import type { DomainEvent } from '../../src/server/lib/events';
import { insertOwnerMemberStranger, type TestUser } from '../factories';
import { apiRequests } from '../helpers/api';
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
  projectId = (await ok<{ id: string }>(owner, 'POST', '/api/projects', { name: 'Trees', teamId }, 201)).id;
  otherProjectId = (await ok<{ id: string }>(owner, 'POST', '/api/projects', { name: 'Elsewhere', teamId }, 201)).id;
  const strangerTeamId = (await ok<{ id: string }[]>(stranger, 'GET', '/api/teams'))[0]!.id;
  strangerProjectId = (
    await ok<{ id: string }>(stranger, 'POST', '/api/projects', { name: 'Theirs', teamId: strangerTeamId }, 201)
  ).id;
  hookId = (
    await ok<{ id: string }>(
      owner,
      'POST',
      `/api/teams/${teamId}/webhooks`,
      { url: 'http://127.0.0.1:9/never', events: ['task.updated', 'task.deleted'] },
      201,
    )
  ).id;
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
  (await ctx.database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.webhookId, hookId))).filter(
    (d) => d.eventType === type && (JSON.parse(d.body) as { data: { task: { id: string } } }).data.task.id === taskId,
  );

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

  it('moves a sub-task to another project out of its parent, and refuses to move a parent with sub-tasks', async () => {
    const parent = await create({ title: 'Stays' });
    const child = await create({ title: 'Leaves', parentId: parent.id });
    const refused = await fails(owner, 'PATCH', `/api/tasks/${parent.id}`, { projectId: otherProjectId }, 400);
    expect(refused.json().error.message).toBe(ERROR_MESSAGES.subtask_move_has_children);
    const moved = await patch(child.id, { projectId: otherProjectId });
    expect(moved).toMatchObject({ projectId: otherProjectId, parentId: null });
    expect((await get(parent.id)).subtaskCounts).toEqual({ done: 0, total: 0 });
    // Now without sub-tasks, the parent may move.
    expect((await patch(parent.id, { projectId: otherProjectId })).projectId).toBe(otherProjectId);
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
