/**
 * Dependencies between tasks (issue 37 step 4, decision 0025 "API"): add, list, remove; the refusals (itself, twice, a
 * cycle named by its titles); the blocker's rights (same team, 404 as a stranger's task otherwise); hidden refs for a
 * task the reader cannot see (a project moved to another team, a team the reader left); the card's `blockedCount` kept
 * by the triggers of migration 0013; the change's history, webhooks and realtime events; and two concurrent additions
 * that would close a cycle together (one wins).
 */
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEPENDENCY_TEXT, HIDDEN_TASK_VALUE } from '../../src/domain/dependencies';
import { ERROR_MESSAGES } from '../../src/domain/errors';
import type { DependencyListDto } from '../../src/domain/schemas/dependencies';
import type { TaskDto, TaskListDto, TaskReadDto } from '../../src/domain/schemas/task';
import type { ActivityListDto } from '../../src/domain/schemas/task-detail';
import { webhookDeliveries } from '../../src/server/db/schema';
import type { DomainEvent } from '../../src/server/lib/events';
import { createUser, insertMember, insertOwnerMemberStranger, type TestUser } from '../factories';
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
let hookId: string;

beforeAll(async () => {
  let team: { id: string };
  ({ owner, member, stranger, team } = await insertOwnerMemberStranger(ctx.app, ctx.database.db, { strangerTeam: true }));
  teamId = team.id;
  ({ projectId, otherProjectId, strangerProjectId, hookId } = await projectsAndQueuedHook(
    ok,
    { owner, stranger, teamId },
    ['Here', 'Next door'],
    ['task.dependency_added', 'task.dependency_removed'],
  ));
});

const create = (title: string, body: Record<string, unknown> = {}, user = owner) =>
  ok<TaskDto>(user, 'POST', '/api/tasks', { title, projectId, ...body }, 201);
const read = (id: string, user = owner) => ok<TaskReadDto>(user, 'GET', `/api/tasks/${id}`);
const deps = (id: string, user = owner) => ok<DependencyListDto>(user, 'GET', `/api/tasks/${id}/dependencies`);
const add = (id: string, blockedBy: string, user = owner) =>
  ok<DependencyListDto>(user, 'POST', `/api/tasks/${id}/dependencies`, { blockedBy }, 201);
const remove = (id: string, blockedBy: string, user = owner) =>
  ok(user, 'DELETE', `/api/tasks/${id}/dependencies/${blockedBy}`, undefined, 204);
const ref = (t: TaskDto) => ({
  id: t.id,
  title: t.title,
  status: t.status,
  statusCategory: t.statusCategory,
  projectId: t.projectId,
});
const HIDDEN = { id: null, hidden: true };

/** A team of the owner's besides the first (the owner may move projects between the two). */
async function secondTeam(name: string): Promise<string> {
  return (await ok<{ id: string }>(owner, 'POST', '/api/teams', { name }, 201)).id;
}
const moveProject = (id: string, toTeam: string) => ok(owner, 'PATCH', `/api/projects/${id}`, { teamId: toTeam });

