import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHARE_NOT_FOUND } from '../../src/domain/outside-texts';
import type { SharedBoardDto, ShareSettingsDto } from '../../src/domain/schemas/outside';
import { buildApp } from '../../src/server/app';
import { auditLog, projectShares } from '../../src/server/db/schema';
import { SHARE_STREAMS_PER_IP } from '../../src/server/modules/sharing/sharing.streams';
import { createUser, insertMember, insertOwnerMemberStranger, type TestUser } from '../factories';
import { apiRequests } from '../helpers/api';
import { setupTestApp, testConfig } from '../helpers/app';
import { requestLogOf } from '../helpers/request-log';

/**
 * Issue 40, the public board link: managed by the project's owners and admins, read by anyone with the token, with
 * nothing in its answers beyond the list (the JSON is walked against it), revoked at once by off and reset,
 * and live through its event stream (a real listener, read with fetch as the page does).
 */
const ctx = setupTestApp({ publicUrl: 'http://share.test' });
const { call, ok, fails } = apiRequests(ctx);
let baseUrl = '';

let owner: TestUser;
let admin: TestUser;
let member: TestUser;
let stranger: TestUser;
let teamId = '';
let projectId = '';
let otherProjectId = '';
const secretDescription = (mentioned: string) => `The **secret** description for ${mentioned}`;
const otherProjectTitle = 'A task of another project';

/** Every key path a shared board may hold (`[]` an array's items); `optional` ones only with their option on. */
const ALLOWED = new Set([
  'project',
  'project.name',
  'showPeople',
  'showDescriptions',
  'columns',
  'columns[]',
  'columns[].key',
  'columns[].name',
  'columns[].category',
  'columns[].color',
  'tasks',
  'tasks[]',
  'tasks[].id',
  'tasks[].title',
  'tasks[].status',
  'tasks[].priority',
  'tasks[].dueDate',
  'tasks[].tags',
  'tasks[].tags[]',
  'tasks[].checklist',
  'tasks[].checklist.done',
  'tasks[].checklist.total',
  'tasks[].subtasks',
  'tasks[].subtasks.done',
  'tasks[].subtasks.total',
  'tasks[].assigneeName',
  'tasks[].description',
]);

/** Every key path of a JSON value. */
function keyPaths(value: unknown, at = ''): string[] {
  if (Array.isArray(value)) return [...(at ? [at] : []), ...value.flatMap((v) => keyPaths(v, `${at}[]`))];
  if (value && typeof value === 'object') {
    return [
      ...(at && !at.endsWith('[]') ? [at] : at ? [at] : []),
      ...Object.entries(value).flatMap(([k, v]) => keyPaths(v, at ? `${at}.${k}` : k)),
    ];
  }
  return at ? [at] : [];
}

const tokenOf = (url: string | null) => (url ?? '').split('/share/')[1] ?? '';
const share = (user: TestUser, body: unknown) => ok<ShareSettingsDto>(user, 'PUT', `/api/projects/${projectId}/share`, body);
const board = (token: string) => call(null, 'GET', `/api/share/${token}`);

beforeAll(async () => {
  baseUrl = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  ({ owner, member, stranger } = await insertOwnerMemberStranger(ctx.app, ctx.database.db, { strangerTeam: true }));
  admin = await createUser(ctx.app, { fullName: 'Adam Admin' });
  const teams = await ok<{ id: string }[]>(owner, 'GET', '/api/teams');
  teamId = teams[0]!.id;
  await insertMember(ctx.database.db, teamId, admin, 'admin');
  projectId = (await ok<{ id: string }>(owner, 'POST', '/api/projects', { name: 'Launch', teamId }, 201)).id;
  otherProjectId = (await ok<{ id: string }>(owner, 'POST', '/api/projects', { name: 'Hidden', teamId }, 201)).id;
  const parent = await ok<{ id: string }>(
    owner,
    'POST',
    '/api/tasks',
    {
      title: 'Write the press release',
      projectId,
      priority: 'high',
      dueDate: '2026-12-24',
      tags: ['press'],
      description: secretDescription(`<@${member.id}>`),
      assigneeId: member.id,
    },
    201,
  );
  await ok(owner, 'POST', '/api/tasks', { title: 'A sub-task', projectId, parentId: parent.id }, 201);
  await ok(owner, 'POST', `/api/tasks/${parent.id}/checklist`, { title: 'Draft' }, 201);
  await ok(owner, 'POST', `/api/tasks/${parent.id}/comments`, { body: 'A private comment' }, 201);
  await ok(owner, 'POST', '/api/tasks', { title: 'Book the venue', projectId, status: 'in_progress' }, 201);
  await ok(owner, 'POST', '/api/tasks', { title: otherProjectTitle, projectId: otherProjectId }, 201);
});

