/**
 * The timer (issue 39, decision 0027 "Time"): one a person, on every device. Start, read, stop (whole minutes,
 * rounded; nothing under a minute), switch (starting another stops and logs the first), a day's cap, the entry's day
 * in the person's time zone, rights as the task's (a stranger 404), a task left behind, two starts at once, and the
 * `timer.changed` event reaching only the person's own streams. Elapsed time is simulated by setting `started_at`
 * back in the database (the clock that set it).
 */
import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { TIMER_TOO_SHORT } from '../../src/domain/durations';
import type { TaskDto, TaskReadDto } from '../../src/domain/schemas/task';
import type { ActivityListDto } from '../../src/domain/schemas/task-detail';
import type { StartTimerDto, StopTimerDto, TimeEntryListDto, TimerStateDto } from '../../src/domain/schemas/time';
import { timers, users } from '../../src/server/db/schema';
import type { DomainEvent } from '../../src/server/lib/events';
import { createUser, insertMember, insertOwnerMemberStranger, type TestUser } from '../factories';
import { apiRequests } from '../helpers/api';
import { setupTestApp } from '../helpers/app';

const ctx = setupTestApp();
const { ok, fails } = apiRequests(ctx);

let owner: TestUser;
let member: TestUser;
let stranger: TestUser;
let teamId: string;
let projectId: string;

beforeAll(async () => {
  let team: { id: string };
  ({ owner, member, stranger, team } = await insertOwnerMemberStranger(ctx.app, ctx.database.db, { strangerTeam: true }));
  teamId = team.id;
  projectId = (await ok<{ id: string }>(owner, 'POST', '/api/projects', { name: 'Timed', teamId }, 201)).id;
});

const create = (title: string) => ok<TaskDto>(owner, 'POST', '/api/tasks', { title, projectId }, 201);
const start = (taskId: string, user = member) => ok<StartTimerDto>(user, 'POST', '/api/me/timer', { taskId });
const stop = (user = member) => ok<StopTimerDto>(user, 'DELETE', '/api/me/timer');
const state = async (user = member) => (await ok<TimerStateDto>(user, 'GET', '/api/me/timer')).timer;
const logged = async (taskId: string) => (await ok<TaskReadDto>(owner, 'GET', `/api/tasks/${taskId}`)).loggedMinutes;
const entries = async (taskId: string) => (await ok<TimeEntryListDto>(owner, 'GET', `/api/tasks/${taskId}/time-entries`)).entries;
/** Sets the person's running timer back: it has run `ms` more (by the database's clock, as it started). */
const runFor = (user: TestUser, ms: number) =>
  ctx.database.db
    .update(timers)
    .set({ startedAt: sql`${timers.startedAt} - make_interval(secs => ${ms / 1000})` })
    .where(eq(timers.userId, user.id));
/** Starts the person's timer at an instant (for the day it started on). */
const startedAt = (user: TestUser, iso: string) =>
  ctx.database.db
    .update(timers)
    .set({ startedAt: new Date(iso) })
    .where(eq(timers.userId, user.id));

