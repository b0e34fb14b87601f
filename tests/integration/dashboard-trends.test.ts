import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { localDateIn, monthStarts, startOfLocalDay } from '../../src/domain/analytics';
import type { ProjectStatus, TaskStatus } from '../../src/domain/constants';
import type { DashboardDto } from '../../src/domain/schemas/dashboard';
import { insertDefaultStatuses } from '../../src/server/db/project-statuses';
import { projects, taskActivity, tasks, teamMembers, users } from '../../src/server/db/schema';
import { createUser, insertMember, insertTeam, type TestUser } from '../factories';
import { setupTestApp } from '../helpers/app';

/**
 * The dashboard's month-over-month trends (issue 24) on a history that spans this calendar month and the one before,
 * written straight into the database with times placed around the month boundaries as of now.
 */

const ctx = setupTestApp();
const db = () => ctx.database.db;
const DAY = 86_400_000;

let me: TestUser;
let mate: TestUser;
let newcomer: TestUser;
let stranger: TestUser;
let zoned: TestUser;

/** Where this month and the one before began in a zone, seen now. */
function months(zone: string, now = new Date()) {
  const m = monthStarts(localDateIn(now, zone));
  return { current: startOfLocalDay(m.current, zone), previous: startOfLocalDay(m.previous, zone) };
}

/** A moment inside [from, to), away from both ends. */
const between = (from: Date, to: Date) => new Date(Math.floor((from.getTime() + to.getTime()) / 2));

async function addProject(teamId: string, ownerId: string, status: ProjectStatus, createdAt: Date) {
  const [p] = await db()
    .insert(projects)
    .values({ name: `P ${status}`, teamId, ownerId, status, createdAt })
    .returning();
  await insertDefaultStatuses(db(), [p!.id]);
  return p!.id;
}

/** A task created at `created` whose status moves are [when, from, to]. */
async function addTask(
  projectId: string,
  creatorId: string,
  created: Date,
  moves: [Date, TaskStatus, TaskStatus][],
  status?: TaskStatus,
) {
  const [t] = await db()
    .insert(tasks)
    .values({
      title: 'Trend task',
      projectId,
      creatorId,
      status: moves.length ? moves[moves.length - 1]![2] : (status ?? 'todo'),
      createdAt: created,
      updatedAt: created,
    })
    .returning();
  if (moves.length) {
    await db()
      .insert(taskActivity)
      .values(
        moves.map(([when, from, to]) => ({
          taskId: t!.id,
          field: 'status' as const,
          oldValue: from,
          newValue: to,
          createdAt: when,
        })),
      );
  }
  return t!.id;
}

async function trendsOf(user: TestUser): Promise<DashboardDto['trends']> {
  const res = await ctx.app.inject({ method: 'GET', url: '/api/dashboard', headers: user.auth });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<DashboardDto>().trends;
}

const now = new Date();
const utc = months('UTC', now);
// This month so far, last month, and the month before that.
const thisMonth = () => between(utc.current, now);
const lastMonth = () => between(utc.previous, utc.current);
const longAgo = () => new Date(utc.previous.getTime() - 20 * DAY);

