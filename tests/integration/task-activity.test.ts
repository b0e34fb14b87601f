import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TaskDto } from '../../src/domain/schemas/task';
import type { ActivityListDto } from '../../src/domain/schemas/task-detail';
import { users } from '../../src/server/db/schema';
import { createUser, insertMember, insertTeam, type TestUser } from '../factories';
import { apiRequests } from '../helpers/api';
import { setupTestApp } from '../helpers/app';

const ctx = setupTestApp();

const { call, ok } = apiRequests(ctx);

let owner: TestUser;
let member: TestUser;
let stranger: TestUser;
let launch: string;
let borealis: string;
const AVATAR = 'https://example.com/mia.png';

beforeAll(async () => {
  [owner, member, stranger] = await Promise.all([
    createUser(ctx.app, { fullName: 'Olive Owner' }),
    createUser(ctx.app, { fullName: 'Mia Member' }),
    createUser(ctx.app, { fullName: 'Sam Stranger' }),
  ]);
  await ctx.database.db.update(users).set({ avatarUrl: AVATAR }).where(eq(users.id, member.id));
  const team = await insertTeam(ctx.database.db, owner);
  await insertMember(ctx.database.db, team.id, member, 'member');
  await insertTeam(ctx.database.db, stranger);
  launch = (await ok<{ id: string }>(owner, 'POST', '/api/projects', { name: 'Launch', teamId: team.id }, 201)).id;
  borealis = (await ok<{ id: string }>(owner, 'POST', '/api/projects', { name: 'Borealis', teamId: team.id }, 201)).id;
});

const newTask = (extra: Record<string, unknown> = {}) =>
  ok<TaskDto>(owner, 'POST', '/api/tasks', { title: 'Write the release', projectId: launch, ...extra }, 201);
const history = (user: TestUser, taskId: string) => ok<ActivityListDto>(user, 'GET', `/api/tasks/${taskId}/activity`);
/** The rows without their ids and times, for comparison. */
const changes = (l: ActivityListDto) =>
  l.activity.map(({ field, oldValue, newValue, oldLabel, newLabel, actor }) => ({
    field,
    oldValue,
    newValue,
    oldLabel,
    newLabel,
    actor: actor?.fullName ?? null,
  }));

