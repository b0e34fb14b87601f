import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { Webhook } from 'standardwebhooks';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userActor } from '../../src/domain/changes';
import { WEBHOOK_EVENT_TYPES } from '../../src/domain/constants';
import {
  WEBHOOK_PING_EVENT,
  type WebhookCreatedDto,
  type WebhookDeliveryListDto,
  type WebhookDto,
  type WebhookListDto,
} from '../../src/domain/schemas/webhook';
import { buildApp } from '../../src/server/app';
import { type Database, openDatabase } from '../../src/server/db/client';
import { auditLog, mailOutbox, webhookDeliveries, webhookDeliveryAttempts, webhooks } from '../../src/server/db/schema';
import { Sealer } from '../../src/server/modules/oidc/oidc.seal';
import { webhookSchemaName } from '../../src/server/modules/openapi/openapi.webhooks';
import { WebhooksService } from '../../src/server/modules/webhooks/webhooks.service';
import { createUser, insertMember, insertTeam, type TestUser } from '../factories';
import { apiRequests } from '../helpers/api';
import { setupTestApp } from '../helpers/app';
import { until } from '../helpers/smtp';
import { type ReceivedWebhook, startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver';

const RETRIES = [60, 60, 60];
const ctx = setupTestApp({
  webhooksAllowPrivate: true,
  webhookRetryDelaysMs: RETRIES,
  webhookPollIntervalMs: 50,
  // Long enough that a loaded machine's slow answer is not a timeout; the timeout test waits longer than this.
  webhookTimeoutMs: 2_500,
});
const { ok, fails, call } = apiRequests(ctx);

let receiver: WebhookReceiver;
let owner: TestUser;
let admin: TestUser;
let member: TestUser;
let stranger: TestUser;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  [owner, admin, member, stranger] = await Promise.all([
    createUser(ctx.app, { fullName: 'Olive Owner' }),
    createUser(ctx.app, { fullName: 'Ada Admin' }),
    createUser(ctx.app, { fullName: 'Mia Member' }),
    createUser(ctx.app, { fullName: 'Sam Stranger' }),
  ]);
});
afterAll(async () => {
  await receiver?.close();
});

/** A team of its own per test (owner, admin, member), so that one test's hooks never hear another's events. */
async function newTeam() {
  const team = await insertTeam(ctx.database.db, owner);
  await insertMember(ctx.database.db, team.id, admin, 'admin');
  await insertMember(ctx.database.db, team.id, member, 'member');
  return team;
}

let pathCounter = 0;
async function addHook(teamId: string, events: readonly string[] = WEBHOOK_EVENT_TYPES, by: TestUser = owner) {
  const path = `/hook-${++pathCounter}`;
  const hook = await ok<WebhookCreatedDto>(
    by,
    'POST',
    `/api/teams/${teamId}/webhooks`,
    { url: receiver.origin + path, events },
    201,
  );
  return { hook, path };
}

async function newProject(teamId: string, user: TestUser = owner) {
  return ok<{ id: string; name: string }>(user, 'POST', '/api/projects', { teamId, name: `Project ${++pathCounter}` }, 201);
}

async function newTask(projectId: string, user: TestUser = owner, extra: Record<string, unknown> = {}) {
  return ok<{ id: string; title: string }>(
    user,
    'POST',
    '/api/tasks',
    { projectId, title: `Task ${++pathCounter}`, ...extra },
    201,
  );
}

/** A status 'QA' added to the project's workflow. */
const newStatus = (projectId: string) =>
  ok<{ id: string }>(
    owner,
    'POST',
    `/api/projects/${projectId}/statuses`,
    { name: 'QA', category: 'started', color: '#7c3aed' },
    201,
  );

const parsed = (r: ReceivedWebhook) =>
  JSON.parse(r.body) as {
    type: string;
    timestamp: string;
    data: Record<'team' | 'actor' | 'task' | 'comment' | 'project' | 'member' | 'webhook' | 'status', Record<string, unknown>>;
  };
const types = (path: string) => receiver.at(path).map((r) => parsed(r).type);
const waitFor = (what: string, check: () => boolean | Promise<boolean>, ms = 10_000) => until(check, ms, what);

async function deliveriesOf(teamId: string, webhookId: string, user: TestUser = owner) {
  return ok<WebhookDeliveryListDto>(user, 'GET', `/api/teams/${teamId}/webhooks/${webhookId}/deliveries?limit=100`);
}

