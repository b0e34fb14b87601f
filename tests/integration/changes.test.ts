// The one path for every change (issue 34): a change made through the API — by session or by API token — produces
// exactly its audit row, webhook delivery, realtime event, activity entry and mail through the subscribers of
// src/server/subscribers, and a change that rolls back produces none of them.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { userActor } from '../../src/domain/changes';
import { WEBHOOK_EVENT_TYPES } from '../../src/domain/constants';
import type { ApiTokenCreatedDto } from '../../src/domain/schemas/api-token';
import { auditLog, mailOutbox, taskActivity, webhookDeliveries } from '../../src/server/db/schema';
import type { DomainEvent } from '../../src/server/lib/events';
import { createUser, insertMember, insertTeam, signIn, type TestUser } from '../factories';
import { apiRequests } from '../helpers/api';
import { setupTestApp } from '../helpers/app';

const ctx = setupTestApp({ webhooksAllowPrivate: true, webhookPollIntervalMs: 60_000 });
const { ok, call } = apiRequests(ctx);

let owner: TestUser;
let member: TestUser;
let published: DomainEvent[] = [];
let unsubscribe: () => void;

beforeAll(async () => {
  [owner, member] = await Promise.all([
    createUser(ctx.app, { fullName: 'Olive Owner' }),
    createUser(ctx.app, { fullName: 'Mia Member' }),
  ]);
  unsubscribe = ctx.app.deps.events.subscribe((event) => published.push(event));
});
afterAll(() => unsubscribe?.());
beforeEach(() => {
  published = [];
});

/** A team of its own per test, with a hook that takes every event (never delivered: the worker polls once a minute). */
async function newTeam() {
  const team = await insertTeam(ctx.database.db, owner);
  const member_ = await insertMember(ctx.database.db, team.id, member, 'member');
  const hook = await ok<{ id: string }>(
    owner,
    'POST',
    `/api/teams/${team.id}/webhooks`,
    { url: 'http://127.0.0.1:9/never', events: WEBHOOK_EVENT_TYPES },
    201,
  );
  const project = await ok<{ id: string; name: string }>(
    owner,
    'POST',
    '/api/projects',
    { teamId: team.id, name: 'Launch' },
    201,
  );
  return { team, memberId: member_.id, hookId: hook.id, project };
}

/** The event types queued for a hook, sorted (rows of one transaction have no order of their own). */
const deliveries = async (hookId: string) =>
  (await ctx.database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.webhookId, hookId)))
    .map((d) => d.eventType)
    .sort();
const auditRows = (teamId: string) => ctx.database.db.select().from(auditLog).where(eq(auditLog.teamId, teamId));
const activity = (taskId: string) => ctx.database.db.select().from(taskActivity).where(eq(taskActivity.taskId, taskId));
const mailsTo = (email: string) => ctx.database.db.select().from(mailOutbox).where(eq(mailOutbox.toEmail, email));
const eventsOf = (type: string) => published.filter((e) => e.type === type);

/** The session behind a signed-in test user's access token (its `sid` claim). */
const sessionIdOf = async (user: TestUser) => (await ctx.app.deps.tokens.verifyAccess(user.token))!.sid;

/** A personal API token of `user`'s, for 30 days. */
const newToken = (user: TestUser, name: string, scope: 'read' | 'write') =>
  ok<ApiTokenCreatedDto>(user, 'POST', '/api/me/api-tokens', { name, expiresInDays: 30, scope }, 201);

/** A request with `Authorization: Bearer <token>`. */
const withToken = (token: string, method: 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown) =>
  ctx.app.inject({ method, url, payload: payload as never, headers: { authorization: `Bearer ${token}` } });

