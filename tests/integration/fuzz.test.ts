import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NOTIFICATION_PREFERENCE_KINDS, OUTSIDE_LIMITS } from '../../src/domain/constants';
import { analyticsDto, timeAnalyticsDto } from '../../src/domain/schemas/analytics';
import { occurrenceListDto } from '../../src/domain/schemas/repeat';
import { timeEntryListDto } from '../../src/domain/schemas/time';
import { timelineAnswer } from '../../src/domain/schemas/timeline';
import { TRANSFER_LIMITS } from '../../src/domain/schemas/transfer';
import type { StatusListDto } from '../../src/domain/schemas/workflow';
import { insertDefaultStatuses } from '../../src/server/db/project-statuses';
import {
  customFields,
  notes,
  noteVersions,
  projects,
  savedViews,
  taskChecklistItems,
  taskComments,
  tasks,
  teamInvitations,
  timeEntries,
  users,
  webhookDeliveries,
  webhooks,
} from '../../src/server/db/schema';
import { createUser, insertMember, insertTeam, uniqueEmail, type TestUser } from '../factories';
import { setupTestApp } from '../helpers/app';

/**
 * Property-based fuzzing of every JSON route of the OpenAPI document: wrong types, huge strings,
 * deep nesting, `__proto__` / `constructor`, and mass-assignment keys (owner_id, role, progress,
 * creator_id...). Never a 500; nothing from an unknown key reaches the database; over 1 MiB → 413.
 * FUZZ_BODIES sets the total (default 10,500 per run).
 */

// With an intake domain (issue 40): a valid intake body reaches the write, not the 409 of a server without mail in.
const ctx = setupTestApp({ inbound: { domain: 'in.fuzz.test', smtpPort: null, imapUrl: null, imapPollMs: 60_000 } });

const TOTAL = Number(process.env.FUZZ_BODIES) || 10_500;
const HOSTILE_KEYS = [
  'owner_id',
  'ownerId',
  'role',
  'progress',
  'creator_id',
  'creatorId',
  '__proto__',
  'constructor',
  'prototype',
  'isActive',
  'is_active',
  'id',
  'version',
  'myRole',
  'user_id',
  'userId',
] as const;

interface World {
  caller: TestUser;
  mallory: { id: string };
  teamId: string;
  memberRowId: string;
  projectId: string;
  taskId: string;
  invitationId: string;
  targetUserId: string;
  /** The caller's comment and a checklist item on the task. */
  commentId: string;
  checklistItemId: string;
  /** The one sub-task of `taskId` (issue 37). */
  subtaskId: string;
  /** A saved view of the caller's, shared with the team. */
  viewId: string;
  /** A webhook of the team and one of its deliveries; a note of the team and one of its versions. */
  webhookId: string;
  deliveryId: string;
  noteId: string;
  noteVersionId: string;
  /** The project's Review status (the target of the status routes) and the others, in order. */
  statusId: string;
  statusIds: string[];
  /** A select field of the team (issue 38): the target of the field routes. */
  fieldId: string;
  /** The caller's time entry on the task (issue 39): the target of the entry routes. */
  timeEntryId: string;
  /** A request form of the project (issue 40) and its public token: the target of the form routes. */
  formId: string;
  formToken: string;
}