describe('published payload schemas (issue 35, item 11)', () => {
  it('every event the server sends matches its named schema in the OpenAPI document (ajv, live deliveries)', async () => {
    const doc = (await ctx.app.inject('/api/openapi.json')).json() as {
      components: { schemas: Record<string, unknown> };
      paths: Record<string, Record<string, { callbacks?: Record<string, unknown> }>>;
    };
    const sent = [...WEBHOOK_EVENT_TYPES, WEBHOOK_PING_EVENT];
    // Each event's body is a named component, and the operation that adds a webhook lists it as a callback.
    const callbacks = doc.paths['/api/teams/{id}/webhooks']!.post!.callbacks ?? {};
    expect(Object.keys(callbacks).sort()).toEqual([...sent].sort());
    for (const type of sent) expect(doc.components.schemas, type).toHaveProperty(webhookSchemaName(type));

    const ajv = new Ajv({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addSchema({ components: doc.components }, 'openapi');
    const validatorOf = (type: string) => ajv.getSchema(`openapi#/components/schemas/${webhookSchemaName(type)}`)!;

    // Every event, made through the API and received by the real receiver.
    const team = await newTeam();
    const { hook, path } = await addHook(team.id);
    const joiner = await createUser(ctx.app, { fullName: 'Sol Schema' });
    const project = await newProject(team.id);
    await ok(owner, 'PATCH', `/api/projects/${project.id}`, { name: 'Schema renamed' });
    const qa = await newStatus(project.id);
    await ok(owner, 'PATCH', `/api/statuses/${qa.id}`, { wipLimit: 2 });
    // A new order (status.updated per moved status), then QA deleted with a task moved out (movedTo, movedTaskCount).
    const workflow = await ok<{ statuses: { id: string; key: string }[] }>(owner, 'GET', `/api/projects/${project.id}/statuses`);
    await ok(owner, 'PUT', `/api/projects/${project.id}/statuses/order`, { ids: workflow.statuses.map((s) => s.id).reverse() });
    await newTask(project.id, owner, { status: 'qa' });
    const moveTo = workflow.statuses.find((s) => s.key === 'review')!.id;
    await ok(owner, 'DELETE', `/api/statuses/${qa.id}`, { moveTo }, 204);
    const task = await newTask(project.id, owner, { dueDate: '2030-01-02', description: 'Checked' });
    await ok(owner, 'PATCH', `/api/tasks/${task.id}`, { title: 'Schema title', status: 'in_progress' });
    await ok(member, 'POST', `/api/tasks/${task.id}/comments`, { body: 'Valid?' }, 201);
    // A dependency added and removed (issue 37).
    const blocker = await newTask(project.id, owner);
    await ok(owner, 'POST', `/api/tasks/${task.id}/dependencies`, { blockedBy: blocker.id }, 201);
    await ok(owner, 'DELETE', `/api/tasks/${task.id}/dependencies/${blocker.id}`, undefined, 204);
    await ok(owner, 'DELETE', `/api/tasks/${task.id}`, undefined, 204);
    const invitation = await ok<{ id: string }>(
      owner,
      'POST',
      `/api/teams/${team.id}/invitations`,
      { email: joiner.email, role: 'member' },
      201,
    );
    await ok(joiner, 'POST', `/api/invitations/${invitation.id}/respond`, { accept: true });
    await ok(joiner, 'POST', `/api/teams/${team.id}/leave`, undefined, 204);
    await ok(
      owner,
      'POST',
      `/api/teams/${team.id}/import/csv`,
      {
        csv: 'Title\nImported one\n',
        mapping: { Title: 'title' },
        projectName: 'Imported',
      },
      201,
    );
    await ok(owner, 'DELETE', `/api/projects/${project.id}`, undefined, 204);
    await ok(owner, 'POST', `/api/teams/${team.id}/webhooks/${hook.id}/test`, undefined, 202);
    await waitFor('every event type', () => new Set(types(path)).size >= sent.length, 20_000);

    expect(new Set(types(path))).toEqual(new Set(sent));
    // The delete with a move is one event carrying where the task went (no task.updated or task.moved for it).
    // Delivery is at least once: one body per webhook-id.
    const once = [...new Map(receiver.at(path).map((r) => [r.headers['webhook-id'], parsed(r)])).values()];
    expect(once.filter((b) => b.type === 'status.deleted').map((b) => b.data.status)).toEqual([
      expect.objectContaining({ id: qa.id, movedTo: expect.objectContaining({ id: moveTo, key: 'review' }), movedTaskCount: 1 }),
    ]);
    expect(once.filter((b) => b.type === 'task.moved')).toHaveLength(1);
    for (const received of receiver.at(path)) {
      const body = JSON.parse(received.body) as { type: string };
      const validate = validatorOf(body.type);
      expect(validate, body.type).toBeDefined();
      expect(validate(body), `${body.type}: ${ajv.errorsText(validate.errors)}`).toBe(true);
    }
    // The schemas are not vacuous: a body of another type, or one without its object, is refused.
    const taskCreated = receiver
      .at(path)
      .map(parsed)
      .find((b) => b.type === 'task.created')!;
    expect(validatorOf('comment.created')(taskCreated)).toBe(false);
    const { task: _dropped, ...dataWithoutTask } = taskCreated.data;
    expect(validatorOf('task.created')({ ...taskCreated, data: dataWithoutTask })).toBe(false);
  });
});

describe('managing webhooks', () => {
  it('creates a hook with a whsec_ secret shown once and stored sealed; lists, updates and deletes it, each audited once', async () => {
    const team = await newTeam();
    const created = await ok<WebhookCreatedDto>(
      admin,
      'POST',
      `/api/teams/${team.id}/webhooks`,
      { url: `${receiver.origin}/manage`, events: ['task.moved', 'task.created', 'task.created'], description: '  CI  ' },
      201,
    );
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]+={0,2}$/);
    expect(Buffer.from(created.secret.slice(6), 'base64')).toHaveLength(32);
    // Events in the canonical order, once each; the description trimmed.
    expect(created).toMatchObject({ events: ['task.created', 'task.moved'], description: 'CI', status: 'active', active: true });

    const [stored] = await ctx.database.db.select().from(webhooks).where(eq(webhooks.id, created.id));
    expect(stored!.secret).not.toContain(created.secret.slice(6));
    expect((await new Sealer(ctx.config.authSecret, 'webhook-secret').open(stored!.secret))?.s).toBe(created.secret);

    const list = await ok<WebhookListDto>(owner, 'GET', `/api/teams/${team.id}/webhooks`);
    expect(list.webhooks.map((h) => h.id)).toEqual([created.id]);
    expect(JSON.stringify(list)).not.toContain('whsec_');

    const paused = await ok<WebhookDto>(owner, 'PATCH', `/api/teams/${team.id}/webhooks/${created.id}`, { active: false });
    expect(paused).toMatchObject({ active: false, status: 'paused' });
    await ok(owner, 'DELETE', `/api/teams/${team.id}/webhooks/${created.id}`, undefined, 204);
    expect((await ok<WebhookListDto>(owner, 'GET', `/api/teams/${team.id}/webhooks`)).webhooks).toEqual([]);

    const audit = await ctx.database.db.select().from(auditLog).where(eq(auditLog.targetId, created.id));
    expect(audit.map((a) => a.action).sort()).toEqual(['webhook.created', 'webhook.deleted', 'webhook.updated']);
    expect(audit.find((a) => a.action === 'webhook.created')).toMatchObject({ actorId: admin.id, teamId: team.id });
    expect(audit.find((a) => a.action === 'webhook.updated')?.details).toEqual({ active: { from: true, to: false } });
  });

  it('refuses bad input with 400 (never 500) and a 21st hook with 409', async () => {
    const team = await newTeam();
    const url = `/api/teams/${team.id}/webhooks`;
    const good = { url: `${receiver.origin}/limit`, events: ['task.created'] };
    for (const body of [
      {},
      { ...good, url: 'ftp://example.com/' },
      { ...good, url: 'not a url' },
      { ...good, url: `https://example.com/${'a'.repeat(2000)}` },
      { ...good, url: 'https://user:pass@example.com/' },
      { ...good, events: [] },
      { ...good, events: ['task.exploded'] },
      { ...good, events: 'task.created' },
      { ...good, secret: 'whsec_mine' },
      { ...good, description: 'x'.repeat(501) },
    ]) {
      await fails(owner, 'POST', url, body, 400);
    }
    await fails(owner, 'GET', `/api/teams/${team.id}/webhooks/not-a-uuid/deliveries`, undefined, 400);
    await fails(owner, 'GET', `/api/teams/${team.id}/webhooks/${team.id}/deliveries?limit=0`, undefined, 400);
    await fails(owner, 'POST', `${url}/${team.id}/deliveries/abc/redeliver`, undefined, 400);
    await fails(owner, 'PATCH', `${url}/${team.id}`, { teamId: team.id }, 400);

    for (let i = 0; i < 20; i++) await ok(owner, 'POST', url, good, 201);
    await fails(owner, 'POST', url, good, 409, 'too_many_webhooks');
  });

  it('members get 403 and strangers 404 on every route; a hook of another team is 404 through this one', async () => {
    const team = await newTeam();
    const { hook } = await addHook(team.id);
    const task = await newTask((await newProject(team.id)).id);
    await waitFor('a delivery', () => receiver.received.some((r) => parsed(r).data.task?.id === task.id));
    const [delivery] = (await deliveriesOf(team.id, hook.id)).deliveries;
    const base = `/api/teams/${team.id}/webhooks`;
    const routes: [Parameters<typeof call>[1], string, unknown?][] = [
      ['GET', base],
      ['POST', base, { url: `${receiver.origin}/x`, events: ['task.created'] }],
      ['PATCH', `${base}/${hook.id}`, { active: false }],
      ['DELETE', `${base}/${hook.id}`],
      ['GET', `${base}/${hook.id}/deliveries`],
      ['POST', `${base}/${hook.id}/deliveries/${delivery!.id}/redeliver`],
      ['POST', `${base}/${hook.id}/test`],
    ];
    for (const [method, url, body] of routes) {
      await fails(member, method, url, body, 403, 'webhook_manage_denied');
      await fails(stranger, method, url, body, 404, 'team_not_found');
      await fails(null, method, url, body, 401);
    }
    // The stranger's own team does not open another team's hook.
    const theirs = await insertTeam(ctx.database.db, stranger);
    await fails(stranger, 'PATCH', `/api/teams/${theirs.id}/webhooks/${hook.id}`, { active: false }, 404, 'webhook_not_found');
    await fails(stranger, 'GET', `/api/teams/${theirs.id}/webhooks/${hook.id}/deliveries`, undefined, 404, 'webhook_not_found');
    await fails(owner, 'POST', `${base}/${hook.id}/deliveries/999999999/redeliver`, undefined, 404, 'webhook_delivery_not_found');
    // Nothing changed: the hook is still there and active.
    const [row] = await ctx.database.db.select().from(webhooks).where(eq(webhooks.id, hook.id));
    expect(row?.active).toBe(true);
  });
});