describe('a change made through the API', () => {
  it('a task edit: one activity entry per changed field, task.moved and task.updated deliveries, one realtime event, the mail', async () => {
    const { hookId, project } = await newTeam();
    const task = await ok<{ id: string; version: number }>(
      owner,
      'POST',
      '/api/tasks',
      { projectId: project.id, title: 'Draft' },
      201,
    );
    expect(await deliveries(hookId)).toEqual(['project.created', 'task.created']);
    expect(eventsOf('task.created')).toHaveLength(1);
    expect(await activity(task.id)).toEqual([]);

    published = [];
    await ok(owner, 'PATCH', `/api/tasks/${task.id}`, { title: 'Final', status: 'review', assigneeId: member.id });

    const rows = await activity(task.id);
    expect(rows.map((r) => r.field).sort()).toEqual(['assignee', 'status', 'title']);
    expect(rows.every((r) => r.actorId === owner.id)).toBe(true);
    expect(await deliveries(hookId)).toEqual(['project.created', 'task.created', 'task.moved', 'task.updated']);
    expect(eventsOf('task.updated')).toHaveLength(1);
    expect(eventsOf('task.updated')[0]).toMatchObject({ previousStatus: 'todo', status: 'review', assigneeId: member.id });
    expect((await mailsTo(member.email)).map((m) => m.kind)).toEqual(['task_assigned']);
  });

  it('removing a member: one audit row, one member.left delivery, one realtime event', async () => {
    const { team, memberId, hookId } = await newTeam();
    await ok(owner, 'DELETE', `/api/teams/${team.id}/members/${memberId}`, undefined, 204);
    const audit = (await auditRows(team.id)).filter((r) => r.action === 'team.member_removed');
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      actorId: owner.id,
      targetId: member.id,
      details: { memberId, role: 'member', left: false },
    });
    expect((await deliveries(hookId)).filter((t) => t === 'member.left')).toHaveLength(1);
    expect(eventsOf('team.member_removed')).toEqual([
      expect.objectContaining({ teamId: team.id, userId: member.id, memberId, actorId: owner.id }),
    ]);
  });

  it('a project moved to another team: project.deleted to the old team, project.created to the new one', async () => {
    const from = await newTeam();
    const to = await newTeam();
    await ok(owner, 'PATCH', `/api/projects/${from.project.id}`, { teamId: to.team.id });
    expect(await deliveries(from.hookId)).toEqual(['project.created', 'project.deleted']);
    expect(await deliveries(to.hookId)).toEqual(['project.created', 'project.created']);
    expect(eventsOf('project.deleted')).toEqual([expect.objectContaining({ teamId: from.team.id, projectId: from.project.id })]);
    expect(eventsOf('project.updated')).toEqual([expect.objectContaining({ teamId: to.team.id, projectId: from.project.id })]);
  });
});

describe("a change to a project's workflow (issue 36)", () => {
  it('a status deleted with its tasks moved: one status.deleted delivery naming where they went, a history row per task, no task deliveries, one realtime event, no audit row', async () => {
    const { team, hookId, project } = await newTeam();
    const list = async () =>
      (await ok<{ statuses: { id: string; key: string }[] }>(owner, 'GET', `/api/projects/${project.id}/statuses`)).statuses;
    const [, , review, completed] = await list();
    const made = [];
    for (const title of ['One', 'Two', 'Three']) {
      made.push(await ok<{ id: string }>(owner, 'POST', '/api/tasks', { projectId: project.id, title, status: 'review' }, 201));
    }
    published = [];
    const before = await deliveries(hookId);
    await ok(owner, 'DELETE', `/api/statuses/${review!.id}`, { moveTo: completed!.id }, 204);

    // One delivery more, the status's: no task.updated or task.moved per moved task.
    expect(await deliveries(hookId)).toEqual([...before, 'status.deleted'].sort());
    const [row] = (await ctx.database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.webhookId, hookId))).filter(
      (d) => d.eventType === 'status.deleted',
    );
    expect(JSON.parse(row!.body).data.status).toMatchObject({
      id: review!.id,
      key: 'review',
      projectId: project.id,
      movedTo: { id: completed!.id, key: 'completed', category: 'completed' },
      movedTaskCount: 3,
    });
    for (const task of made) {
      expect((await activity(task.id)).map((r) => [r.field, r.oldValue, r.newValue, r.actorId])).toEqual([
        ['status', 'review', 'completed', owner.id],
      ]);
    }
    expect(published.map((e) => e.type)).toEqual(['status.deleted']);
    expect((await auditRows(team.id)).filter((r) => r.action.startsWith('status'))).toEqual([]);
  });

  it('a new order: one status.updated delivery per status whose position changed, one realtime event', async () => {
    const { hookId, project } = await newTeam();
    const [todo, inProgress, review, completed] = (
      await ok<{ statuses: { id: string }[] }>(owner, 'GET', `/api/projects/${project.id}/statuses`)
    ).statuses;
    published = [];
    // Review before In Progress: two statuses move, two stay.
    await ok(owner, 'PUT', `/api/projects/${project.id}/statuses/order`, {
      ids: [todo!.id, review!.id, inProgress!.id, completed!.id],
    });
    expect((await deliveries(hookId)).filter((t) => t.startsWith('status.'))).toEqual(['status.updated', 'status.updated']);
    const bodies = (await ctx.database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.webhookId, hookId)))
      .filter((d) => d.eventType === 'status.updated')
      .map((d) => JSON.parse(d.body).data.status as { key: string; position: number });
    expect(bodies.map((b) => [b.key, b.position]).sort()).toEqual([
      ['in_progress', 2],
      ['review', 1],
    ]);
    expect(published).toEqual([
      expect.objectContaining({ type: 'status.updated', projectId: project.id, statusIds: [review!.id, inProgress!.id] }),
    ]);
  });
});

