import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ProjectStatus, TaskStatus } from '../../src/domain/constants';
import type { DashboardDto } from '../../src/domain/schemas/dashboard';
import { insertDefaultStatuses } from '../../src/server/db/project-statuses';
import { projects, projectStatuses, tasks, teams } from '../../src/server/db/schema';
import { createUser, insertMember, insertTeam, type TestUser } from '../factories';
import { setupTestApp } from '../helpers/app';

const ctx = setupTestApp();

const TODAY = '2025-03-05';
const at = (day: number, hour = 12) => new Date(Date.UTC(2025, 2, day, hour));

let me: TestUser;
let teammate: TestUser;
let stranger: TestUser;
let lonely: TestUser;
const ids: Record<string, string> = {};

async function addProject(key: string, teamId: string, ownerId: string, status: ProjectStatus, createdDay: number) {
  const [p] = await ctx.database.db
    .insert(projects)
    .values({ name: `Project ${key}`, teamId, ownerId, status, createdAt: at(createdDay), updatedAt: at(createdDay) })
    .returning();
  await insertDefaultStatuses(ctx.database.db, [p!.id]);
  ids[key] = p!.id;
  return p!.id;
}

async function addTask(
  key: string,
  projectId: string,
  creatorId: string,
  status: TaskStatus | string,
  updatedDay: number,
  dueDate: string | null = null,
) {
  const [t] = await ctx.database.db
    .insert(tasks)
    .values({ title: `Task ${key}`, projectId, creatorId, status, dueDate, createdAt: at(1), updatedAt: at(updatedDay) })
    .returning();
  ids[key] = t!.id;
}

function getDashboard(user: TestUser, query = `?today=${TODAY}`) {
  return ctx.app.inject({ method: 'GET', url: `/api/dashboard${query}`, headers: user.auth });
}

/** The figures counted straight from the tables, independently of the service's SQL. */
async function directCounts(userId: string) {
  const one = async (query: ReturnType<typeof sql>) => {
    const result = (await ctx.database.db.execute(query)) as unknown as { rows: { n: number | string }[] };
    return Number(result.rows[0]!.n);
  };
  const mine = sql`(select team_id from team_members where user_id = ${userId} and status = 'active')`;
  return {
    totalTasks: await one(
      sql`select count(*) as n from tasks t join projects p on p.id = t.project_id where p.team_id in ${mine}`,
    ),
    completedTasks: await one(
      sql`select count(*) as n from tasks t join projects p on p.id = t.project_id where p.team_id in ${mine} and t.status = 'completed'`,
    ),
    tasksInProgress: await one(
      sql`select count(*) as n from tasks t join projects p on p.id = t.project_id where p.team_id in ${mine} and t.status = 'in_progress'`,
    ),
    activeProjects: await one(sql`select count(*) as n from projects where team_id in ${mine} and status = 'active'`),
    teamMembers: await one(sql`select count(*) as n from team_members where team_id in ${mine} and status = 'active'`),
    activeTeams: await one(sql`select count(*) as n from team_members where user_id = ${userId} and status = 'active'`),
  };
}

beforeAll(async () => {
  const db = ctx.database.db;
  [me, teammate, stranger, lonely] = await Promise.all([
    createUser(ctx.app),
    createUser(ctx.app),
    createUser(ctx.app),
    createUser(ctx.app),
  ]);

  // My teams: A (I own it, with a teammate) and B (owned by the teammate, I am a member).
  const teamA = await insertTeam(db, me, 'Team A');
  await insertMember(db, teamA.id, teammate, 'admin');
  const teamB = await insertTeam(db, teammate, 'Team B');
  await insertMember(db, teamB.id, me, 'member');
  // Not mine: C (the stranger's, with the teammate in it too).
  const teamC = await insertTeam(db, stranger, 'Team C');
  await insertMember(db, teamC.id, teammate, 'member');
  await db
    .update(teams)
    .set({ createdAt: at(1, 1) })
    .where(sql`${teams.id} = ${teamA.id}`);
  await db
    .update(teams)
    .set({ createdAt: at(1, 2) })
    .where(sql`${teams.id} = ${teamB.id}`);
  await db
    .update(teams)
    .set({ createdAt: at(28) })
    .where(sql`${teams.id} = ${teamC.id}`);

  const pA1 = await addProject('A1', teamA.id, me.id, 'active', 2);
  const pA2 = await addProject('A2', teamA.id, me.id, 'planning', 3);
  const pB1 = await addProject('B1', teamB.id, teammate.id, 'active', 4);
  await addProject('B2', teamB.id, teammate.id, 'completed', 5);
  await addProject('B3', teamB.id, teammate.id, 'on_hold', 6);
  await addProject('B4', teamB.id, teammate.id, 'active', 7);
  const pC1 = await addProject('C1', teamC.id, stranger.id, 'active', 27);

  await addTask('a1-done', pA1, me.id, 'completed', 20, '2025-03-01');
  await addTask('a1-doing', pA1, me.id, 'in_progress', 19, '2025-03-06');
  await addTask('a1-todo-overdue', pA1, me.id, 'todo', 8, '2025-02-20');
  await addTask('a2-review', pA2, me.id, 'review', 9, '2025-03-05');
  await addTask('a2-nodue', pA2, me.id, 'todo', 10);
  await addTask('b1-doing', pB1, teammate.id, 'in_progress', 11, '2025-03-20');
  await addTask('b1-done', pB1, teammate.id, 'completed', 18, null);
  await addTask('b1-late', pB1, teammate.id, 'todo', 12, '2025-04-30');
  await addTask('b1-later', pB1, teammate.id, 'todo', 13, '2025-05-30');
  // Not mine: newest of all and soonest due, so a leak would show at the top of every list.
  await addTask('c1-done', pC1, stranger.id, 'completed', 30, null);
  await addTask('c1-doing', pC1, stranger.id, 'in_progress', 29, '2025-01-01');
  // B1: 1 of its 4 tasks completed, 25%; A1: 1 of 3, 33%.
});

