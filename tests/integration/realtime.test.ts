import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app';
import { openDatabase, type Database } from '../../src/server/db/client';
import { eq } from 'drizzle-orm';
import { users } from '../../src/server/db/schema';
import { DOMAIN_EVENT_TYPES } from '../../src/domain/events';
import { HEARTBEAT_MS } from '../../src/server/modules/realtime/realtime.routes';
import { createUser, insertMember, insertTeam, signIn, uniqueEmail, type TestUser } from '../factories';
import { setupTestApp } from '../helpers/app';
import { type Message, Stream } from '../helpers/sse-stream';

const ctx = setupTestApp();
let baseUrl = '';

beforeAll(async () => {
  baseUrl = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
});

const streams: Stream[] = [];
async function open(url: string, user: TestUser | null) {
  const s = await Stream.open(url, user);
  streams.push(s);
  return s;
}
afterAll(() => {
  for (const s of streams) s.close();
});

/**
 * Proves an absence without sleeping: publishes through `app` a notification event for `user` (only
 * their streams get it, in publish order after everything dispatched before it), waits for it on
 * `stream`, and returns the messages that arrived before it. Call it once the event that must not
 * arrive has been dispatched (another stream received it, or its request has answered).
 */
async function messagesBeforeSentinel(app: FastifyInstance, stream: Stream, user: TestUser): Promise<Message[]> {
  const notificationId = crypto.randomUUID();
  app.deps.events.publish({
    type: 'notification.created',
    teamId: crypto.randomUUID(),
    actorId: user.id,
    userId: user.id,
    notificationId,
  });
  const sentinel = await stream.next((m) => m.data.notificationId === notificationId);
  expect(sentinel, 'the sentinel event arrived').toBeDefined();
  return stream.messages.slice(0, stream.messages.indexOf(sentinel!)).filter((m) => m.event === 'message');
}

const call = (
  app: FastifyInstance,
  user: TestUser,
  method: 'POST' | 'PATCH' | 'PUT' | 'DELETE',
  url: string,
  payload?: unknown,
) => app.inject({ method, url, payload: payload as never, headers: user.auth });

async function scenario() {
  const [alice, bob, stranger] = await Promise.all([
    createUser(ctx.app, { fullName: 'Alice Actor' }),
    createUser(ctx.app, { fullName: 'Bob Board' }),
    createUser(ctx.app, { fullName: 'Sam Stranger' }),
  ]);
  const team = await insertTeam(ctx.database.db, alice, 'Realtime Crew');
  const bobMember = await insertMember(ctx.database.db, team.id, bob, 'member');
  await insertTeam(ctx.database.db, stranger, 'Other Crew');
  const project = await call(ctx.app, alice, 'POST', '/api/projects', { name: 'Board', teamId: team.id });
  expect(project.statusCode, project.body).toBe(201);
  const projectId = (project.json() as { id: string }).id;
  const task = await call(ctx.app, alice, 'POST', '/api/tasks', { title: 'Move me', projectId });
  expect(task.statusCode, task.body).toBe(201);
  return { alice, bob, stranger, team, bobMemberId: bobMember.id, projectId, taskId: (task.json() as { id: string }).id };
}