describe('a change made with an API token', () => {
  it('names the token in the audit row, beside its owner', async () => {
    const { team, project, hookId } = await newTeam();
    const created = await newToken(owner, 'Deploy bot', 'write');
    const res = await withToken(created.token, 'DELETE', `/api/projects/${project.id}`);
    expect(res.statusCode, res.body).toBe(204);
    const audit = (await auditRows(team.id)).filter((r) => r.action === 'project.deleted');
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      actorId: owner.id,
      targetId: project.id,
      targetLabel: 'Launch',
      details: { via: 'api_token', apiTokenId: created.id },
    });
    expect((await deliveries(hookId)).filter((t) => t === 'project.deleted')).toHaveLength(1);
    expect(eventsOf('project.deleted')).toHaveLength(1);
  });

  it('a session-made change names no token', async () => {
    const { team, project } = await newTeam();
    await ok(owner, 'DELETE', `/api/projects/${project.id}`, undefined, 204);
    const [row] = (await auditRows(team.id)).filter((r) => r.action === 'project.deleted');
    expect(row!.details).toEqual({});
  });
});

describe('an account-level change', () => {
  const accountRows = (userId: string) => ctx.database.db.select().from(auditLog).where(eq(auditLog.targetId, userId));

  it('a password change: the revoked token and the change audited, the notice mailed, the other session and the token closed', async () => {
    const user = await createUser(ctx.app, { fullName: 'Pat Password' });
    const other = await signIn(ctx.app, user.email, user.password);
    const token = await newToken(user, 'CI', 'read');
    published = [];
    await ok(user, 'POST', '/api/me/password', { currentPassword: user.password, password: 'a whole new phrase 42' }, 204);

    const [changed] = (await accountRows(user.id)).filter((r) => r.action === 'auth.password_changed');
    expect(changed).toMatchObject({
      actorId: user.id,
      actorEmail: user.email,
      targetLabel: user.email,
      details: { otherSessionsSignedOut: 1, apiTokensRevoked: 1, calendarFeedRevoked: false },
    });
    const revoked = (await accountRows(token.id)).filter((r) => r.action === 'api_token.revoked');
    expect(revoked).toHaveLength(1);
    expect(revoked[0]).toMatchObject({ actorId: user.id, details: { reason: 'password_changed' } });
    expect((await mailsTo(user.email)).map((m) => m.kind)).toEqual(['password_changed']);
    expect(
      eventsOf('session.revoked')
        .map((e) => ('sessionId' in e ? e.sessionId : undefined))
        .sort(),
    ).toEqual([await sessionIdOf(other), token.id].sort());
  });

  it('a failed sign-in: one audit row by nobody, with the address tried; no mail, no event', async () => {
    const email = `nobody-${Date.now()}@example.com`;
    published = [];
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/token?grant_type=password',
      payload: { email, password: 'not the password' },
    });
    expect(res.statusCode).toBe(400);
    const rows = (await ctx.database.db.select().from(auditLog).where(eq(auditLog.targetLabel, email))).map((r) => ({
      action: r.action,
      actorId: r.actorId,
      actorEmail: r.actorEmail,
      targetId: r.targetId,
      details: r.details,
    }));
    expect(rows).toEqual([
      {
        action: 'auth.sign_in_failed',
        actorId: null,
        actorEmail: email,
        targetId: null,
        details: { method: 'password', reason: 'invalid_credentials' },
      },
    ]);
    expect(await mailsTo(email)).toEqual([]);
    expect(published).toEqual([]);
  });

  it('deleting an account: its sessions and memberships end (realtime), and nothing is audited or mailed', async () => {
    const { team } = await newTeam();
    const leaving = await createUser(ctx.app, { fullName: 'Lee Leaving' });
    const membership = await insertMember(ctx.database.db, team.id, leaving, 'member');
    published = [];
    await ok(leaving, 'POST', '/api/me/delete', { email: leaving.email, currentPassword: leaving.password }, 204);
    expect(eventsOf('session.revoked')).toEqual([
      { type: 'session.revoked', actorId: leaving.id, userId: leaving.id, sessionId: null },
    ]);
    expect(eventsOf('team.member_removed')).toEqual([
      { type: 'team.member_removed', actorId: leaving.id, teamId: team.id, userId: leaving.id, memberId: membership.id },
    ]);
    // Its sign-in is all the log holds of it.
    expect((await accountRows(leaving.id)).map((r) => r.action)).toEqual(['auth.sign_in']);
    expect(await mailsTo(leaving.email)).toEqual([]);
  });
});