describe('GET /api/dashboard', () => {
  it('answers 401 without a session', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/dashboard' });
    expect(res.statusCode).toBe(401);
    expect(res.json().error.code).toBe('unauthenticated');
  });

  it('is described in the OpenAPI document', async () => {
    const doc = (await ctx.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    const op = doc.paths['/api/dashboard'].get;
    expect(op.parameters.map((p: { name: string }) => p.name)).toContain('today');
    expect(op.responses['200']).toBeDefined();
  });

  it('rejects a malformed date with 400, never 500', async () => {
    for (const bad of ['2025-02-30', 'tomorrow', '2025-3-5']) {
      const res = await getDashboard(me, `?today=${bad}`);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().error.code).toBe('validation_failed');
    }
  });

  it("counts exactly what a direct count over the caller's teams gives, and nothing of other teams", async () => {
    const res = await getDashboard(me);
    expect(res.statusCode, res.body).toBe(200);
    const { stats } = res.json<DashboardDto>();
    const direct = await directCounts(me.id);
    expect(stats).toMatchObject(direct);
    // The seed, by hand: 9 tasks in A and B (2 completed, 2 in progress); active projects A1, B1, B4;
    // members: A has 2, B has 2; teams A and B. Team C's project and tasks are not counted.
    expect(stats).toEqual({
      totalTasks: 9,
      completedTasks: 2,
      tasksInProgress: 2,
      completionRate: 22, // 2 / 9 = 22.2%
      activeProjects: 3,
      teamMembers: 4,
      activeTeams: 2,
    });
  });

  it('gives each card this month and last (issue 24; tests/integration/dashboard-trends.test.ts has the history)', async () => {
    const { trends } = (await getDashboard(me)).json<DashboardDto>();
    // Every task was completed (created completed) in March 2025, long before both months; the three active projects
    // were created then too; the two distinct members (me and my teammate, in both teams) joined this month.
    expect(trends).toEqual({
      completedTasks: { current: 0, previous: 0 },
      activeProjects: { current: 3, previous: 3 },
      teamMembers: { current: 2, previous: 0 },
    });
  });

  it('counts each membership for someone in several teams, with their own teams only', async () => {
    const res = await getDashboard(teammate);
    const { stats } = res.json<DashboardDto>();
    expect(stats).toMatchObject(await directCounts(teammate.id));
    expect(stats.activeTeams).toBe(3);
    expect(stats.teamMembers).toBe(6);
    expect(stats.totalTasks).toBe(11);
    expect(stats.completionRate).toBe(27); // 3 / 11 = 27.3%
  });

  it('lists the five newest activities, newest first, with the spec actions', async () => {
    const { recentActivity } = (await getDashboard(me)).json<DashboardDto>();
    expect(recentActivity.map((a) => [a.title, a.action])).toEqual([
      ['Task a1-done', 'completed'],
      ['Task a1-doing', 'updated'],
      ['Task b1-done', 'completed'],
      ['Task b1-later', 'updated'],
      ['Task b1-late', 'updated'],
    ]);
    expect(recentActivity[0]!.at).toBe(at(20).toISOString());
  });

  it('shows projects and teams as created in the activity feed', async () => {
    const { recentActivity } = (await getDashboard(stranger)).json<DashboardDto>();
    expect(recentActivity.map((a) => [a.entity, a.title, a.action])).toEqual([
      ['task', 'Task c1-done', 'completed'],
      ['task', 'Task c1-doing', 'updated'],
      ['team', 'Team C', 'created'],
      ['project', 'Project C1', 'created'],
    ]);
  });

  it('shows the first five projects, newest first, with their progress', async () => {
    const { projectProgress } = (await getDashboard(me)).json<DashboardDto>();
    expect(projectProgress.map((p) => [p.name, p.progress, p.status])).toEqual([
      ['Project B4', 0, 'active'],
      ['Project B3', 0, 'on_hold'],
      ['Project B2', 0, 'completed'],
      ['Project B1', 25, 'active'],
      ['Project A2', 0, 'planning'],
    ]);
  });

  it('lists up to five open tasks with a due date, soonest first, overdue ones flagged', async () => {
    const { upcomingDeadlines } = (await getDashboard(me)).json<DashboardDto>();
    expect(upcomingDeadlines.map((d) => [d.title, d.dueDate, d.isOverdue])).toEqual([
      ['Task a1-todo-overdue', '2025-02-20', true],
      ['Task a2-review', '2025-03-05', false],
      ['Task a1-doing', '2025-03-06', false],
      ['Task b1-doing', '2025-03-20', false],
      ['Task b1-late', '2025-04-30', false],
    ]);
    expect(upcomingDeadlines[0]).toMatchObject({
      projectId: ids.A1,
      projectName: 'Project A1',
      priority: 'medium',
      status: 'todo',
    });
  });

  it("flags overdue from the caller's date", async () => {
    const { upcomingDeadlines } = (await getDashboard(me, '?today=2025-03-06')).json<DashboardDto>();
    expect(upcomingDeadlines.filter((d) => d.isOverdue).map((d) => d.title)).toEqual(['Task a1-todo-overdue', 'Task a2-review']);
  });

  it('shows a user with no team zeros and empty lists, nothing of anyone else', async () => {
    const res = await getDashboard(lonely, '');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      stats: {
        completedTasks: 0,
        activeProjects: 0,
        teamMembers: 0,
        tasksInProgress: 0,
        totalTasks: 0,
        completionRate: 0,
        activeTeams: 0,
      },
      trends: {
        completedTasks: { current: 0, previous: 0 },
        activeProjects: { current: 0, previous: 0 },
        teamMembers: { current: 0, previous: 0 },
      },
      recentActivity: [],
      projectProgress: [],
      upcomingDeadlines: [],
    });
  });
});

