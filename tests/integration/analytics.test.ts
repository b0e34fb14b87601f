import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  localDateIn,
  mondayOf,
  percentileCont,
  resolvePeriod,
  roundHours,
  weekWindows,
  wholeDaysSince,
} from '../../src/domain/analytics';
import { TASK_PRIORITIES } from '../../src/domain/constants';
import { addDays } from '../../src/domain/dates';
import type { TaskPriority, TaskStatus } from '../../src/domain/constants';
import type { AnalyticsDto } from '../../src/domain/schemas/analytics';
import { insertDefaultStatuses } from '../../src/server/db/project-statuses';
import { projects, projectStatuses, taskActivity, tasks, users } from '../../src/server/db/schema';
import { createUser, insertMember, insertTaskWithStatusHistory, insertTeam, type StatusMove, type TestUser } from '../factories';
import { setupTestApp } from '../helpers/app';

/**
 * GET /api/analytics on hand-made histories with known answers (issue 24, decision 0018). Tasks and their status rows
 * are written straight into the database with chosen times, in March 2025 (weeks from Monday 3 to Sunday 30), so every
 * figure below is worked out by hand in the comments.
 */

const ctx = setupTestApp();

let me: TestUser;
let mia: TestUser;
let stranger: TestUser;
let paris: TestUser;
const ids: Record<string, string> = {};

const db = () => ctx.database.db;

async function addProject(key: string, teamId: string, ownerId: string) {
  const [p] = await db()
    .insert(projects)
    .values({ name: `Project ${key}`, teamId, ownerId, status: 'active' })
    .returning();
  await insertDefaultStatuses(db(), [p!.id]);
  ids[key] = p!.id;
  return p!.id;
}

interface TaskSpec {
  project: string;
  created: string;
  /** Status moves, in order: [when, from, to]. The task's status is the last `to` (or `status` with none). */
  moves?: [string, TaskStatus, TaskStatus][];
  status?: TaskStatus;
  due?: string;
  assignee?: TestUser;
  priority?: TaskPriority;
  creator?: TestUser;
}

async function addTask(key: string, spec: TaskSpec) {
  const moves = spec.moves ?? [];
  const status = moves.length ? moves[moves.length - 1]![2] : (spec.status ?? 'todo');
  const creator = spec.creator ?? me;
  const [t] = await db()
    .insert(tasks)
    .values({
      title: `Task ${key}`,
      projectId: ids[spec.project]!,
      creatorId: creator.id,
      status,
      priority: spec.priority ?? 'medium',
      assigneeId: spec.assignee?.id ?? null,
      dueDate: spec.due ?? null,
      createdAt: new Date(spec.created),
      updatedAt: new Date(spec.created),
    })
    .returning();
  ids[key] = t!.id;
  if (moves.length) {
    // One statement for the whole history, as a restore writes it.
    await db()
      .insert(taskActivity)
      .values(
        moves.map(([when, from, to]) => ({
          taskId: t!.id,
          actorId: creator.id,
          field: 'status' as const,
          oldValue: from,
          newValue: to,
          createdAt: new Date(when),
        })),
      );
  }
  return t!.id;
}

const get = (user: TestUser, query = '') => ctx.app.inject({ method: 'GET', url: `/api/analytics${query}`, headers: user.auth });

async function analytics(user: TestUser, query: string): Promise<AnalyticsDto> {
  const res = await get(user, query);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as AnalyticsDto;
}

const MARCH = 'from=2025-03-03&to=2025-03-30';
const WEEKS = ['2025-03-03', '2025-03-10', '2025-03-17', '2025-03-24'];
const series = <T>(rows: ({ week: string } & T)[], pick: (r: T) => unknown) => rows.map((r) => [r.week, pick(r)]);

