/**
 * Recurring tasks on the server (issue 39, decision 0027): `repeat` through POST and PATCH /api/tasks (presets, custom
 * rules, refusals, a stranger), 'When completed' (the PATCH and the board's move), 'On schedule' (the job at 00:00 in
 * the series' zone, a catch-up after downtime, each date once), COUNT and UNTIL, 'Stop repeating', what the copy
 * carries, the occurrences route, the iCal feed's RRULE, and exactly-once with two app instances on PostgreSQL and a
 * run that fails half-way.
 *
 * Every date is in 2030: the app's own schedule (the real clock) never finds them due; the tests run the job with a
 * clock of their own.
 */
import { and, asc, eq } from 'drizzle-orm';
import ICAL from 'ical.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { REPEAT_LIMITS } from '../../src/domain/constants';
import { REPEAT_RULE_INVALID } from '../../src/domain/schemas/repeat';
import type { OccurrenceListDto } from '../../src/domain/schemas/repeat';
import type { TaskDto } from '../../src/domain/schemas/task';
import type { CalendarFeedCreatedDto } from '../../src/domain/schemas/calendar';
import type { CustomFieldDto } from '../../src/domain/schemas/custom-field';
import { buildApp } from '../../src/server/app';
import { openDatabase } from '../../src/server/db/client';
import {
  mailOutbox,
  notifications,
  taskChecklistItems,
  tasks,
  taskSeries,
  users,
  webhookDeliveries,
} from '../../src/server/db/schema';
import type { DomainEvent } from '../../src/server/lib/events';
import { RepeatSchedule } from '../../src/server/modules/recurrence';
import { taskCards } from '../../src/server/modules/tasks';
import { insertOwnerMemberStranger, type TestUser } from '../factories';
import { apiRequests, projectsAndQueuedHook } from '../helpers/api';
import { setupTestApp, testConfig } from '../helpers/app';

// A hook that is never delivered: its queued deliveries show the schedule's tasks reach webhooks.
const ctx = setupTestApp({ webhooksAllowPrivate: true, webhookPollIntervalMs: 60_000 });
const { call, ok, fails } = apiRequests(ctx);

let owner: TestUser;
let member: TestUser;
let stranger: TestUser;
let teamId: string;
let projectId: string;
let strangerProjectId: string;

const WEEKLY_MONDAY = 'FREQ=WEEKLY;BYDAY=MO';

const createTask = (body: Record<string, unknown>, user = owner) =>
  ok<TaskDto>(user, 'POST', '/api/tasks', { projectId, title: 'Weekly report', ...body }, 201);
const patch = (id: string, body: Record<string, unknown>, user = owner) => ok<TaskDto>(user, 'PATCH', `/api/tasks/${id}`, body);
const getTask = (id: string) => ok<TaskDto>(owner, 'GET', `/api/tasks/${id}`);

/** The series' tasks, oldest date first. */
const seriesTasks = (seriesId: string) =>
  ctx.database.db.select().from(tasks).where(eq(tasks.seriesId, seriesId)).orderBy(asc(tasks.occurrenceDate));
const seriesRow = async (seriesId: string) =>
  (await ctx.database.db.select().from(taskSeries).where(eq(taskSeries.id, seriesId)))[0]!;

/** The 'On schedule' job of this app, its clock at `at`. */
const runSchedule = (at: string, app = ctx.app) =>
  new RepeatSchedule(app.deps.database.db, app.deps.changes, { cards: taskCards, now: () => new Date(at) }).run();

beforeAll(async () => {
  let team: { id: string };
  ({ owner, member, stranger, team } = await insertOwnerMemberStranger(ctx.app, ctx.database.db, { strangerTeam: true }));
  teamId = team.id;
  ({ projectId, strangerProjectId } = await projectsAndQueuedHook(
    ok,
    { owner, stranger, teamId },
    ['Routines', 'Other'],
    ['task.created', 'task.updated'],
  ));
  await ctx.database.db.update(users).set({ timeZone: 'Europe/Berlin' }).where(eq(users.id, owner.id));
});