describe('managing the link', () => {
  it('is off by default; the owner turns it on (a 192-bit token, stored hashed and sealed), off, and on again', async () => {
    expect(await ok(owner, 'GET', `/api/projects/${projectId}/share`)).toEqual({
      enabled: false,
      showPeople: false,
      showDescriptions: false,
      url: null,
    });
    const on = await share(owner, { enabled: true });
    expect(on.enabled).toBe(true);
    expect(on.url).toMatch(/^http:\/\/share\.test\/share\/[A-Za-z0-9_-]{32}$/);
    const token = tokenOf(on.url);
    expect(Buffer.from(token, 'base64url')).toHaveLength(24);
    // The token is never stored in the clear.
    const [row] = await ctx.database.db.select().from(projectShares).where(eq(projectShares.projectId, projectId));
    expect(JSON.stringify(row)).not.toContain(token);
    expect(row!.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    // Read again, the same link (from its sealed copy).
    expect(await ok(owner, 'GET', `/api/projects/${projectId}/share`)).toEqual(on);
    expect((await board(token)).statusCode).toBe(200);

    const off = await share(owner, { enabled: false, showPeople: true });
    expect(off).toEqual({ enabled: false, showPeople: true, showDescriptions: false, url: null });
    const gone = await board(token);
    expect(gone.statusCode).toBe(404);
    expect(gone.json().error).toMatchObject({ reason: 'share_not_found', message: SHARE_NOT_FOUND });
    // The options stay while it is off; turned on again, a new token.
    const again = await share(owner, { enabled: true });
    expect(again).toMatchObject({ enabled: true, showPeople: true });
    expect(tokenOf(again.url)).not.toBe(token);
    expect((await board(token)).statusCode).toBe(404);
    await share(owner, { enabled: true, showPeople: false });
  });

  it('a team admin may manage it; a plain member gets 403, a stranger 404, a signed-out caller 401', async () => {
    expect((await ok<ShareSettingsDto>(admin, 'GET', `/api/projects/${projectId}/share`)).enabled).toBe(true);
    for (const [method, url, body] of [
      ['GET', `/api/projects/${projectId}/share`, undefined],
      ['PUT', `/api/projects/${projectId}/share`, { enabled: false }],
      ['POST', `/api/projects/${projectId}/share/reset`, undefined],
    ] as const) {
      await fails(member, method, url, body, 403, 'project_edit_denied');
      await fails(stranger, method, url, body, 404, 'project_not_found');
      await fails(null, method, url, body, 401);
    }
    await fails(owner, 'GET', '/api/projects/00000000-0000-4000-8000-000000000000/share', undefined, 404, 'project_not_found');
    await fails(owner, 'PUT', `/api/projects/${projectId}/share`, { enabled: 'yes' }, 400);
    await fails(owner, 'PUT', `/api/projects/${projectId}/share`, { enabled: true, url: 'x' }, 400);
    // Still on, with the admin's and the owner's reads only.
    expect((await ok<ShareSettingsDto>(owner, 'GET', `/api/projects/${projectId}/share`)).enabled).toBe(true);
  });

  it('reset: a new token, the old one answers 404 at once; reset while off is refused (409)', async () => {
    const before = await ok<ShareSettingsDto>(owner, 'GET', `/api/projects/${projectId}/share`);
    const after = await ok<ShareSettingsDto>(owner, 'POST', `/api/projects/${projectId}/share/reset`);
    expect(after.enabled).toBe(true);
    expect(after.url).not.toBe(before.url);
    expect((await board(tokenOf(before.url))).statusCode).toBe(404);
    expect((await board(tokenOf(after.url))).statusCode).toBe(200);
    await share(owner, { enabled: false });
    await fails(owner, 'POST', `/api/projects/${projectId}/share/reset`, undefined, 409, 'share_off');
    await share(owner, { enabled: true });
  });

  it('the audit log records on, off and reset (not an options change)', async () => {
    const rows = await ctx.database.db
      .select({ action: auditLog.action, targetId: auditLog.targetId, actorId: auditLog.actorId })
      .from(auditLog)
      .where(
        and(
          eq(auditLog.targetId, projectId),
          inArray(auditLog.action, ['project.share_enabled', 'project.share_disabled', 'project.share_reset']),
        ),
      )
      .orderBy(auditLog.id);
    expect(rows.map((r) => r.action)).toEqual([
      'project.share_enabled',
      'project.share_disabled',
      'project.share_enabled',
      'project.share_reset',
      'project.share_disabled',
      'project.share_enabled',
    ]);
    expect(new Set(rows.map((r) => r.actorId))).toEqual(new Set([owner.id]));
  });
});

describe('the shared board, as an anonymous client', () => {
  async function current() {
    const settings = await ok<ShareSettingsDto>(owner, 'GET', `/api/projects/${projectId}/share`);
    return tokenOf(settings.url);
  }

  it('answers only the allowed keys: no names, descriptions, emails, ids of people, counts or other projects', async () => {
    await share(owner, { enabled: true, showPeople: false, showDescriptions: false });
    const res = await board(await current());
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-robots-tag']).toBe('noindex');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['cache-control']).toBe('no-store');
    const body = res.json() as SharedBoardDto;
    const paths = new Set(keyPaths(body));
    expect([...paths].filter((p) => !ALLOWED.has(p))).toEqual([]);
    expect(paths.has('tasks[].assigneeName')).toBe(false);
    expect(paths.has('tasks[].description')).toBe(false);
    expect(body.project).toEqual({ name: 'Launch' });
    expect(body.columns.map((c) => c.key)).toEqual(['todo', 'in_progress', 'review', 'completed']);
    // Top-level tasks only, in board order (by column, newest first).
    expect(body.tasks.map((t) => t.title)).toEqual(['Write the press release', 'Book the venue']);
    expect(body.tasks[0]).toMatchObject({
      status: 'todo',
      priority: 'high',
      dueDate: '2026-12-24',
      tags: ['press'],
      checklist: { done: 0, total: 1 },
      subtasks: { done: 0, total: 1 },
    });
    for (const secret of [
      member.email,
      member.id,
      owner.id,
      owner.email,
      'Mia Member',
      'secret',
      'A private comment',
      otherProjectTitle,
      teamId,
      otherProjectId,
      projectId,
    ]) {
      expect(res.body, secret).not.toContain(secret);
    }
  });

  it("with 'Show people' and 'Show descriptions', the assignee's name and the description, and still nothing else", async () => {
    await share(owner, { enabled: true, showPeople: true, showDescriptions: true });
    const res = await board(await current());
    const body = res.json() as SharedBoardDto;
    const paths = new Set(keyPaths(body));
    expect([...paths].filter((p) => !ALLOWED.has(p))).toEqual([]);
    expect(body.tasks[0]).toMatchObject({ assigneeName: 'Mia Member', description: secretDescription('@Mia Member') });
    expect(body.tasks[1]).toMatchObject({ assigneeName: null, description: null });
    for (const secret of [member.email, member.id, owner.id, 'A private comment', otherProjectTitle, teamId]) {
      expect(res.body, secret).not.toContain(secret);
    }
    // Descriptions without people: a mention names nobody.
    await share(owner, { enabled: true, showPeople: false, showDescriptions: true });
    const unnamed = await board(await current());
    expect((unnamed.json() as SharedBoardDto).tasks[0]!.description).toBe(secretDescription('@someone'));
    expect(new Set(keyPaths(unnamed.json())).has('tasks[].assigneeName')).toBe(false);
    for (const secret of [member.id, 'Mia Member', member.email]) expect(unnamed.body, secret).not.toContain(secret);
    await share(owner, { enabled: true, showPeople: false, showDescriptions: false });
  });

  it('an unknown token, a malformed one: 404 or 400, never more', async () => {
    const unknown = await board('A'.repeat(32));
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.message).toBe(SHARE_NOT_FOUND);
    expect(unknown.headers['x-robots-tag']).toBe('noindex');
    expect((await board('short')).statusCode).toBe(400);
    expect((await call(null, 'GET', '/api/share/A%00AAAAAAAAAAAAAAAAAAAAAAAAA')).statusCode).toBeLessThan(500);
  });
});