beforeAll(async () => {
  [me, mia, stranger, paris] = await Promise.all([
    createUser(ctx.app, { fullName: 'Olive Owner' }),
    createUser(ctx.app, { fullName: 'Mia Member' }),
    createUser(ctx.app, { fullName: 'Sam Stranger' }),
    createUser(ctx.app, { fullName: 'Paula Paris' }),
  ]);
  const teamA = await insertTeam(db(), me, 'Team A');
  await insertMember(db(), teamA.id, mia);
  const teamB = await insertTeam(db(), mia, 'Team B');
  await insertMember(db(), teamB.id, me);
  const teamS = await insertTeam(db(), stranger, 'Stranger team');
  const teamP = await insertTeam(db(), paris, 'Paris team');
  ids.teamA = teamA.id;
  ids.teamB = teamB.id;
  ids.teamS = teamS.id;
  await addProject('P1', teamA.id, me.id);
  await addProject('P2', teamA.id, me.id);
  await addProject('PB', teamB.id, mia.id);
  await addProject('PS', teamS.id, stranger.id);
  await addProject('PP', teamP.id, paris.id);

  // Team A, project P1.
  // T1: in progress Mon 3 10:00, completed Wed 5 10:00 (week 1): 48 h. Due Mar 2, but completed by the first week's end.
  await addTask('T1', {
    project: 'P1',
    created: '2025-03-01T10:00:00Z',
    due: '2025-03-02',
    moves: [
      ['2025-03-03T10:00:00Z', 'todo', 'in_progress'],
      ['2025-03-04T10:00:00Z', 'in_progress', 'review'],
      ['2025-03-05T10:00:00Z', 'review', 'completed'],
    ],
  });
  // T2: 6 h in progress, completed Tue 4 (week 1).
  await addTask('T2', {
    project: 'P1',
    created: '2025-03-04T00:00:00Z',
    moves: [
      ['2025-03-04T12:00:00Z', 'todo', 'in_progress'],
      ['2025-03-04T18:00:00Z', 'in_progress', 'completed'],
    ],
  });
  // T3, moved back: in progress Mon 10 09:00, review, back to in progress, completed Thu 13 09:00 (week 2): 72 h from
  // the FIRST move into In Progress. Due Mar 5: overdue at the first week's end (still To Do then).
  await addTask('T3', {
    project: 'P1',
    created: '2025-03-02T00:00:00Z',
    due: '2025-03-05',
    moves: [
      ['2025-03-10T09:00:00Z', 'todo', 'in_progress'],
      ['2025-03-11T09:00:00Z', 'in_progress', 'review'],
      ['2025-03-12T09:00:00Z', 'review', 'in_progress'],
      ['2025-03-13T09:00:00Z', 'in_progress', 'completed'],
    ],
  });
  // T4, reopened: completed Thu 6, reopened Tue 18: no completion time now; completed at the ends of weeks 1 and 2
  // only. Due Mar 8: overdue at the ends of weeks 3 and 4. Assigned to me.
  await addTask('T4', {
    project: 'P1',
    created: '2025-03-02T00:00:00Z',
    due: '2025-03-08',
    assignee: me,
    priority: 'medium',
    moves: [
      ['2025-03-03T12:00:00Z', 'todo', 'in_progress'],
      ['2025-03-06T12:00:00Z', 'in_progress', 'completed'],
      ['2025-03-18T12:00:00Z', 'completed', 'todo'],
    ],
  });
  // T5, created completed on Wed 12 (week 2), no status row: a completion, but no cycle time.
  await addTask('T5', { project: 'P1', created: '2025-03-12T08:00:00Z', status: 'completed' });
  // T6: completed straight from To Do on Mon 3, reopened into In Progress Wed 19 00:00, completed again Tue 25 10:00
  // (week 4): 154 h from its first In Progress.
  await addTask('T6', {
    project: 'P1',
    created: '2025-03-01T00:00:00Z',
    moves: [
      ['2025-03-03T08:00:00Z', 'todo', 'completed'],
      ['2025-03-19T00:00:00Z', 'completed', 'in_progress'],
      ['2025-03-25T10:00:00Z', 'in_progress', 'completed'],
    ],
  });
  // T7: completed in week 2, then deleted: counts nowhere.
  await addTask('T7', {
    project: 'P1',
    created: '2025-03-02T00:00:00Z',
    due: '2025-03-03',
    moves: [
      ['2025-03-11T00:00:00Z', 'todo', 'in_progress'],
      ['2025-03-12T00:00:00Z', 'in_progress', 'completed'],
    ],
  });
  // T8, created In Progress Mon 17 06:00, completed 18:00 (week 3): 12 h from its creation.
  await addTask('T8', {
    project: 'P1',
    created: '2025-03-17T06:00:00Z',
    moves: [['2025-03-17T18:00:00Z', 'in_progress', 'completed']],
  });
  // T9: To Do since Feb 1, never moved; due Mar 12 (overdue from week 2's end). Mia's, urgent.
  await addTask('T9', { project: 'P1', created: '2025-02-01T00:00:00Z', due: '2025-03-12', assignee: mia, priority: 'urgent' });
  // T10: In Progress since Fri 21 10:00, unassigned, low; due Mar 25 (overdue at week 4's end).
  await addTask('T10', {
    project: 'P1',
    created: '2025-03-20T00:00:00Z',
    due: '2025-03-25',
    priority: 'low',
    moves: [['2025-03-21T10:00:00Z', 'todo', 'in_progress']],
  });
  // Team A, project P2. T11: In Review since Thu 6, mine, high.
  await addTask('T11', {
    project: 'P2',
    created: '2025-03-05T00:00:00Z',
    assignee: me,
    priority: 'high',
    moves: [['2025-03-06T00:00:00Z', 'todo', 'review']],
  });
  // Team B (I am a member): TB completed Tue 4 (week 1), never in progress.
  await addTask('TB', {
    project: 'PB',
    created: '2025-03-03T00:00:00Z',
    creator: mia,
    moves: [['2025-03-04T00:00:00Z', 'todo', 'completed']],
  });
  // The stranger's team: never counted for me.
  await addTask('TS', {
    project: 'PS',
    created: '2025-03-03T00:00:00Z',
    creator: stranger,
    status: 'todo',
    due: '2025-03-04',
    moves: [
      ['2025-03-04T00:00:00Z', 'todo', 'in_progress'],
      ['2025-03-05T00:00:00Z', 'in_progress', 'completed'],
    ],
  });
  // Paula's team: completed at 23:30 on Sunday 16 in Paris (22:30 UTC) and at 23:30 on Sunday 16 in UTC (00:30 on
  // Monday 17 in Paris).
  for (const [key, done] of [
    ['TP1', '2025-03-16T22:30:00Z'],
    ['TP2', '2025-03-16T23:30:00Z'],
  ] as const) {
    await addTask(key, {
      project: 'PP',
      created: '2025-03-10T00:00:00Z',
      creator: paris,
      moves: [
        ['2025-03-16T12:00:00Z', 'todo', 'in_progress'],
        [done, 'in_progress', 'completed'],
      ],
    });
  }

  // T7 goes through the API, as a user deletes it (its rows and spans go by cascade).
  const deleted = await ctx.app.inject({ method: 'DELETE', url: `/api/tasks/${ids.T7}`, headers: me.auth });
  expect(deleted.statusCode, deleted.body).toBe(204);
}, 60_000);