/** A body that passes validation, per route: the fuzzer mutates it, adds keys to it, or ignores it. */
const VALID: Record<string, (w: World) => Record<string, unknown>> = {
  'POST /api/auth/signup': () => ({ email: uniqueEmail('fz'), password: 'long enough pw', fullName: 'Fuzz Person' }),
  'POST /api/auth/token': (w) => ({ email: w.caller.email, password: w.caller.password }),
  'POST /api/auth/google/exchange': () => ({ code: 'abcdefghijklmnop' }),
  'POST /api/auth/google/error': () => ({ error_description: 'abcdefghijklmnop' }),
  'POST /api/auth/forgot-password': () => ({ email: uniqueEmail('fzf') }),
  'POST /api/auth/reset-password': () => ({ token: 'abcdefghijklmnop', password: 'long enough pw' }),
  'POST /api/auth/verify-email': () => ({ token: 'abcdefghijklmnop' }),
  'POST /api/teams': () => ({ name: 'Fuzz team', description: 'x' }),
  'PATCH /api/teams/{id}': () => ({ name: 'Fuzz team renamed' }),
  'PATCH /api/teams/{id}/members/{memberId}': () => ({ role: 'admin' }),
  'POST /api/teams/{id}/invitations': () => ({ email: uniqueEmail('fzi'), role: 'member' }),
  'POST /api/invitations/{id}/respond': () => ({ accept: false }),
  'POST /api/projects': (w) => ({ name: 'Fuzz project', teamId: w.teamId, status: 'active' }),
  'PATCH /api/projects/{id}': () => ({ name: 'Fuzz project renamed' }),
  'POST /api/tasks': (w) => ({ title: 'Fuzz task', projectId: w.projectId, tags: ['a'], priority: 'high' }),
  // Without a status the flag is ignored; a fuzzed status of the completed category completes the sub-task with it.
  'PATCH /api/tasks/{id}': () => ({ title: 'Fuzz task renamed', completeSubtasks: true }),
  'PATCH /api/tasks/{id}/status': () => ({ status: 'review' }),
  'PATCH /api/admin/users/{id}': () => ({ isActive: true }),
  // Issue 41: a team's access rules, a project's guests (the target is no guest: 400), SSO settings, SCIM tokens.
  'PATCH /api/teams/{id}/access': () => ({ viewersMayComment: true }),
  'POST /api/projects/{id}/guests': (w) => ({ userId: w.targetUserId }),
  'PUT /api/admin/sso': () => ({ enabled: false, idpInitiated: false }),
  'POST /api/admin/scim-tokens': () => ({ name: 'Fuzz SCIM' }),
  'PATCH /api/me/profile': () => ({ fullName: 'Fuzz Caller', timeZone: 'Europe/Paris' }),
  'POST /api/me/email': (w) => ({ email: uniqueEmail('fzm'), currentPassword: w.caller.password }),
  'POST /api/auth/confirm-email-change': () => ({ token: 'abcdefghijklmnop' }),
  // The same password again: a valid change that leaves the caller able to sign in (this session is kept).
  'POST /api/me/password': (w) => ({ currentPassword: w.caller.password, password: w.caller.password }),
  // The caller's own session stays; its other sessions (none in this world) and, when asked, its tokens go.
  'POST /api/me/sessions/revoke-others': () => ({ revokeTokens: false }),
  // The caller owns the fuzz team: a valid deletion is refused (409), so the caller survives the run.
  'POST /api/me/delete': (w) => ({ email: w.caller.email, currentPassword: w.caller.password }),
  'PUT /api/me/notification-preferences': () => ({
    preferences: Object.fromEntries(NOTIFICATION_PREFERENCE_KINDS.map((k) => [k, { inApp: true, email: false }])),
    digestEnabled: false,
  }),
  'POST /api/me/2fa/enable': () => ({ code: '123456' }),
  'POST /api/me/2fa/disable': () => ({ code: '123456' }),
  'POST /api/me/2fa/setup': (w) => ({ currentPassword: w.caller.password }),
  'POST /api/me/2fa/recovery-codes': (w) => ({ currentPassword: w.caller.password }),
  // A member id of nobody: a valid transfer would take the fuzz team from the caller.
  'POST /api/teams/{id}/transfer-ownership': () => ({ memberId: '00000000-0000-4000-8000-000000000000' }),
  'POST /api/tasks/{id}/comments': (w) => ({ body: `Fuzz comment for <@${w.targetUserId}>` }),
  'PATCH /api/tasks/{id}/comments/{itemId}': () => ({ body: 'Fuzz edit' }),
  'PUT /api/tasks/{id}/watch': () => ({ watching: true }),
  'POST /api/tasks/{id}/checklist': () => ({ title: 'Fuzz item' }),
  'PATCH /api/tasks/{id}/checklist/{itemId}': () => ({ done: true }),
  'PUT /api/tasks/{id}/checklist/order': (w) => ({ ids: [w.checklistItemId] }),
  'PUT /api/tasks/{id}/subtasks/order': (w) => ({ ids: [w.subtaskId] }),
  // A blocker of the same team (issue 37): the first body adds it, the rest are 409 (already) or the fuzzer's 400s.
  'POST /api/tasks/{id}/dependencies': (w) => ({ blockedBy: w.subtaskId }),
  'POST /api/views': (w) => ({ name: 'Fuzz view', teamId: w.teamId, config: { status: 'todo', q: 'x', view: 'list' } }),
  'PATCH /api/views/{id}': () => ({ name: 'Fuzz view renamed', config: { sort: 'due', dir: 'asc' } }),
  'POST /api/me/api-tokens': () => ({ name: 'Fuzz token', expiresInDays: 30, scope: 'read' }),
  // An address literal: no name to resolve (this machine has no outside DNS), and public, so the SSRF guard admits it.
  'POST /api/teams/{id}/webhooks': () => ({ url: 'https://93.184.216.34/fuzz', events: ['task.created'], description: 'Fuzz' }),
  'PATCH /api/teams/{id}/webhooks/{webhookId}': () => ({ description: 'Fuzz hook', active: false }),
  'POST /api/teams/{id}/import/trello': () => ({
    board: { name: 'Fuzz board', lists: [{ id: 'l1', name: 'Doing' }], cards: [{ id: 'c1', name: 'Card', idList: 'l1' }] },
    mapping: { l1: 'in_progress' },
    dryRun: true,
  }),
  'POST /api/teams/{id}/import/csv': () => ({ csv: 'Title,Status\n"Fuzz, quoted",Done\n', dryRun: true }),
  'POST /api/teams/import': () => ({
    format: 'crewboard-export',
    version: 1,
    exportedAt: new Date().toISOString(),
    team: { name: 'Fuzz import', description: null },
    members: [],
    projects: [],
    tasks: [],
    notes: [],
  }),
  'POST /api/notes': (w) => ({ teamId: w.teamId, title: 'Fuzz note', projectId: w.projectId }),
  'PATCH /api/notes/{id}': () => ({ title: 'Fuzz note renamed', pinned: true }),
  'POST /api/projects/{id}/statuses': () => ({ name: 'Fuzz QA', category: 'started', color: '#7c3aed', wipLimit: 3 }),
  'PUT /api/projects/{id}/statuses/order': (w) => ({ ids: [...w.statusIds].reverse() }),
  'PATCH /api/statuses/{id}': () => ({ name: 'Fuzz review', category: 'started', color: '#abcdef', wipLimit: null }),
  // In Progress as the target: a valid delete takes Review out, and the status routes answer 404 after it.
  'DELETE /api/statuses/{id}': (w) => ({ moveTo: w.statusIds[1] }),
  'POST /api/teams/{id}/fields': (w) => ({
    name: 'Fuzz field',
    type: 'select',
    options: [{ name: 'Fuzz option', color: '#7c3aed' }],
    projectIds: [w.projectId],
    showOnCard: true,
  }),
  'PATCH /api/fields/{id}': () => ({ name: 'Fuzz field renamed', showOnCard: true, archived: false, position: 0 }),
  // Time tracking (issue 39): an entry, its edit, and the caller's timer on the task.
  'POST /api/tasks/{id}/time-entries': () => ({ date: '2026-11-02', minutes: 90, note: 'Fuzz' }),
  'PATCH /api/time-entries/{id}': () => ({ date: '2026-11-03', minutes: 45, note: null }),
  'POST /api/me/timer': (w) => ({ taskId: w.taskId }),
  // Request forms (issue 40): a form, its edit, and a submission to its public link.
  'POST /api/projects/{id}/forms': () => ({
    name: 'Fuzz form',
    intro: 'x',
    fields: [
      { key: 'title', label: 'Title', required: true },
      { key: 'email', label: 'Email', help: 'x', required: false },
    ],
    status: 'todo',
    assigneeId: null,
    open: true,
  }),
  'PATCH /api/forms/{id}': () => ({ name: 'Fuzz form renamed', open: true, status: 'review' }),
  'POST /api/public-forms/{token}': () => ({ values: { title: 'Fuzz request', email: 'fuzz@example.com' }, website: '' }),
  // A project's public board link (issue 40): on, with one option changed.
  'PUT /api/projects/{id}/share': () => ({ enabled: true, showPeople: true }),
  // A project's intake address (issue 40, tasks by email): on.
  'POST /api/projects/{id}/intake': () => ({ enabled: true }),
};