/** A minimal SSE reader over fetch, like the page's. */
async function openStream(token: string) {
  const abort = new AbortController();
  const res = await fetch(`${baseUrl}/api/share/${token}/events`, { signal: abort.signal });
  const state = { text: '', ended: false, status: res.status, headers: res.headers };
  const waiters: (() => void)[] = [];
  if (res.ok && res.body) {
    void (async () => {
      const reader = res.body!.getReader();
      const decoder = new TextDecoder();
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          state.text += decoder.decode(value, { stream: true });
          for (const w of waiters.splice(0)) w();
        }
      } catch {
        // aborted
      }
      state.ended = true;
      for (const w of waiters.splice(0)) w();
    })();
  } else {
    state.ended = true;
  }
  /** Resolves when `done` holds (checked on each chunk and at the end); the test's own timeout bounds it. */
  const until = async (done: () => boolean) => {
    while (!done()) {
      if (state.ended) return done();
      await new Promise<void>((resolve) => waiters.push(resolve));
    }
    return true;
  };
  return { state, until, close: () => abort.abort() };
}

describe('the event stream', () => {
  it('says `changed` (and nothing of the change) when a member edits a task, and ends when the link is reset', async () => {
    const settings = await ok<ShareSettingsDto>(owner, 'GET', `/api/projects/${projectId}/share`);
    const stream = await openStream(tokenOf(settings.url));
    try {
      expect(stream.state.status).toBe(200);
      expect(stream.state.headers.get('content-type')).toContain('text/event-stream');
      expect(stream.state.headers.get('x-robots-tag')).toBe('noindex');
      expect(stream.state.headers.get('referrer-policy')).toBe('no-referrer');
      expect(await stream.until(() => stream.state.text.includes(': ready'))).toBe(true);
      const task = await ok<{ id: string }>(member, 'POST', '/api/tasks', { title: 'Member card', projectId }, 201);
      expect(await stream.until(() => stream.state.text.includes('event: changed'))).toBe(true);
      await ok(member, 'PATCH', `/api/tasks/${task.id}`, { title: 'Member card renamed' });
      expect(await stream.until(() => stream.state.text.split('event: changed').length > 2)).toBe(true);
      // Only the word: no title, no id, no type of event.
      expect(stream.state.text).not.toContain('Member card');
      expect(stream.state.text).not.toContain(task.id);
      expect(stream.state.text.replace(/: ready\n\n|event: changed\ndata: changed\n\n|: ping\n\n/g, '')).toBe('');
      await ok(owner, 'POST', `/api/projects/${projectId}/share/reset`);
      expect(await stream.until(() => stream.state.ended)).toBe(true);
    } finally {
      stream.close();
    }
  });

  it('ends when the link is turned off; an unknown token gets 404 and no stream', async () => {
    const settings = await ok<ShareSettingsDto>(owner, 'GET', `/api/projects/${projectId}/share`);
    const stream = await openStream(tokenOf(settings.url));
    try {
      expect(await stream.until(() => stream.state.text.includes(': ready'))).toBe(true);
      await share(owner, { enabled: false });
      expect(await stream.until(() => stream.state.ended)).toBe(true);
    } finally {
      stream.close();
      await share(owner, { enabled: true });
    }
    const unknown = await fetch(`${baseUrl}/api/share/${'B'.repeat(32)}/events`);
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { error: { message: string } }).error.message).toBe(SHARE_NOT_FOUND);
  });
});