describe('GET /api/analytics: one team, March 2025 in UTC', () => {
  let a: AnalyticsDto;
  beforeAll(async () => {
    a = await analytics(me, `?teamId=${ids.teamA}&${MARCH}`);
  });

  it('covers every week touching the range, in the caller’s zone (UTC when unset)', () => {
    expect(a.scope).toEqual({
      teamIds: [ids.teamA],
      projectId: null,
      from: '2025-03-03',
      to: '2025-03-30',
      timeZone: 'UTC',
      weeks: WEEKS,
    });
  });

  it('counts throughput by each task’s last move into Completed, if it is completed now', () => {
    // W1: T1, T2. W2: T3, T5 (created completed). W3: T8. W4: T6 (completed again). Not T4 (reopened), T7 (deleted).
    expect(series(a.throughput, (r) => r.completed)).toEqual([
      ['2025-03-03', 2],
      ['2025-03-10', 2],
      ['2025-03-17', 1],
      ['2025-03-24', 1],
    ]);
  });

  it('gives cycle time from the first move into In Progress: count, median and 85th percentile per week', () => {
    // W1: 6 h (T2), 48 h (T1): median 27, p85 6 + 0.85 × 42 = 41.7. W2: T3 72 h (T5 never was in progress).
    // W3: T8 12 h (created in progress). W4: T6 154 h.
    expect(a.cycleTime.weeks).toEqual([
      { week: '2025-03-03', count: 2, medianHours: 27, p85Hours: 41.7 },
      { week: '2025-03-10', count: 1, medianHours: 72, p85Hours: 72 },
      { week: '2025-03-17', count: 1, medianHours: 12, p85Hours: 12 },
      { week: '2025-03-24', count: 1, medianHours: 154, p85Hours: 154 },
    ]);
    expect(a.cycleTime.distribution.map((b) => [b.label, b.count])).toEqual([
      ['< 1 day', 2],
      ['1–2 days', 0],
      ['2–4 days', 2],
      ['4–7 days', 1],
      ['1–2 weeks', 0],
      ['2–4 weeks', 0],
      ['4 weeks or more', 0],
    ]);
    expect(a.cycleTime.distribution[2]).toEqual({ label: '2–4 days', minHours: 48, maxHours: 96, count: 2 });
    expect(a.cycleTime.distribution[6]!.maxHours).toBeNull();
  });

  it('burns up each project at each week’s end: tasks existing then, and those completed then', () => {
    expect(a.burnup.map((b) => b.projectName)).toEqual(['Project P1', 'Project P2']);
    // P1 scope: T1 T2 T3 T4 T6 T9 by Mar 10; + T5; + T8 T10. Completed at Mar 10: T1 T2 T4 T6; Mar 17: + T3 T5;
    // Mar 24: T4 and T6 reopened, + T8; Mar 31: T6 completed again.
    expect(a.burnup[0]!.points.map((p) => [p.week, p.scope, p.completed])).toEqual([
      ['2025-03-03', 6, 4],
      ['2025-03-10', 7, 6],
      ['2025-03-17', 9, 5],
      ['2025-03-24', 9, 6],
    ]);
    expect(a.burnup[1]!.points.map((p) => [p.scope, p.completed])).toEqual([
      [1, 0],
      [1, 0],
      [1, 0],
      [1, 0],
    ]);
    expect(a.burnup[0]!.projectId).toBe(ids.P1);
  });

  it('counts work in progress now per open status', () => {
    // Two projects, both on the default workflow: today's chart, by status.
    expect(a.wip).toEqual([
      { kind: 'status', key: 'todo', name: 'To Do', color: '#64748b', count: 2 },
      { kind: 'status', key: 'in_progress', name: 'In Progress', color: '#0ea5e9', count: 1 },
      { kind: 'status', key: 'review', name: 'Review', color: '#f59e0b', count: 1 },
    ]);
  });

  it('lists open tasks by how long they have been in their status, oldest first', () => {
    expect(a.ageing.map((t) => [t.title, t.status, t.since])).toEqual([
      ['Task T9', 'todo', '2025-02-01T00:00:00.000Z'],
      ['Task T11', 'review', '2025-03-06T00:00:00.000Z'],
      ['Task T4', 'todo', '2025-03-18T12:00:00.000Z'],
      ['Task T10', 'in_progress', '2025-03-21T10:00:00.000Z'],
    ]);
    expect(a.ageing[1]).toMatchObject({ taskId: ids.T11, projectId: ids.P2, projectName: 'Project P2', statusName: 'Review' });
    const days = wholeDaysSince(new Date('2025-02-01T00:00:00Z'), new Date());
    expect([days, days + 1]).toContain(a.ageing[0]!.days); // the day may turn between the request and this line
  });

  it('splits open tasks per assignee by priority, unassigned included, most loaded first', () => {
    expect(a.workload).toEqual([
      { assigneeId: me.id, name: 'Olive Owner', low: 0, medium: 1, high: 1, urgent: 0, total: 2 },
      { assigneeId: mia.id, name: 'Mia Member', low: 0, medium: 0, high: 0, urgent: 1, total: 1 },
      { assigneeId: null, name: null, low: 1, medium: 0, high: 0, urgent: 0, total: 1 },
    ]);
  });

  it('counts tasks open and past their due date at each week’s end', () => {
    // Mar 10 (day Mar 9): T3 (due 5, To Do then). Mar 17 (day 16): T9. Mar 24 (day 23): T4 (reopened), T9.
    // Mar 31 (day 30): T4, T9, T10. T1 was completed before it was late at any end; T7 is deleted.
    expect(series(a.overdue, (r) => r.count)).toEqual([
      ['2025-03-03', 1],
      ['2025-03-10', 1],
      ['2025-03-17', 2],
      ['2025-03-24', 3],
    ]);
  });
});

