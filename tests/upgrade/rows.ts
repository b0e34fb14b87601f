import { createHash, randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import { noteClient } from '../helpers/note-socket';
import { PNG_1X1 } from '../helpers/multipart';
import { startSmtpServer, type TestSmtpServer } from '../helpers/smtp';
import { codeMaker } from '../helpers/totp';

/**
 * Every kind of row the previous release's API makes, made through that API (plain HTTP, as a client of that release
 * would), and every one of them read back through the API: what an upgrade must keep.
 */

export type Json = Record<string, unknown>;

/** HTTP against one server: `call` asserts the status and returns the body (JSON, else bytes). */
export function http(base: string) {
  async function request(token: string | null, method: string, path: string, body?: unknown) {
    const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
    let payload: BodyInit | undefined;
    if (body instanceof FormData) payload = body;
    else if (body !== undefined) {
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(body);
    }
    return fetch(new URL(path, base), { method, headers, body: payload });
  }
  async function call<T = Json>(
    token: string | null,
    method: string,
    path: string,
    body?: unknown,
    status?: number | number[],
  ): Promise<T> {
    const res = await request(token, method, path, body);
    const text = Buffer.from(await res.arrayBuffer());
    const expected = status ?? (method === 'POST' ? [200, 201] : [200]);
    if (!(Array.isArray(expected) ? expected : [expected]).includes(res.status)) {
      throw new Error(`${method} ${path}: ${res.status} ${text.toString().slice(0, 500)}`);
    }
    if (res.status === 204 || text.length === 0) return undefined as T;
    return (res.headers.get('content-type')?.includes('json') ? JSON.parse(text.toString()) : text) as T;
  }
  return { request, call };
}

const sha = (data: Buffer) => createHash('sha256').update(data).digest('hex');

export interface Person {
  email: string;
  password: string;
  fullName: string;
  id: string;
  access: string;
  refresh: string;
}

/** What the fill made: the handles the reads and the checks after the upgrade need. */
export interface Made {
  owner: Person;
  admin: Person;
  member: Person;
  invitee: Person;
  /** The admin's authenticator (two-factor on). */
  adminCode: () => string;
  adminRecoveryCodes: string[];
  teamId: string;
  projectIds: string[];
  taskIds: string[];
  noteIds: string[];
  noteTexts: Record<string, string>;
  /** The sha-256 of the bytes uploaded, by what they became (`attachment <id>`, and the avatar's and note image's reads). */
  uploads: Record<string, string>;
  noteImageUrl: string;
  readToken: string;
  writeToken: string;
  shareToken: string;
  formTokens: string[];
  requestToken: string;
  calendarPath: string;
  smtp: TestSmtpServer;
}

const PASSWORD = 'upgrade keeps every row 42';

async function person(api: ReturnType<typeof http>, key: string, fullName: string): Promise<Person> {
  const email = `${key}.${randomBytes(3).toString('hex')}@example.com`;
  await api.call(null, 'POST', '/api/auth/signup', { email, password: PASSWORD, fullName }, 201);
  const session = await api.call<{ access_token: string; refresh_token: string; user: { id: string } }>(
    null,
    'POST',
    '/api/auth/token?grant_type=password',
    { email, password: PASSWORD },
    200,
  );
  return {
    email,
    password: PASSWORD,
    fullName,
    id: session.user.id,
    access: session.access_token,
    refresh: session.refresh_token,
  };
}

/** Names the SMTP server whose mails the fill reads (the form's confirmation): the caller passes it as SMTP_URL. */
export const startMail = startSmtpServer;

/** Fills the server at `base` with every kind of row its API makes. */
export async function fill(base: string, smtp: TestSmtpServer): Promise<Made> {
  const api = http(base);
  const { call } = api;
  const owner = await person(api, 'olive', 'Olive Owner');
  const admin = await person(api, 'adam', 'Adam Admin');
  const member = await person(api, 'mia', 'Mia Member — ünïcode ✓');
  const invitee = await person(api, 'ivy', 'Ivy Invitee');
  const o = owner.access;

  await call(o, 'PATCH', '/api/me/profile', { fullName: 'Olive O. Owner', timeZone: 'Europe/Paris' });
  const prefs = await call<{ preferences: Record<string, { inApp: boolean; email: boolean }> }>(
    o,
    'GET',
    '/api/me/notification-preferences',
  );
  await call(o, 'PUT', '/api/me/notification-preferences', {
    preferences: { ...prefs.preferences, task_comment: { inApp: false, email: true } },
    digestEnabled: true,
  });

  // A team with an admin and a member who accepted, one invitation pending, one declined.
  const team = await call<{ id: string }>(o, 'POST', '/api/teams', { name: 'Upgrade crew', description: 'Keeps its rows' }, 201);
  const teamId = team.id;
  const declines = await person(api, 'dan', 'Dan Declines');
  for (const [who, role] of [
    [admin, 'admin'],
    [member, 'member'],
    [invitee, 'member'],
    [declines, 'member'],
  ] as const) {
    await call(o, 'POST', `/api/teams/${teamId}/invitations`, { email: who.email, role }, 201);
  }
  for (const [who, accept] of [
    [admin, true],
    [member, true],
    [declines, false],
  ] as const) {
    const { received } = await call<{ received: { id: string; teamId: string }[] }>(who.access, 'GET', '/api/invitations');
    const invitation = received.find((i) => i.teamId === teamId)!;
    await call(who.access, 'POST', `/api/invitations/${invitation.id}/respond`, { accept }, [200, 204]);
  }

  // Projects, one with a workflow of its own (a status added, one renamed, the order changed).
  const project = await call<{ id: string }>(
    o,
    'POST',
    '/api/projects',
    {
      name: 'Migration',
      description: 'The one with **everything**',
      teamId,
      status: 'active',
      startDate: '2030-11-01',
      endDate: '2031-02-28',
    },
    201,
  );
  const other = await call<{ id: string }>(o, 'POST', '/api/projects', { name: 'Quiet', teamId, status: 'planning' }, 201);
  const projectId = project.id;
  const qa = await call<{ id: string; key: string }>(
    o,
    'POST',
    `/api/projects/${projectId}/statuses`,
    { name: 'QA', category: 'started', color: '#8b5cf6', wipLimit: 3 },
    201,
  );
  const statuses = await call<{ statuses: { id: string; key: string }[] } | { id: string; key: string }[]>(
    o,
    'GET',
    `/api/projects/${projectId}/statuses`,
  );
  const list = Array.isArray(statuses) ? statuses : statuses.statuses;
  const review = list.find((s) => s.key === 'review')!;
  await call(o, 'PATCH', `/api/statuses/${review.id}`, { name: 'In review', color: '#f59e0b' });
  const order = list.map((s) => s.id).filter((id) => id !== qa.id);
  order.splice(order.indexOf(review.id), 0, qa.id);
  await call(o, 'PUT', `/api/projects/${projectId}/statuses/order`, { ids: order }, [200, 204]);

  // Custom fields of every type, on the first project.
  const field = (body: Json) =>
    call<{ id: string; options?: { id: string }[] }>(o, 'POST', `/api/teams/${teamId}/fields`, body, 201);
  const severity = await field({
    name: 'Severity',
    type: 'select',
    options: [
      { name: 'Low', color: '#22c55e' },
      { name: 'High', color: '#ef4444' },
    ],
    projectIds: [projectId],
    showOnCard: true,
  });
  const areas = await field({
    name: 'Areas',
    type: 'multi_select',
    options: [
      { name: 'API', color: '#3b82f6' },
      { name: 'UI', color: '#a855f7' },
    ],
  });
  const points = await field({ name: 'Cost', type: 'number', unit: '€', decimals: 2 });
  const text = await field({ name: 'Notes', type: 'text' });
  const link = await field({ name: 'Spec', type: 'url' });
  const reviewer = await field({ name: 'Reviewer', type: 'person' });
  const decided = await field({ name: 'Decided', type: 'date' });
  const done = await field({ name: 'Signed off', type: 'checkbox' });

  // Tasks: every field set on one, a sub-task pair, a dependency, a recurring one, one completed. Their dates lie years
  // ahead (a worker that acts on a date, such as recurrence or due reminders, must not change a row between the reads).
  type Task = { id: string };
  const task = (body: Json, token = o) => call<Task>(token, 'POST', '/api/tasks', { projectId, ...body }, 201);
  const full = await task({
    title: 'Upgrade without losing a row 🚀',
    description: '# Plan\n\n- back up\n- migrate\n\n`code` and <b>markup</b>',
    status: 'todo',
    priority: 'high',
    assigneeId: member.id,
    dueDate: '2030-12-24',
    startDate: '2030-12-01',
    tags: ['upgrade', 'data'],
    estimateMinutes: 90,
    fields: {
      [severity.id]: severity.options![1]!.id,
      [areas.id]: areas.options!.map((x) => x.id),
      [points.id]: 1234.56,
      [text.id]: 'multi\nline',
      [link.id]: 'https://example.com/spec?x=1',
      [reviewer.id]: admin.id,
      [decided.id]: '2030-11-20',
      [done.id]: true,
    },
  });
  const inQa = await task(
    { title: 'In the custom status', status: qa.key, priority: 'urgent', assigneeId: admin.id },
    admin.access,
  );
  const finished = await task({ title: 'Finished one', priority: 'low' }, member.access);
  await call(member.access, 'PATCH', `/api/tasks/${finished.id}/status`, { status: 'completed' });
  const sub1 = await task({ title: 'Sub-task one', parentId: full.id });
  const sub2 = await task({ title: 'Sub-task two', parentId: full.id, assigneeId: owner.id });
  await call(o, 'PUT', `/api/tasks/${full.id}/subtasks/order`, { ids: [sub2.id, sub1.id] }, [200, 204]);
  await call(member.access, 'PATCH', `/api/tasks/${sub1.id}/status`, { status: 'completed' });
  await call(o, 'POST', `/api/tasks/${inQa.id}/dependencies`, { blockedBy: full.id }, [200, 201]);
  const recurring = await task({
    title: 'Weekly check',
    dueDate: '2030-01-07',
    repeat: { rule: 'FREQ=WEEKLY;BYDAY=MO', mode: 'on_schedule', timezone: 'Europe/Paris' },
  });
  await call(o, 'PATCH', `/api/teams/${teamId}`, {
    name: 'Upgrade crew',
    description: 'Keeps every row',
    estimateUnit: 'points',
  });
  const elsewhere = await call<Task>(
    o,
    'POST',
    '/api/tasks',
    { projectId: other.id, title: 'In the quiet project', tags: ['x'] },
    201,
  );

  // Comments (one edited, one with a mention), a checklist (one done, reordered), watchers.
  await call(member.access, 'POST', `/api/tasks/${full.id}/comments`, { body: 'First look: fine' }, 201);
  const edited = await call<{ id: string }>(o, 'POST', `/api/tasks/${full.id}/comments`, { body: 'draft' }, 201);
  await call(o, 'PATCH', `/api/tasks/${full.id}/comments/${edited.id}`, {
    body: `Edited, for @[${member.fullName}](${member.id})`,
  });
  const items: string[] = [];
  for (const title of ['Back up', 'Migrate', 'Read back']) {
    items.push((await call<{ id: string }>(o, 'POST', `/api/tasks/${full.id}/checklist`, { title }, 201)).id);
  }
  await call(o, 'PATCH', `/api/tasks/${full.id}/checklist/${items[0]}`, { done: true });
  await call(o, 'PUT', `/api/tasks/${full.id}/checklist/order`, { ids: [items[2], items[0], items[1]] }, [200, 204]);
  await call(admin.access, 'PUT', `/api/tasks/${inQa.id}/watch`, { watching: true });

  // Files: an attachment of random bytes and an image; an avatar; an image in a note.
  const uploads: Record<string, string> = {};
  const upload = async (path: string, name: string, bytes: Buffer, type: string, token = o) => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(bytes)], { type }), name);
    const made = await call<{ id?: string; url?: string }>(token, 'POST', path, form, [200, 201]);
    return made;
  };
  const blob = randomBytes(48 * 1024);
  const attachment = await upload(`/api/tasks/${full.id}/attachments`, 'data file.bin', blob, 'application/octet-stream');
  uploads[`attachment ${attachment.id}`] = sha(blob);
  const image = await upload(`/api/tasks/${full.id}/attachments`, 'pixel.png', PNG_1X1, 'image/png', member.access);
  uploads[`attachment ${image.id}`] = sha(PNG_1X1);
  await upload('/api/me/avatar', 'me.png', PNG_1X1, 'image/png');
  uploads['Olive avatar bytes'] = sha(PNG_1X1);

  // Time: entries by two people, and a timer left running.
  await call(o, 'POST', `/api/tasks/${full.id}/time-entries`, { date: '2026-11-27', minutes: 45, note: 'planning' }, 201);
  await call(member.access, 'POST', `/api/tasks/${inQa.id}/time-entries`, { date: '2026-11-28', minutes: 120 }, 201);
  await call(member.access, 'POST', '/api/me/timer', { taskId: full.id });

  // Saved views, one shared with the team, one personal.
  await call(
    o,
    'POST',
    '/api/views',
    {
      name: 'Hot in Migration',
      teamId,
      config: {
        projectId,
        priority: 'high',
        view: 'list',
        sort: 'due',
        dir: 'asc',
        cf: [`${severity.id}:${severity.options![1]!.id}`],
      },
    },
    201,
  );
  await call(member.access, 'POST', '/api/views', { name: 'Mine', config: { assigneeId: member.id, view: 'board' } }, 201);

  // Notes with content (typed over the note's socket, as the editor does), a version, an image.
  const noteIds: string[] = [];
  const noteTexts: Record<string, string> = {};
  for (const [title, body, where] of [
    ['Runbook', 'Back up first, then migrate. ✓', { projectId }],
    ['Team page', 'Ünïcode and more', {}],
  ] as const) {
    const note = await call<{ id: string }>(o, 'POST', '/api/notes', { teamId, title, ...where }, 201);
    await writeNote(base, o, note.id, body);
    noteIds.push(note.id);
    noteTexts[note.id] = body;
  }
  await call(o, 'PATCH', `/api/notes/${noteIds[0]}`, { pinned: true });
  await call(o, 'POST', `/api/notes/${noteIds[0]}/versions`, undefined, [200, 201]);
  const noteImage = await upload(`/api/notes/${noteIds[0]}/images`, 'n.png', PNG_1X1, 'image/png');
  uploads['anonymous note image bytes'] = sha(PNG_1X1);

  // Outside work: a share link, forms (one submitted, whose confirmation mail carries the request's link), a feed.
  const share = await call<{ url: string }>(o, 'PUT', `/api/projects/${projectId}/share`, {
    enabled: true,
    showPeople: true,
    showDescriptions: true,
  });
  const form = await call<{ url: string }>(
    o,
    'POST',
    `/api/projects/${projectId}/forms`,
    {
      name: 'Report a problem',
      intro: 'Tell us',
      fields: [
        { key: 'title', label: 'What happened', required: true },
        { key: 'description', label: 'Details', help: 'Steps' },
        { key: 'email', label: 'Your email' },
        { key: severity.id, label: 'How bad' },
      ],
      status: qa.key,
      assigneeId: admin.id,
      open: true,
    },
    201,
  );
  const closed = await call<{ url: string }>(
    o,
    'POST',
    `/api/projects/${projectId}/forms`,
    { name: 'Closed form', fields: [{ key: 'title', label: 'Title', required: true }], open: false },
    201,
  );
  const formToken = form.url.split('/forms/')[1]!;
  const requester = `requester.${randomBytes(3).toString('hex')}@example.com`;
  await call(null, 'POST', `/api/public-forms/${formToken}`, {
    values: { title: 'Printer on fire', description: 'Really', email: requester, [severity.id]: severity.options![0]!.id },
  });
  const mail = await smtp.waitFor((m) => m.to.includes(requester), 30_000);
  const requestToken = /\/requests\/([A-Za-z0-9_-]+)/.exec(mail.text)?.[1];
  if (!requestToken) throw new Error(`no request link in the confirmation mail:\n${mail.text}`);
  const feed = await call<{ url: string }>(o, 'POST', '/api/me/calendar-feed', undefined, [200, 201]);
  await call(o, 'POST', `/api/projects/${projectId}/intake`, { enabled: true });

  // API tokens (read and write), webhooks (one paused), two-factor on for the admin.
  const readToken = (
    await call<{ token: string }>(o, 'POST', '/api/me/api-tokens', { name: 'Reader', expiresInDays: 90, scope: 'read' }, 201)
  ).token;
  const writeToken = (
    await call<{ token: string }>(o, 'POST', '/api/me/api-tokens', { name: 'Writer', expiresInDays: 365, scope: 'write' }, 201)
  ).token;
  await call(
    o,
    'POST',
    `/api/teams/${teamId}/webhooks`,
    { url: 'http://127.0.0.1:9/hook', events: ['import.completed'], description: 'CI' },
    201,
  );
  const paused = await call<{ id: string }>(
    o,
    'POST',
    `/api/teams/${teamId}/webhooks`,
    { url: 'https://hooks.example.com/x', events: ['task.created', 'task.moved'] },
    201,
  );
  await call(o, 'PATCH', `/api/teams/${teamId}/webhooks/${paused.id}`, { active: false });
  const { secret } = await call<{ secret: string }>(admin.access, 'POST', '/api/me/2fa/setup', {
    currentPassword: admin.password,
  });
  const adminCode = codeMaker(secret);
  const { recoveryCodes } = await call<{ recoveryCodes: string[] }>(admin.access, 'POST', '/api/me/2fa/enable', {
    code: adminCode(),
  });

  // Notifications: the member's, one read.
  const { notifications } = await call<{ notifications: { id: string }[] }>(member.access, 'GET', '/api/notifications');
  if (notifications[0])
    await call(member.access, 'PATCH', `/api/notifications/${notifications[0].id}/read`, undefined, [200, 204]);

  return {
    owner,
    admin,
    member,
    invitee,
    adminCode,
    adminRecoveryCodes: recoveryCodes,
    teamId,
    projectIds: [projectId, other.id],
    taskIds: [full.id, inQa.id, finished.id, sub1.id, sub2.id, recurring.id, elsewhere.id],
    noteIds,
    noteTexts,
    uploads,
    noteImageUrl: noteImage.url!,
    readToken,
    writeToken,
    shareToken: share.url.split('/share/')[1]!,
    formTokens: [formToken, closed.url.split('/forms/')[1]!],
    requestToken,
    calendarPath: new URL(feed.url).pathname,
    smtp,
  };
}

