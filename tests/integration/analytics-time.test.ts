import { eq } from 'drizzle-orm';
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TimeAnalyticsDto } from '../../src/domain/schemas/analytics';
import { insertDefaultStatuses } from '../../src/server/db/project-statuses';
import { projects, tasks, timeEntries } from '../../src/server/db/schema';
import { OTHER_MEMBERS } from '../../src/server/modules/analytics/time-analytics.service';
import { createUser, insertMember, insertTaskWithStatusHistory, insertTeam, type TestUser } from '../factories';
import { setupTestApp } from '../helpers/app';

/**
 * GET /api/analytics/time (issue 39): the minutes logged per week by person and by project (an entry counts in the week
 * of its date; others' names only to their team's owners and admins), and estimate vs actual for the tasks completed in
 * the period. March 2025: weeks from Monday 3 to Sunday 30.
 */

const ctx = setupTestApp();
const db = () => ctx.database.db;

let me: TestUser;
let mia: TestUser;
let bob: TestUser;
let stranger: TestUser;
const ids: Record<string, string> = {};

const MARCH = 'from=2025-03-03&to=2025-03-30';
const get = (user: TestUser, query: string) =>
  ctx.app.inject({ method: 'GET', url: `/api/analytics/time?${query}`, headers: user.auth });
const read = async (user: TestUser, query: string) => {
  const res = await get(user, query);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as TimeAnalyticsDto;
};

async function addTask(key: string, project: string, moves: [string, string, string][] = []) {
  ids[key] = await insertTaskWithStatusHistory(
    db(),
    { title: `Task ${key}`, projectId: ids[project]!, creatorId: me.id, created: '2025-02-20T10:00:00Z', first: 'todo' },
    moves,
  );
}

const completedOn = (day: string): [string, string, string][] => [
  [`${day}T09:00:00Z`, 'todo', 'in_progress'],
  [`${day}T15:00:00Z`, 'in_progress', 'completed'],
];