describe('GET /api/analytics: scope', () => {
  it('defaults to all my teams, and never counts another team’s tasks', async () => {
    const all = await analytics(me, `?${MARCH}`);
    expect([...all.scope.teamIds].sort()).toEqual([ids.teamA!, ids.teamB!].sort());
    // TB (team B) joins T1 and T2 in week 1; the stranger's TS (completed Mar 5) does not.
    expect(all.throughput.map((r) => r.completed)).toEqual([3, 2, 1, 1]);
    expect(all.burnup.map((b) => b.projectName)).toEqual(['Project P1', 'Project P2', 'Project PB']);
    expect(all.overdue.map((r) => r.count)).toEqual([1, 1, 2, 3]);
    const strangers = await analytics(stranger, `?${MARCH}`);
    expect(strangers.throughput.map((r) => r.completed)).toEqual([1, 0, 0, 0]);
    expect(strangers.overdue.map((r) => r.count)).toEqual([0, 0, 0, 0]);
  });

  it('narrows to one project', async () => {
    const one = await analytics(me, `?projectId=${ids.P2}&${MARCH}`);
    expect(one.scope.projectId).toBe(ids.P2);
    expect(one.wip.map((w) => w.count)).toEqual([0, 0, 1]);
    expect(one.burnup.map((b) => b.projectId)).toEqual([ids.P2]);
    expect(one.throughput.every((r) => r.completed === 0)).toBe(true);
    expect(one.workload).toEqual([{ assigneeId: me.id, name: 'Olive Owner', low: 0, medium: 0, high: 1, urgent: 0, total: 1 }]);
    const both = await analytics(me, `?teamId=${ids.teamA}&projectId=${ids.P1}&${MARCH}`);
    expect(both.throughput.map((r) => r.completed)).toEqual([2, 2, 1, 1]);
  });

  it('answers 404 for a team I am not in, a project I cannot see, or a project of another team', async () => {
    const cases: [TestUser, string, string][] = [
      [me, `?teamId=${ids.teamS}`, 'team_not_found'],
      [stranger, `?teamId=${ids.teamA}`, 'team_not_found'],
      [me, '?teamId=00000000-0000-4000-8000-000000000000', 'team_not_found'],
      [me, `?projectId=${ids.PS}`, 'project_not_found'],
      [stranger, `?projectId=${ids.P1}`, 'project_not_found'],
      [me, `?teamId=${ids.teamA}&projectId=${ids.PB}`, 'project_not_found'],
      [me, '?projectId=00000000-0000-4000-8000-000000000000', 'project_not_found'],
    ];
    for (const [user, query, reason] of cases) {
      const res = await get(user, query);
      expect(res.statusCode, query).toBe(404);
      expect(res.json().error.reason, query).toBe(reason);
    }
  });

  it('answers 401 without a session', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/analytics' });
    expect(res.statusCode).toBe(401);
  });

  it('answers 400 to a bad period, never 500', async () => {
    for (const query of [
      '?weeks=5',
      '?weeks=abc',
      '?from=2025-03-10&to=2025-03-01',
      '?from=2024-01-01&to=2025-01-02',
      '?from=2025-03-01',
      '?to=2025-03-01',
      '?from=2025-02-30&to=2025-03-01',
      '?teamId=nope',
    ]) {
      const res = await get(me, query);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().error.code, query).toBe('validation_failed');
    }
    // 366 days is the most a range may span.
    expect((await get(me, '?from=2024-01-01&to=2025-01-01')).statusCode).toBe(200);
  });
});

describe('GET /api/analytics with a workflow of its own (issue 36: by category)', () => {
  it('counts a custom completed status as completed now, and leaves completed and canceled work out of the workload', async () => {
    const flow = await createUser(ctx.app, { fullName: 'Flo Flow' });
    const team = await insertTeam(db(), flow, 'Team Flow');
    const w = await addProject('W', team.id, flow.id);
    await db()
      .insert(projectStatuses)
      .values([
        { projectId: w, key: 'done', name: 'Done', category: 'completed', color: '#7c3aed', position: 4 },
        { projectId: w, key: 'won_t_do', name: "Won't do", category: 'canceled', color: '#7c3aed', position: 5 },
      ]);
    const rows: [string, TaskPriority][] = [
      ['done', 'high'],
      ['won_t_do', 'low'],
      ['todo', 'medium'],
      ['in_progress', 'urgent'],
    ];
    await db()
      .insert(tasks)
      .values(
        rows.map(([status, priority]) => ({
          title: status,
          projectId: w,
          creatorId: flow.id,
          assigneeId: flow.id,
          status,
          priority,
        })),
      );
    const a = await analytics(flow, '');
    // Now (the last week's end): four tasks, Won't do out of the scope (as progress counts), Done completed.
    expect(a.burnup.map((b) => b.projectId)).toEqual([w]);
    expect(a.burnup[0]!.points[11]).toMatchObject({ scope: 3, completed: 1 });
    // Open work: To Do and In Progress only.
    expect(a.workload).toEqual([{ assigneeId: flow.id, name: 'Flo Flow', low: 0, medium: 1, high: 0, urgent: 1, total: 2 }]);
  });
});

describe('GET /api/analytics: work in progress on workflows of their own (issue 36)', () => {
  it('counts every open status: one project by its statuses in order and colour, differing workflows by category', async () => {
    const owner = await createUser(ctx.app, { fullName: 'Wendy Wip' });
    const team = await insertTeam(db(), owner, 'Team Wip');
    const v = await addProject('V', team.id, owner.id);
    const plain = await addProject('VP', team.id, owner.id);
    // V: the default four, then Design (started), Icebox (backlog) and Won't do (canceled).
    await db()
      .insert(projectStatuses)
      .values([
        { projectId: v, key: 'design', name: 'Design', category: 'started', color: '#7c3aed', position: 4 },
        { projectId: v, key: 'icebox', name: 'Icebox', category: 'backlog', color: '#0f766e', position: 5 },
        { projectId: v, key: 'won_t_do', name: "Won't do", category: 'canceled', color: '#94a3b8', position: 6 },
      ]);
    const put = (projectId: string, perKey: Record<string, number>) =>
      db()
        .insert(tasks)
        .values(
          Object.entries(perKey).flatMap(([status, n]) =>
            Array.from({ length: n }, (_, i) => ({ title: `${status} ${i}`, projectId, creatorId: owner.id, status })),
          ),
        );
    await put(v, { todo: 1, review: 1, completed: 2, design: 3, icebox: 2, won_t_do: 1 });
    await put(plain, { todo: 2, in_progress: 1, completed: 1 });

    // One project: its open statuses by name, in workflow order, each in its colour (Completed and Won't do left out).
    const one = await analytics(owner, `?projectId=${v}`);
    expect(one.wip).toEqual([
      { kind: 'status', key: 'todo', name: 'To Do', color: '#64748b', count: 1 },
      { kind: 'status', key: 'in_progress', name: 'In Progress', color: '#0ea5e9', count: 0 },
      { kind: 'status', key: 'review', name: 'Review', color: '#f59e0b', count: 1 },
      { kind: 'status', key: 'design', name: 'Design', color: '#7c3aed', count: 3 },
      { kind: 'status', key: 'icebox', name: 'Icebox', color: '#0f766e', count: 2 },
    ]);
    // The ageing table names each open task's status as its workflow does.
    expect(new Set(one.ageing.map((a) => `${a.status}:${a.statusName}`))).toEqual(
      new Set(['todo:To Do', 'review:Review', 'design:Design', 'icebox:Icebox']),
    );
    // The team: the workflows differ, so by the open categories in use, in category order (the board's rule).
    const both = await analytics(owner, `?teamId=${team.id}`);
    expect(both.wip.map((w) => [w.kind, w.key, w.name, w.count])).toEqual([
      ['category', 'backlog', 'Backlog', 2],
      ['category', 'unstarted', 'Not started', 3],
      ['category', 'started', 'Started', 5],
    ]);
    // The default project alone: today's chart.
    const alone = await analytics(owner, `?projectId=${plain}`);
    expect(alone.wip.map((w) => [w.key, w.name, w.count])).toEqual([
      ['todo', 'To Do', 2],
      ['in_progress', 'In Progress', 1],
      ['review', 'Review', 0],
    ]);
  });
});

