import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NotificationDto, NotificationListDto } from '../../src/domain/schemas/notification';
import type { TaskBoardDto, TaskDto } from '../../src/domain/schemas/task';
import type { CommentDto, CommentListDto, MentionCandidatesDto, WatchStateDto } from '../../src/domain/schemas/task-detail';
import { buildApp } from '../../src/server/app';
import type { Database } from '../../src/server/db/client';
import { mailOutbox, taskComments, taskWatchers, teamMembers, users } from '../../src/server/db/schema';
import type { DomainEvent } from '../../src/server/lib/events';
import { upsertMany } from '../../src/server/modules/notifications/preferences.repo';
import { listWatcherIds } from '../../src/server/modules/task-comments/task-comments.repo';
import { createUser, insertMember, insertTeam, type TestUser } from '../factories';
import { apiRequests, type Method } from '../helpers/api';
import { openTestDatabase, testConfig } from '../helpers/app';
import { type ReceivedMail, startSmtpServer, type TestSmtpServer } from '../helpers/smtp';

/**
 * Comments with @mentions on a task, its watchers, and what they cause: notifications (in-app, written after commit
 * by the listener) and mails (queued in the comment's transaction, delivered to a real SMTP server on 127.0.0.1).
 */

const PUBLIC_URL = 'https://crew.example';
let smtp: TestSmtpServer;
let app: FastifyInstance;
let database: Database;
let drop: () => Promise<void>;
const db = () => database.db;

beforeAll(async () => {
  smtp = await startSmtpServer();
  ({ database, drop } = await openTestDatabase());
  app = await buildApp({
    config: testConfig({
      publicUrl: PUBLIC_URL,
      mail: { smtpUrl: smtp.url, from: 'Crewboard <crew@example.test>', pollIntervalMs: 50, digestIntervalMs: 3_600_000 },
    }),
    database,
  });
  await app.ready();
}, 60_000);

afterAll(async () => {
  await app?.close();
  await drop?.();
  await smtp?.stop();
});

const { call, ok } = apiRequests(() => app);

const mention = (u: { id: string }) => `<@${u.id}>`;

async function scenario() {
  const tag = crypto.randomUUID().slice(0, 6);
  const [owner, admin, member, other, stranger] = await Promise.all([
    createUser(app, { fullName: 'Olive Owner' }),
    createUser(app, { fullName: 'Adam Admin' }),
    createUser(app, { fullName: 'Mia Member' }),
    createUser(app, { fullName: 'Max Member' }),
    createUser(app, { fullName: 'Sam Stranger' }),
  ]);
  const team = await insertTeam(db(), owner, `Crew ${tag}`);
  await insertMember(db(), team.id, admin, 'admin');
  await insertMember(db(), team.id, member, 'member');
  await insertMember(db(), team.id, other, 'member');
  // The stranger runs a team of their own, never ours.
  await insertTeam(db(), stranger, `Elsewhere ${tag}`);
  const project = await ok<{ id: string }>(owner, 'POST', '/api/projects', { name: 'Launch', teamId: team.id }, 201);
  const task = await ok<TaskDto>(owner, 'POST', '/api/tasks', { title: `Press release ${tag}`, projectId: project.id }, 201);
  // A second task, for sentinels that must not change the first one's watchers.
  const aside = await ok<TaskDto>(owner, 'POST', '/api/tasks', { title: `Aside ${tag}`, projectId: project.id }, 201);
  return { owner, admin, member, other, stranger, team, projectId: project.id, task, aside };
}
type Scenario = Awaited<ReturnType<typeof scenario>>;

const comment = (s: Scenario, user: TestUser, body: string, taskId = s.task.id) =>
  ok<CommentDto>(user, 'POST', `/api/tasks/${taskId}/comments`, { body }, 201);

async function notificationsOf(user: TestUser): Promise<NotificationDto[]> {
  return (await ok<NotificationListDto>(user, 'GET', '/api/notifications?limit=100')).notifications;
}