describe('start, read, stop', () => {
  it('starts a timer, reads it on every device, and stops it logging whole minutes (rounded)', async () => {
    const task = await create('Timed work');
    expect(await state()).toBeNull();
    const started = await start(task.id);
    expect(started).toEqual({
      timer: { taskId: task.id, taskTitle: 'Timed work', projectId, startedAt: expect.any(String) },
      stopped: null,
    });
    expect(await state()).toEqual(started.timer);
    // Another person has none.
    expect(await state(owner)).toBeNull();

    await runFor(member, 90 * 60_000 + 29_000);
    const { stopped } = await stop();
    expect(stopped).toMatchObject({ taskId: task.id, taskTitle: 'Timed work', minutes: 90 });
    expect(stopped!.entry).toMatchObject({ taskId: task.id, userId: member.id, minutes: 90, note: null });
    expect(await state()).toBeNull();
    expect(await logged(task.id)).toBe(90);
    // 1 min 31 s rounds up.
    await start(task.id);
    await runFor(member, 91_000);
    expect((await stop()).stopped).toMatchObject({ minutes: 2 });
    expect(await logged(task.id)).toBe(92);
    // Nothing runs: stopping answers null.
    expect(await stop()).toEqual({ stopped: null });
  });

  it('logs nothing under a minute (the client says TIMER_TOO_SHORT)', async () => {
    const task = await create('Too short');
    await start(task.id);
    await runFor(member, 59_000);
    expect((await stop()).stopped).toEqual({ taskId: task.id, taskTitle: 'Too short', minutes: 0, entry: null });
    expect(await entries(task.id)).toEqual([]);
    expect(await logged(task.id)).toBe(0);
    expect(TIMER_TOO_SHORT).toBe('Less than a minute: nothing logged');
  });

  it('caps a timer left running over a day at 24 hours', async () => {
    const task = await create('Forgotten');
    await start(task.id);
    await runFor(member, 60 * 60 * 60_000);
    expect((await stop()).stopped).toMatchObject({ minutes: 1440 });
    expect(await logged(task.id)).toBe(1440);
  });

  it('logs on the day the timer started in the person’s time zone (UTC without one)', async () => {
    const task = await create('Late night');
    await start(task.id);
    // 23:30 UTC on 1 March is 00:30 on 2 March in Berlin (a day's entry: the cap).
    await startedAt(member, '2026-03-01T23:30:00Z');
    expect((await stop()).stopped!.entry!.date).toBe('2026-03-01');
    await ctx.database.db.update(users).set({ timeZone: 'Europe/Berlin' }).where(eq(users.id, member.id));
    try {
      await start(task.id);
      await startedAt(member, '2026-03-01T23:30:00Z');
      expect((await stop()).stopped!.entry!.date).toBe('2026-03-02');
    } finally {
      await ctx.database.db.update(users).set({ timeZone: null }).where(eq(users.id, member.id));
    }
  });
});

describe('switching', () => {
  it('starting another task stops the first, logs it and answers what it logged; the same task changes nothing', async () => {
    const first = await create('First');
    const second = await create('Second');
    const a = await start(first.id);
    await runFor(member, 30 * 60_000);
    // The same task again (a second device's click): the running timer, nothing stopped.
    const again = await start(first.id);
    expect(again).toEqual({ timer: { ...a.timer, startedAt: expect.any(String) }, stopped: null });
    expect(Date.parse(again.timer.startedAt)).toBeLessThan(Date.parse(a.timer.startedAt));

    const b = await start(second.id);
    expect(b.timer).toMatchObject({ taskId: second.id, taskTitle: 'Second' });
    expect(b.stopped).toMatchObject({ taskId: first.id, taskTitle: 'First', minutes: 30 });
    expect(await state()).toEqual(b.timer);
    expect(await logged(first.id)).toBe(30);
    // Switching under a minute logs nothing.
    const c = await start(first.id);
    expect(c.stopped).toEqual({ taskId: second.id, taskTitle: 'Second', minutes: 0, entry: null });
    await stop();
  });

  it('keeps one timer under two starts at once: the second stops the first', async () => {
    const [x, y] = await Promise.all([create('Racing X'), create('Racing Y')]);
    const results = await Promise.all([start(x.id), start(y.id)]);
    const stoppedOne = results.filter((r) => r.stopped !== null);
    expect(stoppedOne).toHaveLength(1);
    const winner = results.find((r) => r.stopped === null)!;
    expect(stoppedOne[0]!.stopped!.taskId).toBe(winner.timer.taskId);
    const rows = await ctx.database.db.select().from(timers).where(eq(timers.userId, member.id));
    expect(rows).toHaveLength(1);
    expect((await state())!.taskId).toBe(stoppedOne[0]!.timer.taskId);
    await stop();
  });
});

