// A project's workflow through its five routes (issue 36, decision 0024 step 3): each route's answers and refusals,
// what a rename, a recategorisation and a delete with `moveTo` do to the tasks, their history and the counters, and
// who may do what (members read, those who may edit the project write, strangers see nothing).
import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { StatusDto, StatusListDto } from '../../src/domain/schemas/workflow';
import { DEFAULT_STATUSES, STATUS_LIMITS } from '../../src/domain/workflow';
import { projectStatuses, taskActivity, tasks, webhookDeliveries } from '../../src/server/db/schema';
import type { DomainEvent } from '../../src/server/lib/events';
import { createUser, insertMember, insertTeam, type TestUser } from '../factories';
import { apiRequests } from '../helpers/api';
import { setupTestApp } from '../helpers/app';

const ctx = setupTestApp({ webhooksAllowPrivate: true, webhookPollIntervalMs: 60_000 });
const { call, ok, fails } = apiRequests(ctx);

// Olive owns the team, Adam is its admin, Mia a plain member; Sam runs a team of his own.
let olive: TestUser;
let adam: TestUser;
let mia: TestUser;
let sam: TestUser;
let teamId: string;
let samProjectId: string;
let published: DomainEvent[] = [];
let unsubscribe: () => void;

beforeAll(async () => {
  const names = ['Olive Owner', 'Adam Admin', 'Mia Member', 'Sam Stranger'];
  const people = await Promise.all(names.map((fullName) => createUser(ctx.app, { fullName })));
  [olive, adam, mia, sam] = people as [TestUser, TestUser, TestUser, TestUser];
  const team = await insertTeam(ctx.database.db, olive, 'Tango');
  teamId = team.id;
  await insertMember(ctx.database.db, teamId, adam, 'admin');
  await insertMember(ctx.database.db, teamId, mia, 'member');
  const samTeam = await insertTeam(ctx.database.db, sam, 'Sierra');
  samProjectId = (await ok<{ id: string }>(sam, 'POST', '/api/projects', { teamId: samTeam.id, name: 'Theirs' }, 201)).id;
  unsubscribe = ctx.app.deps.events.subscribe((event) => published.push(event));
});
afterAll(() => unsubscribe?.());
beforeEach(() => {
  published = [];
});

let projectCounter = 0;
/** A project of the team (the default workflow), made through the API. */
const newProject = async () =>
  (await ok<{ id: string }>(olive, 'POST', '/api/projects', { teamId, name: `Flow ${++projectCounter}` }, 201)).id;

const statusesOf = async (projectId: string, user: TestUser = olive) =>
  (await ok<StatusListDto>(user, 'GET', `/api/projects/${projectId}/statuses`)).statuses;

/** The live status of `key` in the project. */
const statusOf = async (projectId: string, key: string) => (await statusesOf(projectId)).find((s) => s.key === key)!;

const addStatus = (projectId: string, body: Record<string, unknown>, user: TestUser = olive) =>
  ok<StatusDto>(user, 'POST', `/api/projects/${projectId}/statuses`, { color: '#7c3aed', category: 'started', ...body }, 201);

/** `n` tasks of the project in status `status` (one of the default keys, which the task routes take). */
async function newTasks(projectId: string, status: string, n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    ids.push((await ok<{ id: string }>(olive, 'POST', '/api/tasks', { projectId, title: `${status} ${i}`, status }, 201)).id);
  }
  return ids;
}

/** The counters' sums per status key, and a recount of the tasks per key: equal when the counters are exact. */
async function countersAndRecount(projectId: string) {
  const rows = (q: ReturnType<typeof sql>) =>
    ctx.database.db
      .execute(q)
      .then((r) =>
        Object.fromEntries((r as unknown as { rows: { status: string; n: number }[] }).rows.map((x) => [x.status, x.n])),
      );
  const counters = await rows(sql`select status, sum(n)::int n from project_status_counts where project_id = ${projectId}
    group by status having sum(n) <> 0 order by status`);
  const recount = await rows(sql`select status, count(*)::int n from tasks where project_id = ${projectId}
    group by status order by status`);
  return { counters, recount };
}