/** Notifications are written after commit, by a listener: poll until `ready` holds (or give up and return). */
async function waitForNotifications(user: TestUser, ready: (l: NotificationDto[]) => boolean, timeoutMs = 10_000) {
  const start = Date.now();
  for (;;) {
    const l = await notificationsOf(user);
    if (ready(l) || Date.now() - start > timeoutMs) return l;
    await new Promise((r) => setTimeout(r, 25));
  }
}

/**
 * "Nothing (more) arrived" proved instead of waited for: a comment on the other task by the admin mentions `user`,
 * which takes the same listener path as the events under test; once its notification is there, every earlier event
 * has been handled. Returns the user's notifications without the sentinels.
 */
async function settledNotificationsOf(s: Scenario, user: TestUser): Promise<NotificationDto[]> {
  const by = user.id === s.admin.id ? s.owner : s.admin;
  const sentinel = await comment(s, by, `sentinel ${mention(user)}`, s.aside.id);
  const l = await waitForNotifications(user, (l) => l.some((n) => n.data.commentId === sentinel.id));
  expect(
    l.some((n) => n.data.commentId === sentinel.id),
    'the sentinel notification arrived',
  ).toBe(true);
  return l.filter((n) => n.data.taskId !== s.aside.id);
}

const watchState = (s: Scenario, user: TestUser) => ok<WatchStateDto>(user, 'GET', `/api/tasks/${s.task.id}/watch`);

describe('who may call the comment and watch routes', () => {
  it('anonymous 401, a stranger (and a member of another team) 404, for every route', async () => {
    const s = await scenario();
    const c = await comment(s, s.member, 'hello');
    const routes: [Method, string, unknown?][] = [
      ['GET', `/api/tasks/${s.task.id}/comments`],
      ['POST', `/api/tasks/${s.task.id}/comments`, { body: 'hi' }],
      ['PATCH', `/api/tasks/${s.task.id}/comments/${c.id}`, { body: 'hi' }],
      ['DELETE', `/api/tasks/${s.task.id}/comments/${c.id}`],
      ['GET', `/api/tasks/${s.task.id}/mentionable`],
      ['GET', `/api/tasks/${s.task.id}/watch`],
      ['PUT', `/api/tasks/${s.task.id}/watch`, { watching: true }],
    ];
    for (const [method, url, payload] of routes) {
      expect((await call(null, method, url, payload)).statusCode, `${method} ${url} anonymous`).toBe(401);
      const res = await call(s.stranger, method, url, payload);
      expect(res.statusCode, `${method} ${url} stranger`).toBe(404);
      expect(res.json()).toMatchObject({ error: { code: 'not_found' } });
    }
    // A task that does not exist, and a malformed id.
    expect((await call(s.member, 'GET', `/api/tasks/${crypto.randomUUID()}/comments`)).statusCode).toBe(404);
    expect((await call(s.member, 'GET', '/api/tasks/not-a-uuid/comments')).statusCode).toBe(400);
    // Nothing the stranger tried was written.
    const list = await ok<CommentListDto>(s.member, 'GET', `/api/tasks/${s.task.id}/comments`);
    expect(list.comments.map((x) => x.body)).toEqual(['hello']);
    expect((await watchState(s, s.owner)).watchers.map((w) => w.id)).not.toContain(s.stranger.id);
  });
});

