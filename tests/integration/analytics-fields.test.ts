import { eq } from 'drizzle-orm';
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TaskStatus } from '../../src/domain/constants';
import type { AnalyticsDto } from '../../src/domain/schemas/analytics';
import { insertDefaultStatuses } from '../../src/server/db/project-statuses';
import { customFields, projects, taskActivity, tasks } from '../../src/server/db/schema';
import { createUser, insertMember, insertTeam, type TestUser } from '../factories';
import { setupTestApp } from '../helpers/app';

/**
 * GET /api/analytics?splitBy=<fieldId> (issue 38): throughput and cycle time per option of a Select field, by the option
 * each completed task has now (task_field_values, kept by the trigger from tasks.fields), with 'No value' last.
 * March 2025: weeks from Monday 3 to Sunday 30.
 */

const ctx = setupTestApp();
const db = () => ctx.database.db;

let me: TestUser;
let mia: TestUser;
let stranger: TestUser;
const ids: Record<string, string> = {};
const opt = { low: randomUUID(), high: randomUUID(), critical: randomUUID() };

async function addTask(
  key: string,
  spec: { project: string; created: string; moves?: [string, TaskStatus, TaskStatus][]; status?: TaskStatus; fields?: object },
) {
  const moves = spec.moves ?? [];
  const [t] = await db()
    .insert(tasks)
    .values({
      title: `Task ${key}`,
      projectId: ids[spec.project]!,
      creatorId: me.id,
      status: moves.length ? moves[moves.length - 1]![2] : (spec.status ?? 'todo'),
      fields: (spec.fields ?? {}) as Record<string, string>,
      createdAt: new Date(spec.created),
      updatedAt: new Date(spec.created),
    })
    .returning();
  ids[key] = t!.id;
  if (moves.length) {
    await db()
      .insert(taskActivity)
      .values(
        moves.map(([when, from, to]) => ({
          taskId: t!.id,
          actorId: me.id,
          field: 'status' as const,
          oldValue: from,
          newValue: to,
          createdAt: new Date(when),
        })),
      );
  }
}

const MARCH = 'from=2025-03-03&to=2025-03-30';
const get = (user: TestUser, query: string) =>
  ctx.app.inject({ method: 'GET', url: `/api/analytics?${query}`, headers: user.auth });

beforeAll(async () => {
  [me, mia, stranger] = await Promise.all([
    createUser(ctx.app, { fullName: 'Olive Owner' }),
    createUser(ctx.app, { fullName: 'Mia Member' }),
    createUser(ctx.app, { fullName: 'Sam Stranger' }),
  ]);
  const teamA = await insertTeam(db(), me, 'Team A');
  const teamB = await insertTeam(db(), mia, 'Team B');
  await insertMember(db(), teamB.id, me);
  const teamS = await insertTeam(db(), stranger, 'Stranger team');
  ids.teamA = teamA.id;
  ids.teamB = teamB.id;
  for (const [key, teamId, owner] of [
    ['P1', teamA.id, me],
    ['PB', teamB.id, mia],
  ] as const) {
    const [p] = await db().insert(projects).values({ name: key, teamId, ownerId: owner.id, status: 'active' }).returning();
    await insertDefaultStatuses(db(), [p!.id]);
    ids[key] = p!.id;
  }
  const fields = await db()
    .insert(customFields)
    .values([
      {
        teamId: teamA.id,
        name: 'Severity',
        type: 'select',
        options: [
          { id: opt.low, name: 'Low', color: '#16a34a' },
          { id: opt.high, name: 'High', color: '#ea580c' },
          { id: opt.critical, name: 'Critical', color: '#dc2626' },
        ],
      },
      { teamId: teamA.id, name: 'Customer', type: 'text', position: 1 },
      {
        teamId: teamB.id,
        name: 'Area',
        type: 'select',
        options: [{ id: randomUUID(), name: 'Web', color: '#2563eb' }],
      },
      { teamId: teamS.id, name: 'Secret', type: 'select', options: [{ id: randomUUID(), name: 'X', color: '#2563eb' }] },
    ])
    .returning();
  [ids.severity, ids.customer, ids.area, ids.secret] = fields.map((f) => f.id) as [string, string, string, string];

  // Week 1: T1 High, 48 h; T2 High, 6 h. Week 2: T3 Critical, 72 h; T4 no value, created completed (no cycle time).
  // T5 Low, still open. TB in team B, week 1, no value of Severity (not its team's field).
  await addTask('T1', {
    project: 'P1',
    created: '2025-03-01T10:00:00Z',
    fields: { [ids.severity]: opt.high },
    moves: [
      ['2025-03-03T10:00:00Z', 'todo', 'in_progress'],
      ['2025-03-05T10:00:00Z', 'in_progress', 'completed'],
    ],
  });
  await addTask('T2', {
    project: 'P1',
    created: '2025-03-04T00:00:00Z',
    fields: { [ids.severity]: opt.high, [ids.customer]: 'ACME' },
    moves: [
      ['2025-03-04T12:00:00Z', 'todo', 'in_progress'],
      ['2025-03-04T18:00:00Z', 'in_progress', 'completed'],
    ],
  });
  await addTask('T3', {
    project: 'P1',
    created: '2025-03-02T00:00:00Z',
    fields: { [ids.severity]: opt.critical },
    moves: [
      ['2025-03-10T09:00:00Z', 'todo', 'in_progress'],
      ['2025-03-13T09:00:00Z', 'in_progress', 'completed'],
    ],
  });
  await addTask('T4', { project: 'P1', created: '2025-03-12T08:00:00Z', status: 'completed' });
  await addTask('T5', { project: 'P1', created: '2025-03-02T00:00:00Z', fields: { [ids.severity]: opt.low } });
  await addTask('TB', {
    project: 'PB',
    created: '2025-03-01T00:00:00Z',
    moves: [
      ['2025-03-03T00:00:00Z', 'todo', 'in_progress'],
      ['2025-03-06T00:00:00Z', 'in_progress', 'completed'],
    ],
  });
});