beforeAll(async () => {
  [me, mia, bob, stranger] = await Promise.all([
    createUser(ctx.app, { fullName: 'Olive Owner' }),
    createUser(ctx.app, { fullName: 'Mia Member' }),
    createUser(ctx.app, { fullName: 'Bob Builder' }),
    createUser(ctx.app, { fullName: 'Sam Stranger' }),
  ]);
  // Team A: I own it, Mia is a member. Team B: Bob owns it, I am a plain member. The stranger has a team of their own.
  const teamA = await insertTeam(db(), me, 'Team A');
  await insertMember(db(), teamA.id, mia);
  const teamB = await insertTeam(db(), bob, 'Team B');
  await insertMember(db(), teamB.id, me);
  const teamS = await insertTeam(db(), stranger, 'Stranger team');
  Object.assign(ids, { teamA: teamA.id, teamB: teamB.id, teamS: teamS.id });
  for (const [key, teamId, owner] of [
    ['P1', teamA.id, me],
    ['P2', teamA.id, me],
    ['PB', teamB.id, bob],
    ['PS', teamS.id, stranger],
  ] as const) {
    const [p] = await db().insert(projects).values({ name: key, teamId, ownerId: owner.id, status: 'active' }).returning();
    await insertDefaultStatuses(db(), [p!.id]);
    ids[key] = p!.id;
  }
  for (const [key, project] of [
    ['L1', 'P1'],
    ['L2', 'P2'],
    ['LB', 'PB'],
    ['LS', 'PS'],
  ] as const) {
    await addTask(key, project);
  }
  const entry = (task: string, user: TestUser, date: string, minutes: number) => ({
    taskId: ids[task]!,
    userId: user.id,
    date,
    minutes,
  });
  await db()
    .insert(timeEntries)
    .values([
      entry('L1', me, '2025-03-03', 60),
      entry('L1', me, '2025-03-09', 30), // Sunday: still week 1
      entry('L2', mia, '2025-03-12', 120),
      entry('LB', bob, '2025-03-12', 45),
      entry('LB', me, '2025-03-20', 15),
      // Outside the period: the Sunday before, the Monday after.
      entry('L1', me, '2025-03-02', 500),
      entry('L1', me, '2025-03-31', 500),
      // The stranger's team: never in anyone else's figures.
      entry('LS', stranger, '2025-03-05', 240),
    ]);

  // Estimate vs actual. Completed in March with an estimate and time: E1 60 → 90 (1.5), E2 120 → 60 (0.5), E3 100 →
  // 100 + 50 on its sub-tasks (1.5). Left out: E4 (no time logged), E5 (no estimate), E6 (completed in February),
  // E7 (open), EB in team B, completed in March (only in scopes holding team B).
  await addTask('E1', 'P1', completedOn('2025-03-05'));
  await addTask('E2', 'P1', completedOn('2025-03-12'));
  await addTask('E3', 'P2', completedOn('2025-03-20'));
  await addTask('E4', 'P1', completedOn('2025-03-21'));
  await addTask('E5', 'P1', completedOn('2025-03-21'));
  await addTask('E6', 'P1', completedOn('2025-02-20'));
  await addTask('E7', 'P1', [['2025-03-04T09:00:00Z', 'todo', 'in_progress']]);
  await addTask('EB', 'PB', completedOn('2025-03-25'));
  // The columns the roll-up triggers keep (their own test: time-rollup.test.ts), written as they would be.
  const times: [string, number | null, number, number][] = [
    ['E1', 60, 90, 0],
    ['E2', 120, 60, 0],
    ['E3', 100, 100, 50],
    ['E4', 60, 0, 0],
    ['E5', null, 30, 0],
    ['E6', 60, 60, 0],
    ['E7', 30, 45, 0],
    ['EB', 10, 40, 0],
  ];
  for (const [key, estimate, logged, subtasks] of times) {
    await db()
      .update(tasks)
      .set({ estimateMinutes: estimate, loggedMinutes: logged, subtaskLoggedMinutes: subtasks })
      .where(eq(tasks.id, ids[key]!));
  }
});

describe('GET /api/analytics/time: time logged', () => {
  it('splits my teams’ minutes per week by person (named in the teams I run) and by project', async () => {
    const dto = await read(me, MARCH);
    expect(dto.scope.weeks).toEqual(['2025-03-03', '2025-03-10', '2025-03-17', '2025-03-24']);
    expect(dto.logged.totalMinutes).toBe(270);
    // Bob's time in team B, which I do not run, counts under no name; mine there keeps my name.
    expect(dto.logged.byPerson.series).toEqual([
      { id: mia.id, name: 'Mia Member' },
      { id: me.id, name: 'Olive Owner' },
      { id: null, name: OTHER_MEMBERS },
    ]);
    expect(dto.logged.byPerson.weeks.map((w) => w.minutes)).toEqual([
      [0, 90, 0],
      [120, 0, 45],
      [0, 15, 0],
      [0, 0, 0],
    ]);
    expect(dto.logged.byProject.series).toEqual([
      { id: ids.P2, name: 'P2' },
      { id: ids.P1, name: 'P1' },
      { id: ids.PB, name: 'PB' },
    ]);
    expect(dto.logged.byProject.weeks.map((w) => w.minutes)).toEqual([
      [0, 90, 0],
      [120, 0, 45],
      [0, 0, 15],
      [0, 0, 0],
    ]);
  });

  it('names only the caller to a plain member, and follows the team and project scopes', async () => {
    const mine = await read(mia, MARCH);
    expect(mine.logged.byPerson.series).toEqual([
      { id: mia.id, name: 'Mia Member' },
      { id: null, name: OTHER_MEMBERS },
    ]);
    expect(mine.logged.totalMinutes).toBe(210);
    expect((await read(me, `${MARCH}&teamId=${ids.teamA}`)).logged.totalMinutes).toBe(210);
    const bobs = await read(bob, `${MARCH}&teamId=${ids.teamB}`);
    // Bob runs team B: my time there is named to him.
    expect(bobs.logged.byPerson.series.map((s) => s.name)).toEqual(['Bob Builder', 'Olive Owner']);
    const project = await read(me, `${MARCH}&projectId=${ids.PB}`);
    expect(project.logged.byProject.series).toEqual([{ id: ids.PB, name: 'PB' }]);
    expect(project.logged.totalMinutes).toBe(60);
  });

  it('answers zeros in every week when nothing was logged', async () => {
    const dto = await read(me, 'from=2024-01-01&to=2024-01-14');
    expect(dto.logged.totalMinutes).toBe(0);
    expect(dto.logged.byPerson).toEqual({
      series: [],
      weeks: [
        { week: '2024-01-01', minutes: [] },
        { week: '2024-01-08', minutes: [] },
      ],
    });
  });
});