describe('add, list, remove', () => {
  it('adds a blocker of another project of the team, lists it on both tasks, and removes it', async () => {
    const task = await create('Ship the release');
    const blocker = await create('Write the notes', { projectId: otherProjectId });

    const added = await add(task.id, blocker.id, member);
    expect(added).toEqual({ blockedBy: [ref(blocker)], blocking: [] });
    expect(await deps(task.id)).toEqual({ blockedBy: [ref(blocker)], blocking: [] });
    expect(await deps(blocker.id, member)).toEqual({ blockedBy: [], blocking: [ref(task)] });

    // The single read carries the ids; the card counts the open blocker.
    expect(await read(task.id)).toMatchObject({ blockedBy: [blocker.id], blocking: [], blockedCount: 1 });
    expect(await read(blocker.id)).toMatchObject({ blockedBy: [], blocking: [task.id], blockedCount: 0 });
    const list = await ok<TaskListDto>(owner, 'GET', `/api/tasks?projectId=${projectId}&limit=500`);
    const card = list.tasks.find((t) => t.id === task.id)!;
    expect(card.blockedCount).toBe(1);
    // Cards do not carry the ids (the board's row statements stay as they are).
    expect(card).not.toHaveProperty('blockedBy');
    expect(card).not.toHaveProperty('blocking');

    await remove(task.id, blocker.id, member);
    expect(await deps(task.id)).toEqual({ blockedBy: [], blocking: [] });
    expect(await read(task.id)).toMatchObject({ blockedBy: [], blocking: [], blockedCount: 0 });
    // Gone: a second removal is 404.
    await fails(member, 'DELETE', `/api/tasks/${task.id}/dependencies/${blocker.id}`, undefined, 404, 'dependency_not_found');
  });

  it('keeps blockedCount with the blockers: completing one unblocks, reopening blocks again, a canceled one still blocks', async () => {
    const task = await create('Launch');
    const first = await create('First blocker');
    const second = await create('Second blocker');
    await add(task.id, first.id);
    await add(task.id, second.id);
    expect((await read(task.id)).blockedCount).toBe(2);
    await ok(owner, 'PATCH', `/api/tasks/${first.id}`, { status: 'completed' });
    expect((await read(task.id)).blockedCount).toBe(1);
    expect((await deps(task.id)).blockedBy).toContainEqual(
      expect.objectContaining({ id: first.id, statusCategory: 'completed' }),
    );
    await ok(owner, 'PATCH', `/api/tasks/${second.id}`, { status: 'completed' });
    expect((await read(task.id)).blockedCount).toBe(0);
    await ok(owner, 'PATCH', `/api/tasks/${first.id}`, { status: 'todo' });
    expect((await read(task.id)).blockedCount).toBe(1);
    // A blocker that is completed when added does not count; removing an open one does.
    const done = await create('Done already', { status: 'completed' });
    await add(task.id, done.id);
    expect((await read(task.id)).blockedCount).toBe(1);
    await remove(task.id, first.id);
    expect((await read(task.id)).blockedCount).toBe(0);
    // A canceled blocker still blocks (the "blockers not all completed").
    const canceledKey = (
      await ok<{ key: string }>(
        owner,
        'POST',
        `/api/projects/${projectId}/statuses`,
        { name: 'Dropped', category: 'canceled', color: '#6b7280' },
        201,
      )
    ).key;
    const dropped = await create('Dropped blocker');
    await add(task.id, dropped.id);
    await ok(owner, 'PATCH', `/api/tasks/${dropped.id}`, { status: canceledKey });
    expect((await read(task.id)).blockedCount).toBe(1);
    await remove(task.id, dropped.id);
    expect((await read(task.id)).blockedCount).toBe(0);
    // Deleting a blocker removes its dependency (the cascade) and its count.
    const doomed = await create('Doomed blocker');
    await add(task.id, doomed.id);
    expect((await read(task.id)).blockedCount).toBe(1);
    await ok(owner, 'DELETE', `/api/tasks/${doomed.id}`, undefined, 204);
    expect((await read(task.id)).blockedCount).toBe(0);
    expect((await read(task.id)).blockedBy).toEqual([second.id, done.id]);
  });
});