describe('the event stream, bounded and complete', () => {
  it('a task moved to another project: the board it left says `changed` and no longer shows it', async () => {
    const settings = await ok<ShareSettingsDto>(owner, 'GET', `/api/projects/${projectId}/share`);
    const token = tokenOf(settings.url);
    const task = await ok<{ id: string }>(owner, 'POST', '/api/tasks', { title: 'Moving out', projectId }, 201);
    const stream = await openStream(token);
    try {
      expect(await stream.until(() => stream.state.text.includes(': ready'))).toBe(true);
      await ok(owner, 'PATCH', `/api/tasks/${task.id}`, { projectId: otherProjectId });
      expect(await stream.until(() => stream.state.text.includes('event: changed'))).toBe(true);
      expect(((await board(token)).json() as SharedBoardDto).tasks.map((t) => t.title)).not.toContain('Moving out');
    } finally {
      stream.close();
    }
  });

  it(`refuses more than ${SHARE_STREAMS_PER_IP} open streams from one address (429), and admits one again when one closes`, async () => {
    const settings = await ok<ShareSettingsDto>(owner, 'GET', `/api/projects/${projectId}/share`);
    const token = tokenOf(settings.url);
    const open = [];
    try {
      for (let i = 0; i < SHARE_STREAMS_PER_IP; i++) open.push(await openStream(token));
      expect(open.map((s) => s.state.status)).toEqual(open.map(() => 200));
      const refused = await openStream(token);
      expect(refused.state.status).toBe(429);
      open.shift()!.close();
      // The server sees the close when the socket ends: retried until it has.
      let again = await openStream(token);
      while (again.state.status === 429) {
        await new Promise((resolve) => setImmediate(resolve));
        again = await openStream(token);
      }
      expect(again.state.status).toBe(200);
      open.push(again);
    } finally {
      for (const s of open) s.close();
    }
  });
});