describe('GET /api/analytics/time: estimate vs actual', () => {
  it('compares the completed tasks’ estimates with their time, sub-tasks included, latest first', async () => {
    const { estimates } = await read(me, `${MARCH}&teamId=${ids.teamA}`);
    expect(estimates).toMatchObject({ count: 3, medianRatio: 1.5, overCount: 2, estimateMinutes: 280, actualMinutes: 300 });
    expect(estimates.tasks.map((t) => [t.title, t.estimateMinutes, t.actualMinutes, t.ratio])).toEqual([
      ['Task E3', 100, 150, 1.5],
      ['Task E2', 120, 60, 0.5],
      ['Task E1', 60, 90, 1.5],
    ]);
    expect(estimates.tasks[0]).toMatchObject({ projectId: ids.P2, projectName: 'P2', completedAt: '2025-03-20T15:00:00.000Z' });
    // All my teams: team B's task too (10 → 40: a ratio of 4), the median between 1.5 and 1.5.
    const all = await read(me, MARCH);
    expect(all.estimates).toMatchObject({ count: 4, medianRatio: 1.5, overCount: 3 });
  });

  it('answers an empty summary when no completed task qualifies', async () => {
    const { estimates } = await read(me, 'from=2024-01-01&to=2024-01-14');
    expect(estimates).toEqual({ count: 0, medianRatio: null, overCount: 0, estimateMinutes: 0, actualMinutes: 0, tasks: [] });
  });
});

describe('GET /api/analytics/time: rights and input', () => {
  it('keeps a stranger out of our teams and projects (404), and our time out of their figures', async () => {
    expect((await get(stranger, `${MARCH}&teamId=${ids.teamA}`)).statusCode).toBe(404);
    expect((await get(stranger, `${MARCH}&projectId=${ids.P1}`)).statusCode).toBe(404);
    expect((await get(stranger, `${MARCH}&projectId=${randomUUID()}`)).statusCode).toBe(404);
    const own = await read(stranger, MARCH);
    expect(own.logged.totalMinutes).toBe(240);
    expect(own.logged.byPerson.series).toEqual([{ id: stranger.id, name: 'Sam Stranger' }]);
    expect(own.estimates.count).toBe(0);
    // Mia is not in team B.
    expect((await get(mia, `${MARCH}&teamId=${ids.teamB}`)).statusCode).toBe(404);
  });

  it('asks for a session', async () => {
    expect((await ctx.app.inject({ method: 'GET', url: `/api/analytics/time?${MARCH}` })).statusCode).toBe(401);
  });

  it.each([
    'weeks=5',
    'from=2025-03-03',
    'from=2025-03-30&to=2025-03-03',
    'from=2024-01-01&to=2025-06-01',
    'from=2025-02-30&to=2025-03-03',
    'teamId=nope',
    'projectId=1',
  ])('answers 400, never 500, to %s', async (query) => {
    const res = await get(me, query);
    expect(res.statusCode, res.body).toBe(400);
  });
});