describe('comments', () => {
  it('are created, listed oldest first, edited by their author and deleted; the card counts them', async () => {
    const s = await scenario();
    const first = await comment(s, s.member, '  **First**, with `code`  ');
    expect(first).toMatchObject({
      taskId: s.task.id,
      author: { id: s.member.id, fullName: 'Mia Member', avatar: null },
      body: '**First**, with `code`',
      mentions: [],
      editedAt: null,
    });
    const second = await comment(s, s.owner, 'Second');
    let list = await ok<CommentListDto>(s.admin, 'GET', `/api/tasks/${s.task.id}/comments`);
    expect(list.comments.map((c) => c.id)).toEqual([first.id, second.id]);

    // The counts on the task and on the board.
    expect((await ok<TaskDto>(s.member, 'GET', `/api/tasks/${s.task.id}`)).commentCount).toBe(2);
    const board = await ok<TaskBoardDto>(s.member, 'GET', `/api/tasks/board?projectId=${s.projectId}`);
    expect(board.columns.todo!.find((t) => t.id === s.task.id)?.commentCount).toBe(2);
    expect(board.columns.todo!.find((t) => t.id === s.aside.id)?.commentCount).toBe(0);

    const edited = await ok<CommentDto>(s.member, 'PATCH', `/api/tasks/${s.task.id}/comments/${first.id}`, {
      body: 'First, fixed',
    });
    expect(edited).toMatchObject({ id: first.id, body: 'First, fixed', createdAt: first.createdAt });
    expect(edited.editedAt).not.toBeNull();
    list = await ok<CommentListDto>(s.member, 'GET', `/api/tasks/${s.task.id}/comments`);
    expect(list.comments[0]).toMatchObject({ body: 'First, fixed', editedAt: edited.editedAt });

    expect((await call(s.member, 'DELETE', `/api/tasks/${s.task.id}/comments/${first.id}`)).statusCode).toBe(204);
    list = await ok<CommentListDto>(s.member, 'GET', `/api/tasks/${s.task.id}/comments`);
    expect(list.comments.map((c) => c.id)).toEqual([second.id]);
    expect((await ok<TaskDto>(s.member, 'GET', `/api/tasks/${s.task.id}`)).commentCount).toBe(1);
    // Gone: editing or deleting it again is 404.
    const again = await call(s.member, 'DELETE', `/api/tasks/${s.task.id}/comments/${first.id}`);
    expect(again.statusCode).toBe(404);
    expect(again.json()).toMatchObject({ error: { code: 'not_found', message: 'Comment not found' } });
  });

  it('refuses empty, too long and unknown-field bodies with 400, and writes nothing', async () => {
    const s = await scenario();
    for (const payload of [
      { body: '   ' },
      { body: 'x'.repeat(10_001) },
      { body: 'ok', authorId: s.owner.id },
      {},
      { body: 5 },
    ]) {
      const res = await call(s.member, 'POST', `/api/tasks/${s.task.id}/comments`, payload);
      expect(res.statusCode, JSON.stringify(payload).slice(0, 60)).toBe(400);
    }
    expect((await ok<CommentListDto>(s.member, 'GET', `/api/tasks/${s.task.id}/comments`)).comments).toEqual([]);
  });

  it('only the author edits; the author or a team owner/admin deletes (403 for other members)', async () => {
    const s = await scenario();
    const mine = await comment(s, s.member, 'by Mia');
    const url = `/api/tasks/${s.task.id}/comments/${mine.id}`;
    for (const u of [s.other, s.admin, s.owner]) {
      const res = await call(u, 'PATCH', url, { body: 'hijacked' });
      expect(res.statusCode, u.fullName).toBe(403);
      expect(res.json()).toMatchObject({ error: { code: 'permission_denied', message: 'Only its author can edit a comment' } });
    }
    const denied = await call(s.other, 'DELETE', url);
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toMatchObject({ error: { code: 'permission_denied' } });
    expect((await ok<CommentListDto>(s.member, 'GET', `/api/tasks/${s.task.id}/comments`)).comments[0]!.body).toBe('by Mia');

    // The admin moderates; so does the owner.
    expect((await call(s.admin, 'DELETE', url)).statusCode).toBe(204);
    const another = await comment(s, s.member, 'again');
    expect((await call(s.owner, 'DELETE', `/api/tasks/${s.task.id}/comments/${another.id}`)).statusCode).toBe(204);
    expect((await ok<CommentListDto>(s.member, 'GET', `/api/tasks/${s.task.id}/comments`)).comments).toEqual([]);

    // A comment named under a task it does not belong to is not found there.
    const elsewhere = await comment(s, s.member, 'on the other task', s.aside.id);
    const wrong = await call(s.member, 'PATCH', `/api/tasks/${s.task.id}/comments/${elsewhere.id}`, { body: 'x' });
    expect(wrong.statusCode).toBe(404);
  });

  it('a departed author leaves the comment without an author, and it cannot be edited', async () => {
    const s = await scenario();
    const c = await comment(s, s.other, 'written by Max');
    await db().delete(users).where(eq(users.id, s.other.id));
    const list = await ok<CommentListDto>(s.member, 'GET', `/api/tasks/${s.task.id}/comments`);
    expect(list.comments[0]).toMatchObject({ id: c.id, author: null, body: 'written by Max' });
    expect((await call(s.member, 'PATCH', `/api/tasks/${s.task.id}/comments/${c.id}`, { body: 'x' })).statusCode).toBe(403);
    expect((await call(s.admin, 'DELETE', `/api/tasks/${s.task.id}/comments/${c.id}`)).statusCode).toBe(204);
  });
});

