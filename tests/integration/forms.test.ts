// Request forms (issue 40, decision 0028): their management routes and who may use them, the public definition and
// submission as an anonymous client (every key of every public answer walked against the allow-list), the honeypot,
// required fields, closing, resetting, the rate limits, and the confirmation mail through a real SMTP server whose link
// opens the request's status.
import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OUTSIDE_LIMITS } from '../../src/domain/constants';
import { FORM_NOT_FOUND, OUTSIDE_TEXTS, fieldRequired } from '../../src/domain/outside-texts';
import type { CustomFieldDto } from '../../src/domain/schemas/custom-field';
import type { FormDto, FormListDto, PublicFormDto } from '../../src/domain/schemas/outside';
import type { ActivityListDto } from '../../src/domain/schemas/task-detail';
import type { TaskDto } from '../../src/domain/schemas/task';
import { buildApp } from '../../src/server/app';
import { auditLog, forms, mailOutbox, requestLinks, tasks, webhookDeliveries, webhooks } from '../../src/server/db/schema';
import type { DomainEvent } from '../../src/server/lib/events';
import { createUser, insertMember, insertTeam, type TestUser } from '../factories';
import { apiRequests } from '../helpers/api';
import { openTestDatabase, type TestContext, testConfig } from '../helpers/app';
import { startSmtpServer, type TestSmtpServer, until } from '../helpers/smtp';

const PUBLIC_URL = 'http://crewboard.test';
const ctx = {} as TestContext;
let smtp: TestSmtpServer;
let drop: () => Promise<void>;
const { ok, fails, call } = apiRequests(() => ctx.app);

// Olive owns the team, Adam is its admin, Mia a plain member; Sam runs a team of his own.
let olive: TestUser;
let adam: TestUser;
let mia: TestUser;
let sam: TestUser;
let teamId: string;
let teamName: string;
let projectId: string;
let severity: CustomFieldDto;
let published: DomainEvent[] = [];

beforeAll(async () => {
  smtp = await startSmtpServer();
  const opened = await openTestDatabase();
  drop = opened.drop;
  ctx.database = opened.database;
  ctx.config = testConfig({
    publicUrl: PUBLIC_URL,
    logLevel: process.env.FORMS_LOG ?? 'silent',
    // The limits are the subject of some tests here: on, each test's requests from an address of its own.
    rateLimitEnabled: true,
    mail: { smtpUrl: smtp.url, from: 'Crewboard <no-reply@crewboard.test>', pollIntervalMs: 50 },
    // The webhook's deliveries stay queued: the test reads them.
    webhookPollIntervalMs: 3_600_000,
  });
  ctx.app = await buildApp({ config: ctx.config, database: ctx.database });
  await ctx.app.ready();
  const names = ['Olive Owner', 'Adam Admin', 'Mia Member', 'Sam Stranger'];
  [olive, adam, mia, sam] = (await Promise.all(names.map((fullName) => createUser(ctx.app, { fullName })))) as [
    TestUser,
    TestUser,
    TestUser,
    TestUser,
  ];
  teamName = `Secret Team ${randomBytes(3).toString('hex')}`;
  teamId = (await insertTeam(ctx.database.db, olive, teamName)).id;
  await insertMember(ctx.database.db, teamId, adam, 'admin');
  await insertMember(ctx.database.db, teamId, mia, 'member');
  projectId = (await ok<{ id: string }>(olive, 'POST', '/api/projects', { teamId, name: 'Helpdesk' }, 201)).id;
  severity = await ok<CustomFieldDto>(
    olive,
    'POST',
    `/api/teams/${teamId}/fields`,
    {
      name: 'Severity',
      type: 'select',
      options: [
        { name: 'Low', color: '#16a34a' },
        { name: 'High', color: '#dc2626' },
      ],
    },
    201,
  );
  ctx.app.deps.events.subscribe((event) => published.push(event));
}, 60_000);

afterAll(async () => {
  await ctx.app?.close();
  await drop?.();
  await smtp?.stop();
});