/** Routes that take more than the server's 1 MiB (imports): their own limit, else 1 MiB. */
const BODY_LIMITS: Record<string, number> = {
  'POST /api/teams/{id}/import/trello': TRANSFER_LIMITS.bodyBytes,
  'POST /api/teams/{id}/import/csv': TRANSFER_LIMITS.bodyBytes,
  'POST /api/teams/import': TRANSFER_LIMITS.bodyBytes,
  'POST /api/public-forms/{token}': OUTSIDE_LIMITS.submissionBytes,
};

function urlFor(route: string, w: World): string {
  const [, path] = route.split(' ') as [string, string];
  const id = path.startsWith('/api/teams/')
    ? w.teamId
    : path.startsWith('/api/projects/')
      ? w.projectId
      : path.startsWith('/api/tasks/')
        ? w.taskId
        : path.startsWith('/api/invitations/')
          ? w.invitationId
          : path.startsWith('/api/views/')
            ? w.viewId
            : path.startsWith('/api/notes/')
              ? w.noteId
              : path.startsWith('/api/statuses/')
                ? w.statusId
                : path.startsWith('/api/fields/')
                  ? w.fieldId
                  : path.startsWith('/api/time-entries/')
                    ? w.timeEntryId
                    : path.startsWith('/api/forms/')
                      ? w.formId
                      : w.targetUserId;
  const itemId = path.includes('/comments/') ? w.commentId : w.checklistItemId;
  const url = path
    .replace('{id}', id)
    .replace('{memberId}', w.memberRowId)
    .replace('{itemId}', itemId)
    .replace('{webhookId}', w.webhookId)
    .replace('{deliveryId}', w.deliveryId)
    .replace('{versionId}', w.noteVersionId)
    .replace('{token}', w.formToken);
  return route === 'POST /api/auth/token' ? `${url}?grant_type=password` : url;
}

const nest = (depth: number, leaf: string) => '['.repeat(depth) + leaf + ']'.repeat(depth);
const nestObj = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

/** Values of every kind, hostile ones included, as JSON text. */
function valueArb(w: World): fc.Arbitrary<string> {
  return fc.oneof(
    fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v) ?? 'null'),
    fc.string({ maxLength: 40 }).map((s) => JSON.stringify(s)),
    fc.string({ unit: 'binary', maxLength: 40 }).map((s) => JSON.stringify(s)),
    fc.integer({ min: 1_000, max: 300_000 }).map((n) => JSON.stringify('A'.repeat(n))),
    fc.integer({ min: 20, max: 3_000 }).map((d) => nest(d, '1')),
    fc.integer({ min: 20, max: 1_000 }).map((d) => nestObj(d)),
    fc.constantFrom(
      'null',
      'true',
      '0',
      '-1',
      '1e308',
      '9007199254740993',
      '""',
      '"   "',
      '{}',
      '[]',
      '"<script>alert(1)</script>"',
      '"\\u0000"',
      '"2024-02-30"',
      '"not-a-uuid"',
      '"00000000-0000-0000-0000-000000000000"',
      JSON.stringify(w.mallory.id),
      JSON.stringify(w.teamId),
      JSON.stringify(w.projectId),
      '"owner"',
      '"super_admin"',
      '"admin"',
      '77',
      '{"__proto__":{"polluted":true}}',
      '{"constructor":{"prototype":{"polluted":true}}}',
    ),
  );
}

/** Mass-assignment values: if any of these is ever stored, the test sees it. */
function hostileValue(key: string, w: World): string {
  if (key === 'role') return '"owner"';
  if (key === 'progress') return '77';
  if (key === 'isActive' || key === 'is_active') return 'false';
  if (key === '__proto__' || key === 'constructor' || key === 'prototype')
    return '{"polluted":true,"prototype":{"polluted":true}}';
  if (key === 'version') return '"9"';
  return JSON.stringify(w.mallory.id);
}

const obj = (entries: [string, string][]) => `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`;