describe('realtime event stream', () => {
  it('needs a valid bearer token (never a token in the URL)', async () => {
    expect((await open(baseUrl, null)).status).toBe(401);
    const res = await fetch(`${baseUrl}/api/events`, { headers: { authorization: 'Bearer nope' } });
    expect(res.status).toBe(401);
    await res.body?.cancel();
    const viaQuery = await fetch(`${baseUrl}/api/events?access_token=whatever`);
    expect(viaQuery.status).toBe(401);
    await viaQuery.body?.cancel();
  });

  it('answers with an event stream', async () => {
    const user = await createUser(ctx.app);
    const res = await fetch(`${baseUrl}/api/events`, { headers: user.auth });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(res.headers.get('cache-control')).toContain('no-cache');
    await res.body?.cancel();
  });

  // That the event arrives, not how fast: timing belongs to the bench (bench/), not to functional tests.
  it('a teammate receives a task change; a user of another team receives nothing', async () => {
    const s = await scenario();
    const bob = await open(baseUrl, s.bob);
    const stranger = await open(baseUrl, s.stranger);

    const moved = await call(ctx.app, s.alice, 'PATCH', `/api/tasks/${s.taskId}/status`, { status: 'in_progress' });
    expect(moved.statusCode, moved.body).toBe(200);
    const got = await bob.next((m) => m.data.type === 'task.updated' && m.data.taskId === s.taskId);
    expect(got?.data).toMatchObject({ teamId: s.team.id, actorId: s.alice.id, status: 'in_progress', previousStatus: 'todo' });

    expect(await messagesBeforeSentinel(ctx.app, stranger, s.stranger)).toEqual([]);
  });

  it('a sign-out closes the streams of that session at once; a deactivation closes all the streams of the user', async () => {
    const user = await createUser(ctx.app);
    const other = await signIn(ctx.app, user.email, user.password);
    const first = await open(baseUrl, user);
    const second = await open(baseUrl, other);
    const admin = await createUser(ctx.app);
    await ctx.database.db.update(users).set({ role: 'super_admin' }).where(eq(users.id, admin.id));

    expect((await ctx.app.inject({ method: 'POST', url: '/api/auth/logout', headers: user.auth, payload: {} })).statusCode).toBe(
      204,
    );
    // Ended by the revocation: the heartbeat (HEARTBEAT_MS) would take ten times this wait.
    expect(HEARTBEAT_MS).toBeGreaterThanOrEqual(10 * 2000);
    await first.next(() => false, 2000);
    expect(first.ended).toBe(true);
    // The other session's stream stays open: an event published after the sign-out still reaches it.
    await messagesBeforeSentinel(ctx.app, second, user);
    expect(second.ended).toBe(false);

    const off = await ctx.app.inject({
      method: 'PATCH',
      url: `/api/admin/users/${user.id}`,
      headers: admin.auth,
      payload: { isActive: false },
    });
    expect(off.statusCode, off.body).toBe(200);
    await second.next(() => false, 2000);
    expect(second.ended).toBe(true);
  });

  it('a notification reaches only its owner', async () => {
    const s = await scenario();
    const alice = await open(baseUrl, s.alice);
    const bob = await open(baseUrl, s.bob);
    const res = await call(ctx.app, s.alice, 'PATCH', `/api/tasks/${s.taskId}`, { assigneeId: s.bob.id });
    expect(res.statusCode, res.body).toBe(200);
    const n = await bob.next((m) => m.data.type === 'notification.created');
    expect(n?.data).toMatchObject({ userId: s.bob.id });
    // Alice sees the task change but not Bob's notification.
    expect(await alice.next((m) => m.data.type === 'task.updated')).toBeDefined();
    const beforeSentinel = await messagesBeforeSentinel(ctx.app, alice, s.alice);
    expect(beforeSentinel.filter((m) => m.data.type === 'notification.created')).toEqual([]);
  });

  it('an invitation reaches the invitee before they join; a removed member stops receiving', async () => {
    const s = await scenario();
    const stranger = await open(baseUrl, s.stranger);
    const invited = await call(ctx.app, s.alice, 'POST', `/api/teams/${s.team.id}/invitations`, { email: s.stranger.email });
    expect(invited.statusCode, invited.body).toBe(201);
    expect(await stranger.next((m) => m.data.type === 'invitation.created')).toBeDefined();
    expect(await stranger.next((m) => m.data.type === 'notification.created')).toBeDefined();

    const bob = await open(baseUrl, s.bob);
    const alice = await open(baseUrl, s.alice);
    const removed = await call(ctx.app, s.alice, 'DELETE', `/api/teams/${s.team.id}/members/${s.bobMemberId}`);
    expect(removed.statusCode, removed.body).toBe(204);
    expect(await bob.next((m) => m.data.type === 'team.member_removed')).toBeDefined();
    await call(ctx.app, s.alice, 'PATCH', `/api/tasks/${s.taskId}/status`, { status: 'review' });
    // Alice (still a member) receives the change: it has been dispatched to every stream.
    expect(await alice.next((m) => m.data.type === 'task.updated' && m.data.status === 'review')).toBeDefined();
    const toBob = await messagesBeforeSentinel(ctx.app, bob, s.bob);
    expect(toBob.filter((m) => m.data.type === 'task.updated')).toEqual([]);
    // The stranger was never a member: the invitation events only.
    const toStranger = await messagesBeforeSentinel(ctx.app, stranger, s.stranger);
    expect(toStranger.filter((m) => m.data.type === 'task.updated')).toEqual([]);
  });

  it('closing the app ends open streams', async () => {
    const database = ctx.database;
    const other = await buildApp({ config: ctx.config, database });
    const url = await other.listen({ port: 0, host: '127.0.0.1' });
    const user = await createUser(ctx.app);
    const stream = await open(url, user);
    expect(stream.ended).toBe(false);
    await other.close();
    await stream.next(() => false, 2000);
    expect(stream.ended).toBe(true);
  });
});