describe('repeat through the tasks API', () => {
  it('takes the presets and custom rules, in canonical form, with the next date and its 00:00 in the zone', async () => {
    // 2030-01-07 is a Monday.
    const weekly = await createTask({ dueDate: '2030-01-07', repeat: { rule: 'freq=weekly;byday=mo', mode: 'on_completion' } });
    expect(weekly.repeat).toEqual({
      seriesId: expect.any(String),
      rule: WEEKLY_MONDAY,
      mode: 'on_completion',
      // The caller's own zone (Settings) when none is given.
      timezone: 'Europe/Berlin',
      nextDate: '2030-01-14',
      nextAt: '2030-01-13T23:00:00.000Z',
    });
    expect(weekly.seriesId).toBe(weekly.repeat!.seriesId);
    expect((await getTask(weekly.id)).repeat).toEqual(weekly.repeat);
    // The board, the list and its filtered read carry it too (the column is jsonb, whose keys PostgreSQL re-sorts:
    // the answers are checked to be written in the contract's order).
    const listed = await ok<{ tasks: TaskDto[] }>(owner, 'GET', `/api/tasks?projectId=${projectId}`);
    expect(listed.tasks.find((t) => t.id === weekly.id)?.repeat).toEqual(weekly.repeat);
    const filtered = await ok<{ tasks: TaskDto[] }>(owner, 'GET', `/api/tasks?projectId=${projectId}&priority=medium`);
    expect(filtered.tasks.find((t) => t.id === weekly.id)?.repeat).toEqual(weekly.repeat);
    const board = await ok<{ columns: Record<string, TaskDto[]> }>(owner, 'GET', `/api/tasks/board?projectId=${projectId}`);
    expect(
      Object.values(board.columns)
        .flat()
        .find((t) => t.id === weekly.id)?.repeat,
    ).toEqual(weekly.repeat);

    const cases: [rule: string, due: string, next: string][] = [
      ['FREQ=DAILY', '2030-01-07', '2030-01-08'],
      ['FREQ=MONTHLY;BYMONTHDAY=28,29,30,31;BYSETPOS=-1', '2030-01-31', '2030-02-28'],
      // Every weekday, from a Friday: the Monday.
      ['FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR', '2030-01-04', '2030-01-07'],
      ['FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH;COUNT=5', '2030-01-07', '2030-01-10'],
      ['FREQ=YEARLY;UNTIL=20341231', '2030-01-07', '2031-01-07'],
    ];
    for (const [rule, dueDate, next] of cases) {
      const task = await createTask({ dueDate, repeat: { rule, mode: 'on_schedule', timezone: 'America/New_York' } });
      expect(task.repeat, rule).toMatchObject({ rule, mode: 'on_schedule', timezone: 'America/New_York', nextDate: next });
      expect(new Date(task.repeat!.nextAt!).getUTCHours(), rule).toBe(5); // 00:00 in New York in winter (UTC-5)
    }
    // A person without a zone of their own: UTC. No due date: counted from today.
    const plain = await createTask({ repeat: { rule: 'FREQ=DAILY', mode: 'on_completion' } }, member);
    expect(plain.repeat).toMatchObject({ timezone: 'UTC', nextDate: expect.any(String) });
    expect(plain.dueDate).toBeNull();
  });

  it('refuses a rule outside the subset (400 naming it), a zone it does not know, and a stranger (404)', async () => {
    for (const rule of ['FREQ=HOURLY', 'FREQ=WEEKLY;BYDAY=XX', 'nonsense', 'FREQ=DAILY;COUNT=2;UNTIL=20300101', '']) {
      const res = await fails(
        owner,
        'POST',
        '/api/tasks',
        { projectId, title: 'x', repeat: { rule, mode: 'on_completion' } },
        400,
      );
      expect(JSON.stringify(res.json()), rule).toContain(REPEAT_RULE_INVALID);
    }
    await fails(owner, 'POST', '/api/tasks', { projectId, title: 'x', repeat: { rule: 'FREQ=DAILY', mode: 'sometimes' } }, 400);
    await fails(
      owner,
      'POST',
      '/api/tasks',
      { projectId, title: 'x', repeat: { rule: 'FREQ=DAILY', mode: 'on_schedule', timezone: 'Mars/Base' } },
      400,
    );
    const task = await createTask({ dueDate: '2030-01-07' });
    await fails(owner, 'PATCH', `/api/tasks/${task.id}`, { repeat: { rule: 'FREQ=MINUTELY', mode: 'on_completion' } }, 400);
    await fails(stranger, 'PATCH', `/api/tasks/${task.id}`, { repeat: { rule: 'FREQ=DAILY', mode: 'on_completion' } }, 404);
    await fails(
      stranger,
      'POST',
      '/api/tasks',
      { projectId, title: 'x', repeat: { rule: 'FREQ=DAILY', mode: 'on_completion' } },
      404,
    );
    expect((await getTask(task.id)).repeat).toBeNull();
  });

  it('PATCH starts a series, changes its rule and mode, and null stops it', async () => {
    const task = await createTask({ dueDate: '2030-01-07' });
    const started = await patch(task.id, { repeat: { rule: WEEKLY_MONDAY, mode: 'on_completion', timezone: 'UTC' } });
    expect(started.repeat).toMatchObject({ rule: WEEKLY_MONDAY, nextDate: '2030-01-14', nextAt: '2030-01-14T00:00:00.000Z' });
    expect(started.version).toBe(task.version + 1);
    // The zone is kept when the change names none.
    const changed = await patch(task.id, { repeat: { rule: 'FREQ=WEEKLY;BYDAY=WE', mode: 'on_schedule' } });
    expect(changed.repeat).toMatchObject({
      seriesId: started.repeat!.seriesId,
      rule: 'FREQ=WEEKLY;BYDAY=WE',
      mode: 'on_schedule',
      timezone: 'UTC',
      nextDate: '2030-01-09',
    });
    // A due date moved: a 'When completed' series' next date follows it.
    await patch(task.id, { repeat: { rule: WEEKLY_MONDAY, mode: 'on_completion' } });
    expect((await patch(task.id, { dueDate: '2030-01-21' })).repeat?.nextDate).toBe('2030-01-28');

    const stopped = await patch(task.id, { repeat: null });
    expect(stopped.repeat).toBeNull();
    expect(stopped.seriesId).toBe(started.repeat!.seriesId);
    const series = await seriesRow(started.repeat!.seriesId);
    expect(series.endedAt).not.toBeNull();
    // Completing it now makes nothing.
    await patch(task.id, { status: 'completed' });
    expect(await seriesTasks(series.id)).toHaveLength(1);
  });
});

