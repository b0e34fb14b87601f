import { describe, expect, it } from 'vitest';
import type { NotificationDto, NotificationListDto } from '../../src/domain/schemas/notification';
import { notifications as notificationsTable } from '../../src/server/db/schema';
import { createUser, insertMember, insertTeam, uniqueEmail, type TestUser } from '../factories';
import { apiRequests } from '../helpers/api';
import { setupTestApp } from '../helpers/app';

const ctx = setupTestApp();

const { call } = apiRequests(ctx);

async function list(user: TestUser, query = ''): Promise<NotificationListDto> {
  const res = await call(user, 'GET', `/api/notifications${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as NotificationListDto;
}

/** Notifications are written after commit, by a listener: poll until `ready` holds. */
async function waitFor<T>(read: () => Promise<T>, ready: (value: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const start = Date.now();
  for (;;) {
    const value = await read();
    if (ready(value)) return value;
    if (Date.now() - start > timeoutMs) return value;
    await new Promise((r) => setTimeout(r, 25));
  }
}

const ofType = (l: NotificationListDto, type: NotificationDto['type']) => l.notifications.filter((n) => n.type === type);

type Scenario = Awaited<ReturnType<typeof scenario>>;
const SENTINEL = 'sentinel ';

/**
 * "Nothing arrived" proved instead of waited for: publishes, after the events under test, a task
 * assignment for `user` that takes the same listener path (one member query, one insert), waits
 * for its notification, and returns the user's list without the sentinels. The listener starts
 * each event's queries in publish order, so the events before it have been written by then.
 */
async function listAfterSentinel(s: Scenario, user: TestUser): Promise<NotificationListDto> {
  const title = `${SENTINEL}${crypto.randomUUID()}`;
  ctx.app.deps.events.publish({
    type: 'task.updated',
    teamId: user === s.stranger ? s.otherTeam.id : s.team.id,
    actorId: crypto.randomUUID(),
    taskId: crypto.randomUUID(),
    projectId: s.projectId,
    title,
    creatorId: user.id,
    previousAssigneeId: null,
    assigneeId: user.id,
    previousStatus: 'todo',
    status: 'todo',
    previousCategory: 'unstarted',
    category: 'unstarted',
  });
  const l = await waitFor(
    () => list(user, '?limit=100'),
    (v) => v.notifications.some((n) => n.message.endsWith(`"${title}"`)),
  );
  expect(
    l.notifications.some((n) => n.message.endsWith(`"${title}"`)),
    'the sentinel notification arrived',
  ).toBe(true);
  const sentinels = l.notifications.filter((n) => n.message.includes(`"${SENTINEL}`));
  return {
    notifications: l.notifications.filter((n) => !sentinels.includes(n)),
    total: l.total - sentinels.length,
    unread: l.unread - sentinels.filter((n) => !n.isRead).length,
  };
}

async function scenario() {
  const [owner, admin, member, stranger] = await Promise.all([
    createUser(ctx.app, { fullName: 'Olive Owner' }),
    createUser(ctx.app, { fullName: 'Adam Admin' }),
    createUser(ctx.app, { fullName: 'Mia Member' }),
    createUser(ctx.app, { fullName: 'Sam Stranger' }),
  ]);
  const team = await insertTeam(ctx.database.db, owner, 'Notify Crew');
  await insertMember(ctx.database.db, team.id, admin, 'admin');
  await insertMember(ctx.database.db, team.id, member, 'member');
  // The stranger is in a team of their own, never in ours.
  const otherTeam = await insertTeam(ctx.database.db, stranger, 'Elsewhere');
  const project = await call(owner, 'POST', '/api/projects', { name: 'Launch', teamId: team.id });
  expect(project.statusCode, project.body).toBe(201);
  return { owner, admin, member, stranger, team, otherTeam, projectId: (project.json() as { id: string }).id };
}

async function createTask(user: TestUser, projectId: string, extra: Record<string, unknown> = {}) {
  const res = await call(user, 'POST', '/api/tasks', { title: 'Write the press release', projectId, ...extra });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string };
}