/** The GETs that show what an event is about (for a notification, also who caused it). */
function matchingGets(data: Record<string, unknown>): string[] {
  const team = `/api/teams/${data.teamId}`;
  switch (String(data.type).split('.')[0]) {
    case 'team':
      return [team];
    case 'invitation':
      return [`${team}/invitations`, '/api/invitations', team];
    case 'project':
      return [`/api/projects/${data.projectId}`, team];
    case 'status':
      return [`/api/projects/${data.projectId}/statuses`, `/api/projects/${data.projectId}`, team];
    case 'task': {
      const task = `/api/tasks/${data.taskId}`;
      return [task, `${task}/comments`, `${task}/checklist`, `${task}/watch`, `/api/projects/${data.projectId}`, team];
    }
    case 'notification':
      return ['/api/notifications', '/api/invitations', team];
    case 'note':
      return [`/api/notes/${data.noteId}`, team];
    case 'field':
      return [`${team}/fields`, team];
    // Issue 39: a time entry's task and its entries (the author among them); a timer is the reader's own.
    case 'time_entry': {
      const task = `/api/tasks/${data.taskId}`;
      return [`${task}/time-entries`, task, `/api/projects/${data.projectId}`, team];
    }
    case 'timer':
      return ['/api/me/timer', '/api/auth/user'];
    default:
      return [];
  }
}