describe("'When completed'", () => {
  it('completing makes the next task due on the next date, once; reopened and completed again, nothing more', async () => {
    const first = await createTask({ dueDate: '2030-01-07', repeat: { rule: WEEKLY_MONDAY, mode: 'on_completion' } });
    const done = await patch(first.id, { status: 'completed' });
    // The answer: the task, no longer carrying the series.
    expect(done.repeat).toBeNull();
    expect(done.statusCategory).toBe('completed');
    const [a, b] = await seriesTasks(first.repeat!.seriesId);
    expect(a!.id).toBe(first.id);
    expect(b).toMatchObject({ dueDate: '2030-01-14', occurrenceDate: '2030-01-14', status: 'todo', title: 'Weekly report' });
    expect(b!.repeat).toMatchObject({ seriesId: first.repeat!.seriesId, nextDate: '2030-01-21' });

    await patch(first.id, { status: 'todo' });
    await patch(first.id, { status: 'completed' });
    expect(await seriesTasks(first.repeat!.seriesId)).toHaveLength(2);

    // The board's move completes the same way.
    const moved = await ok<TaskDto>(owner, 'PATCH', `/api/tasks/${b!.id}/status`, { status: 'completed' });
    expect(moved.repeat).toBeNull();
    const all = await seriesTasks(first.repeat!.seriesId);
    expect(all.map((t) => t.dueDate)).toEqual(['2030-01-07', '2030-01-14', '2030-01-21']);
    const series = await seriesRow(first.repeat!.seriesId);
    expect(series).toMatchObject({ currentTaskId: all[2]!.id, createdCount: 3, nextDate: '2030-01-28', endedAt: null });
  });

  it('copies title, description, parent, assignee, priority, tags, fields, estimate and the checklist (unticked)', async () => {
    const field = await ok<CustomFieldDto>(owner, 'POST', `/api/teams/${teamId}/fields`, { name: 'Customer', type: 'text' }, 201);
    const parent = await createTask({ title: 'Parent' });
    const first = await createTask({
      title: 'Invoice',
      description: 'Send the **invoice**',
      parentId: parent.id,
      assigneeId: member.id,
      priority: 'high',
      tags: ['billing'],
      fields: { [field.id]: 'ACME' },
      estimateMinutes: 90,
      dueDate: '2030-01-31',
      repeat: { rule: 'FREQ=MONTHLY;BYMONTHDAY=28,29,30,31;BYSETPOS=-1', mode: 'on_completion' },
    });
    const a = await ok<{ id: string }>(owner, 'POST', `/api/tasks/${first.id}/checklist`, { title: 'Draft' }, 201);
    await ok(owner, 'POST', `/api/tasks/${first.id}/checklist`, { title: 'Send' }, 201);
    await ok(owner, 'PATCH', `/api/tasks/${first.id}/checklist/${a.id}`, { done: true });
    await patch(first.id, { status: 'in_progress' });
    await patch(first.id, { status: 'completed' });

    const [, copy] = await seriesTasks(first.repeat!.seriesId);
    const dto = await getTask(copy!.id);
    expect(dto).toMatchObject({
      title: 'Invoice',
      description: 'Send the **invoice**',
      parentId: parent.id,
      assigneeId: member.id,
      priority: 'high',
      tags: ['billing'],
      fields: { [field.id]: 'ACME' },
      estimateMinutes: 90,
      dueDate: '2030-02-28',
      status: 'todo',
      checklistTotal: 2,
      checklistDone: 0,
      creatorId: owner.id,
      loggedMinutes: 0,
    });
    const items = await ctx.database.db
      .select()
      .from(taskChecklistItems)
      .where(eq(taskChecklistItems.taskId, copy!.id))
      .orderBy(asc(taskChecklistItems.position));
    expect(items.map((i) => [i.title, i.done])).toEqual([
      ['Draft', false],
      ['Send', false],
    ]);
  });

  it('a sub-task completed with its parent (`completeSubtasks`) makes its next task, once', async () => {
    const parent = await createTask({ title: 'Release' });
    const sub = await createTask({
      title: 'Changelog',
      parentId: parent.id,
      dueDate: '2030-01-07',
      repeat: { rule: WEEKLY_MONDAY, mode: 'on_completion' },
    });
    const published: DomainEvent[] = [];
    const unsubscribe = ctx.app.deps.events.subscribe((event) => published.push(event));
    const done = await patch(parent.id, { status: 'completed', completeSubtasks: true });
    unsubscribe();
    const all = await seriesTasks(sub.repeat!.seriesId);
    expect(all.map((t) => [t.dueDate, t.statusCategory, t.repeat !== null, t.parentId])).toEqual([
      ['2030-01-07', 'completed', false, parent.id],
      ['2030-01-14', 'unstarted', true, parent.id],
    ]);
    expect(await seriesRow(sub.repeat!.seriesId)).toMatchObject({ currentTaskId: all[1]!.id, createdCount: 2 });
    // The parent's answer counts the new sub-task; the sub-task's change says it no longer repeats.
    expect(done.subtaskCounts).toEqual({ done: 1, total: 2 });
    expect(published.some((e) => e.type === 'task.created' && e.taskId === all[1]!.id)).toBe(true);
    expect((await getTask(sub.id)).repeat).toBeNull();
    // Reopened and completed again with its parent: nothing more.
    await patch(sub.id, { status: 'todo' });
    await patch(parent.id, { status: 'todo' });
    await patch(parent.id, { status: 'completed', completeSubtasks: true });
    const again = await seriesTasks(sub.repeat!.seriesId);
    expect(again).toHaveLength(3);
    expect(again.map((t) => t.dueDate)).toEqual(['2030-01-07', '2030-01-14', '2030-01-21']);
  });

  it('UNTIL ends the series: the last task made carries nothing', async () => {
    const first = await createTask({
      dueDate: '2030-02-04',
      repeat: { rule: 'FREQ=WEEKLY;BYDAY=MO;UNTIL=20300211', mode: 'on_completion' },
    });
    expect(first.repeat?.nextDate).toBe('2030-02-11');
    await patch(first.id, { status: 'completed' });
    const all = await seriesTasks(first.repeat!.seriesId);
    expect(all.map((t) => [t.dueDate, t.repeat])).toEqual([
      ['2030-02-04', null],
      ['2030-02-11', null],
    ]);
    expect((await seriesRow(first.repeat!.seriesId)).endedAt).not.toBeNull();
  });
});