function bodyArb(route: string, w: World, keys: string[]): fc.Arbitrary<string> {
  const value = valueArb(w);
  const anyKey = fc.oneof(fc.constantFrom(...keys, ...HOSTILE_KEYS), fc.string({ maxLength: 12 }));
  const valid = () => Object.entries(VALID[route]!(w)).map(([k, v]) => [k, JSON.stringify(v)] as [string, string]);
  return fc.oneof(
    // A valid body plus one mass-assignment key.
    fc
      .constantFrom(...HOSTILE_KEYS)
      .map((k) => obj([...valid(), [k, hostileValue(k, w)]])),
    // A valid body with one field given a random value.
    fc
      .tuple(fc.constantFrom(...keys), value)
      .map(([k, v]) => obj([...valid().filter(([key]) => key !== k), [k, v]])),
    // Random keys (known, hostile, arbitrary) with random values.
    fc
      .array(fc.tuple(anyKey, value), { maxLength: 6 })
      .map(obj),
    // Not an object at all.
    value,
    // Broken JSON.
    fc.constantFrom('{', '{"a":}', '[1,2', 'nul', '{"a":1,}', '\u0000', '{"__proto__":{"x":1}, "__proto__":{"y":1}}'),
  );
}

async function seedWorld(): Promise<World> {
  const db = ctx.database.db;
  const caller = await createUser(ctx.app, { fullName: 'Fuzz Caller' });
  await db.update(users).set({ role: 'super_admin' }).where(eq(users.id, caller.id));
  const [mallory] = await db
    .insert(users)
    .values({ email: uniqueEmail('mallory'), fullName: 'Mallory' })
    .returning();
  const [target] = await db
    .insert(users)
    .values({ email: uniqueEmail('target'), fullName: 'Target' })
    .returning();
  const team = await insertTeam(db, caller, 'Fuzz home');
  const member = await insertMember(db, team.id, target!, 'member');
  const [project] = await db.insert(projects).values({ name: 'Fuzz project', teamId: team.id, ownerId: caller.id }).returning();
  await insertDefaultStatuses(db, [project!.id]);
  const { statuses } = (
    await ctx.app.inject({ url: `/api/projects/${project!.id}/statuses`, headers: caller.auth })
  ).json() as StatusListDto;
  const [task] = await db.insert(tasks).values({ title: 'Fuzz task', projectId: project!.id, creatorId: caller.id }).returning();
  const [comment] = await db.insert(taskComments).values({ taskId: task!.id, authorId: caller.id, body: 'Fuzz' }).returning();
  const [item] = await db.insert(taskChecklistItems).values({ taskId: task!.id, title: 'Fuzz', position: 1 }).returning();
  const [timeEntry] = await db
    .insert(timeEntries)
    .values({ taskId: task!.id, userId: caller.id, date: '2026-11-02', minutes: 30 })
    .returning();
  const [subtask] = await db
    .insert(tasks)
    .values({ title: 'Fuzz sub-task', projectId: project!.id, creatorId: caller.id, parentId: task!.id, subtaskPosition: 0 })
    .returning();
  const [view] = await db
    .insert(savedViews)
    .values({ ownerId: caller.id, teamId: team.id, name: 'Fuzz view', config: {} })
    .returning();
  const [invitation] = await db
    .insert(teamInvitations)
    .values({
      teamId: team.id,
      teamName: team.name,
      email: caller.email,
      invitedBy: caller.id,
      inviterName: 'x',
      inviterEmail: caller.email,
    })
    .returning();
  const [hook] = await db
    .insert(webhooks)
    .values({
      teamId: team.id,
      url: 'https://93.184.216.34/hook',
      events: ['task.created'],
      secret: 'sealed',
      createdById: caller.id,
    })
    .returning();
  const [delivery] = await db
    .insert(webhookDeliveries)
    .values({ webhookId: hook!.id, messageId: 'msg_fuzz', eventType: 'task.created', body: '{}', deliveredAt: new Date() })
    .returning();
  const [note] = await db.insert(notes).values({ teamId: team.id, title: 'Fuzz note', authorId: caller.id }).returning();
  const [field] = await db
    .insert(customFields)
    .values({
      teamId: team.id,
      name: 'Fuzz severity',
      type: 'select',
      options: [{ id: randomUUID(), name: 'High', color: '#dc2626' }],
    })
    .returning();
  const [version] = await db
    .insert(noteVersions)
    .values({ noteId: note!.id, kind: 'manual', state: Buffer.from([0, 0]), title: 'Fuzz note', createdById: caller.id })
    .returning();
  const formRes = await ctx.app.inject({
    method: 'POST',
    url: `/api/projects/${project!.id}/forms`,
    headers: caller.auth,
    payload: { name: 'Fuzz form', fields: [{ key: 'title', label: 'Title' }] },
  });
  const form = formRes.json() as { id: string; url: string };
  return {
    webhookId: hook!.id,
    deliveryId: String(delivery!.id),
    noteId: note!.id,
    noteVersionId: version!.id,
    caller,
    mallory: mallory!,
    teamId: team.id,
    memberRowId: member.id,
    projectId: project!.id,
    taskId: task!.id,
    invitationId: invitation!.id,
    targetUserId: target!.id,
    commentId: comment!.id,
    checklistItemId: item!.id,
    subtaskId: subtask!.id,
    viewId: view!.id,
    statusId: statuses.find((st) => st.key === 'review')!.id,
    statusIds: statuses.map((st) => st.id),
    fieldId: field!.id,
    timeEntryId: timeEntry!.id,
    formId: form.id,
    formToken: form.url.split('/forms/')[1]!,
  };
}

