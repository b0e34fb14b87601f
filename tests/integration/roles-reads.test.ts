// Issue 41, decision 0031: every read a guest can reach shows only the projects they were given. A team with projects
// Apollo (given to the guest) and Borealis (not): the guest sees Apollo's data and nothing of Borealis — not its name,
// not its tasks, not the people who have no task in Apollo — across the reads of the API, the calendar feed and the
// realtime stream (a real SSE client on a listening server); once taken off Apollo they see nothing; a viewer sees both.
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { projectGuests, teamMembers } from '../../src/server/db/schema';
import { createUser, insertMember, insertTeam, type TestUser } from '../factories';
import { apiRequests } from '../helpers/api';
import { setupTestApp } from '../helpers/app';
import { Stream } from '../helpers/sse-stream';

const ctx = setupTestApp();
const { call, ok } = apiRequests(ctx);
let baseUrl = '';

const A_NAME = 'Apollo Launchpad';
const B_NAME = 'Borealis Vault';
/** A word that is in every one of Borealis's names and texts, and nowhere else. */
const B_WORD = 'Borealis';

const today = new Date().toISOString().slice(0, 10);
const inDays = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);

interface World {
  owner: TestUser;
  guest: TestUser;
  viewer: TestUser;
  ann: TestUser;
  bob: TestUser;
  carl: TestUser;
  stranger: TestUser;
  teamId: string;
  a: string;
  b: string;
  aTask: string;
  guestTask: string;
  bTask: string;
  migrant: string;
}
let w: World;

async function addRole(teamId: string, user: TestUser, role: 'viewer' | 'guest') {
  await ctx.database.db.insert(teamMembers).values({ teamId, userId: user.id, role, status: 'active' });
}

/** The answer's text, for "nothing of Borealis" checks across a whole answer (names, ids, people). */
const text = (body: unknown) => JSON.stringify(body);

function expectNothingOfB(body: unknown, what: string) {
  const s = text(body);
  expect(s, `${what}: B's name`).not.toContain(B_WORD);
  expect(s, `${what}: B's id`).not.toContain(w.b);
  expect(s, `${what}: B's task`).not.toContain(w.bTask);
  expect(s, `${what}: Bob (no task in A)`).not.toContain(w.bob.id);
  expect(s, `${what}: Carl (no task at all)`).not.toContain(w.carl.id);
}