// Each schedule run walks every series the file made so far (one database): about 4 s a test on a quiet machine, and
// more than the suite's 30 s under CI's full load (two tests timed out at a load average of 9 on two cores).
describe("'On schedule'", { timeout: 120_000 }, () => {
  it("makes the task at 00:00 of its date in the zone, by the system, as the creator's task", async () => {
    const first = await createTask({
      dueDate: '2030-03-04',
      assigneeId: member.id,
      repeat: { rule: 'FREQ=DAILY', mode: 'on_schedule', timezone: 'Europe/Berlin' },
    });
    expect(first.repeat).toMatchObject({ nextDate: '2030-03-05', nextAt: '2030-03-04T23:00:00.000Z' });
    const published: DomainEvent[] = [];
    const unsubscribe = ctx.app.deps.events.subscribe((event) => published.push(event));
    // A second before midnight in Berlin: nothing.
    await runSchedule('2030-03-04T22:59:59Z');
    expect(await seriesTasks(first.repeat!.seriesId)).toHaveLength(1);
    await runSchedule('2030-03-04T23:00:00Z');
    unsubscribe();
    const [old, made] = await seriesTasks(first.repeat!.seriesId);
    // Realtime: the new task, and the old one's repeat cleared, named as the creator's (the assignee is told by them).
    expect(published.find((e) => e.type === 'task.created' && e.taskId === made!.id)).toMatchObject({ actorId: owner.id });
    expect(published.find((e) => e.type === 'task.updated' && e.taskId === first.id)).toMatchObject({ actorId: owner.id });
    await expect
      .poll(async () => (await ctx.database.db.select().from(notifications).where(eq(notifications.userId, member.id))).length)
      .toBeGreaterThan(1);
    // And mailed, as a task the creator assigned (the mail outbox, in the schedule's transaction).
    const mails = await ctx.database.db
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.kind, 'task_assigned'), eq(mailOutbox.toEmail, member.email)));
    expect(mails.length).toBeGreaterThan(1);
    expect(made).toMatchObject({ dueDate: '2030-03-05', creatorId: owner.id, status: 'todo' });
    expect(made!.repeat).toMatchObject({ nextDate: '2030-03-06', nextAt: '2030-03-05T23:00:00.000Z' });
    // The old task handed the series on, done or not: a new version without `repeat`.
    expect(old!.repeat).toBeNull();
    expect(old!.version).toBe(first.version + 1);
    // The changes reached the webhooks (a system actor: the task's creator is named).
    const queued = await ctx.database.db.select().from(webhookDeliveries);
    const createdBodies = queued.filter((d) => d.eventType === 'task.created').map((d) => JSON.parse(d.body));
    const body = createdBodies.find((b) => b.data.task.id === made!.id);
    expect(body?.data.actor?.id).toBe(owner.id);
  });

  it('after three days down, catches up once per missed date; a second run makes nothing', async () => {
    const first = await createTask({
      dueDate: '2030-03-10',
      repeat: { rule: 'FREQ=DAILY', mode: 'on_schedule', timezone: 'America/New_York' },
    });
    // 2030-03-13 00:30 in New York (UTC-4 from 2030-03-10): the 11th, 12th and 13th are due.
    expect(await runSchedule('2030-03-13T04:30:00Z')).toBeGreaterThanOrEqual(3);
    expect(await runSchedule('2030-03-13T04:30:00Z')).toBe(0);
    const all = await seriesTasks(first.repeat!.seriesId);
    expect(all.map((t) => t.occurrenceDate)).toEqual(['2030-03-10', '2030-03-11', '2030-03-12', '2030-03-13']);
    expect(all.map((t) => t.repeat !== null)).toEqual([false, false, false, true]);
    expect(all[3]!.repeat).toMatchObject({ nextDate: '2030-03-14', nextAt: '2030-03-14T04:00:00.000Z' });
    expect(await seriesRow(first.repeat!.seriesId)).toMatchObject({ createdCount: 4, currentTaskId: all[3]!.id });
  });

  it('weekly on Monday across the spring-forward, and day 31 through February and April, end to end', async () => {
    // Europe/Berlin springs forward on Sunday 2030-03-31: Monday 2030-04-01 starts at 22:00 UTC, not 23:00.
    const weekly = await createTask({
      dueDate: '2030-03-25',
      repeat: { rule: WEEKLY_MONDAY, mode: 'on_schedule', timezone: 'Europe/Berlin' },
    });
    expect(weekly.repeat).toMatchObject({ nextDate: '2030-04-01', nextAt: '2030-03-31T22:00:00.000Z' });
    await runSchedule('2030-03-31T21:59:59Z');
    expect(await seriesTasks(weekly.repeat!.seriesId)).toHaveLength(1);
    await runSchedule('2030-03-31T22:00:00Z');
    const [, monday] = await seriesTasks(weekly.repeat!.seriesId);
    expect(monday).toMatchObject({ dueDate: '2030-04-01' });
    expect(monday!.repeat).toMatchObject({ nextDate: '2030-04-08', nextAt: '2030-04-07T22:00:00.000Z' });
    // Day 31 in a leap year, caught up at once: Feb 29, Mar 31, Apr 30.
    const monthly = await createTask({
      dueDate: '2032-01-31',
      repeat: { rule: 'FREQ=MONTHLY;BYMONTHDAY=28,29,30,31;BYSETPOS=-1', mode: 'on_schedule', timezone: 'Europe/Berlin' },
    });
    await runSchedule('2032-05-01T12:00:00Z');
    const months = await seriesTasks(monthly.repeat!.seriesId);
    expect(months.map((t) => t.dueDate)).toEqual(['2032-01-31', '2032-02-29', '2032-03-31', '2032-04-30']);
    expect(months[3]!.repeat).toMatchObject({ nextDate: '2032-05-31', nextAt: '2032-05-30T22:00:00.000Z' });
  });

  it('a run makes at most REPEAT_LIMITS.catchUpMax tasks of one series; the next run goes on from there', async () => {
    const first = await createTask({
      dueDate: '2030-01-01',
      repeat: { rule: 'FREQ=DAILY', mode: 'on_schedule', timezone: 'UTC' },
    });
    const ownTasks = async () => (await seriesTasks(first.repeat!.seriesId)).length;
    await runSchedule('2030-12-31T12:00:00Z');
    expect(await ownTasks()).toBe(1 + REPEAT_LIMITS.catchUpMax);
    await runSchedule('2030-12-31T12:00:00Z');
    expect(await ownTasks()).toBe(1 + 2 * REPEAT_LIMITS.catchUpMax);
    const all = await seriesTasks(first.repeat!.seriesId);
    expect(all.at(-1)!.occurrenceDate).toBe('2030-05-01');
    expect(all.filter((t) => t.repeat !== null)).toHaveLength(1);
  });

  it('set on a task due in the past, begins today in its zone: no task for each past date', async () => {
    const now = new Date();
    const today = now.toISOString().slice(0, 10);
    const first = await createTask({
      dueDate: '2020-01-06',
      repeat: { rule: 'FREQ=DAILY', mode: 'on_schedule', timezone: 'UTC' },
    });
    // The real clock: today (made by the next run) unless midnight passed in between.
    expect(first.repeat!.nextDate! >= today).toBe(true);
    await runSchedule(now.toISOString());
    expect((await seriesTasks(first.repeat!.seriesId)).length).toBeLessThanOrEqual(2);
    // 'When completed' still counts from the due date: the next one is the day after it.
    const later = await createTask({ dueDate: '2020-01-06', repeat: { rule: 'FREQ=DAILY', mode: 'on_completion' } });
    expect(later.repeat!.nextDate).toBe('2020-01-07');
  });

  it('COUNT ends the series after its tasks in all, the first one included', async () => {
    const first = await createTask({
      dueDate: '2030-04-01',
      repeat: { rule: 'FREQ=DAILY;COUNT=3', mode: 'on_schedule', timezone: 'UTC' },
    });
    await runSchedule('2030-04-20T12:00:00Z');
    const all = await seriesTasks(first.repeat!.seriesId);
    expect(all.map((t) => t.occurrenceDate)).toEqual(['2030-04-01', '2030-04-02', '2030-04-03']);
    expect(all.every((t) => t.repeat === null)).toBe(true);
    expect((await seriesRow(first.repeat!.seriesId)).endedAt).not.toBeNull();
    await runSchedule('2030-05-20T12:00:00Z');
    expect(await seriesTasks(first.repeat!.seriesId)).toHaveLength(3);
  });

  it('a series whose carrying task was deleted ends; a stopped one makes nothing', async () => {
    const gone = await createTask({
      dueDate: '2030-05-01',
      repeat: { rule: 'FREQ=DAILY', mode: 'on_schedule', timezone: 'UTC' },
    });
    const stopped = await createTask({
      dueDate: '2030-05-01',
      repeat: { rule: 'FREQ=DAILY', mode: 'on_schedule', timezone: 'UTC' },
    });
    await ok(owner, 'DELETE', `/api/tasks/${gone.id}`, undefined, 204);
    await patch(stopped.id, { repeat: null });
    await runSchedule('2030-05-03T12:00:00Z');
    expect(await seriesTasks(gone.repeat!.seriesId)).toHaveLength(0);
    expect((await seriesRow(gone.repeat!.seriesId)).endedAt).not.toBeNull();
    expect(await seriesTasks(stopped.repeat!.seriesId)).toHaveLength(1);
  });

  it("a sub-task's series follows it when its parent moves to another project; the old project's deletion leaves it", async () => {
    const oldProject = (await ok<{ id: string }>(owner, 'POST', '/api/projects', { name: 'Old', teamId }, 201)).id;
    const newProject = (await ok<{ id: string }>(owner, 'POST', '/api/projects', { name: 'New', teamId }, 201)).id;
    const parent = await createTask({ title: 'Ops', projectId: oldProject });
    const sub = await createTask({
      title: 'Backups',
      projectId: oldProject,
      parentId: parent.id,
      dueDate: '2030-07-01',
      repeat: { rule: 'FREQ=DAILY', mode: 'on_schedule', timezone: 'UTC' },
    });
    await patch(parent.id, { projectId: newProject });
    expect(await seriesRow(sub.repeat!.seriesId)).toMatchObject({ projectId: newProject, teamId, endedAt: null });
    await ok(owner, 'DELETE', `/api/projects/${oldProject}`, undefined, 204);
    await runSchedule('2030-07-02T12:00:00Z');
    const all = await seriesTasks(sub.repeat!.seriesId);
    expect(all.map((t) => [t.occurrenceDate, t.projectId, t.parentId])).toEqual([
      ['2030-07-01', newProject, parent.id],
      ['2030-07-02', newProject, parent.id],
    ]);
  });

  it('a run that fails after its first insert leaves nothing behind; the next run makes each date once', async () => {
    const first = await createTask({
      dueDate: '2030-06-01',
      repeat: { rule: 'FREQ=DAILY', mode: 'on_schedule', timezone: 'UTC' },
    });
    const errors: unknown[] = [];
    const failing = new RepeatSchedule(ctx.database.db, ctx.app.deps.changes, {
      cards: taskCards,
      now: () => new Date('2030-06-04T12:00:00Z'),
      afterInsert: async () => {
        throw new Error('the instance went down');
      },
      onError: (error) => errors.push(error),
    });
    expect(await failing.run()).toBe(0);
    expect(errors.length).toBeGreaterThan(0);
    expect(await seriesTasks(first.repeat!.seriesId)).toHaveLength(1);
    expect((await seriesRow(first.repeat!.seriesId)).nextDate).toBe('2030-06-02');
    await runSchedule('2030-06-04T12:00:00Z');
    await runSchedule('2030-06-04T12:00:00Z');
    const all = await seriesTasks(first.repeat!.seriesId);
    expect(all.map((t) => t.occurrenceDate)).toEqual(['2030-06-01', '2030-06-02', '2030-06-03', '2030-06-04']);
  });
});