async function analytics(user: TestUser, query: string): Promise<AnalyticsDto> {
  const res = await get(user, query);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as AnalyticsDto;
}

describe('GET /api/analytics?splitBy (issue 38)', () => {
  it('keeps the answer as it was without splitBy', async () => {
    const body = await analytics(me, `teamId=${ids.teamA}&${MARCH}`);
    expect(body).not.toHaveProperty('split');
    expect(body.throughput.map((t) => t.completed)).toEqual([2, 2, 0, 0]);
  });

  it('splits throughput and cycle time by the option each completed task has now, No value last', async () => {
    const body = await analytics(me, `teamId=${ids.teamA}&${MARCH}&splitBy=${ids.severity}`);
    const split = body.split!;
    expect(split.fieldId).toBe(ids.severity);
    expect(split.fieldName).toBe('Severity');
    expect(split.series).toEqual([
      { optionId: opt.low, name: 'Low', color: '#16a34a' },
      { optionId: opt.high, name: 'High', color: '#ea580c' },
      { optionId: opt.critical, name: 'Critical', color: '#dc2626' },
      { optionId: null, name: 'No value', color: expect.any(String) },
    ]);
    expect(split.throughput).toEqual([
      { week: '2025-03-03', counts: [0, 2, 0, 0] },
      { week: '2025-03-10', counts: [0, 0, 1, 1] },
      { week: '2025-03-17', counts: [0, 0, 0, 0] },
      { week: '2025-03-24', counts: [0, 0, 0, 0] },
    ]);
    // Each week's counts add up to its throughput.
    expect(split.throughput.map((w) => w.counts.reduce((a, b) => a + b, 0))).toEqual(body.throughput.map((t) => t.completed));
    const empty = { count: 0, medianHours: null, p85Hours: null };
    // High in week 1: 6 h and 48 h → median 27, p85 6 + 42 × 0.85 = 41.7.
    expect(split.cycleTime[0]!.series).toEqual([empty, { count: 2, medianHours: 27, p85Hours: 41.7 }, empty, empty]);
    // Week 2: Critical 72 h; T4 (no value) has no cycle time.
    expect(split.cycleTime[1]!.series).toEqual([empty, empty, { count: 1, medianHours: 72, p85Hours: 72 }, empty]);
    // The rest of the answer is as without splitBy.
    const plain = await analytics(me, `teamId=${ids.teamA}&${MARCH}`);
    expect({ ...body, split: undefined }).toEqual({ ...plain, split: undefined });
  });

  it("follows a task's current option: a value changed moves its completion to the new series", async () => {
    await db()
      .update(tasks)
      .set({ fields: { [ids.severity!]: opt.low } })
      .where(eq(tasks.id, ids.T3!));
    try {
      const split = (await analytics(me, `projectId=${ids.P1}&${MARCH}&splitBy=${ids.severity}`)).split!;
      expect(split.throughput[1]!.counts).toEqual([1, 0, 0, 1]);
    } finally {
      await db()
        .update(tasks)
        .set({ fields: { [ids.severity!]: opt.critical } })
        .where(eq(tasks.id, ids.T3!));
    }
  });

  it("counts the other teams' tasks as No value over all of the caller's teams", async () => {
    const split = (await analytics(me, `${MARCH}&splitBy=${ids.severity}`)).split!;
    // Week 1: T1, T2 (High) and TB of team B (no value).
    expect(split.throughput[0]!.counts).toEqual([0, 2, 0, 1]);
  });

  it('refuses a field of another team than the scope, a field that is not a Select, and hides a stranger', async () => {
    const otherTeam = await get(me, `teamId=${ids.teamB}&${MARCH}&splitBy=${ids.severity}`);
    expect(otherTeam.statusCode).toBe(400);
    expect(otherTeam.json().error.fields.splitBy).toMatch(/team/);
    const otherProject = await get(me, `projectId=${ids.PB}&${MARCH}&splitBy=${ids.severity}`);
    expect(otherProject.statusCode).toBe(400);
    const text = await get(me, `teamId=${ids.teamA}&${MARCH}&splitBy=${ids.customer}`);
    expect(text.statusCode).toBe(400);
    expect(text.json().error.fields.splitBy).toMatch(/Select/);
    // A field of a team the caller is not in, or none at all: 404, as to anyone outside.
    for (const query of [`splitBy=${ids.secret}`, `splitBy=${randomUUID()}`]) {
      const res = await get(me, query);
      expect(res.statusCode).toBe(404);
      expect(res.json().error.reason).toBe('custom_field_not_found');
    }
    const strangerRes = await get(stranger, `splitBy=${ids.severity}`);
    expect(strangerRes.statusCode).toBe(404);
    expect((await get(me, 'splitBy=severity')).statusCode).toBe(400);
  });
});