describe('fuzzing every JSON route', () => {
  it(`never answers 500 and never stores an unknown key (${TOTAL} bodies)`, async () => {
    const w = await seedWorld();
    const doc = (await ctx.app.inject('/api/openapi.json')).json() as {
      paths: Record<
        string,
        Record<
          string,
          { requestBody?: { content?: Record<string, { schema?: { properties?: object; anyOf?: { properties?: object }[] } }> } }
        >
      >;
    };
    const routes: { route: string; keys: string[] }[] = [];
    for (const [path, ops] of Object.entries(doc.paths)) {
      // SCIM (issue 41) takes only its own token and answers in its own error shape: scim.test.ts fuzzes it.
      if (path.startsWith('/scim/')) continue;
      for (const [method, op] of Object.entries(ops)) {
        const schema = op.requestBody?.content?.['application/json']?.schema;
        if (!schema) continue;
        const props = [schema.properties, ...(schema.anyOf ?? []).map((s) => s.properties)].filter(Boolean) as object[];
        routes.push({ route: `${method.toUpperCase()} ${path}`, keys: [...new Set(props.flatMap((p) => Object.keys(p)))] });
      }
    }
    // A JSON route without a valid sample would be fuzzed blind: add it to VALID.
    expect(routes.map((r) => r.route).filter((r) => !VALID[r])).toEqual([]);
    expect(routes.length).toBeGreaterThan(10);

    const perRoute = Math.ceil(TOTAL / routes.length);
    const failures: string[] = [];
    const statuses = new Map<number, number>();
    let sent = 0;
    const seed = Number(process.env.FUZZ_SEED) || Date.now() % 1_000_000;
    const started = Date.now();
    for (const { route, keys } of routes) {
      const [method] = route.split(' ');
      // Sampled (seeded, logged) and sent 8 at a time: PostgreSQL serves them in parallel.
      const samples = fc.sample(bodyArb(route, w, keys.length ? keys : ['x']), { numRuns: perRoute, seed: seed + sent });
      for (let i = 0; i < samples.length; i += 8) {
        await Promise.all(
          samples.slice(i, i + 8).map(async (payload) => {
            const res = await ctx.app.inject({
              method: method as 'POST',
              url: urlFor(route, w),
              headers: { ...w.caller.auth, 'content-type': 'application/json' },
              payload,
            });
            sent++;
            statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
            if (res.statusCode >= 500)
              failures.push(`${route} ${res.statusCode} ${res.body.slice(0, 200)} <- ${payload.slice(0, 200)}`);
            if (res.statusCode >= 400) {
              const error = (res.json() as { error?: { code?: string; message?: string } }).error;
              if (typeof error?.code !== 'string' || typeof error?.message !== 'string')
                failures.push(`${route}: bad error shape ${res.body.slice(0, 200)}`);
            }
          }),
        );
      }
    }
    console.log(
      `fuzz (seed ${seed}): ${sent} bodies over ${routes.length} routes in ${Date.now() - started} ms, statuses ${JSON.stringify(Object.fromEntries(statuses))}, ${failures.length} failures`,
    );
    expect(failures).toEqual([]);
    expect(sent).toBeGreaterThanOrEqual(TOTAL);

    // Nothing from a mass-assignment key was stored. (Only the admin route's target may be
    // deactivated: isActive is that route's own field.)
    const db = ctx.database.db;
    const count = async (q: ReturnType<typeof sql>) =>
      Number(((await db.execute(q)) as unknown as { rows: { n: number }[] }).rows[0]!.n);
    expect(await count(sql`select count(*)::int n from teams where owner_id = ${w.mallory.id}`)).toBe(0);
    expect(await count(sql`select count(*)::int n from projects where owner_id = ${w.mallory.id}`)).toBe(0);
    expect(
      await count(sql`select count(*)::int n from tasks where creator_id = ${w.mallory.id} or assignee_id = ${w.mallory.id}`),
    ).toBe(0);
    expect(await count(sql`select count(*)::int n from team_members where user_id = ${w.mallory.id}`)).toBe(0);
    expect(await count(sql`select count(*)::int n from users where role = 'super_admin'`)).toBe(1);
    expect(await count(sql`select count(*)::int n from users where is_active = false and id <> ${w.targetUserId}`)).toBe(0);
    expect(
      await count(
        sql`select count(*)::int n from team_members m join teams t on t.id = m.team_id where m.role = 'owner' and m.user_id <> t.owner_id`,
      ),
    ).toBe(0);
    expect(await count(sql`select count(*)::int n from teams where version > 1000`)).toBe(0);
    // Progress is only ever derived from the tasks.
    expect(
      await count(sql`select count(*)::int n from projects p
        where (select row(coalesce(sum(c.n) filter (where c.status = 'todo'), 0), coalesce(sum(c.n) filter (where c.status = 'in_progress'), 0),
              coalesce(sum(c.n) filter (where c.status = 'review'), 0), coalesce(sum(c.n) filter (where c.status = 'completed'), 0))
            from project_status_counts c where c.project_id = p.id)
          is distinct from (select row(count(*) filter (where t.status = 'todo'), count(*) filter (where t.status = 'in_progress'),
            count(*) filter (where t.status = 'review'), count(*) filter (where t.status = 'completed'))
            from tasks t where t.project_id = p.id)`),
    ).toBe(0);
    // No prototype was polluted.
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getOwnPropertyNames(Object.prototype)).not.toContain('polluted');
  }, 900_000);

  it('answers 413 to a body over its limit (1 MiB, imports 20 MiB) on every JSON route', async () => {
    const w = await seedWorld();
    for (const route of Object.keys(VALID)) {
      const [method] = route.split(' ');
      const big = JSON.stringify({ name: 'x'.repeat((BODY_LIMITS[route] ?? 1024 * 1024) + 10) });
      const res = await ctx.app.inject({
        method: method as 'POST',
        url: urlFor(route, w),
        headers: { ...w.caller.auth, 'content-type': 'application/json' },
        payload: big,
      });
      expect(res.statusCode, route).toBe(413);
      expect(res.json().error.code).toBe('payload_too_large');
    }
  });
});