describe('refusals', () => {
  it('refuses the task itself (400) and the same blocker twice (409)', async () => {
    const task = await create('Self');
    const other = await create('Other');
    const self = await fails(owner, 'POST', `/api/tasks/${task.id}/dependencies`, { blockedBy: task.id }, 400, 'dependency_self');
    expect(self.json().error.message).toBe(ERROR_MESSAGES.dependency_self);
    await add(task.id, other.id);
    const twice = await fails(
      owner,
      'POST',
      `/api/tasks/${task.id}/dependencies`,
      { blockedBy: other.id.toUpperCase() },
      409,
      'dependency_exists',
    );
    expect(twice.json().error.message).toBe('This task is already blocked by that task');
    expect((await read(task.id)).blockedCount).toBe(1);
  });

  it('refuses a cycle of two and of three, naming its tasks by title in order', async () => {
    const a = await create('Alpha');
    const b = await create('Bravo', { projectId: otherProjectId });
    await add(a.id, b.id);
    const two = await fails(owner, 'POST', `/api/tasks/${b.id}/dependencies`, { blockedBy: a.id }, 400, 'dependency_cycle');
    expect(two.json().error.message).toBe(
      'This dependency would make a cycle: "Bravo" → "Alpha" → "Bravo" (each is blocked by the next)',
    );
    expect(two.json().error.fields).toEqual({ blockedBy: two.json().error.message });

    const c = await create('Charlie');
    await add(b.id, c.id);
    const three = await fails(member, 'POST', `/api/tasks/${c.id}/dependencies`, { blockedBy: a.id }, 400, 'dependency_cycle');
    expect(three.json().error.message).toBe(
      'This dependency would make a cycle: "Charlie" → "Alpha" → "Bravo" → "Charlie" (each is blocked by the next)',
    );
    // A diamond is no cycle: Alpha blocked by Charlie directly too.
    await add(a.id, c.id);
    expect((await read(c.id)).blockedCount).toBe(0);
  });

  it('answers 404 for a blocker of another team, even to someone who sees both', async () => {
    const task = await create('Ours');
    const theirs = await ok<TaskDto>(stranger, 'POST', '/api/tasks', { title: 'Theirs', projectId: strangerProjectId }, 201);
    const res = await fails(owner, 'POST', `/api/tasks/${task.id}/dependencies`, { blockedBy: theirs.id }, 404, 'task_not_found');
    expect(res.json().error.fields).toEqual({ blockedBy: ERROR_MESSAGES.task_not_found });
    // An unknown id reads the same.
    await fails(owner, 'POST', `/api/tasks/${task.id}/dependencies`, { blockedBy: crypto.randomUUID() }, 404, 'task_not_found');
    // A member of both teams: the same team is the rule, the answer is the same 404.
    await insertMember(ctx.database.db, (await ok<{ id: string }[]>(stranger, 'GET', '/api/teams'))[0]!.id, member);
    await fails(member, 'POST', `/api/tasks/${task.id}/dependencies`, { blockedBy: theirs.id }, 404, 'task_not_found');
  });

  it('answers 404 to a stranger on all three routes, and 400 (never 500) to a bad body or path', async () => {
    const task = await create('Private');
    const blocker = await create('Private blocker');
    await add(task.id, blocker.id);
    await fails(stranger, 'GET', `/api/tasks/${task.id}/dependencies`, undefined, 404, 'task_not_found');
    await fails(stranger, 'POST', `/api/tasks/${task.id}/dependencies`, { blockedBy: blocker.id }, 404, 'task_not_found');
    await fails(stranger, 'DELETE', `/api/tasks/${task.id}/dependencies/${blocker.id}`, undefined, 404, 'task_not_found');
    // The self rule is read after visibility: a stranger learns nothing from it either.
    await fails(stranger, 'POST', `/api/tasks/${task.id}/dependencies`, { blockedBy: task.id }, 404, 'task_not_found');
    await fails(null, 'GET', `/api/tasks/${task.id}/dependencies`, undefined, 401);
    expect((await read(task.id)).blockedBy).toEqual([blocker.id]);

    for (const body of [{}, { blockedBy: 'nope' }, { blockedBy: blocker.id, extra: 1 }, { blockedBy: null }]) {
      await fails(owner, 'POST', `/api/tasks/${task.id}/dependencies`, body, 400);
    }
    await fails(owner, 'DELETE', `/api/tasks/${task.id}/dependencies/not-a-uuid`, undefined, 400);
    await fails(owner, 'GET', '/api/tasks/not-a-uuid/dependencies', undefined, 400);
  });
});