describe('a change that rolls back', () => {
  it('leaves no audit row, no delivery, no activity, no mail and no realtime event', async () => {
    const { team, project, hookId } = await newTeam();
    const task = await ok<{ id: string }>(owner, 'POST', '/api/tasks', { projectId: project.id, title: 'Stays' }, 201);
    const before = await deliveries(hookId);
    const mailsBefore = (await mailsTo(member.email)).length;
    published = [];
    const full = await ok<Record<string, unknown>>(owner, 'GET', `/api/tasks/${task.id}`);
    const failed = ctx.app.deps.changes.run(ctx.database.db, userActor(owner.id, owner.email), async (_tx, record) => {
      await record({ kind: 'project.deleted', teamId: team.id, projectId: project.id, name: project.name });
      await record({
        kind: 'task.updated',
        teamId: team.id,
        previousTeamId: team.id,
        before: full as never,
        after: { ...full, title: 'Changed', assigneeId: member.id, status: 'completed' } as never,
        keys: ['title', 'assigneeId', 'status'],
      });
      throw new Error('the change fails after it was recorded');
    });
    await expect(failed).rejects.toThrow('the change fails after it was recorded');
    expect((await auditRows(team.id)).filter((r) => r.action === 'project.deleted')).toEqual([]);
    expect(await deliveries(hookId)).toEqual(before);
    expect(await activity(task.id)).toEqual([]);
    expect(await mailsTo(member.email)).toHaveLength(mailsBefore);
    expect(published).toEqual([]);
    // The same change, committed, produces them (the test above is not vacuous).
    await ctx.app.deps.changes.run(ctx.database.db, userActor(owner.id, owner.email), (_tx, record) =>
      record({ kind: 'project.deleted', teamId: team.id, projectId: project.id, name: project.name }),
    );
    expect((await auditRows(team.id)).filter((r) => r.action === 'project.deleted')).toHaveLength(1);
    expect(eventsOf('project.deleted')).toHaveLength(1);
  });

  it('a refused request (a stale edit) records nothing', async () => {
    const { project, hookId } = await newTeam();
    const task = await ok<{ id: string; version: number }>(
      owner,
      'POST',
      '/api/tasks',
      { projectId: project.id, title: 'A' },
      201,
    );
    const before = await deliveries(hookId);
    published = [];
    const res = await call(owner, 'PATCH', `/api/tasks/${task.id}`, { title: 'B', version: task.version + 5 });
    expect(res.statusCode).toBe(409);
    expect(await deliveries(hookId)).toEqual(before);
    expect(await activity(task.id)).toEqual([]);
    expect(published).toEqual([]);
  });
});
