import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '../../src/domain/messages';
import type { TaskBoardDto, TaskDto, TaskListDto } from '../../src/domain/schemas/task';
import { expandTaskList } from '../../src/domain/task-list';
import { type StatusDto, type StatusListDto, statusKeyUnknownMessage, WORKFLOW_ERRORS } from '../../src/domain/schemas/workflow';
import { mapStatusToProject } from '../../src/domain/workflow';
import { addDays, startOfWeek } from '../../src/domain/task-filters';
import { insertDefaultStatuses } from '../../src/server/db/project-statuses';
import { projects } from '../../src/server/db/schema';
import type { DomainEvent } from '../../src/server/lib/events';
import { createUser, insertMember, insertTeam, projectCounters, type TestUser } from '../factories';
import { apiRequests } from '../helpers/api';
import { setupTestApp } from '../helpers/app';

const ctx = setupTestApp();

let owner: TestUser;
let admin: TestUser;
let member: TestUser;
let other: TestUser;
let stranger: TestUser;
let teamId: string;
let projectA: string;
let projectB: string;
let foreignProject: string;

async function insertProject(teamId: string, ownerId: string, name: string) {
  const [p] = await ctx.database.db.insert(projects).values({ name, teamId, ownerId }).returning();
  await insertDefaultStatuses(ctx.database.db, [p!.id]);
  return p!.id;
}

const progressOf = async (id: string) => (await projectCounters(ctx.database.db, id)).progress;

const { call, ok } = apiRequests(ctx);