beforeAll(async () => {
  baseUrl = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  const db = ctx.database.db;
  const [owner, guest, viewer, ann, bob, carl, stranger] = await Promise.all([
    createUser(ctx.app, { fullName: 'Olive Owner' }),
    createUser(ctx.app, { fullName: 'Gina Guest' }),
    createUser(ctx.app, { fullName: 'Vic Viewer' }),
    createUser(ctx.app, { fullName: 'Ann Assignee' }),
    createUser(ctx.app, { fullName: 'Bob Borealis' }),
    createUser(ctx.app, { fullName: 'Carl Quiet' }),
    createUser(ctx.app, { fullName: 'Sam Stranger' }),
  ]);
  const team = await insertTeam(db, owner, 'Roles Crew');
  await insertMember(db, team.id, ann, 'member');
  await insertMember(db, team.id, bob, 'member');
  await insertMember(db, team.id, carl, 'member');
  await addRole(team.id, viewer, 'viewer');
  await addRole(team.id, guest, 'guest');
  await insertTeam(db, stranger, 'Stranger Crew');

  const a = (await ok<{ id: string }>(owner, 'POST', '/api/projects', { name: A_NAME, teamId: team.id }, 201)).id;
  const b = (await ok<{ id: string }>(owner, 'POST', '/api/projects', { name: B_NAME, teamId: team.id }, 201)).id;
  await db.insert(projectGuests).values({ projectId: a, userId: guest.id, addedBy: owner.id });

  const task = (user: TestUser, body: Record<string, unknown>) => ok<{ id: string }>(user, 'POST', '/api/tasks', body, 201);
  const aTask = (
    await task(owner, { title: 'Apollo countdown', projectId: a, assigneeId: ann.id, dueDate: inDays(2), startDate: today })
  ).id;
  const guestTask = (await task(owner, { title: 'Apollo checklist', projectId: a, assigneeId: guest.id, dueDate: inDays(3) })).id;
  const bTask = (
    await task(bob, { title: 'Borealis secret plan', projectId: b, assigneeId: bob.id, dueDate: inDays(2), startDate: today })
  ).id;
  // A task born in Borealis and moved to Apollo: its history names Borealis.
  const migrant = (await task(owner, { title: 'Apollo migrant', projectId: b })).id;
  await ok(owner, 'PATCH', `/api/tasks/${migrant}`, { projectId: a });
  // Apollo's task is blocked by Borealis's: a hidden ref for the guest.
  await ok(owner, 'POST', `/api/tasks/${aTask}/dependencies`, { blockedBy: bTask }, 201);
  await ok(bob, 'POST', `/api/tasks/${bTask}/comments`, { body: 'Borealis comment about the vault' }, 201);
  await ok(owner, 'POST', `/api/tasks/${aTask}/comments`, { body: 'Apollo comment' }, 201);
  // Carl watches Apollo's task without creating or being assigned any: not one of the people a guest sees.
  await ok(carl, 'PUT', `/api/tasks/${aTask}/watch`, { watching: true });
  await ok(owner, 'POST', `/api/tasks/${aTask}/time-entries`, { date: today, minutes: 30 }, 201);
  await ok(bob, 'POST', `/api/tasks/${bTask}/time-entries`, { date: today, minutes: 45 }, 201);
  for (const id of [aTask, bTask]) await ok(owner, 'PATCH', `/api/tasks/${id}/status`, { status: 'completed' });
  await ok(owner, 'POST', '/api/notes', { teamId: team.id, projectId: b, title: 'Borealis note' }, 201);
  await ok(owner, 'POST', '/api/notes', { teamId: team.id, projectId: null, title: 'Team-wide Borealis roadmap' }, 201);
  w = { owner, guest, viewer, ann, bob, carl, stranger, teamId: team.id, a, b, aTask, guestTask, bTask, migrant };
});