const taskRows = (ids: string[]) => ctx.database.db.select().from(tasks).where(sql`${tasks.id} in ${ids}`);

describe('GET /api/projects/:id/statuses', () => {
  it("lists a new project's four default statuses in order, with every field, to every member of its team", async () => {
    const projectId = await newProject();
    const list = await statusesOf(projectId, mia);
    expect(list.map(({ id: _id, ...status }) => status)).toEqual(DEFAULT_STATUSES);
    expect(list.every((s) => /^[0-9a-f-]{36}$/.test(s.id))).toBe(true);
    expect(await statusesOf(projectId, adam)).toEqual(list);
  });

  it('answers 404 to a stranger, as for the project, and to a project that does not exist', async () => {
    const projectId = await newProject();
    await fails(sam, 'GET', `/api/projects/${projectId}/statuses`, undefined, 404, 'project_not_found');
    await fails(olive, 'GET', `/api/projects/${randomUUID()}/statuses`, undefined, 404, 'project_not_found');
    await fails(olive, 'GET', '/api/projects/not-a-uuid/statuses', undefined, 400);
    await fails(null, 'GET', `/api/projects/${projectId}/statuses`, undefined, 401);
  });
});

describe('POST /api/projects/:id/statuses', () => {
  it('adds a status at the end, its key from its name; an admin may too', async () => {
    const projectId = await newProject();
    const qa = await addStatus(projectId, { name: ' QA ', color: '#ABCDEF', wipLimit: 2 });
    expect(qa).toMatchObject({ key: 'qa', name: 'QA', category: 'started', color: '#abcdef', position: 4, wipLimit: 2 });
    const wont = await addStatus(projectId, { name: "Won't do", category: 'canceled' }, adam);
    expect(wont).toMatchObject({ key: 'won_t_do', position: 5, wipLimit: null });
    expect((await statusesOf(projectId)).map((s) => s.key)).toEqual([
      'todo',
      'in_progress',
      'review',
      'completed',
      'qa',
      'won_t_do',
    ]);
    expect(published).toContainEqual(
      expect.objectContaining({ type: 'status.created', teamId, projectId, statusIds: [qa.id], actorId: olive.id }),
    );
  });

  it('refuses a name the project has in another letter case, a bad colour, a WIP limit of 0 and a missing name', async () => {
    const projectId = await newProject();
    const body = { category: 'started', color: '#123456' };
    const taken = await fails(
      olive,
      'POST',
      `/api/projects/${projectId}/statuses`,
      { ...body, name: 'rEVIEW' },
      409,
      'status_name_taken',
    );
    expect(taken.json().error.fields).toEqual({ name: 'This project already has a status with this name' });
    await fails(
      olive,
      'POST',
      `/api/projects/${projectId}/statuses`,
      { ...body, name: 'QA', color: 'blue' },
      400,
      'validation_failed',
    );
    await fails(olive, 'POST', `/api/projects/${projectId}/statuses`, { ...body, name: 'QA', color: '#12345g' }, 400);
    const wip = await fails(olive, 'POST', `/api/projects/${projectId}/statuses`, { ...body, name: 'QA', wipLimit: 0 }, 400);
    expect(JSON.stringify(wip.json().error.fields)).toContain('WIP limit');
    await fails(olive, 'POST', `/api/projects/${projectId}/statuses`, { ...body, name: 'QA', wipLimit: 1.5 }, 400);
    await fails(olive, 'POST', `/api/projects/${projectId}/statuses`, { ...body, name: '   ' }, 400);
    await fails(olive, 'POST', `/api/projects/${projectId}/statuses`, { ...body, name: 'x'.repeat(41) }, 400);
    await fails(olive, 'POST', `/api/projects/${projectId}/statuses`, { ...body, name: 'QA', category: 'done' }, 400);
    expect(await statusesOf(projectId)).toHaveLength(4);
  });

  it('refuses the 51st status (409 too_many_statuses)', async () => {
    const projectId = await newProject();
    for (let i = DEFAULT_STATUSES.length; i < STATUS_LIMITS.perProjectMax; i++) await addStatus(projectId, { name: `Step ${i}` });
    expect(await statusesOf(projectId)).toHaveLength(50);
    await fails(
      olive,
      'POST',
      `/api/projects/${projectId}/statuses`,
      { name: 'One more', category: 'started', color: '#000000' },
      409,
      'too_many_statuses',
    );
    expect(await statusesOf(projectId)).toHaveLength(50);
  });

  it('never reuses a key, not even a deleted status’s', async () => {
    const projectId = await newProject();
    const first = await addStatus(projectId, { name: 'QA' });
    await ok(olive, 'DELETE', `/api/statuses/${first.id}`, undefined, 204);
    const second = await addStatus(projectId, { name: 'qa' });
    expect(second.key).toBe('qa_2');
    // A name whose slug is a default key takes the next free one.
    expect((await addStatus(projectId, { name: 'To-do' })).key).toBe('to_do');
    expect((await addStatus(projectId, { name: 'Todo!' })).key).toBe('todo_2');
  });

  it('is refused to a plain member (403) and a stranger (404), and writes nothing', async () => {
    const projectId = await newProject();
    const body = { name: 'QA', category: 'started', color: '#123456' };
    await fails(mia, 'POST', `/api/projects/${projectId}/statuses`, body, 403, 'project_edit_denied');
    await fails(sam, 'POST', `/api/projects/${projectId}/statuses`, body, 404, 'project_not_found');
    await fails(olive, 'POST', `/api/projects/${randomUUID()}/statuses`, body, 404, 'project_not_found');
    await fails(olive, 'POST', `/api/projects/${projectId}/statuses`, { ...body, key: 'sneaky' }, 400);
    expect(await statusesOf(projectId)).toHaveLength(4);
    expect(published.filter((e) => e.type === 'status.created')).toEqual([]);
  });
});