let ipCounter = 0;
/** A client address of its own per use: full buckets. */
const freshIp = () => `10.40.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`;

let formCounter = 0;
const bugForm = (over: Record<string, unknown> = {}) => ({
  name: `Bug reports ${++formCounter}`,
  intro: 'Tell us what broke.',
  fields: [
    { key: 'title', label: 'Summary', help: 'One line', required: true },
    { key: 'description', label: 'What happened', required: false },
    { key: 'email', label: 'Your email', help: 'We write back here', required: false },
    { key: 'priority', label: 'Urgency', required: false },
    { key: 'dueDate', label: 'Needed by', required: false },
    { key: severity.id, label: 'How bad', required: false },
  ],
  status: 'in_progress',
  assigneeId: mia.id,
  ...over,
});
const createForm = (body: Record<string, unknown> = bugForm(), by = olive) =>
  ok<FormDto>(by, 'POST', `/api/projects/${projectId}/forms`, body, 201);
const tokenOf = (form: FormDto) => form.url.split('/forms/')[1]!;

/** An anonymous request to the public API, from `ip`. */
const anon = (method: 'GET' | 'POST', url: string, payload?: unknown, ip = freshIp()) =>
  ctx.app.inject({ method, url, remoteAddress: ip, ...(payload === undefined ? {} : { payload: payload as never }) });
const submit = (token: string, values: Record<string, unknown>, ip = freshIp(), website?: string) =>
  anon('POST', `/api/public-forms/${token}`, { values, ...(website !== undefined && { website }) }, ip);

/** The public answers' headers: not indexed, no referrer, never stored. */
function expectPublicHeaders(res: LightMyRequestResponse) {
  expect(res.headers['x-robots-tag']).toContain('noindex');
  expect(res.headers['referrer-policy']).toBe('no-referrer');
  expect(res.headers['cache-control']).toBe('no-store');
}

/** Every key path of a JSON value, arrays as `[]`: what a public answer may carry is exactly a list of these. */
function keyPaths(value: unknown, prefix = ''): string[] {
  if (Array.isArray(value)) return value.flatMap((v) => keyPaths(v, `${prefix}[]`));
  if (value && typeof value === 'object')
    return Object.entries(value).flatMap(([k, v]) => [`${prefix}.${k}`, ...keyPaths(v, `${prefix}.${k}`)]);
  return [];
}

const tasksTitled = (title: string) => ctx.database.db.select().from(tasks).where(eq(tasks.title, title));

