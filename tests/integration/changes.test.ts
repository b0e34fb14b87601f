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
import { createUser, insertMember, insertTeam, type TestUser } from '../factories';
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

describe('a change made with an API token', () => {
  it('names the token in the audit row, beside its owner', async () => {
    const { team, project, hookId } = await newTeam();
    const created = await ok<ApiTokenCreatedDto>(
      owner,
      'POST',
      '/api/me/api-tokens',
      { name: 'Deploy bot', expiresInDays: 30, scope: 'write' },
      201,
    );
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