describe('delivery', () => {
  it('creating a task delivers task.created, signed by the Standard Webhooks convention, with the task as the API returns it', async () => {
    const team = await newTeam();
    const { hook, path } = await addHook(team.id, ['task.created']);
    const project = await newProject(team.id);
    const task = await newTask(project.id, admin, { assigneeId: member.id, tags: ['ops'] });
    await waitFor('task.created', () => receiver.at(path).length === 1);
    const got = receiver.at(path)[0]!;

    const verified = new Webhook(hook.secret).verify(got.body, got.headers as Record<string, string>);
    expect(verified).toEqual(JSON.parse(got.body));
    expect(() => new Webhook(`whsec_${Buffer.alloc(32, 1).toString('base64')}`).verify(got.body, got.headers as never)).toThrow();
    expect(got.headers).toMatchObject({ 'content-type': 'application/json', 'user-agent': 'Crewboard-Webhooks/1' });
    expect(got.headers['webhook-id']).toMatch(/^msg_[0-9a-f]{32}$/);
    expect(got.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);

    const body = parsed(got);
    // The task as the API returns it; the task page's read adds its dependency ids (issue 37), which no other answer carries.
    const { blockedBy: _b, blocking: _c, ...fromApi } = await ok<Record<string, unknown>>(owner, 'GET', `/api/tasks/${task.id}`);
    expect(body).toEqual({
      type: 'task.created',
      timestamp: expect.any(String),
      data: { team: { id: team.id, name: team.name }, actor: { id: admin.id, fullName: 'Ada Admin' }, task: fromApi },
    });
    expect(Math.abs(Date.parse(body.timestamp) - Date.now())).toBeLessThan(60_000);

    // The receiver answers before the worker writes down the outcome: wait for that write (a loaded machine saw the gap).
    await waitFor('the delivery marked delivered', async () =>
      (await deliveriesOf(team.id, hook.id)).deliveries.some((d) => d.status === 'delivered'),
    );
    const log = await deliveriesOf(team.id, hook.id);
    expect(log.deliveries).toHaveLength(1);
    expect(log.deliveries[0]).toMatchObject({
      eventType: 'task.created',
      status: 'delivered',
      attempts: 1,
      lastStatusCode: 200,
      messageId: got.headers['webhook-id'],
      nextAttemptAt: null,
    });
    expect(log.deliveries[0]!.lastDurationMs).toBeGreaterThanOrEqual(0);
  });

  it('a receiver failing three times then succeeding gets the event exactly once more, under the same webhook-id', async () => {
    const team = await newTeam();
    const { hook, path } = await addHook(team.id, ['project.created']);
    const previous = receiver.answer;
    receiver.answer = (req, n) => (req.path === path ? { status: n <= 3 ? 500 : 200 } : previous(req, n));
    try {
      const project = await newProject(team.id);
      await waitFor('the fourth attempt', () => receiver.at(path).length >= 4);
      // A sentinel after it: a later event to the same hook arrives, and nothing more of the first came before it.
      const sentinel = await newProject(team.id);
      await waitFor('the sentinel', () => receiver.at(path).some((r) => parsed(r).data.project.id === sentinel.id));
      const first = receiver.at(path).filter((r) => parsed(r).data.project.id === project.id);
      expect(first.map((r) => r.status)).toEqual([500, 500, 500, 200]);
      expect(new Set(first.map((r) => r.headers['webhook-id'])).size).toBe(1);
      expect(new Set(first.map((r) => r.body)).size).toBe(1);
      const log = await deliveriesOf(team.id, hook.id);
      const delivery = log.deliveries.find((d) => d.messageId === first[0]!.headers['webhook-id'])!;
      expect(delivery).toMatchObject({ status: 'delivered', attempts: 4, lastStatusCode: 200, lastError: null });
      const attempts = await ctx.database.db
        .select()
        .from(webhookDeliveryAttempts)
        .where(eq(webhookDeliveryAttempts.deliveryId, delivery.id));
      expect(attempts.map((a) => a.statusCode).sort()).toEqual([200, 500, 500, 500]);
    } finally {
      receiver.answer = previous;
    }
  });

  it('each event type fires, with its object; an edit of status and title sends task.moved and task.updated', async () => {
    const team = await newTeam();
    const { path } = await addHook(team.id);
    const joiner = await createUser(ctx.app, { fullName: 'Jo Joiner' });
    const project = await newProject(team.id);
    await ok(owner, 'PATCH', `/api/projects/${project.id}`, { name: 'Renamed' });
    const qa = await newStatus(project.id);
    await ok(owner, 'PATCH', `/api/statuses/${qa.id}`, { name: 'Quality' });
    await ok(owner, 'DELETE', `/api/statuses/${qa.id}`, undefined, 204);
    const task = await newTask(project.id);
    await ok(owner, 'PATCH', `/api/tasks/${task.id}`, { title: 'New title' });
    await ok(owner, 'PATCH', `/api/tasks/${task.id}/status`, { status: 'in_progress' });
    await ok(owner, 'PATCH', `/api/tasks/${task.id}`, { status: 'completed', priority: 'high' });
    const comment = await ok<{ id: string }>(member, 'POST', `/api/tasks/${task.id}/comments`, { body: 'Looks good' }, 201);
    // A dependency on a second task (issue 37), removed before the task goes (its creation is one more task.created).
    const blocker = await newTask(project.id);
    await ok(member, 'POST', `/api/tasks/${task.id}/dependencies`, { blockedBy: blocker.id }, 201);
    await ok(member, 'DELETE', `/api/tasks/${task.id}/dependencies/${blocker.id}`, undefined, 204);
    await ok(owner, 'DELETE', `/api/tasks/${task.id}`, undefined, 204);
    const invitation = await ok<{ id: string }>(
      owner,
      'POST',
      `/api/teams/${team.id}/invitations`,
      { email: joiner.email, role: 'member' },
      201,
    );
    await ok(joiner, 'POST', `/api/invitations/${invitation.id}/respond`, { accept: true });
    await ok(joiner, 'POST', `/api/teams/${team.id}/leave`, undefined, 204);
    await ok(owner, 'DELETE', `/api/projects/${project.id}`, undefined, 204);
    // An import is one event, whatever it creates (its project and tasks send none of their own).
    await ok(owner, 'POST', `/api/teams/${team.id}/import/csv`, { csv: 'Title\nA\nB\n', mapping: { Title: 'title' } }, 201);
    const expected = [
      'project.created',
      'project.updated',
      'status.created',
      'status.updated',
      'status.deleted',
      'task.created',
      'task.updated',
      'task.moved',
      'task.moved',
      'task.updated',
      'comment.created',
      'task.created',
      'task.dependency_added',
      'task.dependency_removed',
      'task.deleted',
      'member.joined',
      'member.left',
      'project.deleted',
      'import.completed',
    ];
    await waitFor('every event', () => new Set(receiver.at(path).map((r) => r.headers['webhook-id'])).size >= expected.length);
    // Delivery is at least once: a receiver dedupes on webhook-id (a loaded machine may time an answer out and retry).
    const once = [...new Map(receiver.at(path).map((r) => [r.headers['webhook-id'], parsed(r).type])).values()];
    expect(once.sort()).toEqual([...expected].sort());
    expect(new Set(types(path))).toEqual(new Set(WEBHOOK_EVENT_TYPES));

    const of = (type: string) =>
      receiver
        .at(path)
        .map(parsed)
        .filter((b) => b.type === type);
    expect(of('project.updated')[0]!.data.project).toMatchObject({ id: project.id, name: 'Renamed', teamId: team.id });
    expect(of('project.deleted')[0]!.data.project).toMatchObject({ id: project.id, name: 'Renamed' });
    expect(of('status.updated')[0]!.data.status).toMatchObject({ id: qa.id, key: 'qa', name: 'Quality', projectId: project.id });
    expect(of('status.deleted')[0]!.data.status).toMatchObject({ id: qa.id, key: 'qa', movedTo: null, movedTaskCount: 0 });
    expect(of('task.deleted')[0]!.data.task).toMatchObject({ id: task.id, status: 'completed', priority: 'high' });
    expect(of('comment.created')[0]!.data).toMatchObject({
      actor: { id: member.id, fullName: 'Mia Member' },
      comment: { id: comment.id, taskId: task.id, body: 'Looks good' },
    });
    for (const type of ['task.dependency_added', 'task.dependency_removed']) {
      expect(of(type)[0]!.data).toMatchObject({
        actor: { id: member.id },
        dependency: { taskId: task.id, blockedById: blocker.id },
      });
    }
    expect(of('member.joined')[0]!.data).toMatchObject({
      actor: { id: joiner.id },
      member: { userId: joiner.id, role: 'member', user: { email: joiner.email } },
    });
    expect(of('member.left')[0]!.data.member).toMatchObject({ userId: joiner.id });
    // The moved-only edit carries the new status.
    expect(of('task.moved').map((b) => b.data.task.status)).toEqual(expect.arrayContaining(['in_progress', 'completed']));
  });

  it('a member removed by an admin sends member.left', async () => {
    const team = await newTeam();
    const { path } = await addHook(team.id, ['member.left']);
    const leaver = await createUser(ctx.app, { fullName: 'Lee Leaver' });
    const row = await insertMember(ctx.database.db, team.id, leaver, 'member');
    await ok(admin, 'DELETE', `/api/teams/${team.id}/members/${row.id}`, undefined, 204);
    await waitFor('member.left', () => receiver.at(path).length === 1);
    expect(parsed(receiver.at(path)[0]!).data).toMatchObject({
      actor: { id: admin.id },
      member: { id: row.id, userId: leaver.id },
    });
  });

  it('unsubscribed events and paused hooks are not sent (nor queued)', async () => {
    const team = await newTeam();
    const onlyProjects = await addHook(team.id, ['project.created']);
    const paused = await addHook(team.id, ['task.created', 'project.created']);
    await ok(owner, 'PATCH', `/api/teams/${team.id}/webhooks/${paused.hook.id}`, { active: false });
    const project = await newProject(team.id);
    const task = await newTask(project.id);
    await ok(owner, 'PATCH', `/api/tasks/${task.id}`, { title: 'Changed', status: 'completed' });
    await ok(owner, 'DELETE', `/api/tasks/${task.id}`, undefined, 204);
    // The sentinel: a second project.created, after everything else.
    const sentinel = await newProject(team.id);
    await waitFor('the sentinel', () => receiver.at(onlyProjects.path).some((r) => parsed(r).data.project.id === sentinel.id));
    expect(types(onlyProjects.path)).toEqual(['project.created', 'project.created']);
    const queued = await ctx.database.db
      .select({ type: webhookDeliveries.eventType })
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.webhookId, paused.hook.id));
    expect(queued).toEqual([]);
    expect(receiver.at(paused.path)).toEqual([]);
  });

  it('a redirect is not followed (it is a failure); a timeout is a failure', { timeout: 60_000 }, async () => {
    const team = await newTeam();
    const redirect = await addHook(team.id, ['project.created']);
    const slow = await addHook(team.id, ['project.created']);
    const previous = receiver.answer;
    receiver.answer = (req, n) =>
      req.path === redirect.path
        ? { status: 302, headers: { location: `${receiver.origin}/redirected` } }
        : req.path === slow.path
          ? { status: 200, delayMs: 8_000 }
          : previous(req, n);
    try {
      await newProject(team.id);
      await waitFor(
        'both given up',
        async () => {
          const rows = await ctx.database.db.select().from(webhookDeliveries);
          return rows.filter((r) => [redirect.hook.id, slow.hook.id].includes(r.webhookId) && r.failedAt).length === 2;
        },
        30_000,
      );
      expect(receiver.at('/redirected')).toEqual([]);
      expect(receiver.at(redirect.path)).toHaveLength(RETRIES.length + 1);
      const [redirected] = (await deliveriesOf(team.id, redirect.hook.id)).deliveries;
      expect(redirected).toMatchObject({ status: 'failed', attempts: RETRIES.length + 1, lastStatusCode: 302 });
      expect(redirected!.lastError).toMatch(/redirect/);
      const [timedOut] = (await deliveriesOf(team.id, slow.hook.id)).deliveries;
      expect(timedOut).toMatchObject({ status: 'failed', lastStatusCode: null });
      expect(timedOut!.lastError).toMatch(/timed out after 2500 ms/);
      expect(timedOut!.lastDurationMs).toBeGreaterThanOrEqual(2_400);
      expect(timedOut!.lastDurationMs).toBeLessThan(8_000);
    } finally {
      receiver.answer = previous;
    }
  });

  it('after the retries the hook is failing and its owners and admins are told (notification and mail); a later success clears it', async () => {
    const team = await newTeam();
    const { hook, path } = await addHook(team.id, ['project.created']);
    const previous = receiver.answer;
    receiver.answer = (req, n) => (req.path === path ? { status: 503 } : previous(req, n));
    try {
      await newProject(team.id);
      await waitFor('failing', async () => {
        const list = await ok<WebhookListDto>(owner, 'GET', `/api/teams/${team.id}/webhooks`);
        return list.webhooks[0]?.status === 'failing';
      });
      expect(receiver.at(path)).toHaveLength(RETRIES.length + 1);
      const [delivery] = (await deliveriesOf(team.id, hook.id)).deliveries;
      expect(delivery).toMatchObject({ status: 'failed', lastStatusCode: 503, nextAttemptAt: null });
      expect(delivery!.failedAt).not.toBeNull();

      const notified = async (user: TestUser) => {
        const list = await ok<{ notifications: { type: string; message: string; data: { teamId?: string } }[] }>(
          user,
          'GET',
          '/api/notifications?limit=100',
        );
        return list.notifications.filter((n) => n.type === 'webhook_failing' && n.data.teamId === team.id);
      };
      expect(await notified(owner)).toHaveLength(1);
      expect((await notified(owner))[0]!.message).toContain(hook.url);
      expect(await notified(admin)).toHaveLength(1);
      expect(await notified(member)).toEqual([]);
      const mails = await ctx.database.db.select().from(mailOutbox).where(eq(mailOutbox.kind, 'webhook_failing'));
      const to = mails.filter((m) => m.textBody.includes(hook.url)).map((m) => m.toEmail);
      expect(to.sort()).toEqual([owner.email, admin.email].sort());

      // A second failure while failing tells nobody again.
      await newProject(team.id);
      await waitFor('the second delivery given up', async () => {
        const log = await deliveriesOf(team.id, hook.id);
        return log.deliveries.filter((d) => d.status === 'failed').length === 2;
      });
      expect(await notified(owner)).toHaveLength(1);

      // The receiver is back: a test event goes through and the hook is no longer failing.
      receiver.answer = previous;
      await ok(owner, 'POST', `/api/teams/${team.id}/webhooks/${hook.id}/test`, undefined, 202);
      await waitFor('active again', async () => {
        const list = await ok<WebhookListDto>(owner, 'GET', `/api/teams/${team.id}/webhooks`);
        return list.webhooks[0]?.status === 'active';
      });
      expect((await ok<WebhookListDto>(owner, 'GET', `/api/teams/${team.id}/webhooks`)).webhooks[0]!.failingSince).toBeNull();
    } finally {
      receiver.answer = previous;
    }
  });

  it("'Send test event' delivers a signed ping (even to a paused hook); redeliver sends the same body under a new webhook-id", async () => {
    const team = await newTeam();
    const { hook, path } = await addHook(team.id, ['task.deleted']);
    await ok(owner, 'PATCH', `/api/teams/${team.id}/webhooks/${hook.id}`, { active: false });
    const ping = await ok<{ id: number; eventType: string; status: string }>(
      admin,
      'POST',
      `/api/teams/${team.id}/webhooks/${hook.id}/test`,
      undefined,
      202,
    );
    expect(ping).toMatchObject({ eventType: 'ping', status: 'pending' });
    await waitFor('the ping', () => receiver.at(path).length === 1);
    const got = receiver.at(path)[0]!;
    new Webhook(hook.secret).verify(got.body, got.headers as Record<string, string>);
    expect(parsed(got)).toMatchObject({
      type: 'ping',
      data: { team: { id: team.id }, actor: { id: admin.id, fullName: 'Ada Admin' }, webhook: { id: hook.id } },
    });

    const again = await ok<{ id: number; messageId: string }>(
      owner,
      'POST',
      `/api/teams/${team.id}/webhooks/${hook.id}/deliveries/${ping.id}/redeliver`,
      undefined,
      202,
    );
    expect(again.id).not.toBe(ping.id);
    await waitFor('the redelivery', () => receiver.at(path).length === 2);
    const second = receiver.at(path)[1]!;
    expect(second.body).toBe(got.body);
    expect(second.headers['webhook-id']).toBe(again.messageId);
    expect(second.headers['webhook-id']).not.toBe(got.headers['webhook-id']);
    new Webhook(hook.secret).verify(second.body, second.headers as Record<string, string>);
    await waitFor('both marked delivered', async () =>
      (await deliveriesOf(team.id, hook.id)).deliveries.every((d) => d.status === 'delivered'),
    );
    const log = await deliveriesOf(team.id, hook.id);
    expect(log.total).toBe(2);
    expect(log.deliveries.map((d) => d.id)).toEqual([again.id, ping.id]);
    expect(log.deliveries.every((d) => d.status === 'delivered' && d.lastStatusCode === 200)).toBe(true);
    const paged = await ok<WebhookDeliveryListDto>(
      owner,
      'GET',
      `/api/teams/${team.id}/webhooks/${hook.id}/deliveries?limit=1&offset=1`,
    );
    expect(paged).toMatchObject({ total: 2, deliveries: [{ id: ping.id }] });
  });
});