describe('managing forms', () => {
  it('owners and admins create, change, reset and delete; members list read-only (403 on changes); strangers get 404', async () => {
    const made = await createForm();
    expect(made.url).toMatch(new RegExp(`^${PUBLIC_URL}/forms/[A-Za-z0-9_-]{32}$`));
    expect(made).toMatchObject({ projectId, status: 'in_progress', assigneeId: mia.id, open: true });
    // The title is always required, whatever was sent.
    const sent = await createForm(bugForm({ fields: [{ key: 'title', label: 'Subject', required: false }] }));
    expect(sent.fields).toEqual([{ key: 'title', label: 'Subject', help: null, required: true }]);

    const listed = await ok<FormListDto>(mia, 'GET', `/api/projects/${projectId}/forms`);
    expect(listed.forms.map((f) => f.id)).toContain(made.id);
    expect(listed.forms.find((f) => f.id === made.id)!.url).toBe(made.url);
    await fails(sam, 'GET', `/api/projects/${projectId}/forms`, undefined, 404);
    await fails(null, 'GET', `/api/projects/${projectId}/forms`, undefined, 401);

    await fails(mia, 'POST', `/api/projects/${projectId}/forms`, bugForm(), 403, 'form_manage_denied');
    await fails(sam, 'POST', `/api/projects/${projectId}/forms`, bugForm(), 404, 'project_not_found');
    await fails(mia, 'PATCH', `/api/forms/${made.id}`, { name: 'Mine now' }, 403, 'form_manage_denied');
    await fails(sam, 'PATCH', `/api/forms/${made.id}`, { name: 'Mine now' }, 404, 'form_not_found');
    await fails(mia, 'POST', `/api/forms/${made.id}/reset`, undefined, 403);
    await fails(sam, 'POST', `/api/forms/${made.id}/reset`, undefined, 404);
    await fails(mia, 'DELETE', `/api/forms/${made.id}`, undefined, 403);
    await fails(sam, 'DELETE', `/api/forms/${made.id}`, undefined, 404);

    const renamed = await ok<FormDto>(adam, 'PATCH', `/api/forms/${made.id}`, { name: 'Renamed', status: 'todo' });
    expect(renamed).toMatchObject({ name: 'Renamed', status: 'todo', url: made.url });
    const reset = await ok<FormDto>(adam, 'POST', `/api/forms/${made.id}/reset`);
    expect(reset.url).not.toBe(made.url);
    await ok(olive, 'DELETE', `/api/forms/${made.id}`, undefined, 204);
    await fails(olive, 'PATCH', `/api/forms/${made.id}`, { name: 'Gone' }, 404, 'form_not_found');

    const audit = await ctx.database.db.select().from(auditLog).where(eq(auditLog.targetId, made.id));
    expect(audit.map((a) => [a.action, a.details]).sort()).toEqual(
      [
        ['form.created', {}],
        ['form.deleted', {}],
        ['form.updated', { open: true, reset: false }],
        ['form.updated', { open: true, reset: true }],
      ].sort(),
    );
    // The token is kept hashed and sealed, never in the clear.
    const [row] = await ctx.database.db.select().from(forms).where(eq(forms.id, sent.id));
    expect(JSON.stringify(row)).not.toContain(tokenOf(sent));
  });

  it('checks the definition: statuses of the project, a member as assignee, custom fields of the team, the limit', async () => {
    await fails(olive, 'POST', `/api/projects/${projectId}/forms`, bugForm({ status: 'nope' }), 400);
    await fails(olive, 'POST', `/api/projects/${projectId}/forms`, bugForm({ assigneeId: sam.id }), 400);
    const samTeam = await insertTeam(ctx.database.db, sam, 'Sam team');
    const theirs = await ok<CustomFieldDto>(
      sam,
      'POST',
      `/api/teams/${samTeam.id}/fields`,
      { name: 'Their field', type: 'text' },
      201,
    );
    // Another team's field, and a person field (the public page would list the team's people): refused.
    const refusedField = (keys: string[], reason = 'form_field_invalid') =>
      fails(
        olive,
        'POST',
        `/api/projects/${projectId}/forms`,
        bugForm({ fields: [{ key: 'title', label: 'T' }, ...keys.map((key, i) => ({ key, label: `X${i}` }))] }),
        400,
        reason,
      );
    await refusedField([theirs.id]);
    const person = await ok<CustomFieldDto>(olive, 'POST', `/api/teams/${teamId}/fields`, { name: 'Owner', type: 'person' }, 201);
    await refusedField([person.id]);
    // One custom field under two spellings of its id (the schema's own check compares them as sent).
    await refusedField([severity.id, severity.id.toUpperCase()], 'validation_failed');
    await fails(olive, 'POST', `/api/projects/${projectId}/forms`, bugForm({ fields: [{ key: 'email', label: 'E' }] }), 400);
    // Without a status: the project's first.
    const first = await createForm(bugForm({ status: undefined }));
    expect(first.status).toBe('todo');

    const other = (await ok<{ id: string }>(olive, 'POST', '/api/projects', { teamId, name: 'Many forms' }, 201)).id;
    for (let i = 0; i < OUTSIDE_LIMITS.formsPerProject; i++)
      await ok(olive, 'POST', `/api/projects/${other}/forms`, bugForm({ status: undefined }), 201);
    await fails(olive, 'POST', `/api/projects/${other}/forms`, bugForm({ status: undefined }), 409, 'form_limit');
  });
});