describe('GET /api/analytics by category (issue 36): Done and Archived completed, Won’t do canceled', () => {
  /**
   * March 2025 again, in a project with the default four plus Done and Archived (completed) and Won't do (canceled):
   * A: To Do (Mon 3) → Review (Tue 4, started: it skipped In Progress) → Done (Thu 6, 48 h) → Archived (Mon 10, not a
   *    new completion); B: To Do (Mon 3) → In Progress (Tue 11) → Won't do (Wed 12); C: created In Progress (Mon 17,
   *    9:00) → Completed (Tue 18, 9:00: 24 h); D: created in Won't do (Thu 20).
   */
  let flow: TestUser;
  let x: string;
  beforeAll(async () => {
    flow = await createUser(ctx.app, { fullName: 'Cat Egory' });
    const team = await insertTeam(db(), flow, 'Team Categories');
    x = await addProject('X', team.id, flow.id);
    await db()
      .insert(projectStatuses)
      .values([
        { projectId: x, key: 'done', name: 'Done', category: 'completed', color: '#16a34a', position: 4 },
        { projectId: x, key: 'archived', name: 'Archived', category: 'completed', color: '#15803d', position: 5 },
        { projectId: x, key: 'won_t_do', name: "Won't do", category: 'canceled', color: '#94a3b8', position: 6 },
      ]);
    const history: [string, string, StatusMove[]][] = [
      [
        '2025-03-03T00:00:00Z',
        'todo',
        [
          ['2025-03-04T00:00:00Z', 'todo', 'review'],
          ['2025-03-06T00:00:00Z', 'review', 'done'],
          ['2025-03-10T00:00:00Z', 'done', 'archived'],
        ],
      ],
      [
        '2025-03-03T00:00:00Z',
        'todo',
        [
          ['2025-03-11T00:00:00Z', 'todo', 'in_progress'],
          ['2025-03-12T00:00:00Z', 'in_progress', 'won_t_do'],
        ],
      ],
      ['2025-03-17T09:00:00Z', 'in_progress', [['2025-03-18T09:00:00Z', 'in_progress', 'completed']]],
      ['2025-03-20T00:00:00Z', 'won_t_do', []],
    ];
    // One row at a time, as the app writes them; the rows carry no categories: the database gives them.
    for (const [created, first, moves] of history) {
      await insertTaskWithStatusHistory(
        db(),
        { title: `Categorised ${created}`, projectId: x, creatorId: flow.id, created, first },
        moves,
      );
    }
  });

  it('counts throughput by entry into the completed category, once, and never a canceled task', async () => {
    const a = await analytics(flow, `?projectId=${x}&${MARCH}`);
    expect(series(a.throughput, (r) => r.completed)).toEqual(WEEKS.map((w, i) => [w, [1, 0, 1, 0][i]]));
    // At each week's end: A done since Thu 6 (Archived later: still completed); B out of the scope once canceled (Wed
    // 12), as progress counts (completed ÷ (all − canceled)); C in it and done; D never in it (created canceled).
    expect(a.burnup[0]!.points.map((p) => [p.scope, p.completed])).toEqual([
      [2, 1],
      [1, 1],
      [2, 2],
      [2, 2],
    ]);
  });

  it('gives cycle time from the first entry into a started status to the entry into the completed category', async () => {
    const a = await analytics(flow, `?projectId=${x}&${MARCH}`);
    expect(a.cycleTime.weeks.map((w) => [w.count, w.medianHours])).toEqual([
      [1, 48],
      [0, null],
      [1, 24],
      [0, null],
    ]);
  });

  it('counts the completions per month by their entry into the category (the dashboard’s trend)', async () => {
    const rows = (await db().execute(
      sql`select month::text as month, sum(completed)::int as n from project_completion_months where project_id = ${x}
        group by 1 having sum(completed) <> 0`,
    )) as unknown as { rows: { month: string; n: number }[] };
    expect(rows.rows).toEqual([{ month: '2025-03-01', n: 2 }]);
  });
});

describe('GET /api/analytics: the period', () => {
  it('is this week and the 11 before it by default, 4 or 26 on request', async () => {
    const today = localDateIn(new Date(), 'UTC');
    const monday = mondayOf(today);
    const a = await analytics(me, '');
    expect(a.scope.weeks).toHaveLength(12);
    expect(a.scope.weeks[11]).toBe(monday);
    expect(a.scope.weeks[0]).toBe(addDays(monday, -77));
    expect(a.scope).toMatchObject({ from: addDays(monday, -77), to: today });
    expect(a.throughput).toHaveLength(12);
    expect(a.overdue).toHaveLength(12);
    expect(a.burnup[0]!.points).toHaveLength(12);
    // Now: T4, T9 and T10 are open and past due (2025); the current week's end is now.
    expect(a.overdue[11]!.count).toBe(3);
    expect(a.burnup.find((b) => b.projectId === ids.P1)!.points[11]).toMatchObject({ scope: 9, completed: 6 });
    expect((await analytics(me, '?weeks=4')).scope.weeks).toHaveLength(4);
    expect((await analytics(me, '?weeks=26')).scope.weeks).toHaveLength(26);
  });

  it('takes weeks in the caller’s time zone: a completion at 23:30 on Sunday, in Paris and in UTC', async () => {
    const query = '?from=2025-03-10&to=2025-03-23';
    const utc = await analytics(paris, query);
    // 22:30 and 23:30 UTC on Sunday 16: both in the week of the 10th.
    expect(series(utc.throughput, (r) => r.completed)).toEqual([
      ['2025-03-10', 2],
      ['2025-03-17', 0],
    ]);
    await db().update(users).set({ timeZone: 'Europe/Paris' }).where(eq(users.id, paris.id));
    try {
      const local = await analytics(paris, query);
      expect(local.scope.timeZone).toBe('Europe/Paris');
      // 23:30 on Sunday in Paris stays in its week; 00:30 on Monday moves to the next.
      expect(series(local.throughput, (r) => r.completed)).toEqual([
        ['2025-03-10', 1],
        ['2025-03-17', 1],
      ]);
      expect(local.cycleTime.weeks.map((w) => [w.count, w.medianHours])).toEqual([
        [1, 10.5],
        [1, 11.5],
      ]);
      // Scope at each end: both tasks exist by Monday 17 00:00 in Paris (Sunday 23:00 UTC); one is completed then.
      expect(local.burnup[0]!.points.map((p) => [p.scope, p.completed])).toEqual([
        [2, 1],
        [2, 2],
      ]);
    } finally {
      await db().update(users).set({ timeZone: null }).where(eq(users.id, paris.id));
    }
  });
});