describe('what each event carries', () => {
  it('finding 7: each role receives of an event only what the matching GET shows that role', async () => {
    const roles = ['owner', 'admin', 'member', 'invitee', 'stranger'] as const;
    type Role = (typeof roles)[number];
    const people = Object.fromEntries(
      await Promise.all(roles.map(async (role) => [role, await createUser(ctx.app, { fullName: `The ${role}` })] as const)),
    ) as Record<Role, TestUser>;
    const newcomer = await createUser(ctx.app, { fullName: 'New Comer' });
    const { owner, admin, member, invitee } = people;
    const streamOf = Object.fromEntries(
      await Promise.all(roles.map(async (role) => [role, await open(baseUrl, people[role])] as const)),
    ) as Record<Role, Stream>;

    // What each role reads through the API, URL by URL, before and after every change.
    const ids: { teamId?: string; projectId?: string; taskId?: string; noteId?: string } = {};
    const read = new Map<string, string[]>();
    const snapshot = async () => {
      const urls = ['/api/invitations', '/api/notifications', '/api/me/timer', '/api/auth/user'];
      if (ids.teamId)
        urls.push(`/api/teams/${ids.teamId}`, `/api/teams/${ids.teamId}/invitations`, `/api/teams/${ids.teamId}/fields`);
      if (ids.projectId) urls.push(`/api/projects/${ids.projectId}`, `/api/projects/${ids.projectId}/statuses`);
      if (ids.taskId) {
        const task = `/api/tasks/${ids.taskId}`;
        urls.push(task, `${task}/comments`, `${task}/checklist`, `${task}/watch`, `${task}/time-entries`);
      }
      if (ids.noteId) urls.push(`/api/notes/${ids.noteId}`);
      const reads = roles.flatMap((role) => urls.map((url) => ({ key: `${role} ${url}`, headers: people[role].auth, url })));
      const answers = await Promise.all(reads.map(({ url, headers }) => ctx.app.inject({ url, headers })));
      answers.forEach((res, i) => {
        const { key } = reads[i]!;
        if (res.statusCode === 200) read.set(key, [...(read.get(key) ?? []), res.body]);
      });
    };
    // Streams get an event when it is delivered, from who may see it then: each change is let
    // through every stream (a sentinel reaches the owner's after it) before the next one.
    const sentinels = new Set<unknown>();
    const settle = async () => {
      const notificationId = crypto.randomUUID();
      sentinels.add(notificationId);
      ctx.app.deps.events.publish({
        type: 'notification.created',
        teamId: crypto.randomUUID(),
        actorId: owner.id,
        userId: owner.id,
        notificationId,
      });
      expect(await streamOf.owner.next((m) => m.data.notificationId === notificationId)).toBeDefined();
    };
    /** Makes a change (keeping the id of what it created as `created`), lets its events through, then reads again. */
    const act = async (
      user: TestUser,
      method: 'POST' | 'PATCH' | 'PUT' | 'DELETE',
      url: string,
      payload?: unknown,
      created?: keyof typeof ids,
    ) => {
      const res = await call(ctx.app, user, method, url, payload ?? (method === 'DELETE' ? undefined : {}));
      expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
      const id = res.body ? (res.json() as { id: string }).id : '';
      if (created) ids[created] = id;
      await settle();
      await snapshot();
      return id;
    };
    const teamId = await act(owner, 'POST', '/api/teams', { name: 'Readers' }, 'teamId');
    const team = `/api/teams/${teamId}`;
    await insertMember(ctx.database.db, teamId, admin, 'admin');
    await insertMember(ctx.database.db, teamId, member, 'member');
    await act(owner, 'PATCH', team, { name: 'Readers Renamed' });
    // The invitee declines one invitation and sees another cancelled; a newcomer accepts a third.
    const declined = await act(admin, 'POST', `${team}/invitations`, { email: invitee.email });
    await act(invitee, 'POST', `/api/invitations/${declined}/respond`, { accept: false });
    const cancelled = await act(admin, 'POST', `${team}/invitations`, { email: invitee.email });
    await act(owner, 'DELETE', `/api/invitations/${cancelled}`);
    await act(owner, 'POST', `${team}/invitations`, { email: uniqueEmail('no-account') });
    const accepted = await act(owner, 'POST', `${team}/invitations`, { email: newcomer.email });
    await act(newcomer, 'POST', `/api/invitations/${accepted}/respond`, { accept: true });
    const teamNow = (await ctx.app.inject({ url: team, headers: owner.auth })).json() as {
      members: { id: string; userId: string }[];
    };
    const newcomerMemberId = teamNow.members.find((m) => m.userId === newcomer.id)!.id;
    await act(owner, 'PATCH', `${team}/members/${newcomerMemberId}`, { role: 'admin' });
    await act(owner, 'DELETE', `${team}/members/${newcomerMemberId}`);
    const projectId = await act(member, 'POST', '/api/projects', { name: 'Seen', teamId }, 'projectId');
    await act(admin, 'PATCH', `/api/projects/${projectId}`, { name: 'Seen Renamed' });
    // Its workflow (issue 36): a status added, renamed and taken out.
    const statusId = await act(admin, 'POST', `/api/projects/${projectId}/statuses`, {
      name: 'QA',
      category: 'started',
      color: '#aabbcc',
    });
    await act(admin, 'PATCH', `/api/statuses/${statusId}`, { name: 'Quality' });
    // A new order (the workflow reversed): one status.updated naming every status that moved.
    const workflow = (await ctx.app.inject({ url: `/api/projects/${projectId}/statuses`, headers: admin.auth })).json() as {
      statuses: { id: string }[];
    };
    await act(admin, 'PUT', `/api/projects/${projectId}/statuses/order`, {
      ids: workflow.statuses.map((s) => s.id).reverse(),
    });
    await act(admin, 'DELETE', `/api/statuses/${statusId}`);
    // A custom field (issue 38): added, renamed and deleted by the admin; every member is told.
    const fieldId = await act(admin, 'POST', `${team}/fields`, { name: 'Severity', type: 'text' });
    await act(admin, 'PATCH', `/api/fields/${fieldId}`, { name: 'Risk' });
    await act(admin, 'DELETE', `/api/fields/${fieldId}`);
    const taskId = await act(member, 'POST', '/api/tasks', { title: 'Watched', projectId, assigneeId: admin.id }, 'taskId');
    // The task page: a comment mentioning the admin, a checklist item, a watch.
    await act(member, 'POST', `/api/tasks/${taskId}/comments`, { body: `Over to you <@${admin.id}>` });
    await act(owner, 'POST', `/api/tasks/${taskId}/checklist`, { title: 'First step' });
    await act(owner, 'PUT', `/api/tasks/${taskId}/watch`, { watching: true });
    await act(admin, 'PATCH', `/api/tasks/${taskId}`, { assigneeId: member.id, status: 'completed' });
    // Time (issue 39): the member logs an entry, the admin edits it; the member's timer starts and stops (only the
    // member's streams hear of it).
    const entryId = await act(member, 'POST', `/api/tasks/${taskId}/time-entries`, { date: '2026-11-02', minutes: 30 });
    await act(admin, 'PATCH', `/api/time-entries/${entryId}`, { minutes: 45 });
    await act(member, 'POST', '/api/me/timer', { taskId });
    await act(member, 'DELETE', '/api/me/timer');
    // A note (issue 25): created by a member, renamed by the admin, deleted by the owner.
    const noteId = await act(member, 'POST', '/api/notes', { teamId, title: 'Minutes' }, 'noteId');
    await act(admin, 'PATCH', `/api/notes/${noteId}`, { title: 'Minutes, renamed' });
    await act(owner, 'DELETE', `/api/notes/${noteId}`);
    await act(owner, 'DELETE', `/api/tasks/${taskId}`);
    await act(owner, 'DELETE', `/api/projects/${projectId}`);
    await act(owner, 'DELETE', team);

    // Everything dispatched (each role's notifications too, written after their change), then compared.
    const received = {} as Record<Role, Message[]>;
    for (const role of roles) {
      const { total } = (await ctx.app.inject({ url: '/api/notifications', headers: people[role].auth })).json() as {
        total: number;
      };
      const stream = streamOf[role];
      if (total > 0) await stream.next(() => stream.events('notification.created').length >= total);
      received[role] = (await messagesBeforeSentinel(ctx.app, stream, people[role])).filter(
        (m) => !sentinels.has(m.data.notificationId),
      );
    }
    const unreadable: string[] = [];
    for (const role of roles) {
      for (const { data } of received[role]) {
        const shown = matchingGets(data).flatMap((url) => read.get(`${role} ${url}`) ?? []);
        for (const [field, value] of Object.entries(data)) {
          // `part` names which list of the task changed (comments, checklist…), not a value of it.
          if (field === 'type' || field === 'part' || value === null) continue;
          // A list (mentioned ids) is shown when each of its items is.
          const items = Array.isArray(value) ? value : [value];
          if (!items.every((item) => shown.some((body) => body.includes(JSON.stringify(item))))) {
            unreadable.push(
              `${role} got ${data.type} ${field}=${JSON.stringify(value)}, not shown by ${matchingGets(data).join(' ')}`,
            );
          }
        }
      }
    }
    expect(unreadable).toEqual([]);

    const types = (role: Role, prefix = '') => received[role].map((m) => String(m.data.type)).filter((t) => t.startsWith(prefix));
    // The invitation events (with their emails) reach the owner, the admins and the invitee only.
    const invitationTypes = ['invitation.created', 'invitation.declined', 'invitation.cancelled', 'invitation.accepted'];
    expect(new Set(types('owner', 'invitation.'))).toEqual(new Set(invitationTypes));
    expect(new Set(types('admin', 'invitation.'))).toEqual(new Set(invitationTypes));
    expect(types('invitee')).toEqual(
      expect.arrayContaining(['invitation.created', 'invitation.declined', 'invitation.created', 'invitation.cancelled']),
    );
    expect(types('invitee', 'invitation.')).toHaveLength(4);
    expect(types('member', 'invitation.')).toEqual([]);
    expect(types('member', 'task.')).toEqual([
      'task.created',
      'task.comment_added',
      'task.detail_changed',
      'task.detail_changed',
      'task.updated',
      'task.deleted',
    ]);
    // The workflow's changes reach every member: the reorder as one status.updated naming the statuses that moved.
    for (const role of ['owner', 'member'] as const) {
      expect(types(role, 'status.')).toEqual(['status.created', 'status.updated', 'status.updated', 'status.deleted']);
      const reordered = received[role].filter((m) => m.data.type === 'status.updated')[1]!;
      expect(reordered.data.statusIds).toEqual([...workflow.statuses.map((s) => s.id)].reverse().filter((_id, i) => i !== 2));
    }
    for (const role of ['owner', 'admin', 'member'] as const) {
      expect(types(role, 'field.')).toEqual(['field.created', 'field.updated', 'field.deleted']);
      expect(types(role, 'time_entry.')).toEqual(['time_entry.changed', 'time_entry.changed']);
    }
    expect(types('member', 'timer.')).toEqual(['timer.changed', 'timer.changed']);
    expect([...types('owner', 'timer.'), ...types('admin', 'timer.'), ...types('invitee', 'timer.')]).toEqual([]);
    expect(received.stranger).toEqual([]);
    // Every event type the stream forwards was compared.
    const seen = new Set(roles.flatMap((role) => types(role)));
    expect(DOMAIN_EVENT_TYPES.filter((t) => t !== 'session.revoked' && !seen.has(t))).toEqual([]);
  }, 120_000);
});