describe('fuzzing the query string of GET /api/auth/link-status', () => {
  it('never answers 500, answers 400 with the error shape or 200 { valid: false } to made-up links', async () => {
    const text = fc.oneof(
      fc.string({ maxLength: 60 }),
      fc.string({ unit: 'binary', maxLength: 60 }),
      fc.integer({ min: 150, max: 5_000 }).map((n) => 'A'.repeat(n)),
      fc.constantFrom('reset_password', 'verify_email', 'change_email', '__proto__', 'constructor', '', '%00', '[]'),
    );
    const param = fc.tuple(fc.constantFrom('purpose', 'token', '__proto__', 'constructor', 'token[]', 'purpose[a]', 'x'), text);
    const queries = fc.sample(fc.array(param, { maxLength: 5 }), { numRuns: 400, seed: Number(process.env.FUZZ_SEED) || 35 });
    queries.push([
      ['purpose', 'reset_password'],
      ['token', 'abcdefghijklmnop'],
    ]);
    const failures: string[] = [];
    let known = 0;
    for (const pairs of queries) {
      const qs = pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
      const res = await ctx.app.inject({ method: 'GET', url: `/api/auth/link-status?${qs}` });
      if (res.statusCode === 200) {
        if (res.body !== '{"valid":false}') failures.push(`${qs.slice(0, 200)} -> 200 ${res.body.slice(0, 200)}`);
        known++;
      } else if (res.statusCode !== 400 || typeof res.json().error?.code !== 'string') {
        failures.push(`${qs.slice(0, 200)} -> ${res.statusCode} ${res.body.slice(0, 200)}`);
      }
    }
    expect(failures).toEqual([]);
    expect(known).toBeGreaterThan(0);
  });
});

describe('fuzzing the query string of GET /api/timeline', () => {
  it('never answers 500: 200 in the contract, or 400 / 404 with the error shape', async () => {
    const caller = await createUser(ctx.app);
    const teamId = (await insertTeam(ctx.database.db, caller)).id;
    const as = (method: 'GET' | 'POST', url: string, payload?: Record<string, unknown>) =>
      ctx.app.inject({ method, url, payload, headers: caller.auth });
    const projectId = (await as('POST', '/api/projects', { name: 'Fuzz timeline', teamId })).json().id as string;
    await as('POST', '/api/tasks', { title: 'Dated', projectId, startDate: '2030-03-01', dueDate: '2030-03-09' });
    await as('POST', '/api/tasks', { title: 'Undated', projectId });
    const day = fc
      .date({ min: new Date('1900-01-01'), max: new Date('2200-12-31'), noInvalidDate: true })
      .map((d) => d.toISOString().slice(0, 10));
    const dateish = fc.oneof(
      day,
      fc.string({ maxLength: 30 }),
      fc.constantFrom('2030-02-30', '0000-01-01', '0001-01-01', '9999-12-31', '2030-1-1', '', '__proto__', '[]'),
    );
    const id = fc.oneof(fc.uuid(), fc.constantFrom(teamId, projectId), fc.string({ maxLength: 40 }));
    const param = fc.oneof(
      fc.tuple(fc.constantFrom('from', 'to'), dateish),
      fc.tuple(fc.constantFrom('teamId', 'projectId'), id),
      fc.tuple(fc.constantFrom('__proto__', 'constructor', 'from[]', 'to[a]', 'limit', 'x'), fc.string({ maxLength: 30 })),
    );
    const queries = fc.sample(fc.array(param, { maxLength: 6 }), { numRuns: 400, seed: Number(process.env.FUZZ_SEED) || 37 });
    queries.push([
      ['from', '2030-01-01'],
      ['to', '2030-12-31'],
      ['projectId', projectId],
    ]);
    const failures: string[] = [];
    let answered = 0;
    for (const pairs of queries) {
      const qs = pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
      const res = await as('GET', `/api/timeline?${qs}`);
      if (res.statusCode === 200) {
        if (!timelineAnswer.safeParse(res.json()).success) failures.push(`${qs.slice(0, 200)} -> 200 ${res.body.slice(0, 200)}`);
        answered++;
      } else if (![400, 404].includes(res.statusCode) || typeof res.json().error?.code !== 'string') {
        failures.push(`${qs.slice(0, 200)} -> ${res.statusCode} ${res.body.slice(0, 200)}`);
      }
    }
    expect(failures).toEqual([]);
    expect(answered).toBeGreaterThan(0);
  });
});

