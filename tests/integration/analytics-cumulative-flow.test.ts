import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CumulativeFlowDto } from '../../src/domain/schemas/analytics';
import { insertDefaultStatuses } from '../../src/server/db/project-statuses';
import { projects, projectStatuses, users } from '../../src/server/db/schema';
import { createUser, insertMember, insertTaskWithStatusHistory, insertTeam, type StatusMove, type TestUser } from '../factories';
import { setupTestApp } from '../helpers/app';

/**
 * GET /api/analytics/cumulative-flow (issue 36) on a small scripted history, in UTC, the week of Monday 3 to Sunday 9
 * March 2025. A status counts on day d when the task's span in it covers d's end (the next midnight):
 * - T1: To Do (Mon 3, 10:00) → In Progress (Tue 4, 12:00) → Completed (Thu 6, 09:00);
 * - T2: To Do (Sun 2) → Blocked (Wed 5, 00:00: still To Do at Tuesday's end) → Review (Fri 7, 15:00); Blocked is then
 *   deleted, and still shown, by name, after the live statuses;
 * - T3: created in Review (Sat 8, 09:00); T4: created after the week (Wed 12), never counted;
 * - T5: created Completed (Sat 1), completed every day.
 * An 'Old' status, deleted and never used in the week, is not shown.
 */

const ctx = setupTestApp();
const db = () => ctx.database.db;

let owner: TestUser;
let member: TestUser;
let stranger: TestUser;
let projectId: string;
const WEEK = 'from=2025-03-03&to=2025-03-09';

const addTask = (title: string, created: string, first: string, moves: StatusMove[] = []) =>
  insertTaskWithStatusHistory(db(), { title, projectId, creatorId: owner.id, actorId: owner.id, created, first }, moves);

beforeAll(async () => {
  [owner, member, stranger] = await Promise.all([
    createUser(ctx.app, { fullName: 'Flow Owner' }),
    createUser(ctx.app, { fullName: 'Flow Member' }),
    createUser(ctx.app, { fullName: 'Flow Stranger' }),
  ]);
  const team = await insertTeam(db(), owner, 'Flow team');
  await insertMember(db(), team.id, member);
  await insertTeam(db(), stranger, 'Stranger team');
  const [p] = await db().insert(projects).values({ name: 'Flow', teamId: team.id, ownerId: owner.id }).returning();
  projectId = p!.id;
  await insertDefaultStatuses(db(), [projectId]);
  await db()
    .insert(projectStatuses)
    .values([
      { projectId, key: 'blocked', name: 'Blocked', category: 'started', color: '#dc2626', position: 4 },
      { projectId, key: 'old', name: 'Old', category: 'backlog', color: '#94a3b8', position: 5 },
    ]);

  await addTask('T1', '2025-03-03T10:00:00Z', 'todo', [
    ['2025-03-04T12:00:00Z', 'todo', 'in_progress'],
    ['2025-03-06T09:00:00Z', 'in_progress', 'completed'],
  ]);
  await addTask('T2', '2025-03-02T08:00:00Z', 'todo', [
    ['2025-03-05T00:00:00Z', 'todo', 'blocked'],
    ['2025-03-07T15:00:00Z', 'blocked', 'review'],
  ]);
  await addTask('T3', '2025-03-08T09:00:00Z', 'review');
  await addTask('T4', '2025-03-12T09:00:00Z', 'todo');
  await addTask('T5', '2025-03-01T09:00:00Z', 'completed');
  // Both extra statuses deleted (their rows kept, decision 0024).
  await db()
    .update(projectStatuses)
    .set({ deletedAt: new Date(), position: null })
    .where(and(eq(projectStatuses.projectId, projectId), eq(projectStatuses.position, 4)));
  await db()
    .update(projectStatuses)
    .set({ deletedAt: new Date(), position: null })
    .where(and(eq(projectStatuses.projectId, projectId), eq(projectStatuses.position, 5)));
});