describe('a guest reads only the projects given to them', () => {
  it('projects: the list and the detail', async () => {
    const list = await ok<{ id: string; name: string; teamMemberCount: number }[]>(w.guest, 'GET', '/api/projects');
    expect(list.map((p) => p.name)).toEqual([A_NAME]);
    // The people they see: the owner, Ann (assigned in Apollo) and themselves.
    expect(list[0]!.teamMemberCount).toBe(3);
    expectNothingOfB(list, 'projects');
    await ok(w.guest, 'GET', `/api/projects/${w.a}`);
    expect((await call(w.guest, 'GET', `/api/projects/${w.b}`)).statusCode).toBe(404);
    expect((await call(w.guest, 'GET', `/api/projects/${w.b}/statuses`)).statusCode).toBe(404);
    await ok(w.guest, 'GET', `/api/projects/${w.a}/statuses`);
  });

  it('the task list (default order, filtered, sorted) with its counts, people and projects', async () => {
    for (const query of ['', '?sort=title&dir=asc', '?q=a', `?dueFrom=${today}&dueTo=${inDays(7)}`, `?projectId=${w.a}`]) {
      const list = await ok<{ total: number }>(w.guest, 'GET', `/api/tasks${query}`);
      expectNothingOfB(list, `list ${query}`);
      expect(text(list)).toContain('Apollo');
    }
    const all = await ok<{ total: number }>(w.guest, 'GET', '/api/tasks');
    expect(all.total).toBe(3);
    expect((await call(w.guest, 'GET', `/api/tasks?projectId=${w.b}`)).statusCode).toBe(404);
    // My work: the guest's own open tasks.
    const mine = await ok(w.guest, 'GET', `/api/tasks?assigneeId=${w.guest.id}&open=true`);
    expect(text(mine)).toContain('Apollo checklist');
  });

  it('the board: All Projects, one project, filtered', async () => {
    for (const query of ['', `?projectId=${w.a}`, '?priority=medium', '?q=a']) {
      const board = await ok(w.guest, 'GET', `/api/tasks/board${query}`);
      expectNothingOfB(board, `board ${query}`);
    }
    expect(text(await ok(w.guest, 'GET', '/api/tasks/board'))).toContain('Apollo countdown');
    expect((await call(w.guest, 'GET', `/api/tasks/board?projectId=${w.b}`)).statusCode).toBe(404);
  });

  it("task detail and everything under it: B's task is 404, A's dependency on it a hidden ref", async () => {
    const parts = [
      '',
      '/activity',
      '/comments',
      '/subtasks',
      '/dependencies',
      '/time-entries',
      '/attachments',
      '/checklist',
      '/watch',
    ];
    for (const part of parts) {
      expect((await call(w.guest, 'GET', `/api/tasks/${w.bTask}${part}`)).statusCode, part).toBe(404);
      const mine = await ok(w.guest, 'GET', `/api/tasks/${w.aTask}${part}`);
      expectNothingOfB(mine, `task ${part}`);
    }
    const refs = await ok<{ blockedBy: { id: string | null; hidden?: boolean }[] }>(
      w.guest,
      'GET',
      `/api/tasks/${w.aTask}/dependencies`,
    );
    expect(refs.blockedBy).toEqual([{ id: null, hidden: true }]);
    // The owner sees the same dependency in full.
    expect(text(await ok(w.owner, 'GET', `/api/tasks/${w.aTask}/dependencies`))).toContain('Borealis secret plan');
    // The moved task's history: the move is there, Borealis's name and id are not.
    const history = await ok<{ activity: { field: string }[] }>(w.guest, 'GET', `/api/tasks/${w.migrant}/activity`);
    expect(history.activity.some((e) => e.field === 'project')).toBe(true);
    expectNothingOfB(history, 'history');
    expect(text(await ok(w.owner, 'GET', `/api/tasks/${w.migrant}/activity`))).toContain(B_NAME);
  });

  it('team members: the owner, the creators and assignees of tasks in their projects, themselves', async () => {
    const teams = await ok<{ id: string; members: { userId: string }[] }[]>(w.guest, 'GET', '/api/teams');
    const team = teams.find((t) => t.id === w.teamId)!;
    const expected = [w.owner.id, w.ann.id, w.guest.id].sort();
    expect(team.members.map((m) => m.userId).sort()).toEqual(expected);
    const one = await ok<{ members: { userId: string }[] }>(w.guest, 'GET', `/api/teams/${w.teamId}`);
    expect(one.members.map((m) => m.userId).sort()).toEqual(expected);
    const mentionable = await ok<{ people: { id: string }[] }>(w.guest, 'GET', `/api/tasks/${w.aTask}/mentionable`);
    expect(mentionable.people.map((p) => p.id).sort()).toEqual(expected);
    // A member sees everyone.
    const full = await ok<{ members: unknown[] }>(w.ann, 'GET', `/api/teams/${w.teamId}`);
    expect(full.members).toHaveLength(6);
  });

  it('search and the palette', async () => {
    // The hits (`groups`), not the answer's echo of the query.
    const search = async (q: string) => (await ok<{ groups: unknown }>(w.guest, 'GET', `/api/search?q=${q}`)).groups;
    for (const q of [B_WORD, 'vault', 'Bob', 'Carl', 'roadmap', 'secret', 'comment']) expectNothingOfB(await search(q), q);
    expect(text(await search('comment'))).toContain(w.aTask);
    expect(text(await ok(w.guest, 'GET', '/api/search?q=Apollo'))).toContain('Apollo countdown');
    expect(text(await ok(w.guest, 'GET', '/api/search?q=Ann'))).toContain(w.ann.id);
    // The owner finds Borealis.
    expect(text(await ok(w.owner, 'GET', `/api/search?q=${B_WORD}`))).toContain(B_NAME);
  });

  it('the calendar: the list by due dates, occurrences and the .ics feed', async () => {
    const range = await ok(w.guest, 'GET', `/api/tasks?dueFrom=${today}&dueTo=${inDays(10)}&limit=500`);
    expectNothingOfB(range, 'calendar range');
    expectNothingOfB(await ok(w.guest, 'GET', `/api/tasks/occurrences?from=${today}&to=${inDays(30)}`), 'occurrences');
    const feed = await ok<{ url: string }>(w.guest, 'POST', '/api/me/calendar-feed', undefined, 201);
    const path = new URL(feed.url).pathname;
    const ics = await fetch(`${baseUrl}${path}`);
    expect(ics.status).toBe(200);
    const body = await ics.text();
    expect(body).toContain('Apollo');
    expect(body).not.toContain(B_WORD);
  });

  it('the dashboard, analytics, the timeline and the timesheet', async () => {
    const dashboard = await ok<{ totalTasks?: number; stats?: { totalTasks: number } }>(w.guest, 'GET', '/api/dashboard');
    expectNothingOfB(dashboard, 'dashboard');
    expect(text(dashboard)).toContain(A_NAME);
    const analytics = await ok(w.guest, 'GET', '/api/analytics');
    expectNothingOfB(analytics, 'analytics');
    expectNothingOfB(await ok(w.guest, 'GET', `/api/analytics?projectId=${w.a}`), 'analytics A');
    expect((await call(w.guest, 'GET', `/api/analytics?projectId=${w.b}`)).statusCode).toBe(404);
    expect((await call(w.guest, 'GET', `/api/analytics/cumulative-flow?projectId=${w.b}`)).statusCode).toBe(404);
    const time = await ok(w.guest, 'GET', '/api/analytics/time');
    expectNothingOfB(time, 'time analytics');
    expect(text(time)).toContain(A_NAME);
    const timeline = await ok(w.guest, 'GET', `/api/timeline?from=${inDays(-7)}&to=${inDays(30)}`);
    expectNothingOfB(timeline, 'timeline');
    expect(text(timeline)).toContain('Apollo countdown');
    expect((await call(w.guest, 'GET', `/api/timeline?projectId=${w.b}&from=${today}&to=${inDays(7)}`)).statusCode).toBe(404);
    const entries = await ok(w.guest, 'GET', `/api/time-entries?from=${inDays(-1)}&to=${inDays(1)}&userId=${w.guest.id}`);
    expectNothingOfB(entries, 'timesheet');
  });

  it('notes, saved views, exports', async () => {
    expectNothingOfB(await ok(w.guest, 'GET', '/api/notes'), 'notes');
    expectNothingOfB(await ok(w.guest, 'GET', '/api/views'), 'views');
    const csv = await call(w.guest, 'GET', `/api/teams/${w.teamId}/export.csv`);
    expect(csv.statusCode).toBe(200);
    expect(csv.body).toContain('Apollo countdown');
    expect(csv.body).not.toContain(B_WORD);
    expect((await call(w.guest, 'GET', `/api/teams/${w.teamId}/export.csv?projectId=${w.b}`)).statusCode).toBe(404);
    // The whole team's export (every project, member and note) is not a guest's.
    expect((await call(w.guest, 'GET', `/api/teams/${w.teamId}/export`)).statusCode).toBe(403);
    expect((await call(w.owner, 'GET', `/api/teams/${w.teamId}/export.csv`)).body).toContain(B_WORD);
  });

  it('a stranger still reads nothing of the team', async () => {
    expect((await call(w.stranger, 'GET', `/api/projects/${w.a}`)).statusCode).toBe(404);
    expect((await call(w.stranger, 'GET', `/api/tasks/${w.aTask}`)).statusCode).toBe(404);
    expect((await call(w.stranger, 'GET', `/api/teams/${w.teamId}`)).statusCode).toBe(404);
    expect(text(await ok(w.stranger, 'GET', '/api/search?q=Apollo'))).not.toContain('Apollo countdown');
  });
});