describe('the public form', () => {
  it('answers its definition to anyone with the link, only the allowed keys, and nothing of the team', async () => {
    const form = await createForm();
    const res = await anon('GET', `/api/public-forms/${tokenOf(form)}`);
    expect(res.statusCode, res.body).toBe(200);
    expectPublicHeaders(res);
    const body = res.json() as PublicFormDto;
    const allowed = new Set([
      '.name',
      '.intro',
      '.projectName',
      '.fields',
      '.fields[].key',
      '.fields[].label',
      '.fields[].help',
      '.fields[].required',
      '.fields[].type',
      '.fields[].options',
      '.fields[].options[].id',
      '.fields[].options[].label',
    ]);
    expect(keyPaths(body).filter((p) => !allowed.has(p))).toEqual([]);
    expect(body.projectName).toBe('Helpdesk');
    expect(body.fields.map((f) => [f.key, f.type, f.required])).toEqual([
      ['title', 'text', true],
      ['description', 'markdown', false],
      ['email', 'email', false],
      ['priority', 'priority', false],
      ['dueDate', 'date', false],
      [severity.id, 'select', false],
    ]);
    // No people, no emails, no team name, no ids but the custom field's and its options'.
    for (const secret of [olive.id, mia.id, mia.email, olive.email, teamId, teamName, projectId, form.id])
      expect(res.body).not.toContain(secret);
  });

  it('a submission makes the task in the status, with the assignee and creator, and a history only members see', async () => {
    const form = await createForm();
    const title = `Printer on fire ${randomBytes(3).toString('hex')}`;
    const high = severity.options.find((o) => o.name === 'High')!.id;
    published = [];
    const res = await submit(tokenOf(form), {
      title,
      description: '**Smoke** <script>alert(1)</script>',
      email: 'jane@example.com',
      priority: 'urgent',
      dueDate: '2027-01-15',
      [severity.id]: high,
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toEqual({ received: true });
    expectPublicHeaders(res);

    const [task] = await tasksTitled(title);
    expect(task).toMatchObject({
      projectId,
      status: 'in_progress',
      assigneeId: mia.id,
      creatorId: olive.id,
      priority: 'urgent',
      dueDate: '2027-01-15',
      // Markdown kept as given: the client sanitizes what it renders.
      description: '**Smoke** <script>alert(1)</script>',
      fields: { [severity.id]: high },
    });
    const history = await ok<ActivityListDto>(mia, 'GET', `/api/tasks/${task!.id}/activity`);
    expect(history.activity[0]).toMatchObject({
      field: 'submitted',
      actor: null,
      newValue: 'jane@example.com',
      newLabel: `Submitted via ${form.name}`,
    });
    await fails(sam, 'GET', `/api/tasks/${task!.id}/activity`, undefined, 404);
    // Realtime and webhooks as for any task.
    await until(() => published.some((e) => e.type === 'task.created' && e.taskId === task!.id), 5_000, 'the event');
    const readBack = await ok<TaskDto>(olive, 'GET', `/api/tasks/${task!.id}`);
    expect(readBack.title).toBe(title);
  });

  it('goes through the team’s webhooks like any new task', async () => {
    const [hook] = await ctx.database.db
      .insert(webhooks)
      .values({ teamId, url: 'https://93.184.216.34/hook', events: ['task.created'], secret: 'sealed', createdById: olive.id })
      .returning();
    try {
      const form = await createForm();
      const title = `Hooked ${randomBytes(3).toString('hex')}`;
      expect((await submit(tokenOf(form), { title })).statusCode).toBe(201);
      const deliveries = await ctx.database.db
        .select()
        .from(webhookDeliveries)
        .where(and(eq(webhookDeliveries.webhookId, hook!.id), eq(webhookDeliveries.eventType, 'task.created')));
      expect(deliveries.some((d) => d.body.includes(title))).toBe(true);
    } finally {
      await ctx.database.db.delete(webhooks).where(eq(webhooks.id, hook!.id));
    }
  });

  it('falls back to no assignee and the team owner as creator when those people left', async () => {
    const leaver = await createUser(ctx.app, { fullName: 'Lee Leaver' });
    const row = await insertMember(ctx.database.db, teamId, leaver, 'admin');
    const form = await createForm(bugForm({ assigneeId: leaver.id }), leaver);
    await ok(olive, 'DELETE', `/api/teams/${teamId}/members/${row.id}`, undefined, 204);
    const title = `After leaving ${randomBytes(3).toString('hex')}`;
    expect((await submit(tokenOf(form), { title })).statusCode).toBe(201);
    const [task] = await tasksTitled(title);
    expect(task).toMatchObject({ creatorId: olive.id, assigneeId: null });
  });

  it('the honeypot: any value is answered 201 and nothing is stored', async () => {
    const form = await createForm();
    const title = `Spam ${randomBytes(3).toString('hex')}`;
    const res = await submit(tokenOf(form), { title, email: 'bot@example.com' }, freshIp(), 'http://spam.example');
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ received: true });
    expect(await tasksTitled(title)).toEqual([]);
    expect(await ctx.database.db.select().from(mailOutbox).where(eq(mailOutbox.toEmail, 'bot@example.com'))).toEqual([]);
  });

  it('checks the values: a required one missing names its label, bad kinds and unknown keys are refused', async () => {
    const form = await createForm(
      bugForm({
        fields: [
          { key: 'title', label: 'Summary' },
          { key: 'email', label: 'Your email', required: true },
          { key: 'priority', label: 'Urgency' },
          { key: 'dueDate', label: 'Needed by' },
          { key: severity.id, label: 'How bad' },
        ],
      }),
    );
    const token = tokenOf(form);
    const missing = await submit(token, { title: 'No email' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error.message).toBe(fieldRequired('Your email'));
    expect(missing.json().error.fields).toEqual({ email: fieldRequired('Your email') });
    const noTitle = await submit(token, { title: '   ', email: 'a@example.com' });
    expect(noTitle.json().error.fields).toEqual({ title: fieldRequired('Summary') });
    const bad = await submit(token, {
      title: 'x',
      email: 'not an email',
      priority: 'whenever',
      dueDate: '2027-02-30',
      [severity.id]: 'no-such-option',
    });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().error.fields).sort()).toEqual(['dueDate', 'email', 'priority', severity.id].sort());
    expect(bad.json().error.fields[severity.id]).toContain('How bad');
    const unknown = await submit(token, { title: 'x', email: 'a@example.com', assigneeId: olive.id });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error.fields).toHaveProperty('values.assigneeId');
    const tooLong = await submit(token, { title: 'x'.repeat(201), email: 'a@example.com' });
    expect(tooLong.statusCode).toBe(400);
    // Over the body limit: 413.
    const huge = await submit(token, {
      title: 'x',
      email: 'a@example.com',
      description: 'y'.repeat(OUTSIDE_LIMITS.submissionBytes),
    });
    expect(huge.statusCode).toBe(413);
  });

  it('a closed form answers 410 with its text to the page and to a submission; opened again, it works', async () => {
    const form = await createForm();
    await ok(olive, 'PATCH', `/api/forms/${form.id}`, { open: false });
    const page = await anon('GET', `/api/public-forms/${tokenOf(form)}`);
    expect(page.statusCode).toBe(410);
    expect(page.json().error.message).toBe(OUTSIDE_TEXTS.formClosed);
    expectPublicHeaders(page);
    const title = `Too late ${randomBytes(3).toString('hex')}`;
    const sent = await submit(tokenOf(form), { title });
    expect(sent.statusCode).toBe(410);
    expect(await tasksTitled(title)).toEqual([]);
    await ok(olive, 'PATCH', `/api/forms/${form.id}`, { open: true });
    expect((await anon('GET', `/api/public-forms/${tokenOf(form)}`)).statusCode).toBe(200);
  });

  it('a reset link: the old one answers 404 at once, the new one works; an unknown one 404', async () => {
    const form = await createForm();
    const reset = await ok<FormDto>(olive, 'POST', `/api/forms/${form.id}/reset`);
    const old = await anon('GET', `/api/public-forms/${tokenOf(form)}`);
    expect(old.statusCode).toBe(404);
    expect(old.json().error.message).toBe(FORM_NOT_FOUND);
    expect((await submit(tokenOf(form), { title: 'old link' })).statusCode).toBe(404);
    expect((await anon('GET', `/api/public-forms/${tokenOf(reset)}`)).statusCode).toBe(200);
    expect((await anon('GET', `/api/public-forms/${randomBytes(24).toString('base64url')}`)).statusCode).toBe(404);
    expect((await anon('GET', '/api/public-forms/short')).statusCode).toBe(400);
  });

  it('limits submissions per IP per form: the 11th in 10 minutes is 429, another form or address still goes', async () => {
    const form = await createForm();
    const other = await createForm();
    const ip = freshIp();
    for (let i = 1; i <= 10; i++) expect((await submit(tokenOf(form), { title: `Burst ${i}` }, ip)).statusCode).toBe(201);
    const over = await submit(tokenOf(form), { title: 'Burst 11' }, ip);
    expect(over.statusCode).toBe(429);
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    expectPublicHeaders(over);
    // The honeypot and bad values spend from the same bucket (no free probing).
    expect((await submit(tokenOf(form), { title: 'x' }, ip, 'bot')).statusCode).toBe(429);
    expect((await submit(tokenOf(other), { title: 'Other form' }, ip)).statusCode).toBe(201);
    expect((await submit(tokenOf(form), { title: 'Other address' })).statusCode).toBe(201);
  });
});