describe('rights', () => {
  it("is the task's: a stranger gets 404, bad input 400, signed out 401", async () => {
    const task = await create('Guarded');
    await fails(stranger, 'POST', '/api/me/timer', { taskId: task.id }, 404, 'task_not_found');
    await fails(member, 'POST', '/api/me/timer', { taskId: crypto.randomUUID() }, 404, 'task_not_found');
    for (const body of [{}, { taskId: 'nope' }, { taskId: task.id, startedAt: '2020-01-01T00:00:00Z' }, null]) {
      await fails(member, 'POST', '/api/me/timer', body, 400);
    }
    await fails(null, 'GET', '/api/me/timer', undefined, 401);
    await fails(null, 'DELETE', '/api/me/timer', undefined, 401);
    expect(await state(stranger)).toBeNull();
  });

  it('forgets a timer on a task of a team the person has left: not shown, stopping it logs and names nothing', async () => {
    const leaver = await createUser(ctx.app, { fullName: 'Lee Leaver' });
    const membership = await insertMember(ctx.database.db, teamId, leaver, 'member');
    const task = await create('Left behind');
    await start(task.id, leaver);
    await runFor(leaver, 10 * 60_000);
    await ok(owner, 'DELETE', `/api/teams/${teamId}/members/${membership.id}`, undefined, 204);
    // Renamed once they are gone: the new title is not theirs to read, not even in what stopping answers.
    await ok(owner, 'PATCH', `/api/tasks/${task.id}`, { title: 'Layoffs in March' });
    expect(await state(leaver)).toBeNull();
    expect(await stop(leaver)).toEqual({ stopped: null });
    expect(await logged(task.id)).toBe(0);
    expect(await ctx.database.db.select().from(timers).where(eq(timers.userId, leaver.id))).toEqual([]);
  });

  it('forgets a timer on a task moved to a team the person is not in: starting another answers nothing stopped', async () => {
    const task = await create('Moved away');
    await start(task.id);
    await runFor(member, 10 * 60_000);
    const elsewhere = await ok<{ id: string }>(owner, 'POST', '/api/teams', { name: 'Board only' }, 201);
    const project = await ok<{ id: string }>(owner, 'POST', '/api/projects', { name: 'Secret', teamId: elsewhere.id }, 201);
    await ok(owner, 'PATCH', `/api/tasks/${task.id}`, { projectId: project.id, title: 'Acquire Initech' });
    expect(await state()).toBeNull();
    const next = await create('Next');
    expect(await start(next.id)).toMatchObject({ timer: { taskId: next.id }, stopped: null });
    expect(await logged(task.id)).toBe(0);
    await stop();
  });

  it('ends with its task: a deleted task takes its timer with it', async () => {
    const task = await create('Deleted while timed');
    await start(task.id);
    await ok(owner, 'DELETE', `/api/tasks/${task.id}`, undefined, 204);
    expect(await state()).toBeNull();
    expect(await stop()).toEqual({ stopped: null });
  });
});

describe('what a change records', () => {
  it('writes the history of a logged timer, and tells the person (timer.changed) and the team (time_entry.changed)', async () => {
    const task = await create('Told');
    const seen: DomainEvent[] = [];
    const unsubscribe = ctx.app.deps.events.subscribe((e) => {
      if (e.type === 'timer.changed' || (e.type === 'time_entry.changed' && e.taskId === task.id)) seen.push(e);
    });
    try {
      await start(task.id);
      await runFor(member, 5 * 60_000);
      await stop();
      await stop(); // nothing ran: nothing told
    } finally {
      unsubscribe();
    }
    expect(seen).toEqual([
      { type: 'timer.changed', actorId: member.id, userId: member.id },
      { type: 'time_entry.changed', actorId: member.id, teamId, taskId: task.id, projectId, userId: member.id },
      { type: 'timer.changed', actorId: member.id, userId: member.id },
    ]);
    const history = (await ok<ActivityListDto>(owner, 'GET', `/api/tasks/${task.id}/activity`)).activity;
    expect(history).toMatchObject([{ field: 'time_entry', oldValue: null, newValue: '5', actor: { id: member.id } }]);
  });
});