/** Types `text` into the note over its socket and waits until the server has it (a second client sees it). */
async function writeNote(base: string, token: string, noteId: string, text: string): Promise<void> {
  const writer = noteClient(base, noteId, await ticket(base, token, noteId));
  try {
    await writer.synced;
    writer.type(text);
    const deadline = Date.now() + 15_000;
    while ((await readNote(base, token, noteId)) !== text) {
      if (Date.now() > deadline) throw new Error(`note ${noteId} did not keep its text`);
      await new Promise((r) => setTimeout(r, 100));
    }
  } finally {
    writer.destroy();
  }
}

async function ticket(base: string, token: string, noteId: string): Promise<string> {
  return (await http(base).call<{ ticket: string }>(token, 'POST', `/api/notes/${noteId}/socket-ticket`, undefined, 200)).ticket;
}

/** The note's text as a new editor gets it over the socket. */
export async function readNote(base: string, token: string, noteId: string): Promise<string> {
  const reader = noteClient(base, noteId, await ticket(base, token, noteId));
  try {
    await Promise.race([
      reader.synced,
      new Promise((_, reject) => setTimeout(() => reject(new Error(`note ${noteId}: no sync in 15 s`)), 15_000)),
    ]);
    return reader.text();
  } finally {
    reader.destroy();
  }
}