describe('the per-IP limit and IPv6', () => {
  it('counts an IPv6 /64 as one client', async () => {
    const form = await createForm();
    for (let i = 1; i <= 10; i++)
      expect((await submit(tokenOf(form), { title: `Six ${i}` }, `2001:db8:40:1::${i.toString(16)}`)).statusCode).toBe(201);
    expect((await submit(tokenOf(form), { title: 'Six 11' }, '2001:db8:40:1::ffff')).statusCode).toBe(429);
    expect((await submit(tokenOf(form), { title: 'Other /64' }, '2001:db8:40:2::1')).statusCode).toBe(201);
  });
});

describe('the confirmation mail and the request status link', () => {
  it('goes through SMTP with a link that opens the request’s status (allowed keys only), which follows the task', async () => {
    const form = await createForm();
    const email = `req-${randomBytes(4).toString('hex')}@example.com`;
    const title = `Confirm me ${randomBytes(3).toString('hex')}`;
    expect((await submit(tokenOf(form), { title, email })).statusCode).toBe(201);
    const mail = await smtp.waitFor((m) => m.to.includes(email));
    expect(mail.text).toContain(title);
    const link = new RegExp(`${PUBLIC_URL}/requests/([A-Za-z0-9_-]{32})`).exec(mail.text);
    expect(link, mail.text).not.toBeNull();
    const token = link![1]!;
    const [stored] = await ctx.database.db.select().from(requestLinks).where(eq(requestLinks.email, email));
    expect(stored!.tokenHash).not.toBe(token);

    const res = await anon('GET', `/api/requests/${token}`);
    expect(res.statusCode, res.body).toBe(200);
    expectPublicHeaders(res);
    const body = res.json();
    expect(keyPaths(body).sort()).toEqual(
      ['.createdAt', '.projectName', '.statusCategory', '.statusName', '.title', '.updatedAt'].sort(),
    );
    expect(body).toMatchObject({ title, projectName: 'Helpdesk', statusName: 'In Progress', statusCategory: 'started' });
    const [task] = await tasksTitled(title);
    await ok(mia, 'PATCH', `/api/tasks/${task!.id}/status`, { status: 'completed' });
    expect((await anon('GET', `/api/requests/${token}`)).json()).toMatchObject({ statusName: 'Completed' });
    expect((await anon('GET', `/api/requests/${randomBytes(24).toString('base64url')}`)).statusCode).toBe(404);
    // The task deleted: its link goes with it.
    await ok(olive, 'DELETE', `/api/tasks/${task!.id}`, undefined, 204);
    expect((await anon('GET', `/api/requests/${token}`)).statusCode).toBe(404);
  });

  it('at most three confirmations an address an hour: the fourth request is made, its mail is not queued', async () => {
    const form = await createForm();
    const email = `flood-${randomBytes(4).toString('hex')}@example.com`;
    for (let i = 1; i <= 4; i++)
      expect((await submit(tokenOf(form), { title: `Flood ${email} ${i}`, email })).statusCode).toBe(201);
    const queued = await ctx.database.db.select().from(mailOutbox).where(eq(mailOutbox.toEmail, email));
    expect(queued).toHaveLength(3);
    expect(queued.every((m) => m.kind === 'request_received')).toBe(true);
    expect(await tasksTitled(`Flood ${email} 4`)).toHaveLength(1);
    // The limit is the address's, whatever its case.
    expect((await submit(tokenOf(form), { title: `Flood ${email} 5`, email: email.toUpperCase() })).statusCode).toBe(201);
    expect(await ctx.database.db.select().from(mailOutbox).where(eq(mailOutbox.toEmail, email.toUpperCase()))).toEqual([]);
  });

  it('no mail without an SMTP server (the log transport): the task only', async () => {
    const app: FastifyInstance = await buildApp({
      config: { ...ctx.config, mail: { ...ctx.config.mail, smtpUrl: null }, rateLimitEnabled: false },
      database: ctx.database,
    });
    await app.ready();
    try {
      const form = await createForm();
      const email = `nomail-${randomBytes(4).toString('hex')}@example.com`;
      const res = await app.inject({
        method: 'POST',
        url: `/api/public-forms/${tokenOf(form)}`,
        payload: { values: { title: `No mail ${email}`, email } },
      });
      expect(res.statusCode).toBe(201);
      expect(await tasksTitled(`No mail ${email}`)).toHaveLength(1);
      expect(await ctx.database.db.select().from(mailOutbox).where(eq(mailOutbox.toEmail, email))).toEqual([]);
    } finally {
      await app.close();
    }
  });
});

