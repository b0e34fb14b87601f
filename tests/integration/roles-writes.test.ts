import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NoteDto } from '../../src/domain/schemas/note';
import type { ProjectGuestDto, TeamDto } from '../../src/domain/schemas/team';
import type { TaskDto } from '../../src/domain/schemas/task';
import { projectGuests, teamMembers } from '../../src/server/db/schema';
import { createUser, insertMember, insertTeam, type TestUser } from '../factories';
import { apiRequests, type Method } from '../helpers/api';
import { setupTestApp } from '../helpers/app';
import { multipartBody } from '../helpers/multipart';
import { type NoteClient, noteClient, ticketFor, until } from '../helpers/note-socket';

/**
 * Issue 41: every write obeys the viewer and guest roles (a viewer changes nothing, and comments when the team lets
 * viewers comment; a guest changes only the tasks assigned to them), the team's access rules
 * (PATCH /api/teams/:id/access) and a project's guests (/api/projects/:id/guests).
 */

const ctx = setupTestApp();
const { call, ok, fails } = apiRequests(ctx);

let owner: TestUser;
let admin: TestUser;
let member: TestUser;
let viewer: TestUser;
let guest: TestUser;
let stranger: TestUser;
let teamId: string;
/** The project the guest is given; `otherProjectId` is not theirs. */
let projectId: string;
let otherProjectId: string;
/** In projectId: assigned to the guest (created by the owner), and one assigned to the member. */
let guestTask: TaskDto;
let memberTask: TaskDto;
/** In otherProjectId, assigned to the guest: the guest does not see it. */
let hiddenTask: TaskDto;
let note: NoteDto;

const addRole = (user: TestUser, role: 'viewer' | 'guest') =>
  ctx.database.db.insert(teamMembers).values({ teamId, userId: user.id, role, status: 'active' });

const today = new Date().toISOString().slice(0, 10);

beforeAll(async () => {
  [owner, admin, member, viewer, guest, stranger] = await Promise.all([
    createUser(ctx.app, { fullName: 'Olive Owner' }),
    createUser(ctx.app, { fullName: 'Ada Admin' }),
    createUser(ctx.app, { fullName: 'Mia Member' }),
    createUser(ctx.app, { fullName: 'Vic Viewer' }),
    createUser(ctx.app, { fullName: 'Gus Guest' }),
    createUser(ctx.app, { fullName: 'Sam Stranger' }),
  ]);
  const team = await insertTeam(ctx.database.db, owner);
  teamId = team.id;
  await insertMember(ctx.database.db, teamId, admin, 'admin');
  await insertMember(ctx.database.db, teamId, member, 'member');
  await addRole(viewer, 'viewer');
  await addRole(guest, 'guest');
  await insertTeam(ctx.database.db, stranger);
  projectId = (await ok<{ id: string }>(owner, 'POST', '/api/projects', { teamId, name: 'Shared with guest' }, 201)).id;
  otherProjectId = (await ok<{ id: string }>(owner, 'POST', '/api/projects', { teamId, name: 'Internal' }, 201)).id;
  await ok(owner, 'POST', `/api/projects/${projectId}/guests`, { userId: guest.id }, 201);
  guestTask = await ok<TaskDto>(owner, 'POST', '/api/tasks', { projectId, title: 'For the guest', assigneeId: guest.id }, 201);
  memberTask = await ok<TaskDto>(owner, 'POST', '/api/tasks', { projectId, title: 'For the member', assigneeId: member.id }, 201);
  hiddenTask = await ok<TaskDto>(
    owner,
    'POST',
    '/api/tasks',
    { projectId: otherProjectId, title: 'Internal', assigneeId: guest.id },
    201,
  );
  note = await ok<NoteDto>(owner, 'POST', '/api/notes', { teamId, title: 'Team handbook' }, 201);
});

const upload = (user: TestUser, taskId: string) => {
  const { payload, headers } = multipartBody([{ fileName: 'notes.txt', content: 'hello', contentType: 'text/plain' }]);
  return ctx.app.inject({
    method: 'POST',
    url: `/api/tasks/${taskId}/attachments`,
    payload,
    headers: { ...user.auth, ...headers },
  });
};

