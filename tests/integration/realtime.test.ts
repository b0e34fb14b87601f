import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app';
import { openDatabase, type Database } from '../../src/server/db/client';
import { eq } from 'drizzle-orm';
import { users } from '../../src/server/db/schema';
import { HEARTBEAT_MS } from '../../src/server/modules/realtime/realtime.routes';
import { createUser, insertMember, insertTeam, signIn, type TestUser } from '../factories';
import { setupTestApp } from '../helpers/app';

const ctx = setupTestApp();
let baseUrl = '';

beforeAll(async () => {
  baseUrl = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
});

interface Message {
  event: string;
  data: Record<string, unknown>;
}

/** A minimal SSE reader over fetch, like the browser client's. */
class Stream {
  readonly messages: Message[] = [];
  private waiters: (() => void)[] = [];
  private readonly abort = new AbortController();
  status = 0;
  ended = false;

  static async open(url: string, user: TestUser | null): Promise<Stream> {
    const stream = new Stream();
    const res = await fetch(`${url}/api/events`, {
      headers: user ? { authorization: user.auth.authorization, accept: 'text/event-stream' } : {},
      signal: stream.abort.signal,
    });
    stream.status = res.status;
    if (res.ok && res.body) {
      void stream.pump(res.body);
      await stream.next((m) => m.event === 'ready');
    }
    return stream;
  }

  private async pump(body: ReadableStream<Uint8Array>) {
    const reader = body.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        let cut = buffer.indexOf('\n\n');
        while (cut >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          let event = 'message';
          let data = '';
          for (const line of block.split('\n')) {
            if (line.startsWith('event: ')) event = line.slice(7);
            else if (line.startsWith('data: ')) data += line.slice(6);
          }
          if (data) this.messages.push({ event, data: JSON.parse(data) });
          cut = buffer.indexOf('\n\n');
        }
        for (const w of this.waiters.splice(0)) w();
      }
    } catch {
      // aborted
    }
    this.ended = true;
    for (const w of this.waiters.splice(0)) w();
  }

  /** The first message matching `match`, waiting up to `timeoutMs`; undefined when none came. */
  async next(match: (m: Message) => boolean, timeoutMs = 2000): Promise<Message | undefined> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.messages.find(match);
      if (found || this.ended) return found;
      const left = deadline - Date.now();
      if (left <= 0) return undefined;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  events(type: string) {
    return this.messages.filter((m) => m.event === 'message' && m.data.type === type);
  }

  close() {
    this.abort.abort();
  }
}

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
  app.deps.events.publish({ type: 'notification.created', teamId: crypto.randomUUID(), actorId: user.id, userId: user.id, notificationId });
  const sentinel = await stream.next((m) => m.data.notificationId === notificationId);
  expect(sentinel, 'the sentinel event arrived').toBeDefined();
  return stream.messages.slice(0, stream.messages.indexOf(sentinel!)).filter((m) => m.event === 'message');
}

const call = (app: FastifyInstance, user: TestUser, method: 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown) =>
  app.inject({ method, url, payload: payload as never, headers: user.auth });

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

    expect((await ctx.app.inject({ method: 'POST', url: '/api/auth/logout', headers: user.auth, payload: {} })).statusCode).toBe(204);
    // Ended by the revocation: the heartbeat (HEARTBEAT_MS) would take ten times this wait.
    expect(HEARTBEAT_MS).toBeGreaterThanOrEqual(10 * 2000);
    await first.next(() => false, 2000);
    expect(first.ended).toBe(true);
    // The other session's stream stays open: an event published after the sign-out still reaches it.
    await messagesBeforeSentinel(ctx.app, second, user);
    expect(second.ended).toBe(false);

    const off = await ctx.app.inject({ method: 'PATCH', url: `/api/admin/users/${user.id}`, headers: admin.auth, payload: { isActive: false } });
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