beforeAll(async () => {
  [me, mate, newcomer, stranger, zoned] = await Promise.all([
    createUser(ctx.app, { fullName: 'Me' }),
    createUser(ctx.app, { fullName: 'Mate' }),
    createUser(ctx.app, { fullName: 'Newcomer' }),
    createUser(ctx.app, { fullName: 'Stranger' }),
    createUser(ctx.app, { fullName: 'Zoned' }),
  ]);
  const teamA = await insertTeam(db(), me, 'A');
  const teamB = await insertTeam(db(), mate, 'B');
  await insertMember(db(), teamA.id, mate);
  await insertMember(db(), teamB.id, me);
  await insertMember(db(), teamA.id, newcomer);
  // Me and Mate joined long ago (Mate's second membership too); Newcomer this month.
  await db().update(teamMembers).set({ joinedAt: longAgo() }).where(eq(teamMembers.userId, me.id));
  await db().update(teamMembers).set({ joinedAt: longAgo() }).where(eq(teamMembers.userId, mate.id));
  await db().update(teamMembers).set({ joinedAt: thisMonth() }).where(eq(teamMembers.userId, newcomer.id));
  const teamS = await insertTeam(db(), stranger, 'S');

  const old = await addProject(teamA.id, me.id, 'active', longAgo());
  await addProject(teamB.id, mate.id, 'active', thisMonth());
  await addProject(teamA.id, me.id, 'planning', longAgo());
  await addProject(teamB.id, mate.id, 'completed', lastMonth());
  const theirs = await addProject(teamS.id, stranger.id, 'active', longAgo());

  const made = longAgo();
  const done = (at: Date): [Date, TaskStatus, TaskStatus][] => [
    [new Date(made.getTime() + DAY), 'todo', 'in_progress'],
    [at, 'in_progress', 'completed'],
  ];
  // This month: three completed through moves, one created completed (no row).
  for (let i = 0; i < 3; i++) await addTask(old, me.id, made, done(thisMonth()));
  await addTask(old, me.id, thisMonth(), [], 'completed');
  // Last month: two.
  for (let i = 0; i < 2; i++) await addTask(old, mate.id, made, done(lastMonth()));
  // Before last month: not counted in either.
  await addTask(old, me.id, made, done(new Date(utc.previous.getTime() - DAY)));
  // Completed last month and reopened this month: no completion time now.
  await addTask(old, me.id, made, [...done(lastMonth()), [thisMonth(), 'completed', 'todo']]);
  // Completed last month, reopened and completed again this month: this month's.
  await addTask(old, me.id, made, [
    ...done(new Date(utc.previous.getTime() + 60_000)),
    [new Date(utc.current.getTime() + 60_000), 'completed', 'in_progress'],
    [
      new Date(utc.current.getTime() + 120_000 > now.getTime() ? now.getTime() : utc.current.getTime() + 120_000),
      'in_progress',
      'completed',
    ],
  ]);
  // Deleted: counts nowhere.
  const gone = await addTask(old, me.id, made, done(thisMonth()));
  await db().delete(tasks).where(eq(tasks.id, gone));
  // Another team's: never mine.
  await addTask(theirs, stranger.id, made, done(thisMonth()));
}, 60_000);

describe('GET /api/dashboard trends', () => {
  it('compares this calendar month with the last, from the history', async () => {
    expect(await trendsOf(me)).toEqual({
      // 3 moved + 1 created completed + 1 completed again; last month 2 (the reopened one is no longer completed).
      completedTasks: { current: 5, previous: 2 },
      // Active now: the old project and this month's; last month only the old one existed.
      activeProjects: { current: 2, previous: 1 },
      // Me, Mate, Newcomer (each once, whatever their teams); Newcomer joined this month.
      teamMembers: { current: 3, previous: 2 },
    });
  });

  it("counts only the caller's teams", async () => {
    expect(await trendsOf(stranger)).toEqual({
      completedTasks: { current: 1, previous: 0 },
      activeProjects: { current: 1, previous: 1 },
      // The stranger's team was made by the test now: they joined this month.
      teamMembers: { current: 1, previous: 0 },
    });
  });

  it("takes the months in the caller's time zone", async () => {
    // Kiritimati is 14 hours ahead of UTC: a completion just after its month began, and one just before.
    const zone = 'Pacific/Kiritimati';
    const local = months(zone, now);
    const team = await insertTeam(db(), zoned, 'Z');
    await db().update(teamMembers).set({ joinedAt: longAgo() }).where(eq(teamMembers.userId, zoned.id));
    const project = await addProject(team.id, zoned.id, 'active', longAgo());
    const made = new Date(local.previous.getTime() - 10 * DAY);
    const times = [
      new Date(Math.min(local.current.getTime() + 60_000, now.getTime())),
      new Date(local.current.getTime() - 60_000),
    ];
    for (const at of times) await addTask(project, zoned.id, made, [[at, 'todo', 'completed']]);
    const count = (m: { current: Date; previous: Date }) => ({
      current: times.filter((t) => t >= m.current).length,
      previous: times.filter((t) => t >= m.previous && t < m.current).length,
    });

    expect(count(local)).toEqual({ current: 1, previous: 1 });
    await db().update(users).set({ timeZone: zone }).where(eq(users.id, zoned.id));
    expect((await trendsOf(zoned)).completedTasks).toEqual(count(local));
    await db().update(users).set({ timeZone: null }).where(eq(users.id, zoned.id));
    expect((await trendsOf(zoned)).completedTasks).toEqual(count(utc));
  });
});