describe('hidden refs: a task the reader cannot see', () => {
  it('a blocker whose project moved to another team is hidden to members of only the first team', async () => {
    const elsewhere = await secondTeam('Elsewhere');
    const movingProject = (await ok<{ id: string }>(owner, 'POST', '/api/projects', { name: 'Moving', teamId }, 201)).id;
    const task = await create('Stays');
    const blocker = await create('Moves away', { projectId: movingProject });
    const blocked = await create('Moves away too, blocked', { projectId: movingProject });
    await add(task.id, blocker.id, member);
    await add(blocked.id, task.id, member);
    await moveProject(movingProject, elsewhere);

    // The member (first team only): the dependency is there, its other task has neither id nor title.
    expect(await deps(task.id, member)).toEqual({ blockedBy: [HIDDEN], blocking: [HIDDEN] });
    expect(await read(task.id, member)).toMatchObject({ blockedBy: [], blocking: [], blockedCount: 1 });
    const body = JSON.stringify(await deps(task.id, member));
    expect(body).not.toContain(blocker.id);
    expect(body).not.toContain('Moves away');
    // Its history names it 'A task in another project' (no id, no title).
    const history = await ok<ActivityListDto>(member, 'GET', `/api/tasks/${task.id}/activity`);
    const entries = history.activity.filter((e) => e.field === 'blocked_by' || e.field === 'blocking');
    expect(entries).toHaveLength(2);
    for (const e of entries) expect(e).toMatchObject({ newValue: HIDDEN_TASK_VALUE, newLabel: null, oldValue: null });
    expect(JSON.stringify(history)).not.toContain(blocker.id);

    // The owner (both teams) sees both ends; a member of only the other team sees this end hidden.
    expect(await deps(task.id)).toEqual({
      blockedBy: [ref({ ...blocker })],
      blocking: [ref({ ...blocked })],
    });
    const there = await createUser(ctx.app, { fullName: 'Only There' });
    await insertMember(ctx.database.db, elsewhere, there);
    expect(await deps(blocker.id, there)).toEqual({ blockedBy: [], blocking: [HIDDEN] });
    expect(await read(blocker.id, there)).toMatchObject({ blockedBy: [], blocking: [] });
    await fails(there, 'GET', `/api/tasks/${task.id}/dependencies`, undefined, 404, 'task_not_found');

    // Across teams now: no new dependency (404, as a stranger's task), but the old one can be removed by id.
    await fails(owner, 'POST', `/api/tasks/${task.id}/dependencies`, { blockedBy: blocked.id }, 404, 'task_not_found');
    await ok(owner, 'PATCH', `/api/tasks/${blocker.id}`, { title: 'Secret of the other team' });
    await remove(task.id, blocker.id, member);
    expect((await read(task.id)).blockedCount).toBe(0);

    // The removal is recorded without the other team's task, on both sides; deleting that task later reveals nothing.
    await ok(owner, 'DELETE', `/api/tasks/${blocker.id}`, undefined, 204);
    const after = await ok<ActivityListDto>(member, 'GET', `/api/tasks/${task.id}/activity`);
    const removal = after.activity.filter((e) => e.field === 'blocked_by' && e.newValue === null);
    expect(removal).toEqual([expect.objectContaining({ oldValue: HIDDEN_TASK_VALUE, oldLabel: null })]);
    // The team's export carries the entry as its members see it.
    const file = await ok<{
      tasks: { title: string; history: { field: string; oldValue: string | null; oldLabel: string | null }[] }[];
    }>(owner, 'GET', `/api/teams/${teamId}/export`);
    const exported = file.tasks.find((t) => t.title === 'Stays')!.history.filter((h) => h.field === 'blocked_by');
    expect(exported).toContainEqual(expect.objectContaining({ oldValue: HIDDEN_TASK_VALUE, oldLabel: null }));
    // Nor the ids of tasks that are not the team's (moved away, or deleted), whenever the entry was written.
    for (const gone of ['Secret of the other team', blocker.id, blocked.id]) expect(JSON.stringify(file)).not.toContain(gone);
    // (What was written while both were one team's, the addition, stays as it was seen then.)
    expect(JSON.stringify(after)).not.toContain('Secret of the other team');
  });

  it('a blocker in a team the reader left is hidden to them, and a cycle through it names it as hidden', async () => {
    const elsewhere = await secondTeam('Left behind');
    const movingProject = (await ok<{ id: string }>(owner, 'POST', '/api/projects', { name: 'Wandering', teamId }, 201)).id;
    const both = await createUser(ctx.app, { fullName: 'In Both' });
    await insertMember(ctx.database.db, teamId, both);
    await insertMember(ctx.database.db, elsewhere, both);
    const x = await create('Xray');
    const hidden = await create('Hotel', { projectId: movingProject });
    const y = await create('Yankee');
    await add(x.id, hidden.id);
    await add(hidden.id, y.id);
    await moveProject(movingProject, elsewhere);

    // A member of both teams sees it; after leaving the second team, it is hidden.
    expect((await deps(x.id, both)).blockedBy).toEqual([ref(hidden)]);
    await ok(both, 'POST', `/api/teams/${elsewhere}/leave`, {}, 204);
    expect(await deps(x.id, both)).toEqual({ blockedBy: [HIDDEN], blocking: [] });
    expect((await read(x.id, both)).blockedBy).toEqual([]);

    // Yankee blocked by Xray would close Yankee → Xray → Hotel → Yankee: Hotel is named as hidden.
    const res = await fails(both, 'POST', `/api/tasks/${y.id}/dependencies`, { blockedBy: x.id }, 400, 'dependency_cycle');
    expect(res.json().error.message).toBe(
      `This dependency would make a cycle: "Yankee" → "Xray" → ${DEPENDENCY_TEXT.hiddenTask} → "Yankee" (each is blocked by the next)`,
    );
    expect(res.body).not.toContain('Hotel');
  });
});