const setViewersMayComment = (value: boolean) =>
  ok<TeamDto>(owner, 'PATCH', `/api/teams/${teamId}/access`, { viewersMayComment: value });

/** The writes neither a viewer nor a guest may make, one or more a module, with a body each would otherwise accept. */
const teamWrites = (): [label: string, method: Method, url: string, body: unknown][] => [
  ['create a task', 'POST', '/api/tasks', { projectId, title: 'Nope' }],
  ['create a project', 'POST', '/api/projects', { teamId, name: 'Nope' }],
  ['create a note', 'POST', '/api/notes', { teamId, title: 'Nope' }],
  ['rename a note', 'PATCH', `/api/notes/${note.id}`, { title: 'Renamed' }],
  ['keep a note version', 'POST', `/api/notes/${note.id}/versions`, undefined],
  ['share a view with the team', 'POST', '/api/views', { name: 'Ours', teamId, config: { view: 'list' } }],
  ['import a CSV (dry run)', 'POST', `/api/teams/${teamId}/import/csv`, { csv: 'Title\nOne\n', dryRun: true }],
  ['add a status', 'POST', `/api/projects/${projectId}/statuses`, { name: 'QA', category: 'started', color: '#7c3aed' }],
  ['add a custom field', 'POST', `/api/teams/${teamId}/fields`, { name: 'Points', type: 'number' }],
  ['turn the public link on', 'PUT', `/api/projects/${projectId}/share`, { enabled: true }],
  ['add a request form', 'POST', `/api/projects/${projectId}/forms`, { name: 'F', fields: [{ key: 'title', label: 'Title' }] }],
  ['turn the intake address on', 'POST', `/api/projects/${projectId}/intake`, { enabled: true }],
  ['add a webhook', 'POST', `/api/teams/${teamId}/webhooks`, { url: 'https://93.184.216.34/in', events: ['task.created'] }],
  ['edit the project', 'PATCH', `/api/projects/${projectId}`, { name: 'Renamed' }],
  ['invite someone', 'POST', `/api/teams/${teamId}/invitations`, { email: 'new@example.com', role: 'member' }],
  ['set the access rules', 'PATCH', `/api/teams/${teamId}/access`, { viewersMayComment: false }],
];