describe('GET /api/analytics against the definitions, on random histories', () => {
  /**
   * A hundred tasks with random histories (random statuses, moves back and forth, some deleted) in New York time,
   * and every figure computed again here the slow way, straight from the definitions (decision 0018): the status of
   * a task at time t is the new value of its latest move at or before t, else the old value of its first move, else
   * its status now.
   */
  interface Sim {
    id: string;
    project: string;
    created: number;
    status: TaskStatus;
    due: string | null;
    assignee: string | null;
    priority: TaskPriority;
    moves: { at: number; from: TaskStatus; to: TaskStatus }[];
    title: string;
  }
  const ZONE = 'America/New_York';
  const QUERY = '?from=2025-01-06&to=2025-02-16';
  const STATUSES: TaskStatus[] = ['todo', 'in_progress', 'review', 'completed'];
  // ANALYTICS_SEED=n tries another history.
  let rng = Number(process.env.ANALYTICS_SEED ?? 42);
  const rand = () => {
    rng = (rng * 1_103_515_245 + 12_345) % 2_147_483_648;
    return rng / 2_147_483_648;
  };
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)]!;
  const sims: Sim[] = [];
  let owner: TestUser;
  let helper: TestUser;
  const projectNames: Record<string, string> = {};

  beforeAll(async () => {
    [owner, helper] = await Promise.all([
      createUser(ctx.app, { fullName: 'Rita Random' }),
      createUser(ctx.app, { fullName: 'Hal Helper' }),
    ]);
    const team = await insertTeam(db(), owner, 'Random team');
    await insertMember(db(), team.id, helper);
    const projectIds: string[] = [];
    for (const name of ['Alpha', 'Beta', 'Gamma']) {
      const [p] = await db().insert(projects).values({ name, teamId: team.id, ownerId: owner.id }).returning();
      await insertDefaultStatuses(db(), [p!.id]);
      projectIds.push(p!.id);
      projectNames[p!.id] = name;
    }
    const base = Date.parse('2024-12-20T00:00:00Z');
    const span = Date.parse('2025-03-05T00:00:00Z') - base;
    for (let i = 0; i < 100; i++) {
      const created = base + Math.floor(rand() * span * 0.8);
      let status = pick(STATUSES);
      const first = status;
      const moves: Sim['moves'] = [];
      let at = created;
      const count = Math.floor(rand() * 5);
      for (let m = 0; m < count; m++) {
        // Now and then on the hour, to land on week boundaries.
        at += rand() < 0.2 ? Math.ceil((at + 1) / 3_600_000) * 3_600_000 - at : Math.floor(rand() * 6 * 86_400_000) + 1;
        const to = pick(STATUSES.filter((x) => x !== status));
        moves.push({ at, from: status, to });
        status = to;
      }
      const due = rand() < 0.7 ? new Date(base + Math.floor(rand() * span)).toISOString().slice(0, 10) : null;
      const sim: Sim = {
        id: '',
        project: pick(projectIds),
        created,
        status: moves.length ? status : first,
        due,
        assignee: rand() < 0.2 ? null : pick([owner.id, helper.id]),
        priority: pick(TASK_PRIORITIES),
        moves,
        title: `Random ${i}`,
      };
      const [t] = await db()
        .insert(tasks)
        .values({
          title: sim.title,
          projectId: sim.project,
          creatorId: owner.id,
          status: sim.status,
          priority: sim.priority,
          assigneeId: sim.assignee,
          dueDate: sim.due,
          createdAt: new Date(created),
          updatedAt: new Date(created),
        })
        .returning();
      sim.id = t!.id;
      // Written one move at a time, as the app writes them.
      for (const mv of moves) {
        await db()
          .insert(taskActivity)
          .values({ taskId: sim.id, field: 'status', oldValue: mv.from, newValue: mv.to, createdAt: new Date(mv.at) });
      }
      sims.push(sim);
    }
    // A few go: they count nowhere.
    for (const gone of sims.splice(0, 7)) await db().delete(tasks).where(eq(tasks.id, gone.id));
    await db().update(users).set({ timeZone: ZONE }).where(eq(users.id, owner.id));
  }, 120_000);

  const statusAt = (t: Sim, at: number): TaskStatus => {
    let found: TaskStatus | null = null;
    for (const mv of t.moves) if (mv.at <= at) found = mv.to;
    return found ?? t.moves[0]?.from ?? t.status;
  };
  const completionOf = (t: Sim): number | null => {
    if (t.status !== 'completed') return null;
    const into = t.moves.filter((mv) => mv.to === 'completed');
    return into.length ? into[into.length - 1]!.at : t.created;
  };
  // The first entry into a started status (In Progress or Review, decision 0024): created in one, it entered it when it
  // was created, whatever came after.
  const isStarted = (status: TaskStatus) => status === 'in_progress' || status === 'review';
  const startOf = (t: Sim): number | null =>
    isStarted(t.moves[0]?.from ?? t.status) ? t.created : (t.moves.find((mv) => isStarted(mv.to))?.at ?? null);

  it('gives every weekly figure as the definitions do', async () => {
    const a = await analytics(owner, QUERY);
    const now = new Date();
    const today = localDateIn(now, ZONE);
    const period = resolvePeriod({ from: '2025-01-06', to: '2025-02-16' }, today);
    const weeks = weekWindows(period.weeks, ZONE, now, today);
    expect(a.scope.weeks).toEqual(period.weeks);

    const weekOfTime = (at: number) => weeks.findIndex((w) => at >= w.startAt.getTime() && at < w.fullEndAt.getTime());
    const throughput = weeks.map(() => 0);
    const hours: number[][] = weeks.map(() => []);
    for (const t of sims) {
      const done = completionOf(t);
      if (done === null) continue;
      const k = weekOfTime(done);
      if (k < 0) continue;
      throughput[k]!++;
      const start = startOf(t);
      if (start !== null) hours[k]!.push((done - start) / 3_600_000);
    }
    expect(a.throughput.map((r) => r.completed)).toEqual(throughput);
    expect(a.cycleTime.weeks.map((w) => [w.count, w.medianHours, w.p85Hours])).toEqual(
      hours.map((h) => {
        const median = percentileCont(h, 0.5);
        const p85 = percentileCont(h, 0.85);
        return [h.length, median === null ? null : roundHours(median), p85 === null ? null : roundHours(p85)];
      }),
    );
    expect(a.cycleTime.distribution.reduce((n, b) => n + b.count, 0)).toBe(hours.flat().length);

    const ends = weeks.map((w) => w.endAt.getTime());
    const bySize = Object.keys(projectNames)
      .map((id) => ({ id, size: sims.filter((t) => t.project === id).length }))
      .filter((p) => p.size > 0)
      .sort((x, y) => y.size - x.size || projectNames[x.id]!.localeCompare(projectNames[y.id]!));
    expect(a.burnup.map((b) => b.projectId)).toEqual(bySize.map((p) => p.id));
    for (const b of a.burnup) {
      const mine = sims.filter((t) => t.project === b.projectId);
      expect(
        b.points.map((pt) => [pt.scope, pt.completed]),
        projectNames[b.projectId],
      ).toEqual(
        ends.map((e) => {
          const existing = mine.filter((t) => t.created <= e);
          return [existing.length, existing.filter((t) => statusAt(t, e) === 'completed').length];
        }),
      );
    }
    expect(a.overdue.map((r) => r.count)).toEqual(
      weeks.map(
        (w) =>
          sims.filter(
            (t) =>
              t.created <= w.endAt.getTime() &&
              statusAt(t, w.endAt.getTime()) !== 'completed' &&
              t.due !== null &&
              t.due < w.lastDay,
          ).length,
      ),
    );
  });

  it('gives the figures of now as the definitions do', async () => {
    const a = await analytics(owner, QUERY);
    const open = sims.filter((t) => t.status !== 'completed');
    expect(a.wip.map((w) => [w.kind, w.key, w.count])).toEqual(
      (['todo', 'in_progress', 'review'] as const).map((status) => [
        'status',
        status,
        open.filter((t) => t.status === status).length,
      ]),
    );
    const since = (t: Sim) => (t.moves.length ? t.moves[t.moves.length - 1]!.at : t.created);
    const oldest = [...open].sort((x, y) => since(x) - since(y) || (x.id < y.id ? -1 : 1)).slice(0, 20);
    expect(a.ageing.map((r) => [r.taskId, r.since])).toEqual(oldest.map((t) => [t.id, new Date(since(t)).toISOString()]));
    for (const row of a.workload) {
      const mine = open.filter((t) => t.assignee === row.assigneeId);
      expect(row, String(row.name)).toMatchObject({
        total: mine.length,
        low: mine.filter((t) => t.priority === 'low').length,
        medium: mine.filter((t) => t.priority === 'medium').length,
        high: mine.filter((t) => t.priority === 'high').length,
        urgent: mine.filter((t) => t.priority === 'urgent').length,
      });
    }
    expect(a.workload.reduce((n, r) => n + r.total, 0)).toBe(open.length);
  });

  it('keeps the same spans and counts move by move as a rebuild from the whole history gives', async () => {
    const snapshot = async () => {
      const rows = (q: ReturnType<typeof sql>) => db().execute(q) as unknown as Promise<{ rows: unknown[] }>;
      return [
        (await rows(sql`select row_to_json(s)::text as j from task_status_spans s order by task_id, seq`)).rows,
        (
          await rows(sql`select project_id, month::text, sum(completed)::int as n from project_completion_months
          group by 1, 2 having sum(completed) <> 0 order by 1, 2`)
        ).rows,
      ];
    };
    const before = await snapshot();
    await db().execute(sql`select crewboard_rebuild_task_spans(array(select id from tasks))`);
    expect(await snapshot()).toEqual(before);
  });
});