async function createTask(user: TestUser, body: Record<string, unknown>): Promise<TaskDto> {
  const res = await call(user, 'POST', '/api/tasks', { projectId: projectA, ...body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

async function list(user: TestUser, query = ''): Promise<TaskListDto> {
  const res = await call(user, 'GET', `/api/tasks${query ? `?${query}` : ''}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

beforeAll(async () => {
  [owner, admin, member, other, stranger] = await Promise.all([
    createUser(ctx.app, { fullName: 'Olive Owner' }),
    createUser(ctx.app, { fullName: 'Adam Admin' }),
    createUser(ctx.app, { fullName: 'Mia Member' }),
    createUser(ctx.app, { fullName: 'Otto Other' }),
    createUser(ctx.app, { fullName: 'Sam Stranger' }),
  ]);
  const team = await insertTeam(ctx.database.db, owner);
  teamId = team.id;
  await insertMember(ctx.database.db, teamId, admin, 'admin');
  await insertMember(ctx.database.db, teamId, member, 'member');
  await insertMember(ctx.database.db, teamId, other, 'member');
  projectA = await insertProject(teamId, owner.id, 'Apollo');
  projectB = await insertProject(teamId, owner.id, 'Borealis');
  const strangerTeam = await insertTeam(ctx.database.db, stranger);
  foreignProject = await insertProject(strangerTeam.id, stranger.id, 'Foreign');
});

/** The plans PostgreSQL made of statement `name` on every connection of `pool` (the reads run on any of them). */
async function plansOf(pool: import('pg').Pool, name: string): Promise<{ generic: number; custom: number }[]> {
  const clients = await Promise.all(Array.from({ length: pool.options.max }, () => pool.connect()));
  try {
    const rows = await Promise.all(
      clients.map(
        async (c) =>
          (
            await c.query<{ generic_plans: string; custom_plans: string }>(
              'select generic_plans, custom_plans from pg_prepared_statements where name = $1',
              [name],
            )
          ).rows,
      ),
    );
    return rows.flat().map((r) => ({ generic: Number(r.generic_plans), custom: Number(r.custom_plans) }));
  } finally {
    for (const c of clients) c.release();
  }
}

describe('POST /api/tasks', () => {
  it('creates a task for any member, with the caller as creator and the spec defaults', async () => {
    const events: DomainEvent[] = [];
    const off = ctx.app.deps.events.subscribe((e) => e.type.startsWith('task.') && events.push(e));
    const res = await call(member, 'POST', '/api/tasks', {
      title: '  Write the brief  ',
      description: 'All of it',
      projectId: projectA,
      assigneeId: other.id,
      dueDate: '2030-01-15',
      tags: ['docs', 'writing'],
    });
    off();
    expect(res.statusCode, res.body).toBe(201);
    const task: TaskDto = res.json();
    expect(task).toMatchObject({
      title: 'Write the brief',
      description: 'All of it',
      status: 'todo',
      priority: 'medium',
      creatorId: member.id,
      assigneeId: other.id,
      assignee: { id: other.id, firstName: 'Otto', fullName: 'Otto Other' },
      projectId: projectA,
      projectName: 'Apollo',
      dueDate: '2030-01-15',
      tags: ['docs', 'writing'],
      commentCount: 0,
      attachmentCount: 0,
      checklistTotal: 0,
      checklistDone: 0,
      version: 0,
    });
    expect(Object.keys(task.assignee!)).toEqual(['id', 'fullName', 'firstName']);
    expect(events).toEqual([
      expect.objectContaining({
        type: 'task.created',
        teamId,
        actorId: member.id,
        taskId: task.id,
        creatorId: member.id,
        title: 'Write the brief',
        previousAssigneeId: null,
        assigneeId: other.id,
        previousStatus: null,
        status: 'todo',
      }),
    ]);
  });

  it('refuses a body that sets the creator, and unknown keys', async () => {
    const res = await call(member, 'POST', '/api/tasks', { title: 'x', projectId: projectA, creatorId: owner.id });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('validation_failed');
  });

  it('answers the form rules with field errors', async () => {
    const res = await call(member, 'POST', '/api/tasks', { title: '   ', projectId: '' });
    expect(res.statusCode).toBe(400);
    const { error } = res.json();
    expect(error.code).toBe('validation_failed');
    expect(error.fields).toMatchObject({ title: MSG.taskTitleRequired, projectId: MSG.projectRequired });
  });

  it('refuses an assignee outside the project team with 400 and a field error', async () => {
    const res = await call(member, 'POST', '/api/tasks', { title: 'x', projectId: projectA, assigneeId: stranger.id });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({ code: 'validation_failed', fields: { assigneeId: expect.any(String) } });
  });

  it('answers 404 for a project the caller cannot see, and for an unknown one', async () => {
    expect((await call(member, 'POST', '/api/tasks', { title: 'x', projectId: foreignProject })).statusCode).toBe(404);
    const unknown = await call(member, 'POST', '/api/tasks', { title: 'x', projectId: crypto.randomUUID() });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.code).toBe('not_found');
  });

  it('needs a signed-in caller', async () => {
    const res = await ctx.app.inject({ method: 'POST', url: '/api/tasks', payload: { title: 'x', projectId: projectA } });
    expect(res.statusCode).toBe(401);
  });
});

describe('GET /api/tasks/:id and the visibility rule', () => {
  it('shows a task to members and hides it from strangers', async () => {
    const t = await createTask(member, { title: 'Visible to the team' });
    expect((await call(owner, 'GET', `/api/tasks/${t.id}`)).json().title).toBe('Visible to the team');
    const res = await call(stranger, 'GET', `/api/tasks/${t.id}`);
    expect(res.statusCode).toBe(404);
    expect(res.json().error.code).toBe('not_found');
    expect((await list(stranger)).tasks.map((x) => x.id)).not.toContain(t.id);
    expect((await call(member, 'GET', '/api/tasks/not-a-uuid')).statusCode).toBe(400);
  });
});

describe('PATCH /api/tasks/:id', () => {
  it('lets any member edit; checks the version; publishes the change', async () => {
    const t = await createTask(owner, { title: 'Edit me', assigneeId: member.id });
    const events: DomainEvent[] = [];
    const off = ctx.app.deps.events.subscribe((e) => e.type.startsWith('task.') && events.push(e));
    const edit = { title: 'Edited', priority: 'urgent', assigneeId: other.id, status: 'review', tags: ['a'], dueDate: null };
    const res = await call(other, 'PATCH', `/api/tasks/${t.id}`, { ...edit, version: 0 });
    off();
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      ...edit,
      version: 1,
      creatorId: owner.id,
    });
    expect(events[0]).toMatchObject({
      type: 'task.updated',
      previousAssigneeId: member.id,
      assigneeId: other.id,
      previousStatus: 'todo',
      status: 'review',
      creatorId: owner.id,
    });

    const stale = await call(member, 'PATCH', `/api/tasks/${t.id}`, { title: 'Late', version: 0 });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().error).toMatchObject({ code: 'conflict', message: MSG.staleEdit });
    // Without a version, the description is left alone when omitted and cleared with null.
    await call(member, 'PATCH', `/api/tasks/${t.id}`, { description: 'Some text' });
    expect((await call(member, 'PATCH', `/api/tasks/${t.id}`, { title: 'Keeps text' })).json().description).toBe('Some text');
    expect((await call(member, 'PATCH', `/api/tasks/${t.id}`, { description: null })).json().description).toBeNull();
  });

  it('refuses an assignee outside the team, and a project the caller cannot see', async () => {
    const t = await createTask(member, { title: 'Guarded' });
    const bad = await call(member, 'PATCH', `/api/tasks/${t.id}`, { assigneeId: stranger.id });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.fields.assigneeId).toBeTruthy();
    expect((await call(member, 'PATCH', `/api/tasks/${t.id}`, { projectId: foreignProject })).statusCode).toBe(404);
    expect((await call(member, 'PATCH', `/api/tasks/${t.id}`, { projectId: projectB })).json().projectName).toBe('Borealis');
  });

  it('finding 1: a member of two teams cannot pull a task out of its team', async () => {
    // The plain member and the admin of this team are plain members of team B too.
    const ownerB = await createUser(ctx.app, { fullName: 'Bea OwnerB' });
    const teamB = await insertTeam(ctx.database.db, ownerB);
    await insertMember(ctx.database.db, teamB.id, member);
    await insertMember(ctx.database.db, teamB.id, admin);
    const projectInB = await insertProject(teamB.id, ownerB.id, 'Elsewhere');
    const ownersTask = await createTask(owner, { title: 'Stays home' });

    const pulled = await call(member, 'PATCH', `/api/tasks/${ownersTask.id}`, { projectId: projectInB });
    expect(pulled.statusCode, pulled.body).toBe(403);
    expect(pulled.json().error).toMatchObject({ code: 'permission_denied', reason: 'task_move_denied' });
    // Nothing moved: the task is still this team's, and still not the member's to delete.
    expect((await call(owner, 'GET', `/api/tasks/${ownersTask.id}`)).json()).toMatchObject({ projectId: projectA, version: 0 });
    expect((await call(ownerB, 'GET', `/api/tasks/${ownersTask.id}`)).statusCode).toBe(404);
    expect((await call(member, 'DELETE', `/api/tasks/${ownersTask.id}`)).statusCode).toBe(403);
    // Within the team a move stays an edit, for any member.
    expect((await call(member, 'PATCH', `/api/tasks/${ownersTask.id}`, { projectId: projectB })).statusCode).toBe(200);

    // Who may delete the task here may move it out: its creator, an admin (each a member of B).
    const membersTask = await createTask(member, { title: 'Mine to move' });
    expect((await call(member, 'PATCH', `/api/tasks/${membersTask.id}`, { projectId: projectInB })).statusCode).toBe(200);
    const byAdmin = await call(admin, 'PATCH', `/api/tasks/${ownersTask.id}`, { projectId: projectInB });
    expect(byAdmin.statusCode, byAdmin.body).toBe(200);
    expect((await call(ownerB, 'GET', `/api/tasks/${ownersTask.id}`)).json()).toMatchObject({ projectId: projectInB });
  });

  it("finding 7: a task moved into another team tells that team's members nothing of an assignee they cannot see", async () => {
    const teamC = await insertTeam(ctx.database.db, owner);
    const projectInC = await insertProject(teamC.id, owner.id, 'Third');
    const t = await createTask(owner, { title: 'Assigned here', assigneeId: other.id });
    const events: DomainEvent[] = [];
    const off = ctx.app.deps.events.subscribe((e) => e.type === 'task.updated' && events.push(e));
    // `other` is not in team C: the move must drop them.
    const moved = await call(owner, 'PATCH', `/api/tasks/${t.id}`, { projectId: projectInC, assigneeId: null });
    off();
    expect(moved.statusCode, moved.body).toBe(200);
    expect(events).toEqual([
      expect.objectContaining({ teamId: teamC.id, taskId: t.id, assigneeId: null, previousAssigneeId: null }),
    ]);
  });

  it('answers 404 to a stranger and rejects unknown keys', async () => {
    const t = await createTask(member, { title: 'Private' });
    expect((await call(stranger, 'PATCH', `/api/tasks/${t.id}`, { title: 'Mine now' })).statusCode).toBe(404);
    expect((await call(member, 'PATCH', `/api/tasks/${t.id}`, { creatorId: member.id })).statusCode).toBe(400);
  });
});

describe('PATCH /api/tasks/:id/status and project progress', () => {
  it('moves a task for any member and keeps progress current (move, create, delete)', async () => {
    const p = await insertProject(teamId, owner.id, 'Progress');
    const a = await createTask(member, { title: 'A', projectId: p });
    const b = await createTask(member, { title: 'B', projectId: p });
    expect(await progressOf(p)).toBe(0);
    const moved = await call(other, 'PATCH', `/api/tasks/${a.id}/status`, { status: 'completed' });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json()).toMatchObject({ status: 'completed', version: 1 });
    expect(await progressOf(p)).toBe(50);
    await createTask(member, { title: 'C', projectId: p });
    expect(await progressOf(p)).toBe(33);
    await call(member, 'PATCH', `/api/tasks/${b.id}`, { status: 'completed' });
    expect(await progressOf(p)).toBe(67);
    expect((await call(member, 'DELETE', `/api/tasks/${b.id}`)).statusCode).toBe(204);
    expect(await progressOf(p)).toBe(50);
    // Moving a task to another project updates both.
    await call(member, 'PATCH', `/api/tasks/${a.id}`, { projectId: projectB });
    expect(await progressOf(p)).toBe(0);
  });

  it('takes only a status, and answers 404 to a stranger', async () => {
    const t = await createTask(member, { title: 'Move' });
    expect((await call(member, 'PATCH', `/api/tasks/${t.id}/status`, { status: 'done' })).statusCode).toBe(400);
    expect((await call(member, 'PATCH', `/api/tasks/${t.id}/status`, { status: 'review', title: 'x' })).statusCode).toBe(400);
    expect((await call(stranger, 'PATCH', `/api/tasks/${t.id}/status`, { status: 'review' })).statusCode).toBe(404);
    expect((await call(member, 'PATCH', `/api/tasks/${crypto.randomUUID()}/status`, { status: 'review' })).statusCode).toBe(404);
  });
});

describe('DELETE /api/tasks/:id', () => {
  it('allows the creator, the owner and admins; a plain member gets 403; a stranger 404', async () => {
    const byMember = await createTask(member, { title: 'Member made' });
    const denied = await call(other, 'DELETE', `/api/tasks/${byMember.id}`);
    expect(denied.statusCode).toBe(403);
    expect(denied.json().error.code).toBe('permission_denied');
    expect((await call(stranger, 'DELETE', `/api/tasks/${byMember.id}`)).statusCode).toBe(404);

    const events: DomainEvent[] = [];
    const off = ctx.app.deps.events.subscribe((e) => e.type.startsWith('task.') && events.push(e));
    expect((await call(member, 'DELETE', `/api/tasks/${byMember.id}`)).statusCode).toBe(204);
    off();
    expect(events[0]).toMatchObject({ type: 'task.deleted', taskId: byMember.id, creatorId: member.id, status: 'todo' });
    expect((await call(member, 'GET', `/api/tasks/${byMember.id}`)).statusCode).toBe(404);

    const t2 = await createTask(member, { title: 'Admin removes' });
    expect((await call(admin, 'DELETE', `/api/tasks/${t2.id}`)).statusCode).toBe(204);
    const t3 = await createTask(member, { title: 'Owner removes' });
    expect((await call(owner, 'DELETE', `/api/tasks/${t3.id}`)).statusCode).toBe(204);
  });
});

describe('GET /api/tasks filters (all in SQL)', () => {
  let fp: string;
  const today = '2024-06-12'; // a Wednesday; week Sun 06-09 .. Sat 06-15
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    fp = await insertProject(teamId, owner.id, 'Filters');
    const seed: [string, Record<string, unknown>][] = [
      ['overdue', { dueDate: '2024-06-11', priority: 'high', assigneeId: member.id, description: 'Fix the LOGIN page' }],
      ['overdueDone', { dueDate: '2024-06-01', status: 'completed' }],
      ['today', { dueDate: today, priority: 'urgent', assigneeId: other.id }],
      ['sunday', { dueDate: '2024-06-09', status: 'review' }],
      ['saturday', { dueDate: '2024-06-15', status: 'in_progress', assigneeId: member.id }],
      ['nextSunday', { dueDate: '2024-06-16' }],
      ['nextSaturday', { dueDate: '2024-06-22', priority: 'low' }],
      ['later', { dueDate: '2024-06-23' }],
      ['undated', { title: '100% done_right' }],
    ];
    for (const [name, body] of seed) {
      ids[name] = (await createTask(owner, { title: `F ${name}`, projectId: fp, ...body })).id;
    }
  });

  const names = (r: TaskListDto) => r.tasks.map((t) => Object.keys(ids).find((k) => ids[k] === t.id)).sort();
  const q = (s: string) => `projectId=${fp}&today=${today}&${s}`;

  it('lists newest first with exact counts per status and only the board fields', async () => {
    const r = await list(member, q('limit=3'));
    expect(r.tasks).toHaveLength(3);
    expect(r.tasks[0]!.id).toBe(ids.undated);
    expect(r.total).toBe(9);
    expect(r.counts).toEqual({ todo: 6, in_progress: 1, review: 1, completed: 1 });
    expect(Object.keys(r.tasks[0]!).sort()).toEqual(
      [
        'id',
        'title',
        'description',
        'status',
        'statusCategory',
        'priority',
        'assigneeId',
        'projectId',
        'creatorId',
        'dueDate',
        'tags',
        'commentCount',
        'attachmentCount',
        'checklistTotal',
        'checklistDone',
        'parentId',
        'subtaskCounts',
        'startDate',
        'blockedCount',
        'fields',
        'repeat',
        'seriesId',
        'estimateMinutes',
        'estimatePoints',
        'loggedMinutes',
        'subtaskLoggedMinutes',
        'createdAt',
        'updatedAt',
        'version',
      ].sort(),
    );
    // Each assignee and project of the page once, beside the tasks (issue 42).
    expect(Object.keys(r).sort()).toEqual(['counts', 'people', 'projects', 'tasks', 'total']);
    expect(new Set(r.people.map((p) => p.id)).size).toBe(r.people.length);
    for (const t of r.tasks) {
      if (t.assigneeId) expect(r.people.map((p) => p.id)).toContain(t.assigneeId);
      expect(r.projects.map((p) => p.id)).toContain(t.projectId);
    }
    const page2 = await list(member, q('limit=3&offset=3'));
    expect(page2.tasks.map((t) => t.id)).not.toContain(r.tasks[0]!.id);
  });

  it('filters by due bucket around week boundaries', async () => {
    expect(names(await list(member, q('due=overdue')))).toEqual(['overdue', 'sunday']);
    expect(names(await list(member, q('due=today')))).toEqual(['today']);
    expect(names(await list(member, q('due=this_week')))).toEqual(['overdue', 'saturday', 'sunday', 'today']);
    expect(names(await list(member, q('due=next_week')))).toEqual(['nextSaturday', 'nextSunday']);
    // On Saturday, tomorrow (Sunday) is already next week.
    const sat = `projectId=${fp}&today=2024-06-15`;
    expect(names(await list(member, `${sat}&due=next_week`))).toEqual(['nextSaturday', 'nextSunday']);
    expect(names(await list(member, `${sat}&due=today`))).toEqual(['saturday']);
    // A week later, last week is gone.
    const next = `projectId=${fp}&today=${addDays(startOfWeek(today), 7)}`;
    expect(names(await list(member, `${next}&due=this_week`))).toEqual(['nextSaturday', 'nextSunday']);
  });

  it('filters by status, priority and assignee (including unassigned)', async () => {
    expect(names(await list(member, q('status=review')))).toEqual(['sunday']);
    expect((await list(member, q('status=review'))).counts).toEqual({ todo: 0, in_progress: 0, review: 1, completed: 0 });
    expect(names(await list(member, q('priority=urgent')))).toEqual(['today']);
    expect(names(await list(member, q(`assigneeId=${member.id}`)))).toEqual(['overdue', 'saturday']);
    expect(names(await list(member, q('assigneeId=unassigned')))).toHaveLength(6);
    expect(names(await list(member, q(`assigneeId=${member.id}&status=in_progress&due=this_week`)))).toEqual(['saturday']);
  });

  it('searches title or description case-insensitively, with LIKE wildcards taken literally', async () => {
    expect(names(await list(member, q('q=login')))).toEqual(['overdue']);
    expect(names(await list(member, q('q=F%20NEXTS')))).toEqual(['nextSaturday', 'nextSunday']);
    expect(names(await list(member, q('q=100%25')))).toEqual(['undated']);
    expect(names(await list(member, q('q=_')))).toEqual(['undated']);
    expect(names(await list(member, q('q=%25')))).toEqual(['undated']);
  });

  it('sorts for the list view', async () => {
    const byPriority = await list(member, q('sort=priority&dir=desc&limit=2'));
    expect(byPriority.tasks.map((t) => t.priority)).toEqual(['urgent', 'high']);
    const byDue = await list(member, q('sort=due&dir=asc'));
    expect(byDue.tasks[0]!.dueDate).toBe('2024-06-01');
    expect(byDue.tasks.at(-1)!.dueDate).toBeNull();
    const byTitle = await list(member, q('sort=title&dir=asc&limit=1'));
    expect(byTitle.tasks[0]!.title).toBe('100% done_right');
  });

  it('answers 404 for a project filter the caller cannot see; strangers see none of the team tasks', async () => {
    expect((await call(member, 'GET', `/api/tasks?projectId=${foreignProject}`)).statusCode).toBe(404);
    expect((await call(stranger, 'GET', `/api/tasks?projectId=${fp}`)).statusCode).toBe(404);
    const mine = await list(stranger);
    expect(mine.total).toBe(0);
    expect(mine.tasks).toEqual([]);
  });

  describe('GET /api/tasks/board', () => {
    async function board(user: TestUser, query: string): Promise<TaskBoardDto> {
      const res = await call(user, 'GET', `/api/tasks/board?${query}`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json();
    }

    it('gives each column the same tasks, in the same order, as the per-column list, with the exact counts', async () => {
      for (const filter of ['', 'priority=low', `assigneeId=${member.id}`, 'due=this_week', 'q=f']) {
        const b = await board(member, q(`limit=2&${filter}`));
        for (const status of ['todo', 'in_progress', 'review', 'completed'] as const) {
          const col = await list(member, q(`limit=2&status=${status}&${filter}`));
          expect(
            b.columns[status]!.map((t) => t.id),
            `${filter} ${status}`,
          ).toEqual(col.tasks.map((t) => t.id));
          expect(b.columns[status]!.every((t) => t.status === status)).toBe(true);
        }
        const all = await list(member, q(filter));
        expect(b.counts, filter).toEqual(all.counts);
        expect(b.total).toBe(all.total);
      }
      const full = await board(member, q(''));
      expect(full.columns.todo).toHaveLength(6);
      expect(Object.keys(full.columns.todo![0]!).sort()).toEqual(
        Object.keys(expandTaskList(await list(member, q('limit=1'))).tasks[0]!).sort(),
      );
    });

    it('fills only the filtered column under a status filter', async () => {
      const b = await board(member, q('status=review'));
      expect(b.columns.review!.map((t) => t.id)).toEqual([ids.sunday]);
      expect(b.columns.todo).toEqual([]);
      expect(b.counts).toEqual({ todo: 0, in_progress: 0, review: 1, completed: 0 });
    });

    it('answers 404 for a project the caller cannot see, shows a stranger nothing, and needs a signed-in caller', async () => {
      expect((await call(member, 'GET', `/api/tasks/board?projectId=${foreignProject}`)).statusCode).toBe(404);
      expect((await call(stranger, 'GET', `/api/tasks/board?projectId=${fp}`)).statusCode).toBe(404);
      const theirs = await board(stranger, '');
      expect(theirs.total).toBe(0);
      expect(Object.values(theirs.columns).flat()).toEqual([]);
      expect((await ctx.app.inject({ method: 'GET', url: '/api/tasks/board' })).statusCode).toBe(401);
    });

    it('rejects bad values with 400, never 500', async () => {
      for (const bad of [
        'status=Done',
        'category=done',
        'limit=0',
        'limit=101',
        'limit=x',
        'projectId=1',
        'due=soon',
        'today=2024-02-30',
      ]) {
        const res = await call(member, 'GET', `/api/tasks/board?${bad}`);
        expect(res.statusCode, bad).toBe(400);
      }
    });

    it.skipIf(!process.env.DATABASE_URL)(
      'plans the unfiltered All Projects board for its caller, on the main pool (PostgreSQL: a generic plan guesses one team a person and sorts every visible task of a status)',
      async () => {
        const { db, preparedDb } = ctx.database;
        const setting = async (d: typeof db) =>
          ((await d.execute(sql`show plan_cache_mode`)) as unknown as { rows: { plan_cache_mode: string }[] }).rows[0]!
            .plan_cache_mode;
        expect(await setting(preparedDb)).toBe('force_generic_plan');
        expect(await setting(db)).toBe('auto');
        for (let i = 0; i < 3; i++) await board(member, '');
        const main = await plansOf(ctx.database.pool!, 'cards_board_all');
        expect(main.reduce((n, p) => n + p.custom, 0)).toBeGreaterThanOrEqual(3);
        expect(await plansOf(ctx.database.preparedPool!, 'cards_board_all')).toEqual([]);
      },
    );

    it.skipIf(!process.env.DATABASE_URL)(
      "plans a page of one status of every project for its values, on the main pool (PostgreSQL: a generic plan sorts all that status's tasks)",
      async () => {
        for (let i = 0; i < 3; i++) expect((await call(member, 'GET', '/api/tasks?status=review&limit=5')).statusCode).toBe(200);
        const main = await plansOf(ctx.database.pool!, 'cards_page_status');
        expect(main.reduce((n, p) => n + p.custom, 0)).toBeGreaterThanOrEqual(3);
        expect(await plansOf(ctx.database.preparedPool!, 'cards_page_status')).toEqual([]);
      },
    );
  });

  it('rejects bad filter values with 400, never 500', async () => {
    for (const bad of [
      'status=Done',
      'status=in-progress',
      'category=done',
      'priority=x',
      'assigneeId=bob',
      'due=soon',
      'today=2024-13-01',
      'limit=0',
      'limit=100000',
      'sort=drop',
      'projectId=1',
    ]) {
      const res = await call(member, 'GET', `/api/tasks?${bad}`);
      expect(res.statusCode, bad).toBe(400);
    }
  });
});

describe('tasks speak status keys (issue 36, decision 0024 step 4)', () => {
  // Project W: To Do, Completed, Backlog, Design, Won't do (In Progress and Review deleted). Project D: the default four.
  let w: string;
  let d: string;
  let wStatuses: StatusDto[];
  let dStatuses: StatusDto[];
  const statusesOf = async (projectId: string) =>
    (await ok<StatusListDto>(owner, 'GET', `/api/projects/${projectId}/statuses`)).statuses;

  beforeAll(async () => {
    w = await insertProject(teamId, owner.id, 'Workflowed');
    d = await insertProject(teamId, owner.id, 'Defaulted');
    for (const [name, category] of [
      ['Backlog', 'backlog'],
      ['Design', 'started'],
      ["Won't do", 'canceled'],
    ]) {
      await ok(owner, 'POST', `/api/projects/${w}/statuses`, { name, category, color: '#7c3aed' }, 201);
    }
    for (const key of ['in_progress', 'review']) {
      const status = (await statusesOf(w)).find((x) => x.key === key)!;
      await ok(owner, 'DELETE', `/api/statuses/${status.id}`, undefined, 204);
    }
    wStatuses = await statusesOf(w);
    dStatuses = await statusesOf(d);
    expect(wStatuses.map((x) => x.key)).toEqual(['todo', 'completed', 'backlog', 'design', 'won_t_do']);
  });

  it("answers an unknown key with 400 status_key_unknown naming the project's keys (create, edit, move)", async () => {
    const unknown = (
      res: {
        statusCode: number;
        json: () => { error: { code: string; reason?: string; message: string; fields?: Record<string, string> } };
      },
      key: string,
      keys: string[],
    ) => {
      expect(res.statusCode).toBe(400);
      const message = statusKeyUnknownMessage(key, keys);
      expect(message).toContain(keys.join(', '));
      expect(res.json().error).toEqual({
        code: WORKFLOW_ERRORS.status_key_unknown.code,
        reason: 'status_key_unknown',
        message,
        fields: { status: message },
      });
    };
    const wKeys = wStatuses.map((x) => x.key);
    unknown(await call(member, 'POST', '/api/tasks', { projectId: w, title: 'Nope', status: 'review' }), 'review', wKeys);
    unknown(await call(member, 'POST', '/api/tasks', { projectId: d, title: 'Nope', status: 'design' }), 'design', [
      'todo',
      'in_progress',
      'review',
      'completed',
    ]);
    const task = await createTask(member, { projectId: w, title: 'Keyed' });
    unknown(await call(member, 'PATCH', `/api/tasks/${task.id}`, { status: 'in_progress' }), 'in_progress', wKeys);
    unknown(await call(member, 'PATCH', `/api/tasks/${task.id}/status`, { status: 'qa' }), 'qa', wKeys);
    // A key's form is checked by the schema first: 400 validation_failed.
    expect((await call(member, 'PATCH', `/api/tasks/${task.id}/status`, { status: 'Not A Key' })).statusCode).toBe(400);
    expect((await call(member, 'GET', `/api/tasks/${task.id}`)).json()).toMatchObject({ status: 'todo', version: 0 });
  });

  it("creates into and moves between a project's own statuses, each answer with its category", async () => {
    const task = await createTask(member, { projectId: w, title: 'Draw it', status: 'design' });
    expect(task).toMatchObject({ status: 'design', statusCategory: 'started' });
    const dropped = await ok<TaskDto>(member, 'PATCH', `/api/tasks/${task.id}`, { status: 'won_t_do' });
    expect(dropped).toMatchObject({ status: 'won_t_do', statusCategory: 'canceled' });
    const back = await ok<TaskDto>(member, 'PATCH', `/api/tasks/${task.id}/status`, { status: 'backlog' });
    expect(back).toMatchObject({ status: 'backlog', statusCategory: 'backlog', version: 2 });
    // Filters by key and by category; the counts carry every key that has tasks.
    const byKey = await list(member, `projectId=${w}&status=backlog`);
    expect(byKey.tasks.map((t) => t.id)).toContain(task.id);
    expect(byKey.counts.backlog).toBeGreaterThanOrEqual(1);
    const byCategory = await list(member, `category=backlog`);
    expect(byCategory.tasks.map((t) => t.id)).toContain(task.id);
    expect(byCategory.tasks.every((t) => t.statusCategory === 'backlog')).toBe(true);
    expect((await list(member, `projectId=${w}&open=true`)).tasks.map((t) => t.id)).toContain(task.id);
    await ok(member, 'PATCH', `/api/tasks/${task.id}/status`, { status: 'won_t_do' });
    // Canceled is closed: not open, and never overdue.
    expect((await list(member, `projectId=${w}&open=true`)).tasks.map((t) => t.id)).not.toContain(task.id);
  });

  it("maps the status as mapStatusToProject when a task moves between a default project and one with Backlog/Design/Won't do", async () => {
    const cases: [from: string, to: string, key: string, expected: string][] = [
      [d, w, 'review', 'design'], // started, no Review there: the first started status
      [d, w, 'in_progress', 'design'],
      [d, w, 'todo', 'todo'], // the same key in the same category stays
      [d, w, 'completed', 'completed'],
      [w, d, 'won_t_do', 'completed'], // canceled, none there: the nearest category
      [w, d, 'backlog', 'todo'],
      [w, d, 'design', 'in_progress'],
    ];
    for (const [from, to, key, expected] of cases) {
      const source = from === d ? dStatuses : wStatuses;
      const target = to === d ? dStatuses : wStatuses;
      const category = source.find((x) => x.key === key)!.category;
      expect(mapStatusToProject({ key, category }, target)?.key, `${key} → ${expected}`).toBe(expected);
      const task = await createTask(member, { projectId: from, title: `Move ${key}`, status: key });
      const moved = await ok<TaskDto>(member, 'PATCH', `/api/tasks/${task.id}`, { projectId: to });
      const category2 = target.find((x) => x.key === expected)!.category;
      expect(moved, `${key} → ${expected}`).toMatchObject({ projectId: to, status: expected, statusCategory: category2 });
      expect((await call(member, 'GET', `/api/tasks/${task.id}`)).json()).toMatchObject({ status: expected });
    }
  });

  it('keeps a status the body names when the target has it, and refuses one it lacks', async () => {
    const task = await createTask(member, { projectId: w, title: 'Named', status: 'design' });
    const moved = await ok<TaskDto>(member, 'PATCH', `/api/tasks/${task.id}`, { projectId: d, status: 'review' });
    expect(moved).toMatchObject({ projectId: d, status: 'review', statusCategory: 'started' });
    // The form sends the task's own key with the new project: that is mapped like no key at all.
    const again = await ok<TaskDto>(member, 'PATCH', `/api/tasks/${task.id}`, { projectId: w, status: 'review' });
    expect(again).toMatchObject({ projectId: w, status: 'design' });
    const res = await call(member, 'PATCH', `/api/tasks/${task.id}`, { projectId: d, status: 'backlog' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.reason).toBe('status_key_unknown');
    expect((await call(member, 'GET', `/api/tasks/${task.id}`)).json()).toMatchObject({ projectId: w, status: 'design' });
  });
});