describe('PATCH /api/statuses/:id', () => {
  it('renames a status: its key and its tasks stay', async () => {
    const projectId = await newProject();
    const ids = await newTasks(projectId, 'review', 2);
    const review = await statusOf(projectId, 'review');
    const renamed = await ok<StatusDto>(olive, 'PATCH', `/api/statuses/${review.id}`, { name: 'Code review', color: '#FF0000' });
    expect(renamed).toEqual({ ...review, name: 'Code review', color: '#ff0000' });
    for (const id of ids) expect((await ok<{ status: string }>(mia, 'GET', `/api/tasks/${id}`)).status).toBe('review');
    // Its own name in another case is no clash; another status's is.
    expect((await ok<StatusDto>(olive, 'PATCH', `/api/statuses/${review.id}`, { name: 'CODE REVIEW' })).name).toBe('CODE REVIEW');
    await fails(olive, 'PATCH', `/api/statuses/${review.id}`, { name: 'to do' }, 409, 'status_name_taken');
    expect(published).toContainEqual(expect.objectContaining({ type: 'status.updated', projectId, statusIds: [review.id] }));
  });

  it('recategorises a status and its tasks with it; the counters stay equal to a recount', async () => {
    const projectId = await newProject();
    const ids = await newTasks(projectId, 'review', 3);
    await newTasks(projectId, 'todo', 1);
    const review = await statusOf(projectId, 'review');
    const before = await taskRows(ids);
    expect(before.map((t) => t.statusCategory)).toEqual(['started', 'started', 'started']);
    await ok(adam, 'PATCH', `/api/statuses/${review.id}`, { category: 'completed' });
    const after = await taskRows(ids);
    expect(after.map((t) => t.statusCategory)).toEqual(['completed', 'completed', 'completed']);
    expect(after.map((t) => t.status)).toEqual(['review', 'review', 'review']);
    // Not an edit of the tasks: no new version, no history.
    expect(after.map((t) => t.version)).toEqual(before.map((t) => t.version));
    expect(await ctx.database.db.select().from(taskActivity).where(sql`${taskActivity.taskId} in ${ids}`)).toEqual([]);
    const { counters, recount } = await countersAndRecount(projectId);
    expect(counters).toEqual(recount);
    // The original Completed may now go to another category: Review is a completed status too.
    const completed = await statusOf(projectId, 'completed');
    expect((await ok<StatusDto>(olive, 'PATCH', `/api/statuses/${completed.id}`, { category: 'canceled' })).category).toBe(
      'canceled',
    );
  });

  it('refuses to recategorise the last completed or the last open status (409), and a WIP limit of 0 or a bad colour (400)', async () => {
    const projectId = await newProject();
    const [todo, , , completed] = await statusesOf(projectId);
    await fails(
      olive,
      'PATCH',
      `/api/statuses/${completed!.id}`,
      { category: 'started' },
      409,
      'workflow_needs_completed_status',
    );
    await fails(olive, 'PATCH', `/api/statuses/${todo!.id}`, { category: 'started' }, 409, 'workflow_needs_open_status');
    await fails(olive, 'PATCH', `/api/statuses/${todo!.id}`, { wipLimit: 0 }, 400, 'validation_failed');
    await fails(olive, 'PATCH', `/api/statuses/${todo!.id}`, { wipLimit: STATUS_LIMITS.wipLimitMax + 1 }, 400);
    await fails(olive, 'PATCH', `/api/statuses/${todo!.id}`, { color: 'red' }, 400);
    await fails(olive, 'PATCH', `/api/statuses/${todo!.id}`, {}, 400);
    await fails(olive, 'PATCH', `/api/statuses/${todo!.id}`, { key: 'other' }, 400);
    expect(await statusesOf(projectId)).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: completed!.id, category: 'completed' })]),
    );
    // Backlog counts as open: then To Do may start.
    await addStatus(projectId, { name: 'Backlog', category: 'backlog' });
    expect((await ok<StatusDto>(olive, 'PATCH', `/api/statuses/${todo!.id}`, { category: 'started' })).category).toBe('started');
  });

  it('sets and clears a WIP limit; a body that changes nothing records nothing', async () => {
    const projectId = await newProject();
    const review = await statusOf(projectId, 'review');
    expect((await ok<StatusDto>(olive, 'PATCH', `/api/statuses/${review.id}`, { wipLimit: 3 })).wipLimit).toBe(3);
    expect((await ok<StatusDto>(olive, 'PATCH', `/api/statuses/${review.id}`, { wipLimit: null })).wipLimit).toBeNull();
    published = [];
    expect(await ok<StatusDto>(olive, 'PATCH', `/api/statuses/${review.id}`, { name: 'Review', wipLimit: null })).toEqual(review);
    expect(published).toEqual([]);
  });

  it('is refused to a plain member (403) and a stranger (404); a deleted or unknown status is 404', async () => {
    const projectId = await newProject();
    const review = await statusOf(projectId, 'review');
    await fails(mia, 'PATCH', `/api/statuses/${review.id}`, { name: 'Mine' }, 403, 'project_edit_denied');
    await fails(sam, 'PATCH', `/api/statuses/${review.id}`, { name: 'Mine' }, 404, 'status_not_found');
    await fails(olive, 'PATCH', `/api/statuses/${randomUUID()}`, { name: 'Mine' }, 404, 'status_not_found');
    await ok(olive, 'DELETE', `/api/statuses/${review.id}`, undefined, 204);
    await fails(olive, 'PATCH', `/api/statuses/${review.id}`, { name: 'Back' }, 404, 'status_not_found');
    expect((await statusesOf(projectId)).map((s) => s.name)).toEqual(['To Do', 'In Progress', 'Completed']);
  });
});