describe('SSRF protection with the default configuration', () => {
  const strict = setupTestApp({ webhookRetryDelaysMs: [50], webhookPollIntervalMs: 50 });
  const api = apiRequests(strict);

  it('refuses URLs that resolve to loopback, private or link-local addresses, and plain HTTP, at create and update (400)', async () => {
    const boss = await createUser(strict.app);
    const team = await insertTeam(strict.database.db, boss);
    const url = `/api/teams/${team.id}/webhooks`;
    const events = ['task.created'];
    await api.fails(boss, 'POST', url, { url: `http://localhost:${receiver.port}/`, events }, 400, 'webhook_url_insecure');
    for (const refused of [
      `https://localhost:${receiver.port}/`,
      'https://127.0.0.1/',
      'https://[::1]/',
      'https://169.254.169.254/latest/meta-data/',
      'https://[::ffff:127.0.0.1]/',
      'https://10.0.0.8/',
      'https://192.168.1.1/',
      'https://2130706433/',
    ]) {
      const res = await api.fails(boss, 'POST', url, { url: refused, events }, 400, 'webhook_url_refused');
      expect(res.json().error.fields).toHaveProperty('url');
    }
    expect(await strict.database.db.select().from(webhooks).where(eq(webhooks.teamId, team.id))).toEqual([]);
  });

  it('a hook that got in while private addresses were allowed is never sent to once they are not', async () => {
    const boss = await createUser(strict.app);
    const team = await insertTeam(strict.database.db, boss);
    // Created while allowed (the same service, told private addresses are fine), then the server runs without that.
    const lenient = new WebhooksService(
      strict.database.db,
      strict.app.deps.changes,
      new Sealer(strict.config.authSecret, 'webhook-secret'),
      true,
      () => {},
    );
    const actor = { ...userActor(boss.id, boss.email), fullName: boss.fullName };
    const hooks = await Promise.all(
      [`${receiver.origin}/ssrf-a`, `http://localhost:${receiver.port}/ssrf-b`].map((u) =>
        lenient.create(actor, team.id, { url: u, events: ['project.created'], description: null }),
      ),
    );
    await api.ok(boss, 'POST', '/api/projects', { teamId: team.id, name: 'Sneaky' }, 201);
    await until(
      async () => {
        const rows = await strict.database.db
          .select()
          .from(webhookDeliveries)
          .where(and(eq(webhookDeliveries.eventType, 'project.created')));
        return rows.filter((r) => hooks.some((h) => h.id === r.webhookId) && r.failedAt).length === 2;
      },
      10_000,
      'both given up',
    );
    expect(receiver.at('/ssrf-a')).toEqual([]);
    expect(receiver.at('/ssrf-b')).toEqual([]);
    for (const hook of hooks) {
      const [delivery] = (
        await api.ok<WebhookDeliveryListDto>(boss, 'GET', `/api/teams/${team.id}/webhooks/${hook.id}/deliveries`)
      ).deliveries;
      expect(delivery).toMatchObject({ status: 'failed', lastStatusCode: null });
      expect(delivery!.lastError).toMatch(/refused: .* resolves to (127\.0\.0\.1|::1)/);
    }
  });
});

