/**
 * Time entries (issue 39, decision 0027 "Time"): every route (log, the task's list, the range read, edit, delete); the
 * rights (a stranger gets 404, another member 403 on edit and delete, an admin may, a plain member reads no one else's
 * time); validation (0 and 1441 minutes, bad dates, a reversed or too wide range: 400, never 500); the task's
 * `loggedMinutes` and its parent's `subtaskLoggedMinutes`; the history; the realtime events; the estimate on the task
 * (history 'estimate') and the team's estimate unit.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { TaskDto, TaskReadDto } from '../../src/domain/schemas/task';
import type { ActivityListDto } from '../../src/domain/schemas/task-detail';
import type { TeamDto } from '../../src/domain/schemas/team';
import type { TimeEntryDto, TimeEntryListDto } from '../../src/domain/schemas/time';
import type { DomainEvent } from '../../src/server/lib/events';
import { TIME_RANGE_TEXT } from '../../src/server/modules/time-tracking/time-tracking.service';
import { createUser, insertMember, insertOwnerMemberStranger, type TestUser } from '../factories';
import { apiRequests } from '../helpers/api';
import { setupTestApp } from '../helpers/app';

const ctx = setupTestApp();
const { ok, fails } = apiRequests(ctx);

let owner: TestUser;
let admin: TestUser;
let member: TestUser;
let stranger: TestUser;
let teamId: string;
let projectId: string;
let strangerTaskId: string;

beforeAll(async () => {
  let team: { id: string };
  ({ owner, member, stranger, team } = await insertOwnerMemberStranger(ctx.app, ctx.database.db, { strangerTeam: true }));
  teamId = team.id;
  admin = await createUser(ctx.app, { fullName: 'Ada Admin' });
  await insertMember(ctx.database.db, teamId, admin, 'admin');
  projectId = (await ok<{ id: string }>(owner, 'POST', '/api/projects', { name: 'Billing', teamId }, 201)).id;
  const strangerTeamId = (await ok<{ id: string }[]>(stranger, 'GET', '/api/teams'))[0]!.id;
  const strangerProject = await ok<{ id: string }>(
    stranger,
    'POST',
    '/api/projects',
    { name: 'Theirs', teamId: strangerTeamId },
    201,
  );
  strangerTaskId = (await ok<TaskDto>(stranger, 'POST', '/api/tasks', { title: 'Theirs', projectId: strangerProject.id }, 201))
    .id;
});

const create = (title: string, body: Record<string, unknown> = {}) =>
  ok<TaskDto>(owner, 'POST', '/api/tasks', { title, projectId, ...body }, 201);
const read = (id: string, user = owner) => ok<TaskReadDto>(user, 'GET', `/api/tasks/${id}`);
const log = (taskId: string, body: Record<string, unknown>, user = member) =>
  ok<TimeEntryDto>(user, 'POST', `/api/tasks/${taskId}/time-entries`, body, 201);
const entriesOf = async (taskId: string, user = owner) =>
  (await ok<TimeEntryListDto>(user, 'GET', `/api/tasks/${taskId}/time-entries`)).entries;
const range = async (query: string, user = owner) =>
  (await ok<TimeEntryListDto>(user, 'GET', `/api/time-entries?${query}`)).entries;
const history = async (taskId: string) =>
  (await ok<ActivityListDto>(owner, 'GET', `/api/tasks/${taskId}/activity`)).activity.map((a) => ({
    field: a.field,
    oldValue: a.oldValue,
    newValue: a.newValue,
    oldLabel: a.oldLabel,
    newLabel: a.newLabel,
    actor: a.actor?.fullName ?? null,
  }));

describe('logging time', () => {
  it('logs an entry, answers it with its person and task, lists it newest day first, and counts it on the task', async () => {
    const task = await create('Write the invoice');
    const first = await log(task.id, { date: '2026-11-02', minutes: 90, note: 'Drafting' });
    expect(first).toMatchObject({
      taskId: task.id,
      userId: member.id,
      userName: 'Mia Member',
      date: '2026-11-02',
      minutes: 90,
      note: 'Drafting',
      task: { id: task.id, title: 'Write the invoice', projectId, projectName: 'Billing', teamId },
    });
    const second = await log(task.id, { date: '2026-11-03', minutes: 30 }, owner);
    expect(second.note).toBeNull();
    const third = await log(task.id, { date: '2026-11-01', minutes: 15, note: '' });
    expect(third.note).toBeNull();
    expect((await entriesOf(task.id, member)).map((e) => e.id)).toEqual([second.id, first.id, third.id]);
    expect(await read(task.id)).toMatchObject({ loggedMinutes: 135, subtaskLoggedMinutes: 0 });
    // The card (the list's row) carries it too.
    const card = (await ok<{ tasks: TaskDto[] }>(owner, 'GET', `/api/tasks?projectId=${projectId}&limit=500`)).tasks.find(
      (t) => t.id === task.id,
    )!;
    expect(card.loggedMinutes).toBe(135);
  });

  it('refuses 0 and 1441 minutes, a fraction, bad dates, a long note and unknown keys with 400 (never 500)', async () => {
    const task = await create('Validated');
    const url = `/api/tasks/${task.id}/time-entries`;
    for (const body of [
      { date: '2026-11-02', minutes: 0 },
      { date: '2026-11-02', minutes: 1441 },
      { date: '2026-11-02', minutes: -5 },
      { date: '2026-11-02', minutes: 1.5 },
      { date: '2026-11-02', minutes: '90' },
      { date: '2026-02-30', minutes: 30 },
      { date: '02/11/2026', minutes: 30 },
      // PostgreSQL has no year 0000 (a 500 once): days from 1900 to 2999.
      { date: '0000-01-01', minutes: 30 },
      { date: '1899-12-31', minutes: 30 },
      { date: '3000-01-01', minutes: 30 },
      { date: '', minutes: 30 },
      { minutes: 30 },
      { date: '2026-11-02' },
      { date: '2026-11-02', minutes: 30, note: 'x'.repeat(501) },
      { date: '2026-11-02', minutes: 30, userId: owner.id },
    ]) {
      await fails(member, 'POST', url, body, 400);
    }
    const res = await fails(member, 'POST', url, { date: '2026-11-02', minutes: 1441 }, 400);
    expect(res.json().error.fields).toEqual({ minutes: 'An entry is at most 24 hours' });
    // The limits themselves are accepted.
    await log(task.id, { date: '2026-11-02', minutes: 1 });
    await log(task.id, { date: '2026-11-02', minutes: 1440, note: 'x'.repeat(500) });
    expect((await read(task.id)).loggedMinutes).toBe(1441);
  });

  it('is the task’s to give: a stranger gets 404 on its entries, a task of another team is 404, signed out 401', async () => {
    const task = await create('Private');
    await log(task.id, { date: '2026-11-02', minutes: 10 });
    await fails(stranger, 'GET', `/api/tasks/${task.id}/time-entries`, undefined, 404, 'task_not_found');
    await fails(
      stranger,
      'POST',
      `/api/tasks/${task.id}/time-entries`,
      { date: '2026-11-02', minutes: 10 },
      404,
      'task_not_found',
    );
    await fails(member, 'POST', `/api/tasks/${strangerTaskId}/time-entries`, { date: '2026-11-02', minutes: 10 }, 404);
    await fails(member, 'POST', `/api/tasks/${crypto.randomUUID()}/time-entries`, { date: '2026-11-02', minutes: 10 }, 404);
    await fails(null, 'POST', `/api/tasks/${task.id}/time-entries`, { date: '2026-11-02', minutes: 10 }, 401);
    await fails(member, 'GET', '/api/tasks/not-a-uuid/time-entries', undefined, 400);
    expect((await read(task.id)).loggedMinutes).toBe(10);
  });
});

describe('editing and deleting entries', () => {
  it('lets the author edit and delete, refuses another member (403), lets an admin and the owner, hides it from a stranger', async () => {
    const task = await create('Edited');
    const entry = await log(task.id, { date: '2026-11-02', minutes: 60, note: 'First' });
    const patched = await ok<TimeEntryDto>(member, 'PATCH', `/api/time-entries/${entry.id}`, { minutes: 75, note: null });
    expect(patched).toMatchObject({ id: entry.id, minutes: 75, note: null, date: '2026-11-02' });
    expect((await read(task.id)).loggedMinutes).toBe(75);

    const othersEntry = await log(task.id, { date: '2026-11-03', minutes: 20 }, admin);
    await fails(member, 'PATCH', `/api/time-entries/${othersEntry.id}`, { minutes: 5 }, 403, 'time_entry_edit_denied');
    await fails(member, 'DELETE', `/api/time-entries/${othersEntry.id}`, undefined, 403, 'time_entry_edit_denied');
    await fails(stranger, 'PATCH', `/api/time-entries/${entry.id}`, { minutes: 5 }, 404, 'time_entry_not_found');
    await fails(stranger, 'DELETE', `/api/time-entries/${entry.id}`, undefined, 404, 'time_entry_not_found');
    await fails(member, 'PATCH', `/api/time-entries/${crypto.randomUUID()}`, { minutes: 5 }, 404, 'time_entry_not_found');

    // An admin edits a member's entry; the owner deletes one.
    expect(await ok<TimeEntryDto>(admin, 'PATCH', `/api/time-entries/${entry.id}`, { date: '2026-11-04' })).toMatchObject({
      date: '2026-11-04',
      minutes: 75,
      userId: member.id,
    });
    await ok(owner, 'DELETE', `/api/time-entries/${othersEntry.id}`, undefined, 204);
    await fails(owner, 'DELETE', `/api/time-entries/${othersEntry.id}`, undefined, 404, 'time_entry_not_found');
    expect((await read(task.id)).loggedMinutes).toBe(75);
    await ok(member, 'DELETE', `/api/time-entries/${entry.id}`, undefined, 204);
    expect(await entriesOf(task.id)).toEqual([]);
    expect((await read(task.id)).loggedMinutes).toBe(0);
  });

  it('validates a patch as the entry: 0 and 1441 minutes, a bad date, unknown keys are 400', async () => {
    const task = await create('Patched');
    const entry = await log(task.id, { date: '2026-11-02', minutes: 60 });
    for (const body of [{ minutes: 0 }, { minutes: 1441 }, { date: '2026-13-01' }, { taskId: task.id }, { minutes: null }]) {
      await fails(member, 'PATCH', `/api/time-entries/${entry.id}`, body, 400);
    }
    await fails(member, 'PATCH', '/api/time-entries/nope', { minutes: 5 }, 400);
    expect((await entriesOf(task.id))[0]!.minutes).toBe(60);
  });
});

describe('reading a range', () => {
  let task: TaskDto;
  let other: TaskDto;
  beforeAll(async () => {
    task = await create('Ranged');
    other = await create('Ranged too');
    await log(task.id, { date: '2027-03-01', minutes: 10 });
    await log(other.id, { date: '2027-03-05', minutes: 20 });
    await log(task.id, { date: '2027-03-08', minutes: 30 }); // outside the week
    await log(task.id, { date: '2027-03-02', minutes: 40 }, admin);
    await log(strangerTaskId, { date: '2027-03-02', minutes: 50 }, stranger);
  });
  const week = 'from=2027-03-01&to=2027-03-07';
  const minutes = (entries: TimeEntryDto[]) => entries.map((e) => e.minutes);

  it("reads the caller's own entries by default, oldest day first, both ends included", async () => {
    expect(minutes(await range(week, member))).toEqual([10, 20]);
    expect(minutes(await range('from=2027-03-01&to=2027-03-08', member))).toEqual([10, 20, 30]);
    expect(minutes(await range(`${week}&userId=${member.id}`, member))).toEqual([10, 20]);
    expect(minutes(await range(week, admin))).toEqual([40]);
    expect(minutes(await range(`${week}&teamId=${teamId}`, member))).toEqual([10, 20]);
    // The stranger reads their own, never the team's.
    expect(minutes(await range(week, stranger))).toEqual([50]);
  });

  it("lets a team's owner or admin read a member's or every member's; a member asking for another is 403", async () => {
    expect(minutes(await range(`${week}&teamId=${teamId}&userId=${member.id}`, admin))).toEqual([10, 20]);
    expect(minutes(await range(`${week}&teamId=${teamId}`, owner))).toEqual([10, 40, 20]);
    expect(minutes(await range(`${week}&teamId=${teamId}`, admin))).toEqual([10, 40, 20]);
    await fails(
      member,
      'GET',
      `/api/time-entries?${week}&teamId=${teamId}&userId=${admin.id}`,
      undefined,
      403,
      'time_entries_read_denied',
    );
    // Another person needs a team; a team the caller is not in is 404 (the stranger's entries stay theirs).
    const res = await fails(admin, 'GET', `/api/time-entries?${week}&userId=${member.id}`, undefined, 400);
    expect(res.json().error.fields).toEqual({ teamId: TIME_RANGE_TEXT.teamNeeded });
    await fails(stranger, 'GET', `/api/time-entries?${week}&teamId=${teamId}`, undefined, 404, 'team_not_found');
    await fails(stranger, 'GET', `/api/time-entries?${week}&teamId=${teamId}&userId=${member.id}`, undefined, 404);
    await fails(owner, 'GET', `/api/time-entries?${week}&teamId=${crypto.randomUUID()}`, undefined, 404, 'team_not_found');
  });

  it('refuses a reversed range, one over the limit, bad dates and missing ends with 400', async () => {
    const reversed = await fails(member, 'GET', '/api/time-entries?from=2027-03-07&to=2027-03-01', undefined, 400);
    expect(reversed.json().error.fields).toEqual({ to: TIME_RANGE_TEXT.reversed });
    const wide = await fails(member, 'GET', '/api/time-entries?from=2027-01-01&to=2028-01-02', undefined, 400);
    expect(wide.json().error.fields).toEqual({ to: TIME_RANGE_TEXT.tooWide });
    // 366 days, both ends included, is the limit.
    await range('from=2027-01-01&to=2028-01-01', member);
    for (const query of [
      'from=2027-03-01',
      'to=2027-03-01',
      'from=2027-02-30&to=2027-03-01',
      'from=yesterday&to=2027-03-01',
      'from=0000-01-01&to=0000-01-02',
      `${week}&userId=nobody`,
      `${week}&teamId=1`,
      '',
    ]) {
      await fails(member, 'GET', `/api/time-entries?${query}`, undefined, 400);
    }
  });

  it('leaves out the tasks of a team the reader has left', async () => {
    const leaver = await createUser(ctx.app, { fullName: 'Lee Leaver' });
    const membership = await insertMember(ctx.database.db, teamId, leaver, 'member');
    const theirs = await log(task.id, { date: '2027-03-03', minutes: 5 }, leaver);
    expect(minutes(await range(week, leaver))).toEqual([5]);
    await ok(owner, 'DELETE', `/api/teams/${teamId}/members/${membership.id}`, undefined, 204);
    expect(await range(week, leaver)).toEqual([]);
    await fails(leaver, 'GET', `/api/tasks/${task.id}/time-entries`, undefined, 404);
    // Their own entry is no longer theirs to change: as a stranger's, 404.
    await fails(leaver, 'PATCH', `/api/time-entries/${theirs.id}`, { minutes: 50 }, 404, 'time_entry_not_found');
    await fails(leaver, 'DELETE', `/api/time-entries/${theirs.id}`, undefined, 404, 'time_entry_not_found');
    await fails(leaver, 'POST', `/api/tasks/${task.id}/time-entries`, { date: '2027-03-03', minutes: 5 }, 404);
    // Their entry stays on the team's task: its owner still reads it.
    expect(minutes(await range(`${week}&teamId=${teamId}&userId=${leaver.id}`, owner))).toEqual([5]);
  });
});

describe('what a change records', () => {
  it('writes the history of an entry logged, changed and deleted (a note alone is not history)', async () => {
    const task = await create('Historied');
    const entry = await log(task.id, { date: '2026-11-02', minutes: 90 });
    await ok(member, 'PATCH', `/api/time-entries/${entry.id}`, { note: 'Only the note' });
    await ok(admin, 'PATCH', `/api/time-entries/${entry.id}`, { minutes: 120, date: '2026-11-03' });
    await ok(owner, 'DELETE', `/api/time-entries/${entry.id}`, undefined, 204);
    expect(await history(task.id)).toEqual([
      { field: 'time_entry', oldValue: null, newValue: '90', oldLabel: null, newLabel: '2026-11-02', actor: 'Mia Member' },
      {
        field: 'time_entry',
        oldValue: '90',
        newValue: '120',
        oldLabel: '2026-11-02',
        newLabel: '2026-11-03',
        actor: 'Ada Admin',
      },
      { field: 'time_entry', oldValue: '120', newValue: null, oldLabel: '2026-11-03', newLabel: null, actor: 'Olive Owner' },
    ]);
  });

  it("tells the team: one time_entry.changed per change, naming the task, its project and the entry's author", async () => {
    const task = await create('Announced');
    const seen: DomainEvent[] = [];
    const unsubscribe = ctx.app.deps.events.subscribe((e) => {
      if (e.type === 'time_entry.changed' && e.taskId === task.id) seen.push(e);
    });
    try {
      const entry = await log(task.id, { date: '2026-11-02', minutes: 5 });
      await ok(admin, 'PATCH', `/api/time-entries/${entry.id}`, { minutes: 6 });
      await ok(admin, 'DELETE', `/api/time-entries/${entry.id}`, undefined, 204);
      // A refused change tells nobody.
      await fails(stranger, 'POST', `/api/tasks/${task.id}/time-entries`, { date: '2026-11-02', minutes: 5 }, 404);
    } finally {
      unsubscribe();
    }
    const expected = (actorId: string) => ({
      type: 'time_entry.changed',
      teamId,
      taskId: task.id,
      projectId,
      userId: member.id,
      actorId,
    });
    expect(seen).toEqual([expected(member.id), expected(admin.id), expected(admin.id)]);
  });
});

describe('sub-tasks and estimates', () => {
  it("rolls a sub-task's time into its parent's subtaskLoggedMinutes, leaving the parent's version alone", async () => {
    const parent = await create('Parent');
    const child = await create('Child', { parentId: parent.id });
    const before = await read(parent.id);
    await log(child.id, { date: '2026-11-02', minutes: 45 });
    await log(parent.id, { date: '2026-11-02', minutes: 15 });
    const after = await read(parent.id);
    expect(after).toMatchObject({ loggedMinutes: 15, subtaskLoggedMinutes: 45, version: before.version + 0 });
    expect(after.updatedAt).toBe(before.updatedAt);
  });

  it('follows the API: a sub-task re-parented, moved to another project (it leaves its parent), deleted with its own', async () => {
    const [one, two] = [await create('One'), await create('Two')];
    const child = await create('Child', { parentId: one.id });
    const grandchild = await create('Grandchild', { parentId: child.id });
    await log(child.id, { date: '2026-11-02', minutes: 20 });
    await log(grandchild.id, { date: '2026-11-02', minutes: 40 });
    const figures = async (...ids: string[]) =>
      Promise.all(ids.map(async (id) => `${(await read(id)).loggedMinutes}/${(await read(id)).subtaskLoggedMinutes}`));
    expect(await figures(one.id, two.id, child.id)).toEqual(['0/60', '0/0', '20/40']);
    await ok(member, 'PATCH', `/api/tasks/${child.id}`, { parentId: two.id });
    expect(await figures(one.id, two.id)).toEqual(['0/0', '0/60']);
    const elsewhere = await ok<{ id: string }>(owner, 'POST', '/api/projects', { name: 'Elsewhere', teamId }, 201);
    await ok(member, 'PATCH', `/api/tasks/${grandchild.id}`, { projectId: elsewhere.id });
    expect(await figures(two.id, child.id, grandchild.id)).toEqual(['0/20', '20/0', '40/0']);
    await ok(member, 'PATCH', `/api/tasks/${grandchild.id}`, { projectId, parentId: child.id });
    expect(await figures(two.id, child.id)).toEqual(['0/60', '20/40']);
    await ok(owner, 'DELETE', `/api/tasks/${child.id}`, undefined, 204);
    expect(await figures(two.id)).toEqual(['0/0']);
    await fails(owner, 'GET', `/api/tasks/${grandchild.id}`, undefined, 404);
  });

  it("writes an estimate through PATCH, records it in the history, and reads the team's estimate unit", async () => {
    const task = await create('Estimated', { estimateMinutes: 300 });
    expect(task).toMatchObject({ estimateMinutes: 300, estimatePoints: null });
    await ok(member, 'PATCH', `/api/tasks/${task.id}`, { estimateMinutes: 90, estimatePoints: 3 });
    await ok(member, 'PATCH', `/api/tasks/${task.id}`, { estimateMinutes: null, estimatePoints: null });
    expect(await read(task.id)).toMatchObject({ estimateMinutes: null, estimatePoints: null });
    expect((await history(task.id)).filter((h) => h.field === 'estimate')).toEqual([
      {
        field: 'estimate',
        oldValue: '300m',
        newValue: '90m 3pt',
        oldLabel: '5h',
        newLabel: '1h 30m · 3 points',
        actor: 'Mia Member',
      },
      {
        field: 'estimate',
        oldValue: '90m 3pt',
        newValue: null,
        oldLabel: '1h 30m · 3 points',
        newLabel: null,
        actor: 'Mia Member',
      },
    ]);
    await fails(member, 'PATCH', `/api/tasks/${task.id}`, { estimateMinutes: 0 }, 400);
    await fails(member, 'PATCH', `/api/tasks/${task.id}`, { estimatePoints: 0.3 }, 400);

    // The team's unit: the owner sets it with the rest; an admin may set it alone (name and description as they are).
    const team = await ok<TeamDto>(owner, 'GET', `/api/teams/${teamId}`);
    expect(team.estimateUnit).toBe('time');
    const same = { name: team.name, description: team.description };
    await fails(member, 'PATCH', `/api/teams/${teamId}`, { ...same, estimateUnit: 'points' }, 403, 'team_edit_denied');
    await fails(admin, 'PATCH', `/api/teams/${teamId}`, { ...same, name: 'Renamed' }, 403, 'team_edit_denied');
    await fails(admin, 'PATCH', `/api/teams/${teamId}`, { name: 'Renamed', estimateUnit: 'points' }, 403, 'team_edit_denied');
    await fails(stranger, 'PATCH', `/api/teams/${teamId}`, { ...same, estimateUnit: 'points' }, 404, 'team_not_found');
    expect(await ok<TeamDto>(admin, 'PATCH', `/api/teams/${teamId}`, { ...same, estimateUnit: 'points' })).toMatchObject({
      ...same,
      estimateUnit: 'points',
    });
    expect((await ok<TeamDto>(member, 'GET', `/api/teams/${teamId}`)).estimateUnit).toBe('points');
    // Missing, it stays; the owner changes it back.
    expect((await ok<TeamDto>(owner, 'PATCH', `/api/teams/${teamId}`, same)).estimateUnit).toBe('points');
    await fails(owner, 'PATCH', `/api/teams/${teamId}`, { ...same, estimateUnit: 'hours' }, 400);
    expect((await ok<TeamDto>(owner, 'PATCH', `/api/teams/${teamId}`, { ...same, estimateUnit: 'time' })).estimateUnit).toBe(
      'time',
    );
  });
});