describe('realtime: a guest receives the events of their projects only', () => {
  it("a task created in Borealis never reaches the guest's stream; one in Apollo does", async () => {
    const stream = await Stream.open(baseUrl, w.guest);
    const ownerStream = await Stream.open(baseUrl, w.owner);
    expect([stream.status, ownerStream.status]).toEqual([200, 200]);
    try {
      const hidden = await ok<{ id: string }>(w.owner, 'POST', '/api/tasks', { title: 'Borealis live', projectId: w.b }, 201);
      // The owner's stream got it: it was dispatched (the guest's stream is fed in the same order).
      expect(await ownerStream.next((m) => m.data.taskId === hidden.id)).toBeDefined();
      const shown = await ok<{ id: string }>(w.owner, 'POST', '/api/tasks', { title: 'Apollo live', projectId: w.a }, 201);
      const got = await stream.next((m) => m.data.taskId === shown.id);
      expect(got, 'the Apollo event arrived').toBeDefined();
      const before = stream.messages.slice(0, stream.messages.indexOf(got!));
      expect(text(before)).not.toContain(hidden.id);
      expect(text(stream.messages)).not.toContain(B_WORD);
    } finally {
      stream.close();
      ownerStream.close();
    }
  });
});

describe('a guest taken off the project, and a viewer', () => {
  it('a viewer reads both projects', async () => {
    const projects = await ok<{ name: string }[]>(w.viewer, 'GET', '/api/projects');
    expect(projects.map((p) => p.name).sort()).toEqual([A_NAME, B_NAME]);
    expect(text(await ok(w.viewer, 'GET', '/api/tasks'))).toContain('Borealis secret plan');
    expect(text(await ok(w.viewer, 'GET', '/api/tasks/board'))).toContain('Borealis secret plan');
    await ok(w.viewer, 'GET', `/api/tasks/${w.bTask}`);
    expect(text(await ok(w.viewer, 'GET', `/api/search?q=${B_WORD}`))).toContain(B_NAME);
    const team = await ok<{ members: unknown[] }>(w.viewer, 'GET', `/api/teams/${w.teamId}`);
    expect(team.members).toHaveLength(6);
    expect(text(await ok(w.viewer, 'GET', '/api/dashboard'))).toContain(B_NAME);
  });

  it('once removed from Apollo, the guest sees no project, no task and of the people only the owner and themselves', async () => {
    await ctx.database.db
      .delete(projectGuests)
      .where(and(eq(projectGuests.projectId, w.a), eq(projectGuests.userId, w.guest.id)));
    expect(await ok(w.guest, 'GET', '/api/projects')).toEqual([]);
    const list = await ok<{ tasks: unknown[]; total: number }>(w.guest, 'GET', '/api/tasks');
    expect(list.total).toBe(0);
    expect(text(await ok(w.guest, 'GET', '/api/tasks/board'))).not.toContain('Apollo');
    expect((await call(w.guest, 'GET', `/api/tasks/${w.aTask}`)).statusCode).toBe(404);
    expect((await call(w.guest, 'GET', `/api/projects/${w.a}`)).statusCode).toBe(404);
    expect(text(await ok(w.guest, 'GET', '/api/search?q=Apollo'))).not.toContain('Apollo countdown');
    expect(text(await ok(w.guest, 'GET', '/api/dashboard'))).not.toContain(A_NAME);
    expect(text(await ok(w.guest, 'GET', `/api/timeline?from=${inDays(-7)}&to=${inDays(30)}`))).not.toContain('Apollo');
    const team = await ok<{ members: { userId: string }[] }>(w.guest, 'GET', `/api/teams/${w.teamId}`);
    expect(team.members.map((m) => m.userId).sort()).toEqual([w.owner.id, w.guest.id].sort());
  });
});