describe('GET /api/dashboard with a workflow of its own (issue 36: every figure by category)', () => {
  it("counts a custom completed status as completed, leaves canceled work out, and counts 'Tasks in Progress' by the rule", async () => {
    const db = ctx.database.db;
    const flow = await createUser(ctx.app);
    const team = await insertTeam(db, flow, 'Team Flow');
    const w = await addProject('W', team.id, flow.id, 'active', 2);
    // After the default four: Done (completed), Design and Build (started), Won't do (canceled).
    await db.insert(projectStatuses).values(
      (
        [
          ['done', 'Done', 'completed'],
          ['design', 'Design', 'started'],
          ['build', 'Build', 'started'],
          ['won_t_do', "Won't do", 'canceled'],
        ] as const
      ).map(([key, name, category], i) => ({ projectId: w, key, name, category, color: '#7c3aed', position: 4 + i })),
    );
    await addTask('w-done', w, flow.id, 'done', 22, '2025-03-02');
    await addTask('w-completed', w, flow.id, 'completed', 14);
    await addTask('w-design', w, flow.id, 'design', 15, '2025-03-10');
    await addTask('w-build', w, flow.id, 'build', 16);
    await addTask('w-doing', w, flow.id, 'in_progress', 17);
    await addTask('w-review', w, flow.id, 'review', 18);
    await addTask('w-dropped', w, flow.id, 'won_t_do', 21, '2025-02-01');
    await addTask('w-todo', w, flow.id, 'todo', 13, '2025-03-08');

    const res = await getDashboard(flow);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<DashboardDto>();
    // Completed: Completed and Done. In progress: the started statuses less the last of them (Build) — In Progress,
    // Review and Design.
    expect(body.stats).toMatchObject({ totalTasks: 8, completedTasks: 2, tasksInProgress: 3, completionRate: 25 });
    // Progress: completed ÷ (all − canceled) = 2 / 7.
    expect(body.projectProgress).toEqual([{ id: w, name: 'Project W', progress: 29, status: 'active' }]);
    // Done is 'completed' in the feed; Won't do is neither completed nor open.
    expect(body.recentActivity.filter((a) => a.entity === 'task').map((a) => [a.title, a.action])).toEqual([
      ['Task w-done', 'completed'],
      ['Task w-dropped', 'updated'],
      ['Task w-review', 'updated'],
      ['Task w-doing', 'updated'],
    ]);
    expect(body.upcomingDeadlines.map((d) => [d.title, d.status, d.isOverdue])).toEqual([
      ['Task w-todo', 'todo', false],
      ['Task w-design', 'design', false],
    ]);
  });
});