describe('GET /api/tasks/occurrences', () => {
  it("lists the visible series' future dates not made yet, within the range, and 404s a stranger's scope", async () => {
    const weekly = await createTask({
      title: 'Standup notes',
      dueDate: '2030-08-05',
      repeat: { rule: 'FREQ=WEEKLY;BYDAY=MO;COUNT=4', mode: 'on_schedule', timezone: 'UTC' },
    });
    const url = `/api/tasks/occurrences?from=2030-08-01&to=2030-09-30&projectId=${projectId}`;
    const mine = (await ok<OccurrenceListDto>(member, 'GET', url)).occurrences.filter((o) => o.seriesId === weekly.seriesId);
    // COUNT=4: the first task and three more; the first is made, not listed.
    expect(mine).toEqual(
      ['2030-08-12', '2030-08-19', '2030-08-26'].map((date) => ({
        taskId: weekly.id,
        seriesId: weekly.seriesId,
        title: 'Standup notes',
        projectId,
        date,
      })),
    );
    const byTeam = await ok<OccurrenceListDto>(
      owner,
      'GET',
      `/api/tasks/occurrences?from=2030-08-13&to=2030-08-20&teamId=${teamId}`,
    );
    expect(byTeam.occurrences.filter((o) => o.seriesId === weekly.seriesId).map((o) => o.date)).toEqual(['2030-08-19']);
    // A window starting after the series' next date: COUNT still counts from it (one date is left after the 19th).
    const later = await ok<OccurrenceListDto>(
      member,
      'GET',
      `/api/tasks/occurrences?from=2030-08-20&to=2030-09-30&projectId=${projectId}`,
    );
    expect(later.occurrences.filter((o) => o.seriesId === weekly.seriesId).map((o) => o.date)).toEqual(['2030-08-26']);
    // A stranger sees none of it, and a team or project not theirs is 404.
    const theirs = await ok<OccurrenceListDto>(stranger, 'GET', '/api/tasks/occurrences?from=2030-08-01&to=2030-09-30');
    expect(theirs.occurrences.some((o) => o.projectId === projectId)).toBe(false);
    await fails(stranger, 'GET', url, undefined, 404);
    await fails(stranger, 'GET', `/api/tasks/occurrences?from=2030-08-01&to=2030-09-30&teamId=${teamId}`, undefined, 404);
    await fails(
      owner,
      'GET',
      `/api/tasks/occurrences?from=2030-08-01&to=2030-09-30&projectId=${strangerProjectId}`,
      undefined,
      404,
    );
    // Bad ranges: 400, never 500.
    await fails(owner, 'GET', '/api/tasks/occurrences?from=2030-09-01&to=2030-08-01', undefined, 400);
    await fails(owner, 'GET', '/api/tasks/occurrences?from=2030-01-01&to=2032-01-01', undefined, 400);
    await fails(owner, 'GET', '/api/tasks/occurrences?from=nope&to=2030-01-01', undefined, 400);
    expect((await call(null, 'GET', url)).statusCode).toBe(401);
  });
});