describe('fuzzing repeat (issue 39): the occurrences query and `repeat` bodies on POST and PATCH /api/tasks', () => {
  it('never answers 500: 200/201 in the contract, or 400 / 404 with the error shape', async () => {
    const caller = await createUser(ctx.app);
    const teamId = (await insertTeam(ctx.database.db, caller)).id;
    const as = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: unknown) =>
      ctx.app.inject({ method, url, payload: payload as never, headers: caller.auth });
    const projectId = (await as('POST', '/api/projects', { name: 'Fuzz repeat', teamId })).json().id as string;
    const taskId = (await as('POST', '/api/tasks', { title: 'Repeating', projectId, dueDate: '2030-03-04' })).json().id as string;
    const seed = Number(process.env.FUZZ_SEED) || 39;
    const part = fc.oneof(
      fc.constantFrom('FREQ=DAILY', 'FREQ=WEEKLY', 'FREQ=MONTHLY', 'FREQ=YEARLY', 'FREQ=HOURLY', 'INTERVAL=2', 'INTERVAL=0'),
      fc.constantFrom('BYDAY=MO,FR', 'BYDAY=XX', 'BYMONTHDAY=31', 'BYMONTHDAY=28,29,30,31', 'BYSETPOS=-1', 'COUNT=3'),
      fc.constantFrom('COUNT=99999999', 'UNTIL=20301231', 'UNTIL=20300230', 'UNTIL=2030', 'RRULE:FREQ=DAILY', '=', ';;'),
      fc.string({ maxLength: 20 }),
    );
    const rule = fc.oneof(
      fc.array(part, { maxLength: 5 }).map((p) => p.join(';')),
      fc.string({ maxLength: 250 }),
      fc.integer(),
    );
    const repeat = fc.oneof(
      fc.constant(null),
      fc.record(
        {
          rule,
          mode: fc.constantFrom('on_completion', 'on_schedule', 'sometimes', ''),
          timezone: fc.constantFrom('UTC', 'Europe/Berlin', 'America/New_York', 'Mars/Base', '+01:00', ''),
          extra: fc.string({ maxLength: 5 }),
        },
        { requiredKeys: [] },
      ),
      fc.string({ maxLength: 10 }),
    );
    const failures: string[] = [];
    let made = 0;
    for (const body of fc.sample(repeat, { numRuns: 250, seed })) {
      const res =
        made % 2 === 0
          ? await as('POST', '/api/tasks', { title: 'Fuzz', projectId, dueDate: '2030-03-04', repeat: body })
          : await as('PATCH', `/api/tasks/${taskId}`, { repeat: body });
      made++;
      if ([200, 201].includes(res.statusCode)) {
        const task = res.json();
        if (body === null ? task.repeat !== null : task.repeat === undefined)
          failures.push(`${JSON.stringify(body)} -> ${res.body.slice(0, 200)}`);
      } else if (res.statusCode !== 400 || typeof res.json().error?.code !== 'string') {
        failures.push(`${JSON.stringify(body).slice(0, 200)} -> ${res.statusCode} ${res.body.slice(0, 200)}`);
      }
    }
    const day = fc
      .date({ min: new Date('1900-01-01'), max: new Date('2200-12-31'), noInvalidDate: true })
      .map((d) => d.toISOString().slice(0, 10));
    const dateish = fc.oneof(day, fc.string({ maxLength: 30 }), fc.constantFrom('2030-02-30', '0000-01-01', '9999-12-31', ''));
    const id = fc.oneof(fc.uuid(), fc.constantFrom(teamId, projectId), fc.string({ maxLength: 40 }));
    const param = fc.oneof(
      fc.tuple(fc.constantFrom('from', 'to'), dateish),
      fc.tuple(fc.constantFrom('teamId', 'projectId'), id),
      fc.tuple(fc.constantFrom('__proto__', 'from[]', 'x'), fc.string({ maxLength: 30 })),
    );
    const queries = fc.sample(fc.array(param, { maxLength: 6 }), { numRuns: 300, seed });
    queries.push([
      ['from', '2030-01-01'],
      ['to', '2030-12-31'],
      ['projectId', projectId],
    ]);
    let answered = 0;
    for (const pairs of queries) {
      const qs = pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
      const res = await as('GET', `/api/tasks/occurrences?${qs}`);
      if (res.statusCode === 200) {
        if (!occurrenceListDto.safeParse(res.json()).success)
          failures.push(`${qs.slice(0, 200)} -> 200 ${res.body.slice(0, 200)}`);
        answered++;
      } else if (![400, 404].includes(res.statusCode) || typeof res.json().error?.code !== 'string') {
        failures.push(`${qs.slice(0, 200)} -> ${res.statusCode} ${res.body.slice(0, 200)}`);
      }
    }
    expect(failures).toEqual([]);
    expect(answered).toBeGreaterThan(0);
  });
});

describe('fuzzing the query string of GET /api/analytics with splitBy (issue 38)', () => {
  it('never answers 500: 200 in the contract (with split when asked), or 400 / 404 with the error shape', async () => {
    const caller = await createUser(ctx.app);
    const teamId = (await insertTeam(ctx.database.db, caller)).id;
    const otherTeamId = (await insertTeam(ctx.database.db, caller, 'Other fuzz team')).id;
    const as = (url: string) => ctx.app.inject({ method: 'GET', url, headers: caller.auth });
    const [select, text, foreign] = await ctx.database.db
      .insert(customFields)
      .values([
        { teamId, name: 'Severity', type: 'select', options: [{ id: randomUUID(), name: 'High', color: '#dc2626' }] },
        { teamId, name: 'Customer', type: 'text' },
        { teamId: otherTeamId, name: 'Area', type: 'select', options: [] },
      ])
      .returning();
    const id = fc.oneof(
      fc.uuid(),
      fc.constantFrom(select!.id, text!.id, foreign!.id, teamId, otherTeamId),
      fc.string({ maxLength: 40 }),
    );
    const param = fc.oneof(
      fc.tuple(fc.constant('splitBy'), id),
      fc.tuple(fc.constantFrom('teamId', 'projectId'), id),
      fc.tuple(fc.constant('weeks'), fc.constantFrom('4', '12', '26', '5', '')),
      fc.tuple(fc.constantFrom('splitBy[]', '__proto__', 'splitBy[a]'), fc.string({ maxLength: 30 })),
    );
    const queries = fc.sample(fc.array(param, { maxLength: 4 }), { numRuns: 150, seed: Number(process.env.FUZZ_SEED) || 38 });
    queries.push([['splitBy', select!.id]]);
    const failures: string[] = [];
    let split = 0;
    for (const pairs of queries) {
      const qs = pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
      const res = await as(`/api/analytics?${qs}`);
      if (res.statusCode === 200) {
        const body = analyticsDto.safeParse(res.json());
        if (!body.success) failures.push(`${qs.slice(0, 200)} -> 200 ${res.body.slice(0, 200)}`);
        else if (body.data.split) split++;
      } else if (![400, 404].includes(res.statusCode) || typeof res.json().error?.code !== 'string') {
        failures.push(`${qs.slice(0, 200)} -> ${res.statusCode} ${res.body.slice(0, 200)}`);
      }
    }
    expect(failures).toEqual([]);
    expect(split).toBeGreaterThan(0);
  });
});