describe('@mentions', () => {
  it('lists the team’s active members as mentionable', async () => {
    const s = await scenario();
    const { people } = await ok<MentionCandidatesDto>(s.other, 'GET', `/api/tasks/${s.task.id}/mentionable`);
    expect(people.map((p) => p.fullName)).toEqual(['Adam Admin', 'Max Member', 'Mia Member', 'Olive Owner']);
    expect(people.find((p) => p.id === s.member.id)).toEqual({ id: s.member.id, fullName: 'Mia Member', avatar: null });
  });

  it('refuses a mention of someone outside the team (400 on body) and stores nothing: no comment, watcher or mail', async () => {
    const s = await scenario();
    for (const outsider of [s.stranger.id, crypto.randomUUID()]) {
      const res = await call(s.member, 'POST', `/api/tasks/${s.task.id}/comments`, {
        body: `Hey ${mention(s.admin)} and <@${outsider}>`,
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({
        error: { code: 'validation_failed', fields: { body: "Only members of the task's team can be mentioned" } },
      });
    }
    expect((await ok<CommentListDto>(s.member, 'GET', `/api/tasks/${s.task.id}/comments`)).comments).toEqual([]);
    expect((await ok<TaskDto>(s.member, 'GET', `/api/tasks/${s.task.id}`)).commentCount).toBe(0);
    expect(await db().select().from(taskWatchers).where(eq(taskWatchers.taskId, s.task.id))).toEqual([]);
    expect(await db().select().from(mailOutbox).where(eq(mailOutbox.toEmail, s.admin.email))).toEqual([]);
    expect(await db().select().from(mailOutbox).where(eq(mailOutbox.toEmail, s.stranger.email))).toEqual([]);

    // An edit that adds an outsider is refused too, and the body stays.
    const c = await comment(s, s.member, 'plain');
    const res = await call(s.member, 'PATCH', `/api/tasks/${s.task.id}/comments/${c.id}`, { body: `now ${mention(s.stranger)}` });
    expect(res.statusCode).toBe(400);
    expect((await ok<CommentListDto>(s.member, 'GET', `/api/tasks/${s.task.id}/comments`)).comments[0]!.body).toBe('plain');
    // The stranger was told nothing.
    expect(await notificationsOf(s.stranger)).toEqual([]);
  });

  it('stores mentions by id, shows current names, and notifies the mentioned person with the exact text', async () => {
    const s = await scenario();
    const c = await comment(
      s,
      s.owner,
      `Can you check this, ${mention(s.member)}? Also ${mention(s.member)} and ${mention(s.owner)}`,
    );
    expect(c.mentions).toEqual([
      { id: s.member.id, fullName: 'Mia Member', avatar: null },
      { id: s.owner.id, fullName: 'Olive Owner', avatar: null },
    ]);
    const [stored] = await db().select().from(taskComments).where(eq(taskComments.id, c.id));
    expect(stored!.mentions).toEqual([s.member.id, s.owner.id]);

    const l = await waitForNotifications(s.member, (l) => l.some((n) => n.type === 'mentioned'));
    const mentioned = l.filter((n) => n.type === 'mentioned');
    expect(mentioned).toHaveLength(1);
    expect(mentioned[0]).toMatchObject({
      userId: s.member.id,
      title: 'You were mentioned',
      message: `Olive Owner mentioned you in "${s.task.title}"`,
      isRead: false,
      data: { taskId: s.task.id, projectId: s.projectId, teamId: s.team.id, commentId: c.id },
    });
    // Mentioned, so no second 'task_comment' for the same comment; the author (self-mention too) is told nothing.
    expect(l.filter((n) => n.type === 'task_comment')).toEqual([]);
    expect((await settledNotificationsOf(s, s.owner)).filter((n) => n.data.taskId === s.task.id)).toEqual([]);

    // Renamed: the comment shows the current name; the avatar comes from the account.
    await db().update(users).set({ fullName: 'Mia Renamed', avatarUrl: '/avatars/mia.png' }).where(eq(users.id, s.member.id));
    const list = await ok<CommentListDto>(s.admin, 'GET', `/api/tasks/${s.task.id}/comments`);
    expect(list.comments[0]!.mentions[0]).toEqual({ id: s.member.id, fullName: 'Mia Renamed', avatar: '/avatars/mia.png' });
  });

  it('sends the mentioned person a mail through SMTP with a link to the task, unless they turned it off', async () => {
    const s = await scenario();
    const c = await comment(s, s.owner, `Please review the numbers, ${mention(s.member)} — thanks! <script>x</script>`);
    const mail = await smtp.waitFor((m: ReceivedMail) => m.to.includes(s.member.email) && m.subject.includes('mentioned'));
    expect(mail.subject).toBe(`Olive Owner mentioned you in "${s.task.title}"`);
    expect(mail.text).toContain(`${PUBLIC_URL}/tasks/${s.task.id}`);
    expect(mail.text).toContain('Please review the numbers, @Mia Member — thanks!');
    expect(mail.html).toContain(`href="${PUBLIC_URL}/tasks/${s.task.id}"`);
    expect(mail.html).not.toContain('<script>');
    expect(c.id).toBeTruthy();
    // The author never gets a mail about their own comment.
    expect(smtp.received.filter((m) => m.to.includes(s.owner.email))).toEqual([]);

    // Email for mentions turned off: the in-app notification still comes, the mail does not.
    await upsertMany(db(), s.other.id, [{ kind: 'mentioned', inApp: true, email: false }]);
    await comment(s, s.owner, `And ${mention(s.other)}`);
    // Sentinel: a later mention mail to the admin; the worker sends in order, so the earlier one would be there by now.
    await comment(s, s.owner, `and ${mention(s.admin)}`, s.aside.id);
    await smtp.waitFor((m) => m.to.includes(s.admin.email) && m.subject.includes('mentioned'));
    expect(smtp.received.filter((m) => m.to.includes(s.other.email) && m.subject.includes('mentioned'))).toEqual([]);
    const others = await waitForNotifications(s.other, (l) => l.some((n) => n.type === 'mentioned'));
    expect(others.filter((n) => n.type === 'mentioned')).toHaveLength(1);
  });
});

describe('watchers', () => {
  it('the creator and the assignee watch by default; commenters and the mentioned join; anyone may watch or unwatch', async () => {
    const s = await scenario();
    await ok(s.owner, 'PATCH', `/api/tasks/${s.task.id}`, { assigneeId: s.admin.id });
    let state = await watchState(s, s.member);
    expect(state.watching).toBe(false);
    expect(state.watchers.map((w) => w.fullName)).toEqual(['Adam Admin', 'Olive Owner']);

    await comment(s, s.member, `Looping in ${mention(s.other)}`);
    state = await watchState(s, s.member);
    expect(state.watching).toBe(true);
    expect(state.watchers.map((w) => w.fullName)).toEqual(['Adam Admin', 'Max Member', 'Mia Member', 'Olive Owner']);

    // Unwatch (the creator, a default watcher) and watch again.
    state = await ok<WatchStateDto>(s.owner, 'PUT', `/api/tasks/${s.task.id}/watch`, { watching: false });
    expect(state.watching).toBe(false);
    expect(state.watchers.map((w) => w.id)).not.toContain(s.owner.id);
    expect(await listWatcherIds(db(), s.task.id)).not.toContain(s.owner.id);
    state = await ok<WatchStateDto>(s.owner, 'PUT', `/api/tasks/${s.task.id}/watch`, { watching: true });
    expect(state.watching).toBe(true);

    // Mentioned after an explicit unwatch: still unwatched. Commenting: watching again.
    await ok(s.other, 'PUT', `/api/tasks/${s.task.id}/watch`, { watching: false });
    await comment(s, s.member, `Again ${mention(s.other)}`);
    expect((await watchState(s, s.other)).watching).toBe(false);
    await comment(s, s.other, 'I am back');
    expect((await watchState(s, s.other)).watching).toBe(true);

    // Someone who leaves the team stops watching (and so is never notified).
    await db()
      .delete(teamMembers)
      .where(and(eq(teamMembers.teamId, s.team.id), eq(teamMembers.userId, s.other.id)));
    expect(await listWatcherIds(db(), s.task.id)).not.toContain(s.other.id);
    const bad = await call(s.owner, 'PUT', `/api/tasks/${s.task.id}/watch`, { watching: 'yes' });
    expect(bad.statusCode).toBe(400);
  });

  it('watchers are told of comments, never of their own; unwatching stops it', async () => {
    const s = await scenario();
    // The owner created the task (a watcher); Max watches by choice; Mia comments.
    await ok(s.other, 'PUT', `/api/tasks/${s.task.id}/watch`, { watching: true });
    const c = await comment(s, s.member, 'First thoughts');
    const owners = await waitForNotifications(s.owner, (l) => l.some((n) => n.type === 'task_comment'));
    expect(owners.filter((n) => n.type === 'task_comment')).toEqual([
      expect.objectContaining({
        title: 'New comment',
        message: `Mia Member commented on "${s.task.title}"`,
        data: { taskId: s.task.id, projectId: s.projectId, teamId: s.team.id, commentId: c.id },
      }),
    ]);
    // …and a mail (the optional 'task_comment' mail, on by default), with the link to the task.
    const mail = await smtp.waitFor((m) => m.to.includes(s.owner.email) && m.subject.includes('commented on'));
    expect(mail.subject).toBe(`Mia Member commented on "${s.task.title}"`);
    expect(mail.text).toContain(`${PUBLIC_URL}/tasks/${s.task.id}`);
    const max = await waitForNotifications(s.other, (l) => l.some((n) => n.type === 'task_comment'));
    expect(max.filter((n) => n.type === 'task_comment')).toHaveLength(1);
    // Not the author; not the admin, who does not watch.
    expect(await settledNotificationsOf(s, s.member)).toEqual([]);
    expect(await settledNotificationsOf(s, s.admin)).toEqual([]);

    // The owner unwatches; the next comment reaches Max only.
    await ok(s.owner, 'PUT', `/api/tasks/${s.task.id}/watch`, { watching: false });
    const c2 = await comment(s, s.member, 'Second thoughts');
    await waitForNotifications(s.other, (l) => l.some((n) => n.data.commentId === c2.id));
    const ownersAfter = await settledNotificationsOf(s, s.owner);
    expect(ownersAfter.filter((n) => n.data.commentId === c2.id)).toEqual([]);
    expect(ownersAfter.filter((n) => n.type === 'task_comment')).toHaveLength(1);
  });

  it('watchers are told of a status change with its label, except the actor and those told it was completed', async () => {
    const s = await scenario();
    await comment(s, s.member, 'Watching this one');
    await ok(s.owner, 'PATCH', `/api/tasks/${s.task.id}`, { assigneeId: s.admin.id });
    await ok(s.owner, 'PATCH', `/api/tasks/${s.task.id}/status`, { status: 'in_progress' });
    const mia = await waitForNotifications(s.member, (l) => l.some((n) => n.type === 'task_status'));
    expect(mia.filter((n) => n.type === 'task_status')).toEqual([
      expect.objectContaining({
        title: 'Task status changed',
        message: `Olive Owner moved "${s.task.title}" to In Progress`,
        data: { taskId: s.task.id, projectId: s.projectId, teamId: s.team.id },
      }),
    ]);
    const admin = await waitForNotifications(s.admin, (l) => l.some((n) => n.type === 'task_status'));
    expect(admin.filter((n) => n.type === 'task_status')).toHaveLength(1);

    // Completed by Mia: the creator and the assignee get 'task_completed' (not also 'task_status'); Mia nothing.
    await ok(s.member, 'PATCH', `/api/tasks/${s.task.id}/status`, { status: 'completed' });
    const owner = await settledNotificationsOf(s, s.owner);
    expect(owner.map((n) => n.type).sort()).toEqual(['task_comment', 'task_completed']);
    const adminAfter = await settledNotificationsOf(s, s.admin);
    expect(adminAfter.filter((n) => n.type === 'task_completed')).toHaveLength(1);
    expect(adminAfter.filter((n) => n.type === 'task_status')).toHaveLength(1);
    expect((await settledNotificationsOf(s, s.member)).filter((n) => n.type === 'task_status')).toHaveLength(1);

    // A watcher who muted 'task_status' in-app is not told; an edit that keeps the status tells nobody.
    await upsertMany(db(), s.member.id, [{ kind: 'task_status', inApp: false, email: true }]);
    await ok(s.owner, 'PATCH', `/api/tasks/${s.task.id}/status`, { status: 'review' });
    await ok(s.owner, 'PATCH', `/api/tasks/${s.task.id}`, { title: `${s.task.title}!` });
    expect((await settledNotificationsOf(s, s.member)).filter((n) => n.type === 'task_status')).toHaveLength(1);
    const adminLast = await settledNotificationsOf(s, s.admin);
    expect(adminLast.filter((n) => n.type === 'task_status').map((n) => n.message)).toEqual([
      `Olive Owner moved "${s.task.title}" to Review`,
      `Olive Owner moved "${s.task.title}" to In Progress`,
    ]);
  });
});

describe('realtime', () => {
  it('publishes task.comment_added with the mentioned ids, and task.detail_changed for edits, deletes and watching', async () => {
    const s = await scenario();
    const seen: DomainEvent[] = [];
    const unsubscribe = app.deps.events.subscribe((e) => {
      if ('taskId' in e && e.taskId === s.task.id) seen.push(e);
    });
    try {
      const c = await comment(s, s.member, `Hi ${mention(s.admin)}`);
      await ok(s.member, 'PATCH', `/api/tasks/${s.task.id}/comments/${c.id}`, { body: 'Hi all' });
      await ok(s.member, 'PUT', `/api/tasks/${s.task.id}/watch`, { watching: false });
      await ok(s.member, 'DELETE', `/api/tasks/${s.task.id}/comments/${c.id}`, undefined, 204);
      // A refused comment publishes nothing.
      await call(s.member, 'POST', `/api/tasks/${s.task.id}/comments`, { body: mention(s.stranger) });
      const base = { teamId: s.team.id, taskId: s.task.id, projectId: s.projectId, actorId: s.member.id };
      expect(seen).toEqual([
        { type: 'task.comment_added', ...base, title: s.task.title, commentId: c.id, mentionedIds: [s.admin.id] },
        { type: 'task.detail_changed', ...base, part: 'comments' },
        { type: 'task.detail_changed', ...base, part: 'watchers' },
        { type: 'task.detail_changed', ...base, part: 'comments' },
      ]);
    } finally {
      unsubscribe();
    }
  });
});