describe('a viewer changes nothing', () => {
  it.each(['viewer', 'guest'] as const)('a %s is refused every team write (403, nothing written)', async (who) => {
    const user = who === 'viewer' ? viewer : guest;
    for (const [label, method, url, body] of teamWrites()) {
      const res = await call(user, method, url, body);
      // A guest may not even see some of it (a note of the whole team): 404 then, as for a stranger.
      expect(who === 'guest' ? [403, 404] : [403], `${who}: ${label}: ${res.body}`).toContain(res.statusCode);
    }
    // Nothing was written.
    const { tasks } = await ok<{ tasks: { title: string }[] }>(owner, 'GET', `/api/tasks?projectId=${projectId}`);
    expect(tasks.map((t) => t.title)).not.toContain('Nope');
    const notes = await ok<{ notes: { title: string }[] }>(owner, 'GET', `/api/notes?teamId=${teamId}`);
    expect(notes.notes.map((n) => n.title)).toEqual(['Team handbook']);
    // A personal view is anyone's.
    await ok(user, 'POST', '/api/views', { name: 'Mine', teamId: null, config: { priority: 'high' } }, 201);
  });

  it('refuses every write on a task with read_only_role', async () => {
    const t = memberTask.id;
    await fails(viewer, 'PATCH', `/api/tasks/${t}`, { title: 'Changed' }, 403, 'read_only_role');
    await fails(viewer, 'PATCH', `/api/tasks/${t}/status`, { status: 'done' }, 403, 'read_only_role');
    await fails(viewer, 'DELETE', `/api/tasks/${t}`, undefined, 403, 'task_delete_denied');
    await fails(viewer, 'POST', `/api/tasks/${t}/checklist`, { title: 'Step' }, 403, 'read_only_role');
    await fails(viewer, 'POST', `/api/tasks/${t}/time-entries`, { date: today, minutes: 30 }, 403, 'read_only_role');
    await fails(viewer, 'POST', '/api/me/timer', { taskId: t }, 403, 'read_only_role');
    await fails(viewer, 'POST', `/api/tasks/${t}/dependencies`, { blockedBy: guestTask.id }, 403, 'read_only_role');
    await fails(viewer, 'PUT', `/api/tasks/${t}/subtasks/order`, { ids: [guestTask.id] }, 403, 'read_only_role');
    const res = await upload(viewer, t);
    expect(res.statusCode, res.body).toBe(403);
    // Nothing was written.
    const task = await ok<TaskDto>(owner, 'GET', `/api/tasks/${t}`);
    expect(task.title).toBe('For the member');
    expect(task.checklistTotal).toBe(0);
    expect(task.attachmentCount).toBe(0);
    expect(task.loggedMinutes).toBe(0);
  });

  it('comments when the team lets viewers comment, and not when it does not', async () => {
    expect((await setViewersMayComment(true)).viewersMayComment).toBe(true);
    await ok(viewer, 'POST', `/api/tasks/${memberTask.id}/comments`, { body: 'Looks good' }, 201);
    expect((await setViewersMayComment(false)).viewersMayComment).toBe(false);
    await fails(viewer, 'POST', `/api/tasks/${memberTask.id}/comments`, { body: 'Again' }, 403, 'comment_denied');
    const { comments } = await ok<{ comments: { body: string }[] }>(owner, 'GET', `/api/tasks/${memberTask.id}/comments`);
    expect(comments.map((c) => c.body)).toEqual(['Looks good']);
    await setViewersMayComment(true);
  });

  it('follows a task: watching is a personal choice', async () => {
    const state = await ok<{ watching: boolean }>(viewer, 'PUT', `/api/tasks/${memberTask.id}/watch`, { watching: true });
    expect(state.watching).toBe(true);
  });
});