describe('task activity', () => {
  it('starts with the creation only (creator and time), whatever the task was created with', async () => {
    const task = await newTask({ assigneeId: member.id, priority: 'high', tags: ['a'], description: 'Draft' });
    const l = await history(member, task.id);
    expect(l).toEqual({
      created: { by: { id: owner.id, fullName: 'Olive Owner', avatar: null }, at: task.createdAt },
      activity: [],
    });
  });

  it('records each changed field, with stored values and the names a person reads', async () => {
    const task = await newTask({ description: 'Draft', tags: ['a', 'b'] });
    const edited = await ok<TaskDto>(member, 'PATCH', `/api/tasks/${task.id}`, {
      title: 'Ship the release',
      description: 'Final **text**',
      priority: 'urgent',
      assigneeId: member.id,
      dueDate: '2030-01-31',
      tags: ['b'],
      projectId: borealis,
      version: task.version,
    });
    expect(edited.projectName).toBe('Borealis');
    const l = await history(owner, task.id);
    expect(changes(l)).toEqual([
      {
        field: 'title',
        oldValue: 'Write the release',
        newValue: 'Ship the release',
        oldLabel: null,
        newLabel: null,
        actor: 'Mia Member',
      },
      { field: 'description', oldValue: null, newValue: null, oldLabel: null, newLabel: null, actor: 'Mia Member' },
      { field: 'priority', oldValue: 'medium', newValue: 'urgent', oldLabel: null, newLabel: null, actor: 'Mia Member' },
      { field: 'assignee', oldValue: null, newValue: member.id, oldLabel: null, newLabel: 'Mia Member', actor: 'Mia Member' },
      { field: 'due_date', oldValue: null, newValue: '2030-01-31', oldLabel: null, newLabel: null, actor: 'Mia Member' },
      { field: 'project', oldValue: launch, newValue: borealis, oldLabel: 'Launch', newLabel: 'Borealis', actor: 'Mia Member' },
      { field: 'tags', oldValue: 'a,b', newValue: 'b', oldLabel: null, newLabel: null, actor: 'Mia Member' },
    ]);
    expect(l.activity[0]).toMatchObject({
      taskId: task.id,
      actor: { id: member.id, fullName: 'Mia Member', avatar: AVATAR },
    });
    const times = l.activity.map((a) => Date.parse(a.createdAt));
    expect(times.every((t) => t >= Date.parse(task.createdAt) && t <= Date.now())).toBe(true);

    // Cleared by the owner: the old names are kept, the new values are null.
    await ok(owner, 'PATCH', `/api/tasks/${task.id}`, { assigneeId: null, dueDate: null, description: '', tags: [] });
    expect(changes(await history(member, task.id)).slice(7)).toEqual([
      { field: 'description', oldValue: null, newValue: null, oldLabel: null, newLabel: null, actor: 'Olive Owner' },
      { field: 'assignee', oldValue: member.id, newValue: null, oldLabel: 'Mia Member', newLabel: null, actor: 'Olive Owner' },
      { field: 'due_date', oldValue: '2030-01-31', newValue: null, oldLabel: null, newLabel: null, actor: 'Olive Owner' },
      { field: 'tags', oldValue: 'b', newValue: null, oldLabel: null, newLabel: null, actor: 'Olive Owner' },
    ]);
  });

  it('records a move on the board (PATCH …/status) and a status edit in the form', async () => {
    const task = await newTask();
    await ok(member, 'PATCH', `/api/tasks/${task.id}/status`, { status: 'in_progress' });
    await ok(owner, 'PATCH', `/api/tasks/${task.id}`, { status: 'completed' });
    const l = await history(owner, task.id);
    expect(changes(l)).toEqual([
      { field: 'status', oldValue: 'todo', newValue: 'in_progress', oldLabel: null, newLabel: null, actor: 'Mia Member' },
      { field: 'status', oldValue: 'in_progress', newValue: 'completed', oldLabel: null, newLabel: null, actor: 'Olive Owner' },
    ]);
    expect(Date.parse(l.activity[1]!.createdAt)).toBeGreaterThanOrEqual(Date.parse(l.activity[0]!.createdAt));
  });

  it('records nothing for an edit that changes nothing', async () => {
    const task = await newTask({ assigneeId: member.id, tags: ['x'], dueDate: '2030-02-01' });
    await ok(owner, 'PATCH', `/api/tasks/${task.id}`, {
      title: task.title,
      status: 'todo',
      priority: task.priority,
      assigneeId: member.id,
      tags: ['x'],
      dueDate: '2030-02-01',
      projectId: launch,
    });
    await ok(owner, 'PATCH', `/api/tasks/${task.id}/status`, { status: 'todo' });
    await ok(owner, 'PATCH', `/api/tasks/${task.id}`, {});
    expect((await history(owner, task.id)).activity).toEqual([]);
  });

  it('records nothing for an update that fails (stale version, unknown project)', async () => {
    const task = await newTask();
    await ok(owner, 'PATCH', `/api/tasks/${task.id}`, { title: 'First', version: task.version });
    const stale = await call(member, 'PATCH', `/api/tasks/${task.id}`, { title: 'Second', version: task.version });
    expect(stale.statusCode).toBe(409);
    const elsewhere = await call(member, 'PATCH', `/api/tasks/${task.id}`, { title: 'Third', projectId: crypto.randomUUID() });
    expect(elsewhere.statusCode).toBe(404);
    expect(changes(await history(owner, task.id))).toEqual([
      { field: 'title', oldValue: 'Write the release', newValue: 'First', oldLabel: null, newLabel: null, actor: 'Olive Owner' },
    ]);
  });

  it('commits with the change or not at all: a history that cannot be written undoes the change', async () => {
    const task = await newTask();
    // A fault in the history's insert for this one task only.
    const run = (statement: string) => ctx.database.db.execute(sql.raw(statement));
    await run(`create function crewboard_test_activity_fault() returns trigger language plpgsql as $$
      begin
        if new.task_id = '${task.id}' then raise exception 'activity fault'; end if;
        return new;
      end $$`);
    await run(`create trigger crewboard_test_activity_fault before insert on task_activity
      for each row execute function crewboard_test_activity_fault()`);
    try {
      const res = await call(member, 'PATCH', `/api/tasks/${task.id}/status`, { status: 'review' });
      expect(res.statusCode).toBe(500);
    } finally {
      await run('drop trigger crewboard_test_activity_fault on task_activity');
      await run('drop function crewboard_test_activity_fault()');
    }
    const after = await ok<TaskDto>(owner, 'GET', `/api/tasks/${task.id}`);
    expect(after).toMatchObject({ status: 'todo', version: task.version });
    expect((await history(owner, task.id)).activity).toEqual([]);
  });

  it('records both of two concurrent moves, in the order they took effect', async () => {
    const task = await newTask();
    const [a, b] = await Promise.all([
      call(member, 'PATCH', `/api/tasks/${task.id}/status`, { status: 'in_progress' }),
      call(owner, 'PATCH', `/api/tasks/${task.id}/status`, { status: 'review' }),
    ]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    const final = await ok<TaskDto>(owner, 'GET', `/api/tasks/${task.id}`);
    const l = await history(owner, task.id);
    const rows = l.activity.map((r) => [r.oldValue, r.newValue]);
    expect(rows).toHaveLength(2);
    expect(l.activity.every((r) => r.field === 'status')).toBe(true);
    // A chain: the second starts where the first ended, and ends where the task is.
    expect(rows[0]![0]).toBe('todo');
    expect(rows[1]![0]).toBe(rows[0]![1]);
    expect(rows[1]![1]).toBe(final.status);
    expect(Date.parse(l.activity[1]!.createdAt)).toBeGreaterThanOrEqual(Date.parse(l.activity[0]!.createdAt));
  });

  it('hides the history from strangers (404) and anonymous callers (401)', async () => {
    const task = await newTask();
    await ok(owner, 'PATCH', `/api/tasks/${task.id}/status`, { status: 'review' });
    const res = await call(stranger, 'GET', `/api/tasks/${task.id}/activity`);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ error: { code: 'not_found', message: 'Task not found' } });
    expect((await call(null, 'GET', `/api/tasks/${task.id}/activity`)).statusCode).toBe(401);
    expect((await call(owner, 'GET', `/api/tasks/${crypto.randomUUID()}/activity`)).statusCode).toBe(404);
    expect((await call(owner, 'GET', '/api/tasks/not-a-uuid/activity')).statusCode).toBe(400);
  });
});