describe('fuzzing the query string of GET /api/analytics/time (issue 39)', () => {
  it('never answers 500: 200 in the contract, or 400 / 404 with the error shape', async () => {
    const caller = await createUser(ctx.app);
    const teamId = (await insertTeam(ctx.database.db, caller)).id;
    const as = (url: string) => ctx.app.inject({ method: 'GET', url, headers: caller.auth });
    const date = fc.oneof(
      fc.constantFrom('2025-03-03', '2025-03-30', '2024-01-01', '2025-02-30', '9999-12-31', '0000-01-01'),
      fc.string({ maxLength: 12 }),
    );
    const param = fc.oneof(
      fc.tuple(fc.constantFrom('teamId', 'projectId'), fc.oneof(fc.uuid(), fc.constant(teamId), fc.string({ maxLength: 40 }))),
      fc.tuple(fc.constantFrom('from', 'to'), date),
      fc.tuple(fc.constant('weeks'), fc.constantFrom('4', '12', '26', '5', '', '-1')),
      fc.tuple(fc.constantFrom('from[]', '__proto__', 'teamId[a]'), fc.string({ maxLength: 30 })),
    );
    const queries = fc.sample(fc.array(param, { maxLength: 4 }), { numRuns: 150, seed: Number(process.env.FUZZ_SEED) || 39 });
    queries.push([['teamId', teamId]]);
    const failures: string[] = [];
    let answered = 0;
    for (const pairs of queries) {
      const qs = pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
      const res = await as(`/api/analytics/time?${qs}`);
      if (res.statusCode === 200) {
        if (!timeAnalyticsDto.safeParse(res.json()).success)
          failures.push(`${qs.slice(0, 200)} -> 200 ${res.body.slice(0, 200)}`);
        answered++;
      } else if (![400, 404].includes(res.statusCode) || typeof res.json().error?.code !== 'string') {
        failures.push(`${qs.slice(0, 200)} -> ${res.statusCode} ${res.body.slice(0, 200)}`);
      }
    }
    expect(failures).toEqual([]);
    expect(answered).toBeGreaterThan(0);
  });
});

describe('fuzzing the query string of GET /api/time-entries (issue 39)', () => {
  it('never answers 500: 200 in the contract, or 400 / 403 / 404 with the error shape', async () => {
    const caller = await createUser(ctx.app);
    const teamId = (await insertTeam(ctx.database.db, caller)).id;
    const as = (url: string) => ctx.app.inject({ method: 'GET', url, headers: caller.auth });
    const date = fc.oneof(
      fc
        .date({ min: new Date('1900-01-01'), max: new Date('2200-12-31'), noInvalidDate: true })
        .map((d) => d.toISOString().slice(0, 10)),
      fc.constantFrom('2026-11-02', '2026-02-30', '0000-01-01', '9999-12-31', ''),
      fc.string({ maxLength: 12 }),
    );
    const id = fc.oneof(fc.uuid(), fc.constant(teamId), fc.constant(caller.id), fc.string({ maxLength: 40 }));
    const param = fc.oneof(
      fc.tuple(fc.constantFrom('from', 'to'), date),
      fc.tuple(fc.constantFrom('teamId', 'userId'), id),
      fc.tuple(fc.constantFrom('from[]', '__proto__', 'userId[a]'), fc.string({ maxLength: 30 })),
    );
    const queries = fc.sample(fc.array(param, { maxLength: 5 }), { numRuns: 200, seed: Number(process.env.FUZZ_SEED) || 39 });
    queries.push([
      ['from', '2026-11-01'],
      ['to', '2026-11-30'],
      ['teamId', teamId],
    ]);
    const failures: string[] = [];
    let answered = 0;
    for (const pairs of queries) {
      const qs = pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
      const res = await as(`/api/time-entries?${qs}`);
      if (res.statusCode === 200) {
        if (!timeEntryListDto.safeParse(res.json()).success)
          failures.push(`${qs.slice(0, 200)} -> 200 ${res.body.slice(0, 200)}`);
        answered++;
      } else if (![400, 403, 404].includes(res.statusCode) || typeof res.json().error?.code !== 'string') {
        failures.push(`${qs.slice(0, 200)} -> ${res.statusCode} ${res.body.slice(0, 200)}`);
      }
    }
    expect(failures).toEqual([]);
    expect(answered).toBeGreaterThan(0);
  });
});