describe('the status spans behind the figures', () => {
  const spansOf = async (taskId: string) =>
    (
      (await db().execute(
        sql`select seq, status, from_at, to_at, started_at from task_status_spans where task_id = ${taskId} order by seq`,
      )) as unknown as { rows: { seq: number; status: string; from_at: unknown; to_at: unknown; started_at: unknown }[] }
    ).rows.map((r) => [
      r.seq,
      r.status,
      new Date(r.from_at as string).toISOString(),
      r.to_at === null ? null : new Date(r.to_at as string).toISOString(),
      r.started_at === null ? null : new Date(r.started_at as string).toISOString(),
    ]);

  it('follows every move made through the API, in the transaction of the change', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/tasks',
      headers: me.auth,
      payload: { title: 'Through the API', projectId: ids.P2 },
    });
    const id = res.json().id as string;
    expect((await spansOf(id)).map((s) => [s[0], s[1], s[3]])).toEqual([[0, 'todo', null]]);
    for (const status of ['in_progress', 'completed', 'todo']) {
      const moved = await ctx.app.inject({
        method: 'PATCH',
        url: `/api/tasks/${id}/status`,
        headers: me.auth,
        payload: { status },
      });
      expect(moved.statusCode, moved.body).toBe(200);
    }
    const spans = await spansOf(id);
    expect(spans.map((s) => s[1])).toEqual(['todo', 'in_progress', 'completed', 'todo']);
    expect(spans.map((s) => s[3] === null)).toEqual([false, false, false, true]);
    expect(spans[2]![4]).toBe(spans[1]![2]); // started when it went into In Progress
    // Moved to another project with a due date: the spans follow.
    await ctx.app.inject({
      method: 'PATCH',
      url: `/api/tasks/${id}`,
      headers: me.auth,
      payload: { projectId: ids.P1, dueDate: '2025-04-01' },
    });
    const moved = (await db().execute(
      sql`select distinct project_id, due_date::text as due from task_status_spans where task_id = ${id}`,
    )) as unknown as {
      rows: { project_id: string; due: string }[];
    };
    expect(moved.rows).toEqual([{ project_id: ids.P1, due: '2025-04-01' }]);
    await ctx.app.inject({ method: 'DELETE', url: `/api/tasks/${id}`, headers: me.auth });
    expect(await spansOf(id)).toEqual([]);
  });

  it('keeps the monthly completion counts equal to the completed spans, through moves between projects, reopenings and deletions', async () => {
    const counted = async () =>
      (
        (await db().execute(sql`
          select coalesce(c.project_id, s.project_id) as project, coalesce(c.month, s.month)::text as month,
            coalesce(c.n, 0)::int as counted, coalesce(s.n, 0)::int as spans
          from (select project_id, month, sum(completed) as n from project_completion_months group by 1, 2) c
          full join (
            select project_id, date_trunc('month', entered_at at time zone 'UTC')::date as month, count(*) as n
            from task_status_spans where to_at is null and category = 'completed' group by 1, 2
          ) s on s.project_id = c.project_id and s.month = c.month`)) as unknown as {
          rows: { project: string; month: string; counted: number; spans: number }[];
        }
      ).rows;
    const check = async () => {
      const rows = await counted();
      expect(rows.length).toBeGreaterThan(0);
      for (const r of rows) expect(r.counted, `${r.project} ${r.month}`).toBe(r.spans);
    };
    await check();
    // Completed, moved to another project, reopened and completed again, deleted: through the API.
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/tasks',
      headers: me.auth,
      payload: { title: 'Counted', projectId: ids.P2, status: 'completed' },
    });
    const id = res.json().id as string;
    await check();
    await ctx.app.inject({ method: 'PATCH', url: `/api/tasks/${id}`, headers: me.auth, payload: { projectId: ids.P1 } });
    await check();
    for (const status of ['todo', 'completed']) {
      await ctx.app.inject({ method: 'PATCH', url: `/api/tasks/${id}/status`, headers: me.auth, payload: { status } });
      await check();
    }
    await ctx.app.inject({ method: 'DELETE', url: `/api/tasks/${id}`, headers: me.auth });
    await check();
  });

  it('keeps the categories a moved task had in its old project: the writer records them (migration 0012)', async () => {
    const [p] = await db()
      .insert(projects)
      .values({ name: 'Moves', teamId: ids.teamA!, ownerId: me.id, status: 'active' })
      .returning();
    await insertDefaultStatuses(db(), [p!.id]);
    await db()
      .insert(projectStatuses)
      .values({ projectId: p!.id, key: 'build', name: 'Build', category: 'started', color: '#0ea5e9', position: 4 });
    const created = await ctx.app.inject({
      method: 'POST',
      url: '/api/tasks',
      headers: me.auth,
      payload: { title: 'Moved while building', projectId: p!.id, status: 'build' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id as string;
    // To a project of the default four, which has no 'build': the first started status there, In Progress.
    const moved = await ctx.app.inject({
      method: 'PATCH',
      url: `/api/tasks/${id}`,
      headers: me.auth,
      payload: { projectId: ids.P1 },
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json().status).toBe('in_progress');
    const rows = (await db().execute(
      sql`select old_value, new_value, old_category, new_category from task_activity where task_id = ${id} and field = 'status'`,
    )) as unknown as { rows: unknown[] };
    expect(rows.rows).toEqual([
      { old_value: 'build', new_value: 'in_progress', old_category: 'started', new_category: 'started' },
    ]);
    // One stretch of started work: In Progress continues Build's (entered_at), started when the task was created.
    const spans = (await db().execute(
      sql`select seq, status, category, started_at = from_at as started_then, entered_at from task_status_spans
        where task_id = ${id} order by seq`,
    )) as unknown as { rows: { seq: number; status: string; category: string; started_then: boolean; entered_at: unknown }[] };
    expect(spans.rows.map((r) => [r.seq, r.status, r.category])).toEqual([
      [0, 'build', 'started'],
      [1, 'in_progress', 'started'],
    ]);
    expect(spans.rows[0]!.started_then).toBe(true);
    expect(String(spans.rows[1]!.entered_at)).toBe(String(spans.rows[0]!.entered_at));
    await ctx.app.inject({ method: 'DELETE', url: `/api/tasks/${id}`, headers: me.auth });
  });

  it('is the same whatever order the rows were written in', async () => {
    const id = await addTask('T-order', { project: 'P2', created: '2025-01-01T00:00:00Z', status: 'todo' });
    await db().update(tasks).set({ status: 'completed' }).where(eq(tasks.id, id));
    // The later row first, then the earlier one.
    for (const [when, from, to] of [
      ['2025-01-03T00:00:00Z', 'in_progress', 'completed'],
      ['2025-01-02T00:00:00Z', 'todo', 'in_progress'],
    ] as const) {
      await db()
        .insert(taskActivity)
        .values({ taskId: id, field: 'status', oldValue: from, newValue: to, createdAt: new Date(when) });
    }
    expect(await spansOf(id)).toEqual([
      [0, 'todo', '2025-01-01T00:00:00.000Z', '2025-01-02T00:00:00.000Z', null],
      [1, 'in_progress', '2025-01-02T00:00:00.000Z', '2025-01-03T00:00:00.000Z', '2025-01-02T00:00:00.000Z'],
      [2, 'completed', '2025-01-03T00:00:00.000Z', null, '2025-01-02T00:00:00.000Z'],
    ]);
    await db().delete(tasks).where(eq(tasks.id, id));
  });
});