describe('what a change records', () => {
  it('writes the history of both tasks, queues the webhooks and refreshes both tasks', async () => {
    const task = await create('Recorded');
    const blocker = await create('Recording blocker', { projectId: otherProjectId });
    const seen: DomainEvent[] = [];
    const unsubscribe = ctx.app.deps.events.subscribe((e) => {
      if (e.type === 'task.detail_changed' && (e.taskId === task.id || e.taskId === blocker.id)) seen.push(e);
    });
    try {
      await add(task.id, blocker.id, member);
      await remove(task.id, blocker.id, member);
    } finally {
      unsubscribe();
    }
    expect(seen).toEqual([
      expect.objectContaining({ taskId: task.id, projectId: projectId, teamId, part: 'dependencies', actorId: member.id }),
      expect.objectContaining({ taskId: blocker.id, projectId: otherProjectId, teamId, part: 'dependencies' }),
      expect.objectContaining({ taskId: task.id, part: 'dependencies' }),
      expect.objectContaining({ taskId: blocker.id, part: 'dependencies' }),
    ]);

    const bodies = (
      await ctx.database.db
        .select()
        .from(webhookDeliveries)
        .where(eq(webhookDeliveries.webhookId, hookId))
        .orderBy(webhookDeliveries.id)
    )
      .map((d) => ({ type: d.eventType, body: JSON.parse(d.body) as { data: { dependency: unknown; actor: { id: string } } } }))
      .filter((d) => JSON.stringify(d.body.data.dependency) === JSON.stringify({ taskId: task.id, blockedById: blocker.id }));
    expect(bodies.map((d) => d.type)).toEqual(['task.dependency_added', 'task.dependency_removed']);
    expect(bodies[0]!.body.data.actor.id).toBe(member.id);

    const history = async (id: string) =>
      (await ok<ActivityListDto>(owner, 'GET', `/api/tasks/${id}/activity`)).activity.map((e) => ({
        field: e.field,
        oldValue: e.oldValue,
        newValue: e.newValue,
        oldLabel: e.oldLabel,
        newLabel: e.newLabel,
        actor: e.actor?.id,
      }));
    expect(await history(task.id)).toEqual([
      {
        field: 'blocked_by',
        oldValue: null,
        newValue: blocker.id,
        oldLabel: null,
        newLabel: 'Recording blocker',
        actor: member.id,
      },
      {
        field: 'blocked_by',
        oldValue: blocker.id,
        newValue: null,
        oldLabel: 'Recording blocker',
        newLabel: null,
        actor: member.id,
      },
    ]);
    expect(await history(blocker.id)).toEqual([
      { field: 'blocking', oldValue: null, newValue: task.id, oldLabel: null, newLabel: 'Recorded', actor: member.id },
      { field: 'blocking', oldValue: task.id, newValue: null, oldLabel: 'Recorded', newLabel: null, actor: member.id },
    ]);
  });

  it('records nothing for a refused change', async () => {
    const a = await create('Refused A');
    const b = await create('Refused B');
    await add(a.id, b.id);
    await fails(owner, 'POST', `/api/tasks/${b.id}/dependencies`, { blockedBy: a.id }, 400, 'dependency_cycle');
    const activity = (await ok<ActivityListDto>(owner, 'GET', `/api/tasks/${b.id}/activity`)).activity;
    expect(activity.map((e) => e.field)).toEqual(['blocking']);
  });
});