/**
 * Every row, read through the API of the server at `base`: one entry per read (the route, and who read it), bytes as
 * their sha-256. The same reads before and after the upgrade.
 */
export async function readAll(base: string, made: Made): Promise<Record<string, unknown>> {
  const { call } = http(base);
  const out: Record<string, unknown> = {};
  const o = made.owner.access;
  const read = async (who: Person | null, path: string) => {
    const value = await call<unknown>(who?.access ?? null, 'GET', path);
    out[`${who ? who.fullName.split(' ')[0] : 'anonymous'} GET ${path}`] = Buffer.isBuffer(value)
      ? `sha256:${sha(value)}`
      : value;
    return value;
  };
  for (const who of [made.owner, made.admin, made.member, made.invitee]) {
    await read(who, '/api/auth/user');
    await read(who, '/api/me/profile');
    await read(who, '/api/me/notification-preferences');
    await read(who, '/api/teams');
    await read(who, '/api/invitations');
    await read(who, '/api/views');
    await read(who, '/api/notifications');
    await read(who, '/api/me/timer');
    await read(who, '/api/me/2fa');
    await read(who, '/api/me/sessions');
  }
  await read(made.owner, '/api/admin/users');
  await read(made.owner, '/api/me/api-tokens');
  await read(made.owner, '/api/me/calendar-feed');
  await read(made.owner, `/api/teams/${made.teamId}`);
  await read(made.owner, `/api/teams/${made.teamId}/invitations`);
  await read(made.owner, `/api/teams/${made.teamId}/fields`);
  await read(made.owner, `/api/teams/${made.teamId}/webhooks`);
  await read(made.owner, `/api/teams/${made.teamId}/audit`);
  await read(made.owner, `/api/teams/${made.teamId}/export`);
  await read(made.owner, '/api/projects');
  await read(made.owner, `/api/time-entries?from=2026-11-01&to=2026-12-31&teamId=${made.teamId}`);
  await read(made.owner, '/api/notes');
  for (const projectId of made.projectIds) {
    await read(made.owner, `/api/projects/${projectId}`);
    await read(made.owner, `/api/projects/${projectId}/statuses`);
    await read(made.owner, `/api/projects/${projectId}/forms`);
    await read(made.owner, `/api/projects/${projectId}/share`);
    await read(made.owner, `/api/projects/${projectId}/intake`);
    // The list: which tasks (its shape is the list route's own, which this issue changes).
    const page = (await call<{ tasks: { id: string }[] }>(o, 'GET', `/api/tasks?projectId=${projectId}&limit=500`)).tasks;
    out[`Olive GET /api/tasks?projectId=${projectId} ids`] = page.map((t) => t.id).sort();
  }
  for (const id of made.taskIds) {
    await read(made.owner, `/api/tasks/${id}`);
    for (const part of ['comments', 'checklist', 'subtasks', 'dependencies', 'time-entries', 'activity', 'watch']) {
      await read(made.owner, `/api/tasks/${id}/${part}`);
    }
    const { attachments } = (await read(made.owner, `/api/tasks/${id}/attachments`)) as {
      attachments: { id: string; url: string }[];
    };
    for (const a of attachments) {
      out[`Olive attachment ${a.id} bytes`] = `sha256:${sha(await call<Buffer>(o, 'GET', a.url))}`;
      expect(out[`Olive attachment ${a.id} bytes`]).toBe(`sha256:${made.uploads[`attachment ${a.id}`]}`);
    }
  }
  for (const id of made.noteIds) {
    await read(made.owner, `/api/notes/${id}`);
    const { versions } = (await read(made.owner, `/api/notes/${id}/versions`)) as { versions: { id: string }[] };
    for (const v of versions) await read(made.owner, `/api/notes/${id}/versions/${v.id}`);
    out[`Olive note ${id} text`] = await readNote(base, o, id);
  }
  // The image's URL as the note holds it (signed when it was uploaded).
  out['anonymous note image bytes'] = `sha256:${sha(await call<Buffer>(null, 'GET', made.noteImageUrl))}`;
  const me = (await call<{ avatar: string | null }>(o, 'GET', '/api/auth/user')).avatar;
  out['Olive avatar bytes'] = me ? `sha256:${sha(await call<Buffer>(o, 'GET', me))}` : null;
  for (const what of ['anonymous note image bytes', 'Olive avatar bytes']) expect(out[what]).toBe(`sha256:${made.uploads[what]}`);
  await read(null, `/api/share/${made.shareToken}`);
  for (const token of made.formTokens) {
    const res = await http(base).request(null, 'GET', `/api/public-forms/${token}`);
    out[`anonymous GET /api/public-forms/${token}`] = { status: res.status, body: await res.json() };
  }
  await read(null, `/api/requests/${made.requestToken}`);
  const ics = (await call<Buffer>(null, 'GET', made.calendarPath)).toString();
  // DTSTAMP is the time of the read (RFC 5545 3.8.7.2).
  out['anonymous GET calendar feed'] = ics.replace(/^DTSTAMP:.*$/gm, 'DTSTAMP:(now)');
  await read(made.owner, '/api/search?q=upgrade');
  return out;
}