describe('the per-form limit and the live refresh', () => {
  it('limits a form to 100 submissions an hour from everyone: the 101st, from a fresh address, is 429', async () => {
    const form = await createForm();
    // Ten addresses, ten each (the per-IP limit), through the honeypot: both buckets spent, nothing stored.
    for (let a = 0; a < 10; a++) {
      const ip = freshIp();
      for (let i = 0; i < 10; i++) expect((await submit(tokenOf(form), { title: 'x' }, ip, 'bot')).statusCode).toBe(201);
    }
    const title = `Hundred and first ${randomBytes(3).toString('hex')}`;
    const over = await submit(tokenOf(form), { title });
    expect(over.statusCode).toBe(429);
    expect(await tasksTitled(title)).toEqual([]);
    // Another form of the same project has its own hundred.
    expect((await submit(tokenOf(await createForm()), { title })).statusCode).toBe(201);
  });

  it('a form created, changed and deleted tells the team’s open pages (project.updated)', async () => {
    published = [];
    const form = await createForm();
    await ok(adam, 'PATCH', `/api/forms/${form.id}`, { open: false });
    await ok(adam, 'DELETE', `/api/forms/${form.id}`, undefined, 204);
    type ProjectEvent = Extract<DomainEvent, { projectId: string }> & { type: 'project.updated' };
    const updates = () => published.filter((e): e is ProjectEvent => e.type === 'project.updated' && e.projectId === projectId);
    await until(() => updates().length >= 3, 5_000, 'three project.updated events');
    expect(updates().every((e) => e.teamId === teamId)).toBe(true);
  });
});

void call;