const get = (user: TestUser | null, query: string) =>
  ctx.app.inject({ method: 'GET', url: `/api/analytics/cumulative-flow?${query}`, headers: user?.auth ?? {} });

describe('GET /api/analytics/cumulative-flow', () => {
  it('counts the tasks in each status at each day’s end, stacked in workflow order, a deleted status by name', async () => {
    const res = await get(member, `projectId=${projectId}&${WEEK}`);
    expect(res.statusCode, res.body).toBe(200);
    const flow = res.json() as CumulativeFlowDto;
    expect(flow.scope).toEqual({ projectId, from: '2025-03-03', to: '2025-03-09', timeZone: 'UTC' });
    expect(flow.statuses.map((s) => [s.key, s.name, s.category, s.deleted])).toEqual([
      ['todo', 'To Do', 'unstarted', false],
      ['in_progress', 'In Progress', 'started', false],
      ['review', 'Review', 'started', false],
      ['completed', 'Completed', 'completed', false],
      ['blocked', 'Blocked', 'started', true],
    ]);
    // To Do, In Progress, Review, Completed, Blocked.
    expect(flow.days.map((d) => [d.day, d.counts])).toEqual([
      ['2025-03-03', [2, 0, 0, 1, 0]],
      ['2025-03-04', [1, 1, 0, 1, 0]],
      ['2025-03-05', [0, 1, 0, 1, 1]],
      ['2025-03-06', [0, 0, 0, 2, 1]],
      ['2025-03-07', [0, 0, 1, 2, 0]],
      ['2025-03-08', [0, 0, 2, 2, 0]],
      ['2025-03-09', [0, 0, 2, 2, 0]],
    ]);
  });

  it('takes the days in the caller’s time zone', async () => {
    await db().update(users).set({ timeZone: 'America/Los_Angeles' }).where(eq(users.id, owner.id));
    const res = await get(owner, `projectId=${projectId}&${WEEK}`);
    expect(res.statusCode, res.body).toBe(200);
    const flow = res.json() as CumulativeFlowDto;
    expect(flow.scope.timeZone).toBe('America/Los_Angeles');
    // Tuesday ends at 08:00 UTC on Wednesday in Los Angeles (UTC−8): T2 is in Blocked by then (since 00:00 UTC).
    expect(flow.days.slice(0, 2).map((d) => d.counts)).toEqual([
      [2, 0, 0, 1, 0],
      [0, 1, 0, 1, 1],
    ]);
  });

  it('answers 404 to a stranger and for an unknown project, 400 without a project or with a bad period, 401 signed out', async () => {
    const stranger404 = await get(stranger, `projectId=${projectId}&${WEEK}`);
    expect(stranger404.statusCode).toBe(404);
    expect(stranger404.json().error.reason).toBe('project_not_found');
    expect((await get(owner, `projectId=00000000-0000-4000-8000-000000000000`)).statusCode).toBe(404);
    expect((await get(owner, WEEK)).statusCode).toBe(400);
    expect((await get(owner, `projectId=${projectId}&from=2025-03-09&to=2025-03-03`)).statusCode).toBe(400);
    expect((await get(owner, `projectId=${projectId}&weeks=5`)).statusCode).toBe(400);
    expect((await get(null, `projectId=${projectId}`)).statusCode).toBe(401);
  });

  it('gives the default period (this week and the 11 before it) up to today', async () => {
    const res = await get(member, `projectId=${projectId}`);
    expect(res.statusCode, res.body).toBe(200);
    const flow = res.json() as CumulativeFlowDto;
    expect(flow.days.at(-1)!.day).toBe(flow.scope.to);
    expect(flow.days[0]!.day).toBe(flow.scope.from);
    // Everything happened long ago: today, T1 and T5 completed, T2 and T3 in Review, T4 in To Do.
    expect(flow.days.at(-1)!.counts).toEqual([1, 0, 2, 2]);
    expect(flow.statuses.map((s) => s.key)).toEqual(['todo', 'in_progress', 'review', 'completed']);
  });
});