describe('notifications API', () => {
  it('requires a session', async () => {
    expect((await call(null, 'GET', '/api/notifications')).statusCode).toBe(401);
    expect((await call(null, 'POST', '/api/notifications/read-all')).statusCode).toBe(401);
  });

  it('task_assigned goes to the new assignee only, on create and on reassignment', async () => {
    const s = await scenario();
    const task = await createTask(s.owner, s.projectId, { assigneeId: s.member.id });

    const mine = await waitFor(
      () => list(s.member),
      (l) => l.total > 0,
    );
    expect(mine.total).toBe(1);
    expect(mine.unread).toBe(1);
    const n = mine.notifications[0]!;
    expect(n).toMatchObject({
      type: 'task_assigned',
      userId: s.member.id,
      isRead: false,
      title: 'New task assigned',
      message: 'Olive Owner assigned you "Write the press release"',
      data: { taskId: task.id, projectId: s.projectId, teamId: s.team.id },
    });

    // Reassigned to the admin: the admin is told, the previous assignee is not told again.
    const res = await call(s.member, 'PATCH', `/api/tasks/${task.id}`, { assigneeId: s.admin.id });
    expect(res.statusCode, res.body).toBe(200);
    const admins = await waitFor(
      () => list(s.admin),
      (l) => l.total > 0,
    );
    expect(ofType(admins, 'task_assigned')).toHaveLength(1);
    expect(admins.notifications[0]!.message).toBe('Mia Member assigned you "Write the press release"');
    for (const u of [s.member, s.owner, s.stranger]) {
      expect((await listAfterSentinel(s, u)).total).toBe(u === s.member ? 1 : 0);
    }

    // An edit that keeps the assignee notifies nobody.
    await call(s.owner, 'PATCH', `/api/tasks/${task.id}`, { title: 'Write the release' });
    expect((await listAfterSentinel(s, s.admin)).total).toBe(1);
  });

  it('assigning yourself notifies nobody', async () => {
    const s = await scenario();
    const task = await createTask(s.member, s.projectId, { assigneeId: s.member.id });
    await call(s.member, 'PATCH', `/api/tasks/${task.id}`, { assigneeId: null });
    await call(s.member, 'PATCH', `/api/tasks/${task.id}`, { assigneeId: s.member.id });
    for (const u of [s.owner, s.admin, s.member, s.stranger]) expect((await listAfterSentinel(s, u)).total).toBe(0);
  });

  it('task_completed goes to the creator and the assignee, never the actor', async () => {
    const s = await scenario();
    const task = await createTask(s.admin, s.projectId, { assigneeId: s.member.id });
    await waitFor(
      () => list(s.member),
      (l) => l.total > 0,
    );

    // The owner completes it: creator (admin) and assignee (member) are told.
    const moved = await call(s.owner, 'PATCH', `/api/tasks/${task.id}/status`, { status: 'completed' });
    expect(moved.statusCode, moved.body).toBe(200);
    const admin = await waitFor(
      () => list(s.admin),
      (l) => l.total > 0,
    );
    const member = await waitFor(
      () => list(s.member),
      (l) => ofType(l, 'task_completed').length > 0,
    );
    for (const l of [admin, member]) {
      expect(ofType(l, 'task_completed')).toHaveLength(1);
      expect(ofType(l, 'task_completed')[0]).toMatchObject({
        title: 'Task completed',
        message: 'Olive Owner completed "Write the press release"',
        data: { taskId: task.id, projectId: s.projectId, teamId: s.team.id, completedBy: s.owner.id },
      });
    }
    expect((await listAfterSentinel(s, s.owner)).total).toBe(0);
    expect((await listAfterSentinel(s, s.stranger)).total).toBe(0);

    // Completed again (no change of status) or moved within completed: nothing new.
    await call(s.owner, 'PATCH', `/api/tasks/${task.id}/status`, { status: 'completed' });
    // The assignee re-opens and completes it: only the creator hears.
    await call(s.member, 'PATCH', `/api/tasks/${task.id}/status`, { status: 'review' });
    await call(s.member, 'PATCH', `/api/tasks/${task.id}/status`, { status: 'completed' });
    await waitFor(
      () => list(s.admin),
      (l) => ofType(l, 'task_completed').length > 1,
    );
    expect(ofType(await listAfterSentinel(s, s.admin), 'task_completed')).toHaveLength(2);
    expect(ofType(await listAfterSentinel(s, s.member), 'task_completed')).toHaveLength(1);
  });

  it('task_completed follows the category: entering a custom completed status tells, moving between two completed ones does not (issue 36)', async () => {
    const s = await scenario();
    const added = await call(s.owner, 'POST', `/api/projects/${s.projectId}/statuses`, {
      name: 'Shipped',
      category: 'completed',
      color: '#16a34a',
    });
    expect(added.statusCode, added.body).toBe(201);
    const task = await createTask(s.admin, s.projectId);
    // Into Shipped (completed): the creator hears.
    expect((await call(s.owner, 'PATCH', `/api/tasks/${task.id}/status`, { status: 'shipped' })).statusCode).toBe(200);
    await waitFor(
      () => list(s.admin),
      (l) => ofType(l, 'task_completed').length > 0,
    );
    // From Shipped to Completed: still completed, nothing new (a status change to watchers only).
    expect((await call(s.owner, 'PATCH', `/api/tasks/${task.id}/status`, { status: 'completed' })).statusCode).toBe(200);
    const completed = ofType(await listAfterSentinel(s, s.admin), 'task_completed');
    expect(completed).toHaveLength(1);
    expect(completed[0]).toMatchObject({ message: 'Olive Owner completed "Write the press release"', data: { taskId: task.id } });
  });

  it('project_updated goes to every team member except the actor', async () => {
    const s = await scenario();
    const res = await call(s.owner, 'PATCH', `/api/projects/${s.projectId}`, { name: 'Launch v2' });
    expect(res.statusCode, res.body).toBe(200);
    const admin = await waitFor(
      () => list(s.admin),
      (l) => l.total > 0,
    );
    const member = await waitFor(
      () => list(s.member),
      (l) => l.total > 0,
    );
    for (const l of [admin, member]) {
      expect(l.notifications).toHaveLength(1);
      expect(l.notifications[0]).toMatchObject({
        type: 'project_updated',
        title: 'Project updated',
        message: 'Olive Owner updated "Launch v2" (0% complete)',
        data: { projectId: s.projectId, teamId: s.team.id, progress: 0 },
      });
    }
    expect((await listAfterSentinel(s, s.owner)).total).toBe(0);
    expect((await listAfterSentinel(s, s.stranger)).total).toBe(0);
  });

  it('team_invite goes to the invitee, also when their account is created after the invitation', async () => {
    const s = await scenario();
    const invited = await call(s.owner, 'POST', `/api/teams/${s.team.id}/invitations`, { email: s.stranger.email });
    expect(invited.statusCode, invited.body).toBe(201);
    const invitationId = (invited.json() as { id: string }).id;
    const stranger = await waitFor(
      () => list(s.stranger),
      (l) => l.total > 0,
    );
    expect(stranger.notifications).toHaveLength(1);
    expect(stranger.notifications[0]).toMatchObject({
      type: 'team_invite',
      title: 'Team invitation',
      message: 'Olive Owner invited you to join Notify Crew',
      data: { teamId: s.team.id, invitationId },
    });

    // Invited before signing up: the notification is there on the first sign-in.
    const email = uniqueEmail('later');
    expect((await call(s.admin, 'POST', `/api/teams/${s.team.id}/invitations`, { email })).statusCode).toBe(201);
    // The invitation's listener has run (and found no account) before the account exists.
    await listAfterSentinel(s, s.stranger);
    const newcomer = await createUser(ctx.app, { email, fullName: 'Nina Newcomer' });
    const theirs = await list(newcomer);
    expect(theirs.total).toBe(1);
    expect(theirs.notifications[0]).toMatchObject({
      type: 'team_invite',
      message: 'Adam Admin invited you to join Notify Crew',
      data: { teamId: s.team.id },
    });
    for (const u of [s.owner, s.admin, s.member]) expect((await listAfterSentinel(s, u)).total).toBe(0);
  });

  it('never notifies users outside the team, even when an event names them', async () => {
    const s = await scenario();
    const base = { teamId: s.team.id, actorId: s.owner.id, projectId: s.projectId, title: 'Forged', previousStatus: 'todo' };
    const completed = { status: 'completed', previousCategory: 'unstarted', category: 'completed' } as const;
    // Events as the listener sees them: an assignee and a creator who are not members.
    ctx.app.deps.events.publish({
      ...base,
      type: 'task.updated',
      taskId: crypto.randomUUID(),
      creatorId: s.stranger.id,
      previousAssigneeId: null,
      assigneeId: s.stranger.id,
      ...completed,
    });
    // A project event naming a project of another team is ignored.
    const foreign = await call(s.stranger, 'POST', '/api/projects', { name: 'Theirs', teamId: s.otherTeam.id });
    ctx.app.deps.events.publish({
      type: 'project.updated',
      teamId: s.team.id,
      actorId: s.owner.id,
      projectId: (foreign.json() as { id: string }).id,
    });
    for (const u of [s.owner, s.admin, s.member, s.stranger]) expect((await listAfterSentinel(s, u)).total).toBe(0);
  });

  it('lists newest first with paging and counts', async () => {
    const s = await scenario();
    for (let i = 0; i < 3; i++) await createTask(s.owner, s.projectId, { title: `Task ${i}`, assigneeId: s.member.id });
    const all = await waitFor(
      () => list(s.member),
      (l) => l.total >= 3,
    );
    expect(all.total).toBe(3);
    expect(all.unread).toBe(3);
    expect(all.notifications.map((n) => n.message)).toEqual([
      'Olive Owner assigned you "Task 2"',
      'Olive Owner assigned you "Task 1"',
      'Olive Owner assigned you "Task 0"',
    ]);
    const page2 = await list(s.member, '?limit=2&offset=2');
    expect(page2.total).toBe(3);
    expect(page2.notifications.map((n) => n.message)).toEqual(['Olive Owner assigned you "Task 0"']);
    expect((await call(s.member, 'GET', '/api/notifications?limit=0')).statusCode).toBe(400);
    expect((await call(s.member, 'GET', '/api/notifications?offset=-1')).statusCode).toBe(400);
  });

  it('a page always agrees with its counts, also while notifications arrive', async () => {
    const s = await scenario();
    const rows = Array.from({ length: 40 }, (_, i) => ({
      userId: s.member.id,
      type: 'project_updated' as const,
      title: 'Project updated',
      message: `Update ${i}`,
      data: { projectId: s.projectId, teamId: s.team.id, progress: 0 },
    }));
    // Writers insert one at a time while a reader lists: every answer is one snapshot.
    const writer = (async () => {
      for (const row of rows) await ctx.database.db.insert(notificationsTable).values(row);
    })();
    let reads = 0;
    let done = false;
    writer.finally(() => {
      done = true;
    });
    while (!done || reads === 0) {
      const l = await list(s.member, '?limit=100');
      expect(l.notifications).toHaveLength(l.total);
      expect(l.notifications.filter((n) => !n.isRead)).toHaveLength(l.unread);
      reads++;
    }
    await writer;
    // Past the end: no rows, and still the counts.
    const past = await list(s.member, '?limit=10&offset=40');
    expect(past).toMatchObject({ notifications: [], total: 40, unread: 40 });
    expect((await list(s.stranger)).total).toBe(0);
  });

  it('a user reads and marks only their own notifications', async () => {
    const s = await scenario();
    await createTask(s.owner, s.projectId, { title: 'One', assigneeId: s.member.id });
    await createTask(s.owner, s.projectId, { title: 'Two', assigneeId: s.member.id });
    await createTask(s.member, s.projectId, { title: 'Three', assigneeId: s.admin.id });
    const member = await waitFor(
      () => list(s.member),
      (l) => l.total >= 2,
    );
    const admin = await waitFor(
      () => list(s.admin),
      (l) => l.total >= 1,
    );
    const memberFirst = member.notifications[0]!;
    const adminFirst = admin.notifications[0]!;

    // Someone else's notification: 404, and it stays unread.
    expect((await call(s.member, 'PATCH', `/api/notifications/${adminFirst.id}/read`)).statusCode).toBe(404);
    expect((await call(s.stranger, 'PATCH', `/api/notifications/${adminFirst.id}/read`)).statusCode).toBe(404);
    expect((await list(s.admin)).unread).toBe(1);
    expect((await call(s.member, 'PATCH', `/api/notifications/${crypto.randomUUID()}/read`)).statusCode).toBe(404);
    expect((await call(s.member, 'PATCH', '/api/notifications/not-a-uuid/read')).statusCode).toBe(400);

    const read = await call(s.member, 'PATCH', `/api/notifications/${memberFirst.id}/read`);
    expect(read.statusCode).toBe(204);
    const after = await list(s.member);
    expect(after.unread).toBe(1);
    expect(after.notifications.find((n) => n.id === memberFirst.id)?.isRead).toBe(true);

    // Read-all touches only the caller's.
    expect((await call(s.member, 'POST', '/api/notifications/read-all')).statusCode).toBe(204);
    expect((await list(s.member)).unread).toBe(0);
    expect((await list(s.admin)).unread).toBe(1);
    // Others never see them in their list.
    expect((await list(s.stranger)).notifications.some((n) => n.userId !== s.stranger.id)).toBe(false);
    expect((await list(s.admin)).notifications.every((n) => n.userId === s.admin.id)).toBe(true);
  });
});