describe('iCal feed', () => {
  it("carries the RRULE on the carrying task's event only, COUNT as what is left", async () => {
    const first = await createTask({
      title: 'Payroll',
      dueDate: '2030-09-02',
      repeat: { rule: 'FREQ=WEEKLY;BYDAY=MO;COUNT=5', mode: 'on_completion', timezone: 'UTC' },
    });
    await patch(first.id, { status: 'completed' });
    const [, carrier] = await seriesTasks(first.repeat!.seriesId);
    const { url } = await ok<CalendarFeedCreatedDto>(owner, 'POST', '/api/me/calendar-feed', undefined, 201);
    const res = await call(null, 'GET', new URL(url).pathname);
    expect(res.statusCode).toBe(200);
    // An outside parser (ical.js) reads the rule.
    const events = new ICAL.Component(ICAL.parse(res.body)).getAllSubcomponents('vevent').map((c) => new ICAL.Event(c));
    const carried = events.find((e) => e.uid === `${carrier!.id}@crewboard`)!;
    const handedOn = events.find((e) => e.uid === `${first.id}@crewboard`)!;
    expect(carried.isRecurring()).toBe(true);
    const rrule = carried.component.getFirstPropertyValue('rrule') as ICAL.Recur;
    expect(rrule.freq).toBe('WEEKLY');
    expect(rrule.count).toBe(4);
    expect(rrule.parts.BYDAY).toEqual(['MO']);
    expect(handedOn.isRecurring()).toBe(false);
    const expand = carried.iterator();
    const dates = [expand.next(), expand.next(), expand.next()].map((t) => t?.toString());
    expect(dates).toEqual(['2030-09-09', '2030-09-16', '2030-09-23']);
  });
});

