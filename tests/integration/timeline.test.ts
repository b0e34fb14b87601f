/**
 * GET /api/timeline (issue 37 step 7, decision 0025): the window's overlap rules, the order (project name, then
 * top-level tasks by first day, each sub-task after its parent by position), the dependencies among the returned tasks
 * only, the open unscheduled tasks and their total, the window's 400s, and who sees what (a stranger's 404 or empty
 * answer, another team's project never in it).
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { TIMELINE_LIMITS, type TimelineAnswer, timelineAnswer } from '../../src/domain/schemas/timeline';
import type { TaskDto } from '../../src/domain/schemas/task';
import { taskDependencies, tasks } from '../../src/server/db/schema';
import { createUser, insertMember, insertOwnerMemberStranger, insertTeam, type TestUser } from '../factories';
import { apiRequests } from '../helpers/api';
import { setupTestApp } from '../helpers/app';

const ctx = setupTestApp();
const { call, ok, fails } = apiRequests(ctx);

const FROM = '2030-03-01';
const TO = '2030-03-31';

let owner: TestUser;
let member: TestUser;
let stranger: TestUser;
let teamId: string;
let alphaId: string;
let betaId: string;
/** A project of the owner's second team, which `member` is not in. */
let gammaId: string;
let gammaTeamId: string;
let strangerProjectId: string;
/** Tasks by their title. */
const t: Record<string, TaskDto> = {};

const create = async (title: string, projectId: string, body: Record<string, unknown> = {}, user = owner) => {
  const task = await ok<TaskDto>(user, 'POST', '/api/tasks', { title, projectId, ...body }, 201);
  t[title] = task;
  return task;
};
const timeline = (query: string, user = owner) => ok<TimelineAnswer>(user, 'GET', `/api/timeline?${query}`);
const windowQuery = (extra = '') => `from=${FROM}&to=${TO}${extra}`;
const titles = (tasks: { id: string }[]) =>
  tasks.map((task) => Object.values(t).find((known) => known.id === task.id)?.title ?? task.id);

beforeAll(async () => {
  let team: { id: string };
  ({ owner, member, stranger, team } = await insertOwnerMemberStranger(ctx.app, ctx.database.db, { strangerTeam: true }));
  teamId = team.id;
  // Made in this order so that names, not creation, decide the projects' order.
  betaId = (await ok<{ id: string }>(owner, 'POST', '/api/projects', { name: 'Beta', teamId }, 201)).id;
  alphaId = (await ok<{ id: string }>(owner, 'POST', '/api/projects', { name: 'Alpha', teamId }, 201)).id;
  gammaTeamId = (await insertTeam(ctx.database.db, owner)).id;
  gammaId = (await ok<{ id: string }>(owner, 'POST', '/api/projects', { name: 'Gamma', teamId: gammaTeamId }, 201)).id;
  const strangerTeamId = (await ok<{ id: string }[]>(stranger, 'GET', '/api/teams'))[0]!.id;
  strangerProjectId = (
    await ok<{ id: string }>(stranger, 'POST', '/api/projects', { name: 'Aardvark', teamId: strangerTeamId }, 201)
  ).id;

  // The overlap rules, in Alpha.
  await create('start only, inside', alphaId, { startDate: '2030-03-10' });
  await create('start only, after', alphaId, { startDate: '2030-04-02' });
  await create('start only, before', alphaId, { startDate: '2030-02-01' });
  await create('due only, inside', alphaId, { dueDate: '2030-03-05' });
  await create('due only, on from', alphaId, { dueDate: FROM });
  await create('due only, before', alphaId, { dueDate: '2030-02-28' });
  await create('both, spanning', alphaId, { startDate: '2030-02-01', dueDate: '2030-04-30' });
  await create('both, ending on from', alphaId, { startDate: '2030-02-01', dueDate: FROM });
  await create('both, starting on to', alphaId, { startDate: TO, dueDate: '2030-05-01' });
  await create('both, before', alphaId, { startDate: '2030-01-01', dueDate: '2030-02-27' });
  await create('both, after', alphaId, { startDate: '2030-04-01', dueDate: '2030-04-03' });
  await create('no dates, open', alphaId);

  // A tree: the parent, two children (reordered so that the later one comes first), a grandchild; and a sub-task whose
  // parent is outside the window.
  const parent = await create('parent', alphaId, { startDate: '2030-03-20', dueDate: '2030-03-25' });
  const first = await create('child made first', alphaId, { parentId: parent.id, dueDate: '2030-03-22' });
  const second = await create('child made second', alphaId, { parentId: parent.id, startDate: '2030-03-02' });
  await create('grandchild', alphaId, { parentId: first.id, dueDate: '2030-03-23' });
  await create('undated child', alphaId, { parentId: parent.id });
  await ok(owner, 'PUT', `/api/tasks/${parent.id}/subtasks/order`, {
    ids: [second.id, first.id, t['undated child']!.id],
  });
  const away = await create('parent outside', alphaId, { dueDate: '2030-06-01' });
  await create('child of outside parent', alphaId, { parentId: away.id, dueDate: '2030-03-15' });

  // Beta's task is earlier than all of Alpha's but comes after them (project order first).
  await create('beta early', betaId, { dueDate: FROM });
  await create('gamma task', gammaId, { dueDate: '2030-03-10' });
  await create('stranger task', strangerProjectId, { dueDate: '2030-03-10' }, stranger);
});