describe('a guest changes only the tasks assigned to them', () => {
  it('edits, moves, checks off, comments on, logs time and files on their own task', async () => {
    const t = guestTask.id;
    const edited = await ok<TaskDto>(guest, 'PATCH', `/api/tasks/${t}`, { title: 'Mine now', priority: 'high' });
    expect(edited.title).toBe('Mine now');
    await ok(guest, 'PATCH', `/api/tasks/${t}/status`, { status: 'in_progress' });
    const item = await ok<{ id: string }>(guest, 'POST', `/api/tasks/${t}/checklist`, { title: 'Step' }, 201);
    await ok(guest, 'PATCH', `/api/tasks/${t}/checklist/${item.id}`, { done: true });
    await ok(guest, 'POST', `/api/tasks/${t}/comments`, { body: 'On it' }, 201);
    await ok(guest, 'POST', `/api/tasks/${t}/time-entries`, { date: today, minutes: 45 }, 201);
    const file = await upload(guest, t);
    expect(file.statusCode, file.body).toBe(201);
    await ok(guest, 'POST', '/api/me/timer', { taskId: t });
    await ok(guest, 'DELETE', '/api/me/timer');
    // Keeping it assigned to themselves is no reassignment.
    await ok(guest, 'PATCH', `/api/tasks/${t}`, { assigneeId: guest.id.toUpperCase() });
    const task = await ok<TaskDto>(owner, 'GET', `/api/tasks/${t}`);
    expect(task).toMatchObject({ status: 'in_progress', checklistDone: 1, attachmentCount: 1, loggedMinutes: 45 });
  });

  it("changes nothing on someone else's task in their project", async () => {
    const t = memberTask.id;
    await fails(guest, 'PATCH', `/api/tasks/${t}`, { title: 'Taken' }, 403, 'task_edit_denied');
    await fails(guest, 'PATCH', `/api/tasks/${t}/status`, { status: 'done' }, 403, 'task_edit_denied');
    await fails(guest, 'POST', `/api/tasks/${t}/comments`, { body: 'Hi' }, 403, 'task_edit_denied');
    await fails(guest, 'POST', `/api/tasks/${t}/checklist`, { title: 'Step' }, 403, 'task_edit_denied');
    await fails(guest, 'POST', `/api/tasks/${t}/time-entries`, { date: today, minutes: 5 }, 403, 'task_edit_denied');
    await fails(guest, 'POST', '/api/me/timer', { taskId: t }, 403, 'task_edit_denied');
    const res = await upload(guest, t);
    expect(res.statusCode, res.body).toBe(403);
    expect((await ok<TaskDto>(owner, 'GET', `/api/tasks/${t}`)).title).toBe('For the member');
  });

  it('neither hands their task to someone else, nor moves it, nor deletes it', async () => {
    const t = guestTask.id;
    await fails(guest, 'PATCH', `/api/tasks/${t}`, { assigneeId: member.id }, 403, 'task_edit_denied');
    await fails(guest, 'PATCH', `/api/tasks/${t}`, { assigneeId: null }, 403, 'task_edit_denied');
    await fails(guest, 'PATCH', `/api/tasks/${t}`, { projectId: otherProjectId }, 403, 'task_edit_denied');
    await fails(guest, 'PATCH', `/api/tasks/${t}`, { parentId: memberTask.id }, 403, 'task_edit_denied');
    await fails(guest, 'DELETE', `/api/tasks/${t}`, undefined, 403, 'task_delete_denied');
    const task = await ok<TaskDto>(owner, 'GET', `/api/tasks/${t}`);
    expect(task).toMatchObject({ assigneeId: guest.id, projectId, parentId: null });
  });

  it('gets 404 on a task of a project not given to them, even one assigned to them', async () => {
    const t = hiddenTask.id;
    await fails(guest, 'POST', `/api/tasks/${t}/comments`, { body: 'Hi' }, 404, 'task_not_found');
    await fails(guest, 'POST', `/api/tasks/${t}/checklist`, { title: 'Step' }, 404, 'task_not_found');
    await fails(guest, 'POST', `/api/tasks/${t}/time-entries`, { date: today, minutes: 5 }, 404, 'task_not_found');
    await fails(guest, 'PATCH', `/api/tasks/${t}`, { title: 'Seen' }, 404, 'task_not_found');
    await fails(guest, 'PATCH', `/api/tasks/${t}/status`, { status: 'done' }, 404, 'task_not_found');
    await fails(guest, 'POST', '/api/me/timer', { taskId: t }, 404, 'task_not_found');
  });

  it('a member still edits any task (the rules did not narrow the writers)', async () => {
    await ok(member, 'PATCH', `/api/tasks/${guestTask.id}`, { title: 'Reviewed' });
    await ok(member, 'POST', `/api/tasks/${guestTask.id}/comments`, { body: 'Thanks' }, 201);
  });
});