describe('limits and the page', () => {
  it('public reads are rate-limited per IP', async () => {
    const app = await buildApp({
      config: testConfig({ rateLimitEnabled: true, rateLimits: { publicRead: { capacity: 3, windowSeconds: 300 } } }),
      database: ctx.database,
    });
    await app.ready();
    try {
      const settings = await ok<ShareSettingsDto>(owner, 'GET', `/api/projects/${projectId}/share`);
      const token = tokenOf(settings.url);
      const get = (ip: string, url = `/api/share/${token}`) => app.inject({ method: 'GET', url, remoteAddress: ip });
      const codes = [];
      for (let i = 0; i < 4; i++) codes.push((await get('10.40.0.1')).statusCode);
      expect(codes).toEqual([200, 200, 200, 429]);
      // The stream spends from the same bucket; another address has its own.
      expect((await get('10.40.0.1', `/api/share/${token}/events`)).statusCode).toBe(429);
      expect((await get('10.40.0.2')).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });

  it("the request log never holds a link's token (the page, the board, its stream)", async () => {
    const log = await requestLogOf(ctx.database, [
      '/api/share/ShArEtOkEnSeCrEt0123456789abcdef',
      '/api/share/ShArEtOkEnSeCrEt0123456789abcdef/events',
      '/share/ShArEtOkEnSeCrEt0123456789abcdef',
      '/api/%73hare/EsCaPeDsHaReSeCrEt0123456789',
    ]);
    expect(log).toContain('/api/share/[redacted]/events');
    for (const secret of ['ShArEtOkEnSeCrEt', 'EsCaPeDsHaReSeCrEt']) expect(log).not.toContain(secret);
  });

  it('the page (/share/<token>, and /forms/, /requests/) is served with noindex and no referrer; other pages are not', async () => {
    const clientDir = mkdtempSync(join(tmpdir(), 'crewboard-share-client-'));
    writeFileSync(join(clientDir, 'index.html'), '<!doctype html><title>Crewboard</title>');
    const app = await buildApp({ config: testConfig({ clientDir }), database: ctx.database });
    await app.ready();
    try {
      for (const path of ['/share/abcdefghijklmnopqrstuvwxyz', '/forms/abcdefghijklmnop', '/requests/abcdefghijklmnop']) {
        const res = await app.inject({ method: 'GET', url: path });
        expect(res.statusCode, path).toBe(200);
        expect(res.headers['x-robots-tag'], path).toBe('noindex');
        expect(res.headers['referrer-policy'], path).toBe('no-referrer');
      }
      const tasks = await app.inject({ method: 'GET', url: '/tasks' });
      expect(tasks.statusCode).toBe(200);
      expect(tasks.headers['x-robots-tag']).toBeUndefined();
      expect(tasks.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    } finally {
      await app.close();
    }
  });
});

afterAll(() => {});