describe('GET /api/timeline', () => {
  it('answers the dated tasks overlapping the window (start only, due only, both, spanning), in the contract', async () => {
    const answer = await timeline(windowQuery(`&projectId=${alphaId}`));
    expect(timelineAnswer.safeParse(answer).success).toBe(true);
    expect(new Set(titles(answer.tasks))).toEqual(
      new Set([
        'start only, inside',
        'due only, inside',
        'due only, on from',
        'both, spanning',
        'both, ending on from',
        'both, starting on to',
        'parent',
        'child made first',
        'child made second',
        'grandchild',
        'child of outside parent',
      ]),
    );
    const spanning = t['both, spanning']!;
    expect(answer.tasks.find((task) => task.id === spanning.id)).toEqual({
      id: spanning.id,
      title: 'both, spanning',
      projectId: alphaId,
      parentId: null,
      startDate: '2030-02-01',
      dueDate: '2030-04-30',
      status: 'todo',
      statusCategory: 'unstarted',
      priority: 'medium',
      assigneeId: null,
      version: spanning.version,
    });
  });

  it('orders by project name, then top-level tasks by first day and id, each sub-task after its parent by position', async () => {
    const answer = await timeline(windowQuery(`&teamId=${teamId}`));
    expect(titles(answer.tasks)).toEqual([
      // Alpha: by coalesce(start, due), then id for the two that start on 2030-02-01.
      ...['both, spanning', 'both, ending on from'].sort((a, b) => (t[a]!.id < t[b]!.id ? -1 : 1)),
      'due only, on from',
      'due only, inside',
      'start only, inside',
      'child of outside parent',
      'parent',
      'child made second',
      'child made first',
      'grandchild',
      'both, starting on to',
      // Beta after Alpha although its task comes first in time.
      'beta early',
    ]);
    expect(answer.projects).toEqual([
      { id: alphaId, name: 'Alpha' },
      { id: betaId, name: 'Beta' },
    ]);
  });

  it('answers only the dependencies whose both ends are among the tasks', async () => {
    const edge = (task: string, blocker: string) => ({ taskId: t[task]!.id, blockedById: t[blocker]!.id });
    await ctx.database.db
      .insert(taskDependencies)
      .values([
        edge('start only, inside', 'due only, inside'),
        edge('parent', 'both, spanning'),
        edge('start only, inside', 'both, before'),
        edge('both, after', 'due only, inside'),
        edge('both, after', 'both, before'),
        edge('beta early', 'start only, inside'),
      ]);
    const answer = await timeline(windowQuery(`&projectId=${alphaId}`));
    const key = (d: { taskId: string; blockedById: string }) => `${d.taskId}>${d.blockedById}`;
    expect(answer.dependencies.map(key).sort()).toEqual(
      [edge('start only, inside', 'due only, inside'), edge('parent', 'both, spanning')].map(key).sort(),
    );
    // Across projects of the team, the Beta edge is in too.
    const team = await timeline(windowQuery(`&teamId=${teamId}`));
    expect(team.dependencies.map(key)).toContain(key(edge('beta early', 'start only, inside')));
    // No tasks, no edges.
    const empty = await timeline(`from=2040-01-01&to=2040-01-31&projectId=${alphaId}`);
    expect(empty.tasks).toEqual([]);
    expect(empty.dependencies).toEqual([]);
  });

  it('answers the open tasks with neither date, newest first, at most 100, and how many there are', async () => {
    const project = (await ok<{ id: string }>(owner, 'POST', '/api/projects', { name: 'Backlog', teamId }, 201)).id;
    await create('backlog done', project, { status: 'completed' });
    await create('backlog dated', project, { dueDate: '2031-01-01' });
    // Inserted in one statement, a minute apart (the API would take seconds for as many).
    const rows = await ctx.database.db
      .insert(tasks)
      .values(
        Array.from({ length: TIMELINE_LIMITS.unscheduled + 1 }, (_, i) => ({
          title: `backlog ${i}`,
          projectId: project,
          creatorId: owner.id,
          createdAt: new Date(Date.UTC(2029, 0, 1, 0, i)),
        })),
      )
      .returning({ id: tasks.id });
    const made = rows.map((row) => row.id);
    const answer = await timeline(windowQuery(`&projectId=${project}`));
    expect(answer.tasks).toEqual([]);
    expect(answer.unscheduledTotal).toBe(TIMELINE_LIMITS.unscheduled + 1);
    expect(answer.unscheduled.map((task) => task.id)).toEqual(made.reverse().slice(0, TIMELINE_LIMITS.unscheduled));
    expect(answer.projects).toEqual([{ id: project, name: 'Backlog' }]);

    // Alpha: the open one and the undated child; not a completed one, nor one canceled.
    await create('no dates, completed', alphaId, { status: 'completed' });
    const canceled = await ok<{ key: string }>(
      owner,
      'POST',
      `/api/projects/${alphaId}/statuses`,
      { name: "Won't do", category: 'canceled', color: '#6b7280' },
      201,
    );
    await create('no dates, canceled', alphaId, { status: canceled.key });
    const alpha = await timeline(windowQuery(`&projectId=${alphaId}`));
    expect(titles(alpha.unscheduled)).toEqual(['undated child', 'no dates, open']);
    expect(alpha.unscheduledTotal).toBe(2);
  });

  it('refuses a window that is not one (400), and never answers 500 on bad input', async () => {
    await fails(owner, 'GET', `/api/timeline?from=${TO}&to=${FROM}`, undefined, 400, 'validation_failed');
    await fails(owner, 'GET', '/api/timeline?from=2030-01-01&to=2031-02-06', undefined, 400, 'validation_failed');
    await ok(owner, 'GET', '/api/timeline?from=2030-01-01&to=2031-02-05');
    for (const query of [
      '',
      `from=${FROM}`,
      `to=${TO}`,
      'from=2030-02-30&to=2030-03-31',
      'from=yesterday&to=today',
      `${windowQuery()}&teamId=nope`,
      `${windowQuery()}&projectId=1`,
      `${windowQuery()}&teamId=${teamId}&projectId=${alphaId}`,
      'from[]=1&to[]=2',
    ]) {
      const res = await call(owner, 'GET', `/api/timeline?${query}`);
      expect(res.statusCode, query).toBe(400);
    }
    const tooLong = await call(owner, 'GET', '/api/timeline?from=2030-01-01&to=2031-02-06');
    expect(JSON.stringify(tooLong.json().error)).toContain('The window may span at most 400 days');
  });

  it('answers 401 signed out, 404 for a team or project the caller cannot see, and nothing of other teams', async () => {
    await fails(null, 'GET', `/api/timeline?${windowQuery()}`, undefined, 401);
    await fails(stranger, 'GET', `/api/timeline?${windowQuery(`&projectId=${alphaId}`)}`, undefined, 404, 'project_not_found');
    await fails(stranger, 'GET', `/api/timeline?${windowQuery(`&teamId=${teamId}`)}`, undefined, 404, 'team_not_found');
    await fails(owner, 'GET', `/api/timeline?${windowQuery(`&projectId=${randomUUID()}`)}`, undefined, 404);
    await fails(member, 'GET', `/api/timeline?${windowQuery(`&projectId=${gammaId}`)}`, undefined, 404, 'project_not_found');

    // Someone in no team: an empty answer.
    const loner = await createUser(ctx.app);
    expect(await timeline(windowQuery(), loner)).toEqual({
      tasks: [],
      dependencies: [],
      projects: [],
      unscheduled: [],
      unscheduledTotal: 0,
    });
    // The stranger sees their own project only.
    const theirs = await timeline(windowQuery(), stranger);
    expect(titles(theirs.tasks)).toEqual(['stranger task']);
    expect(theirs.projects.map((p) => p.name)).toEqual(['Aardvark']);

    // Every project the caller sees: the member not Gamma (the owner's other team), the owner Gamma too; never the
    // stranger's project, whose name sorts first.
    const mine = await timeline(windowQuery(), member);
    expect(mine.projects.map((p) => p.name)).not.toContain('Gamma');
    expect(titles(mine.tasks)).not.toContain('stranger task');
    const owners = await timeline(windowQuery(), owner);
    expect(owners.projects.map((p) => p.name).slice(0, 3)).toEqual(['Alpha', 'Backlog', 'Beta']);
    expect(owners.projects.map((p) => p.name)).toContain('Gamma');
    expect(titles(owners.tasks)).not.toContain('stranger task');
    expect(titles(owners.tasks).at(-1)).toBe('gamma task');
    // A team filter keeps to that team.
    const gamma = await timeline(windowQuery(`&teamId=${gammaTeamId}`));
    expect(titles(gamma.tasks)).toEqual(['gamma task']);

    // Someone who leaves the team sees it no more.
    const leaving = await createUser(ctx.app);
    const membership = await insertMember(ctx.database.db, gammaTeamId, leaving);
    expect(titles((await timeline(windowQuery(), leaving)).tasks)).toEqual(['gamma task']);
    await ok(owner, 'DELETE', `/api/teams/${gammaTeamId}/members/${membership.id}`, undefined, 204);
    expect((await timeline(windowQuery(), leaving)).tasks).toEqual([]);
    await fails(leaving, 'GET', `/api/timeline?${windowQuery(`&teamId=${gammaTeamId}`)}`, undefined, 404, 'team_not_found');
  });
});