describe('PATCH /api/teams/:id/access', () => {
  it('owner and admins set the rules; the answer is the team', async () => {
    const team = await ok<TeamDto>(admin, 'PATCH', `/api/teams/${teamId}/access`, { viewersMayComment: false });
    expect(team).toMatchObject({ id: teamId, viewersMayComment: false, requiresSso: false });
    const back = await ok<TeamDto>(owner, 'PATCH', `/api/teams/${teamId}/access`, { viewersMayComment: true });
    expect(back.viewersMayComment).toBe(true);
    expect((await ok<TeamDto>(member, 'GET', `/api/teams/${teamId}`)).viewersMayComment).toBe(true);
  });

  it('refuses to require single sign-on on a server without it (nobody could open the team again)', async () => {
    await fails(owner, 'PATCH', `/api/teams/${teamId}/access`, { requiresSso: true }, 400, 'team_sso_unavailable');
    expect((await ok<TeamDto>(owner, 'GET', `/api/teams/${teamId}`)).requiresSso).toBe(false);
    // Turning it off is always allowed.
    expect((await ok<TeamDto>(owner, 'PATCH', `/api/teams/${teamId}/access`, { requiresSso: false })).requiresSso).toBe(false);
  });

  it('403 for a member, viewer or guest; 404 for a stranger or no team; 400 for a bad body', async () => {
    for (const user of [member, viewer, guest]) {
      await fails(user, 'PATCH', `/api/teams/${teamId}/access`, { viewersMayComment: false }, 403, 'team_access_denied');
    }
    await fails(stranger, 'PATCH', `/api/teams/${teamId}/access`, { viewersMayComment: false }, 404, 'team_not_found');
    await fails(owner, 'PATCH', `/api/teams/${crypto.randomUUID()}/access`, { viewersMayComment: false }, 404);
    await fails(owner, 'PATCH', `/api/teams/${teamId}/access`, {}, 400);
    await fails(owner, 'PATCH', `/api/teams/${teamId}/access`, { viewersMayComment: 'yes' }, 400);
    await fails(owner, 'PATCH', `/api/teams/${teamId}/access`, { viewersMayComment: true, ownerId: member.id }, 400);
    await fails(null, 'PATCH', `/api/teams/${teamId}/access`, { viewersMayComment: false }, 401);
    expect((await ok<TeamDto>(owner, 'GET', `/api/teams/${teamId}`)).viewersMayComment).toBe(true);
  });
});

describe('/api/projects/:id/guests', () => {
  const guestsUrl = () => `/api/projects/${projectId}/guests`;

  it('lists the guests to members, admins, the owner and viewers; a guest gets 403, a stranger 404', async () => {
    for (const user of [owner, admin, member, viewer]) {
      const { guests } = await ok<{ guests: ProjectGuestDto[] }>(user, 'GET', guestsUrl());
      expect(guests.map((g) => g.userId)).toEqual([guest.id]);
      expect(guests[0]!.user).toMatchObject({ id: guest.id, fullName: 'Gus Guest' });
    }
    await fails(guest, 'GET', guestsUrl(), undefined, 403, 'guests_read_denied');
    // A project not given to the guest does not exist for them.
    await fails(guest, 'GET', `/api/projects/${otherProjectId}/guests`, undefined, 404, 'project_not_found');
    await fails(stranger, 'GET', guestsUrl(), undefined, 404, 'project_not_found');
  });

  it('adds only a guest of the team, by the owner or an admin', async () => {
    await fails(admin, 'POST', guestsUrl(), { userId: member.id }, 400, 'not_a_guest');
    await fails(admin, 'POST', guestsUrl(), { userId: viewer.id }, 400, 'not_a_guest');
    await fails(admin, 'POST', guestsUrl(), { userId: stranger.id }, 400, 'not_a_guest');
    await fails(admin, 'POST', guestsUrl(), { userId: 'nope' }, 400);
    await fails(admin, 'POST', guestsUrl(), { userId: guest.id, role: 'admin' }, 400);
    for (const user of [member, viewer, guest]) {
      await fails(user, 'POST', `/api/projects/${otherProjectId}/guests`, { userId: guest.id }, user === guest ? 404 : 403);
    }
    await fails(stranger, 'POST', `/api/projects/${otherProjectId}/guests`, { userId: guest.id }, 404, 'project_not_found');
    // Added: the guest now sees the project; adding again changes nothing.
    const added = await ok<ProjectGuestDto>(admin, 'POST', `/api/projects/${otherProjectId}/guests`, { userId: guest.id }, 201);
    expect(added).toMatchObject({ userId: guest.id, user: { id: guest.id } });
    await ok(admin, 'POST', `/api/projects/${otherProjectId}/guests`, { userId: guest.id }, 201);
    await ok(guest, 'POST', `/api/tasks/${hiddenTask.id}/comments`, { body: 'Now I see it' }, 201);
  });

  it('removes a guest (owner or admin); 404 when they are not one; the guest no longer sees the project', async () => {
    const url = `/api/projects/${otherProjectId}/guests/${guest.id}`;
    for (const user of [member, viewer]) await fails(user, 'DELETE', url, undefined, 403, 'guests_manage_denied');
    await fails(stranger, 'DELETE', url, undefined, 404, 'project_not_found');
    await fails(
      owner,
      'DELETE',
      `/api/projects/${otherProjectId}/guests/${member.id}`,
      undefined,
      404,
      'project_guest_not_found',
    );
    await ok(owner, 'DELETE', url, undefined, 204);
    await fails(owner, 'DELETE', url, undefined, 404, 'project_guest_not_found');
    await fails(guest, 'POST', `/api/tasks/${hiddenTask.id}/comments`, { body: 'Gone' }, 404, 'task_not_found');
  });

  it("a member removed from the team (or who leaves it) loses their guest rows of the team's projects", async () => {
    const leaver = await createUser(ctx.app, { fullName: 'Lee Leaver' });
    await ctx.database.db.insert(teamMembers).values({ teamId, userId: leaver.id, role: 'guest', status: 'active' });
    await ok(owner, 'POST', guestsUrl(), { userId: leaver.id }, 201);
    const rows = () =>
      ctx.database.db
        .select()
        .from(projectGuests)
        .where(and(eq(projectGuests.userId, leaver.id), eq(projectGuests.projectId, projectId)));
    expect(await rows()).toHaveLength(1);
    const team = await ok<TeamDto>(owner, 'GET', `/api/teams/${teamId}`);
    const memberId = team.members.find((m) => m.userId === leaver.id)!.id;
    await ok(owner, 'DELETE', `/api/teams/${teamId}/members/${memberId}`, undefined, 204);
    expect(await rows()).toHaveLength(0);
    // Leaving does the same.
    await ctx.database.db.insert(teamMembers).values({ teamId, userId: leaver.id, role: 'guest', status: 'active' });
    await ok(owner, 'POST', guestsUrl(), { userId: leaver.id }, 201);
    expect(await rows()).toHaveLength(1);
    await ok(leaver, 'POST', `/api/teams/${teamId}/leave`, {}, 204);
    expect(await rows()).toHaveLength(0);
  });
});