describe('concurrent additions', () => {
  it('two additions that would close a cycle together: exactly one succeeds, the other is the cycle refusal', async () => {
    for (let round = 0; round < 5; round++) {
      const a = await create(`Race A${round}`);
      const b = await create(`Race B${round}`, { projectId: otherProjectId });
      const [ab, ba] = await Promise.all([
        call(owner, 'POST', `/api/tasks/${a.id}/dependencies`, { blockedBy: b.id }),
        call(member, 'POST', `/api/tasks/${b.id}/dependencies`, { blockedBy: a.id }),
      ]);
      const codes = [ab.statusCode, ba.statusCode].sort();
      expect(codes, `${ab.body} ${ba.body}`).toEqual([201, 400]);
      const refused = ab.statusCode === 400 ? ab : ba;
      expect(refused.json().error.reason).toBe('dependency_cycle');
      const counts = [(await read(a.id)).blockedCount, (await read(b.id)).blockedCount].sort();
      expect(counts).toEqual([0, 1]);
    }
  });

  it('two additions with no task in common that would close a cycle of four: only the team lock sees it', async () => {
    for (let round = 0; round < 5; round++) {
      // B blocked by C and D blocked by A exist; "A blocked by B" and "C blocked by D" at once would close A→B→C→D→A.
      // The two share no task row: the per-team lock is what makes the second read the first's edge.
      const [a, b, c, d] = await Promise.all(['A', 'B', 'C', 'D'].map((n) => create(`Ring ${n}${round}`)));
      await add(b!.id, c!.id);
      await add(d!.id, a!.id);
      const answers = await Promise.all([
        call(owner, 'POST', `/api/tasks/${a!.id}/dependencies`, { blockedBy: b!.id }),
        call(member, 'POST', `/api/tasks/${c!.id}/dependencies`, { blockedBy: d!.id }),
      ]);
      expect(answers.map((r) => r.statusCode).sort(), answers.map((r) => r.body).join(' ')).toEqual([201, 400]);
      expect(answers.find((r) => r.statusCode === 400)!.json().error.reason).toBe('dependency_cycle');
    }
  });
});