describe('two app instances on one PostgreSQL database', () => {
  const url = process.env.DATABASE_URL;
  let second: { app: FastifyInstance; database: Database; url: string } | undefined;

  beforeAll(async () => {
    if (!url) return;
    const database = await openDatabase({ databaseUrl: ctx.databaseUrl });
    const app = await buildApp({ config: ctx.config, database });
    second = { app, database, url: await app.listen({ port: 0, host: '127.0.0.1' }) };
  });
  afterAll(async () => {
    await second?.app.close();
    await second?.database.close();
  });

  it.skipIf(!url)(
    'a client streaming from instance B receives a change made through instance A; another team receives nothing (needs DATABASE_URL)',
    async () => {
      const s = await scenario();
      const b = second!;
      const bob = await open(b.url, s.bob);
      const stranger = await open(b.url, s.stranger);
      const moved = await call(ctx.app, s.alice, 'PATCH', `/api/tasks/${s.taskId}/status`, { status: 'completed' });
      expect(moved.statusCode, moved.body).toBe(200);
      const got = await bob.next((m) => m.data.type === 'task.updated' && m.data.taskId === s.taskId);
      expect(got, 'event from instance A reached instance B').toBeDefined();
      expect(got?.data).toMatchObject({ status: 'completed', actorId: s.alice.id });
      // The sentinel too goes out through instance A and NOTIFY.
      expect(await messagesBeforeSentinel(ctx.app, stranger, s.stranger)).toEqual([]);
    },
  );

  it.skipIf(!url)('the LISTEN connection comes back after the database drops it (needs DATABASE_URL)', async () => {
    const s = await scenario();
    const b = second!;
    const bob = await open(b.url, s.bob);
    await ctx.database.pool!.query(
      `select pg_terminate_backend(pid) from pg_stat_activity
       where datname = current_database() and query ilike 'listen %' and pid <> pg_backend_pid()`,
    );
    // Clients are told to refresh everything, since events may have been missed meanwhile.
    expect(await bob.next((m) => m.event === 'resync', 5000)).toBeDefined();
    await call(ctx.app, s.alice, 'PATCH', `/api/tasks/${s.taskId}/status`, { status: 'review' });
    expect(await bob.next((m) => m.data.type === 'task.updated' && m.data.status === 'review')).toBeDefined();
  });
});