describe('DELETE /api/statuses/:id', () => {
  it('refuses a status that has tasks without moveTo (409 status_not_empty), and moves nothing', async () => {
    const projectId = await newProject();
    const ids = await newTasks(projectId, 'review', 2);
    const review = await statusOf(projectId, 'review');
    const res = await fails(olive, 'DELETE', `/api/statuses/${review.id}`, undefined, 409, 'status_not_empty');
    expect(res.json().error.message).toBe('This status has tasks. Choose where to move them.');
    await fails(olive, 'DELETE', `/api/statuses/${review.id}`, {}, 409, 'status_not_empty');
    expect((await taskRows(ids)).map((t) => t.status)).toEqual(['review', 'review']);
    expect((await statusesOf(projectId)).map((s) => s.key)).toContain('review');
  });

  it('with moveTo moves every task in one transaction, writes their history, keeps the counters exact, then deletes it', async () => {
    const projectId = await newProject();
    const moved = await newTasks(projectId, 'review', 5);
    const stay = await newTasks(projectId, 'in_progress', 2);
    await newTasks(projectId, 'todo', 1);
    const [, inProgress, review] = await statusesOf(projectId);
    const before = await taskRows(moved);
    published = [];

    await ok(olive, 'DELETE', `/api/statuses/${review!.id}`, { moveTo: inProgress!.id }, 204);

    const after = await taskRows(moved);
    expect(after.map((t) => t.status)).toEqual(moved.map(() => 'in_progress'));
    expect(after.map((t) => t.statusCategory)).toEqual(moved.map(() => 'started'));
    expect(after.map((t) => t.version)).toEqual(before.map((t) => t.version + 1));
    // One status entry per moved task, as a move of each would write it; none for the others.
    const history = await ctx.database.db
      .select()
      .from(taskActivity)
      .where(sql`${taskActivity.taskId} in ${[...moved, ...stay]}`);
    expect(history.map((h) => h.taskId).sort()).toEqual([...moved].sort());
    for (const h of history) {
      expect(h).toMatchObject({ field: 'status', oldValue: 'review', newValue: 'in_progress', actorId: olive.id });
    }
    const activity = await ok<{ field: string; oldValue: string; newValue: string }[]>(
      olive,
      'GET',
      `/api/tasks/${moved[0]}/activity`,
    );
    expect(JSON.stringify(activity)).toContain('in_progress');
    const { counters, recount } = await countersAndRecount(projectId);
    expect(recount).toEqual({ in_progress: 7, todo: 1 });
    expect(counters).toEqual(recount);
    // Gone from the workflow, its row kept (its key reserved), the others closed up.
    const list = await statusesOf(projectId);
    expect(list.map((s) => [s.key, s.position])).toEqual([
      ['todo', 0],
      ['in_progress', 1],
      ['completed', 2],
    ]);
    const [row] = await ctx.database.db.select().from(projectStatuses).where(eq(projectStatuses.id, review!.id));
    expect(row).toMatchObject({ key: 'review', position: null, deletedAt: expect.any(Date) });
    // One event for the whole delete, none per moved task.
    expect(published).toEqual([
      expect.objectContaining({ type: 'status.deleted', teamId, projectId, statusIds: [review!.id], actorId: olive.id }),
    ]);
    // A task can no longer be written into it (the database refuses a deleted status).
    await fails(olive, 'POST', '/api/tasks', { projectId, title: 'Late', status: 'review' }, 400);
  });

  it('rolls the whole move back when any part of it fails', async () => {
    const projectId = await newProject();
    const ids = await newTasks(projectId, 'review', 3);
    const [, inProgress, review] = await statusesOf(projectId);
    const db = ctx.database.db;
    // The history's insert (after the tasks moved) fails: nothing of the delete may remain.
    await db.execute(sql`create function crewboard_test_refuse() returns trigger language plpgsql as $$
      begin raise exception 'refused for the test' using errcode = 'check_violation'; end $$`);
    await db.execute(sql`create trigger crewboard_test_refuse before insert on task_activity
      for each row when (new.old_value = 'review') execute function crewboard_test_refuse()`);
    try {
      await fails(olive, 'DELETE', `/api/statuses/${review!.id}`, { moveTo: inProgress!.id }, 400);
    } finally {
      await db.execute(sql`drop trigger crewboard_test_refuse on task_activity`);
      await db.execute(sql`drop function crewboard_test_refuse()`);
    }
    expect((await taskRows(ids)).map((t) => t.status)).toEqual(['review', 'review', 'review']);
    expect((await statusesOf(projectId)).map((s) => s.key)).toEqual(['todo', 'in_progress', 'review', 'completed']);
    const { counters, recount } = await countersAndRecount(projectId);
    expect(counters).toEqual(recount);
    expect(published.filter((e) => e.type === 'status.deleted')).toEqual([]);
  });

  it('refuses deleting the last completed or the last open status, and a moveTo that is not another live status here', async () => {
    const projectId = await newProject();
    await newTasks(projectId, 'review', 1);
    const [todo, inProgress, review, completed] = await statusesOf(projectId);
    await fails(olive, 'DELETE', `/api/statuses/${completed!.id}`, undefined, 409, 'workflow_needs_completed_status');
    await fails(olive, 'DELETE', `/api/statuses/${todo!.id}`, undefined, 409, 'workflow_needs_open_status');
    const theirs = (await statusesOf(samProjectId, sam))[1]!;
    for (const moveTo of [theirs.id, review!.id, randomUUID()]) {
      await fails(olive, 'DELETE', `/api/statuses/${review!.id}`, { moveTo }, 400, 'status_move_target_invalid');
    }
    await fails(olive, 'DELETE', `/api/statuses/${review!.id}`, { moveTo: 'review' }, 400, 'validation_failed');
    // A deleted status is no target either.
    await ok(olive, 'DELETE', `/api/statuses/${inProgress!.id}`, undefined, 204);
    await fails(olive, 'DELETE', `/api/statuses/${review!.id}`, { moveTo: inProgress!.id }, 400, 'status_move_target_invalid');
    expect((await statusesOf(projectId)).map((s) => s.key)).toEqual(['todo', 'review', 'completed']);
    expect((await statusesOf(samProjectId, sam)).map((s) => s.key)).toEqual(['todo', 'in_progress', 'review', 'completed']);
  });

  it('takes turns: of two concurrent deletes of the last two completed statuses, one is refused', async () => {
    const projectId = await newProject();
    const done = await addStatus(projectId, { name: 'Shipped', category: 'completed' });
    const completed = await statusOf(projectId, 'completed');
    const answers = await Promise.all([
      call(olive, 'DELETE', `/api/statuses/${completed.id}`),
      call(adam, 'DELETE', `/api/statuses/${done.id}`),
    ]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([204, 409]);
    expect(answers.find((a) => a.statusCode === 409)!.json().error.reason).toBe('workflow_needs_completed_status');
    expect((await statusesOf(projectId)).filter((s) => s.category === 'completed')).toHaveLength(1);
  });

  it('is refused to a plain member (403) and a stranger (404)', async () => {
    const projectId = await newProject();
    const review = await statusOf(projectId, 'review');
    await fails(mia, 'DELETE', `/api/statuses/${review.id}`, undefined, 403, 'project_edit_denied');
    await fails(sam, 'DELETE', `/api/statuses/${review.id}`, undefined, 404, 'status_not_found');
    await fails(olive, 'DELETE', `/api/statuses/${randomUUID()}`, undefined, 404, 'status_not_found');
    expect(await statusesOf(projectId)).toHaveLength(4);
  });
});

describe('PUT /api/projects/:id/statuses/order', () => {
  it('puts the statuses in the given order', async () => {
    const projectId = await newProject();
    const [todo, inProgress, review, completed] = await statusesOf(projectId);
    const qa = await addStatus(projectId, { name: 'QA' });
    const ids = [todo!.id, inProgress!.id, review!.id, qa.id, completed!.id];
    published = [];
    const answer = await ok<StatusListDto>(olive, 'PUT', `/api/projects/${projectId}/statuses/order`, { ids });
    expect(answer.statuses.map((s) => [s.key, s.position])).toEqual([
      ['todo', 0],
      ['in_progress', 1],
      ['review', 2],
      ['qa', 3],
      ['completed', 4],
    ]);
    expect(await statusesOf(projectId, mia)).toEqual(answer.statuses);
    // One event naming the statuses that moved.
    expect(published).toEqual([
      expect.objectContaining({ type: 'status.updated', projectId, statusIds: [qa.id, completed!.id] }),
    ]);
    // The same order again changes nothing.
    published = [];
    expect(await ok<StatusListDto>(adam, 'PUT', `/api/projects/${projectId}/statuses/order`, { ids })).toEqual(answer);
    expect(published).toEqual([]);
  });

  it('refuses a missing, an extra or a repeated id (409 status_order_mismatch)', async () => {
    const projectId = await newProject();
    const ids = (await statusesOf(projectId)).map((s) => s.id);
    const theirs = (await statusesOf(samProjectId, sam))[0]!.id;
    const url = `/api/projects/${projectId}/statuses/order`;
    await fails(olive, 'PUT', url, { ids: ids.slice(1) }, 409, 'status_order_mismatch');
    await fails(olive, 'PUT', url, { ids: [...ids, theirs] }, 409, 'status_order_mismatch');
    await fails(olive, 'PUT', url, { ids: [...ids.slice(1), theirs] }, 409, 'status_order_mismatch');
    await fails(olive, 'PUT', url, { ids: [ids[0], ...ids] }, 409, 'status_order_mismatch');
    await fails(olive, 'PUT', url, { ids: [] }, 400, 'validation_failed');
    expect((await statusesOf(projectId)).map((s) => s.id)).toEqual(ids);
  });

  it('is refused to a plain member (403) and a stranger (404)', async () => {
    const projectId = await newProject();
    const ids = (await statusesOf(projectId)).map((s) => s.id).reverse();
    await fails(mia, 'PUT', `/api/projects/${projectId}/statuses/order`, { ids }, 403, 'project_edit_denied');
    await fails(sam, 'PUT', `/api/projects/${projectId}/statuses/order`, { ids }, 404, 'project_not_found');
    expect((await statusesOf(projectId)).map((s) => s.id)).toEqual([...ids].reverse());
  });
});

describe('the OpenAPI document', () => {
  it('documents the five routes, and the delete’s body as optional', async () => {
    const doc = (await ctx.app.inject('/api/openapi.json')).json() as {
      paths: Record<string, Record<string, { operationId: string; requestBody?: { required?: boolean } }>>;
    };
    expect(doc.paths['/api/projects/{id}/statuses']?.get?.operationId).toBe('listProjectStatuses');
    expect(doc.paths['/api/projects/{id}/statuses']?.post?.requestBody?.required).toBe(true);
    expect(doc.paths['/api/projects/{id}/statuses/order']?.put?.requestBody?.required).toBe(true);
    expect(doc.paths['/api/statuses/{id}']?.patch?.requestBody?.required).toBe(true);
    const remove = doc.paths['/api/statuses/{id}']?.delete;
    expect(remove?.requestBody?.required).toBe(false);
    expect(Object.keys(remove ?? {}).filter((k) => k.startsWith('x-'))).toEqual([]);
  });
});

describe('what a workflow change tells the team', () => {
  it("queues status.created, status.updated (one per moved status of a new order) and status.deleted for the team's hooks", async () => {
    const projectId = await newProject();
    const hook = await ok<{ id: string }>(
      olive,
      'POST',
      `/api/teams/${teamId}/webhooks`,
      { url: 'http://127.0.0.1:9/never', events: ['status.created', 'status.updated', 'status.deleted'] },
      201,
    );
    const [todo, inProgress, review, completed] = await statusesOf(projectId);
    await newTasks(projectId, 'review', 2);
    const qa = await addStatus(projectId, { name: 'QA' });
    await ok(olive, 'PATCH', `/api/statuses/${qa.id}`, { wipLimit: 1 });
    await ok(olive, 'PUT', `/api/projects/${projectId}/statuses/order`, {
      ids: [todo!.id, inProgress!.id, review!.id, qa.id, completed!.id].reverse(),
    });
    await ok(olive, 'DELETE', `/api/statuses/${review!.id}`, { moveTo: qa.id }, 204);
    const rows = await ctx.database.db
      .select()
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.webhookId, hook.id)))
      .orderBy(webhookDeliveries.id);
    // Created; updated; the reverse order moves four of the five (Review stays in the middle); deleted.
    expect(rows.map((r) => r.eventType)).toEqual([
      'status.created',
      'status.updated',
      'status.updated',
      'status.updated',
      'status.updated',
      'status.updated',
      'status.deleted',
    ]);
    const deleted = JSON.parse(rows.at(-1)!.body) as { data: { status: Record<string, unknown> } };
    expect(deleted.data.status).toMatchObject({
      id: review!.id,
      key: 'review',
      projectId,
      movedTo: { id: qa.id, key: 'qa' },
      movedTaskCount: 2,
    });
  });
});