describe('the note socket', () => {
  let baseUrl: string;
  const clients: NoteClient[] = [];
  beforeAll(async () => {
    baseUrl = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => {
    for (const c of clients) c.destroy();
  });
  const connect = async (user: TestUser) => {
    const client = noteClient(baseUrl, note.id, await ticketFor(ctx.app, user, note.id));
    clients.push(client);
    await client.synced;
    return client;
  };

  it("a viewer reads the note live; what their socket sends is dropped, a member's is kept", async () => {
    const writer = await connect(member);
    const reader = await connect(viewer);
    writer.type('Hello');
    await until(() => reader.text() === 'Hello', 5000, "the member's text at the viewer");
    reader.type(' and more');
    writer.type(', team');
    await until(() => reader.text().includes(', team'), 5000, 'the second edit at the viewer');
    // A newcomer gets the server's document: the member's edits, not the viewer's.
    const fresh = await connect(owner);
    await until(() => fresh.text().includes(', team'), 5000, 'the document at a newcomer');
    expect(fresh.text()).not.toContain('and more');
    expect(writer.text()).not.toContain('and more');
  });
});

describe('strangers', () => {
  it('gets 404 from the new routes', async () => {
    await fails(stranger, 'GET', `/api/projects/${projectId}/guests`, undefined, 404);
    await fails(stranger, 'POST', `/api/projects/${projectId}/guests`, { userId: guest.id }, 404);
    await fails(stranger, 'DELETE', `/api/projects/${projectId}/guests/${guest.id}`, undefined, 404);
    await fails(stranger, 'PATCH', `/api/teams/${teamId}/access`, { requiresSso: true }, 404);
    await fails(stranger, 'POST', `/api/tasks/${memberTask.id}/comments`, { body: 'x' }, 404);
  });
});