describe.skipIf(!process.env.DATABASE_URL)('exactly once with two instances (PostgreSQL)', () => {
  // PGlite is one process's database: a second instance cannot open it, so the two-instance race needs PostgreSQL.
  it('two apps on one database running the job at the same moments make each date once', async () => {
    const second = await openDatabase({ databaseUrl: ctx.databaseUrl! });
    const app2 = await buildApp({ config: testConfig(), database: second });
    await app2.ready();
    try {
      const firsts = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          createTask({
            title: `Race ${i}`,
            dueDate: '2030-10-01',
            repeat: { rule: i % 2 ? 'FREQ=DAILY' : 'FREQ=WEEKLY;BYDAY=MO,WE,FR', mode: 'on_schedule', timezone: 'Europe/Berlin' },
          }),
        ),
      );
      // The clock moves on a day at a time; at each moment, both instances run the job twice at once. (Five days:
      // on CI's loaded database eleven days of six runs took over 120 s; the catch-up at the 20th below makes the rest.)
      for (let day = 2; day <= 6; day++) {
        const at = `2030-10-${String(day).padStart(2, '0')}T00:30:00+02:00`;
        await Promise.all([ctx.app, app2, ctx.app, app2].map((app) => runSchedule(at, app)));
      }
      // And a restart in the middle: an instance failing after its first insert while the other runs.
      const failing = new RepeatSchedule(app2.deps.database.db, app2.deps.changes, {
        cards: taskCards,
        now: () => new Date('2030-10-20T00:30:00+02:00'),
        afterInsert: async () => {
          throw new Error('killed');
        },
        onError: () => undefined,
      });
      await Promise.all([failing.run(), runSchedule('2030-10-20T00:30:00+02:00'), failing.run()]);
      await runSchedule('2030-10-20T00:30:00+02:00', app2);
      for (const first of firsts) {
        const all = await seriesTasks(first.repeat!.seriesId);
        const dates = all.map((t) => t.occurrenceDate!);
        expect(new Set(dates).size).toBe(dates.length);
        const daily = first.repeat!.rule === 'FREQ=DAILY';
        // Daily: Oct 1…20 (20 tasks); Mon/Wed/Fri: Oct 1 (a Tuesday, the first task), then the 2nd … the 18th (8).
        expect(dates.length, first.title).toBe(daily ? 20 : 9);
        expect(dates.at(-1)).toBe(daily ? '2030-10-20' : '2030-10-18');
        expect(all.filter((t) => t.repeat !== null).map((t) => t.occurrenceDate)).toEqual([dates.at(-1)]);
        const series = await seriesRow(first.repeat!.seriesId);
        expect(series.createdCount).toBe(dates.length);
        expect(series.currentTaskId).toBe(all.at(-1)!.id);
      }
      const dupes = await ctx.database.db
        .select()
        .from(tasks)
        .where(and(eq(tasks.projectId, projectId), eq(tasks.title, 'Race 0')));
      expect(dupes.length).toBe(9);
    } finally {
      await app2.close();
      await second.close();
    }
  }, 300_000);
});