describe('two app instances on one PostgreSQL database', () => {
  const url = process.env.DATABASE_URL;
  let second: { app: FastifyInstance; database: Database } | undefined;

  beforeAll(async () => {
    if (!url) return;
    const database = await openDatabase({ databaseUrl: ctx.databaseUrl });
    const app = await buildApp({ config: ctx.config, database });
    await app.ready();
    second = { app, database };
  });
  afterAll(async () => {
    await second?.app.close();
    await second?.database.close();
  });

  it.skipIf(!url)('deliver each event exactly once (needs DATABASE_URL)', async () => {
    const b = second!;
    const team = await newTeam();
    const { path } = await addHook(team.id, ['task.created']);
    const project = await newProject(team.id);
    // Events made through both instances; both workers poll the one outbox.
    const made = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        (i % 2 ? ctx.app : b.app)
          .inject({
            method: 'POST',
            url: '/api/tasks',
            headers: owner.auth,
            payload: { projectId: project.id, title: `Twin ${i}` },
          })
          .then((res) => res.json().id as string),
      ),
    );
    await waitFor('every task.created', () => receiver.at(path).length >= made.length, 20_000);
    // A sentinel after them all: nothing more of the thirty comes.
    const sentinel = await newTask(project.id);
    await waitFor('the sentinel', () => receiver.at(path).some((r) => parsed(r).data.task.id === sentinel.id));
    const ids = receiver.at(path).map((r) => parsed(r).data.task.id as string);
    expect(ids.filter((id) => id !== sentinel.id).sort()).toEqual([...made].sort());
    expect(new Set(receiver.at(path).map((r) => r.headers['webhook-id'])).size).toBe(made.length + 1);
  });
});
