import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { NOTE_FRAGMENT, type NoteDto, type NoteListDto } from '../../src/domain/schemas/note';
import type { NotificationListDto } from '../../src/domain/schemas/notification';
import { notificationTarget } from '../../src/domain/notification-target';
import { AUTO_VERSION_EVERY_MS, NoteCompactor } from '../../src/server/modules/notes/notes.compaction';
import { NoteImages } from '../../src/server/modules/notes/note-images';
import * as notesRepo from '../../src/server/modules/notes/notes.repo';
import { createUser, insertMember, insertTeam, type TestUser } from '../factories';
import { apiRequests } from '../helpers/api';
import { setupTestApp } from '../helpers/app';
import { GIF_1X1, multipartBody, PNG_1X1 } from '../helpers/multipart';
import { type NoteClient, noteClient, ticketFor, until } from '../helpers/note-socket';

/** Notes REST (issue 25): rights, list, search, versions, plain text and mentions kept by compaction, images. */

const ctx = setupTestApp();
const { call, ok, fails } = apiRequests(ctx);
let baseUrl: string;
// Olive owns the team, Adam is its admin, Mia and Max are members; Sam is a stranger with a team of his own.
let olive: TestUser;
let adam: TestUser;
let mia: TestUser;
let max: TestUser;
let sam: TestUser;
let team: { id: string };
let samTeam: { id: string };
let projectId: string;
let samProjectId: string;
const clients: NoteClient[] = [];

beforeAll(async () => {
  baseUrl = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  [olive, adam, mia, max, sam] = await Promise.all([
    createUser(ctx.app, { fullName: 'Olive Owner' }),
    createUser(ctx.app, { fullName: 'Adam Admin' }),
    createUser(ctx.app, { fullName: 'Mia Member' }),
    createUser(ctx.app, { fullName: 'Max Member' }),
    createUser(ctx.app, { fullName: 'Sam Stranger' }),
  ]);
  team = await insertTeam(ctx.database.db, olive, 'Notes crew');
  await insertMember(ctx.database.db, team.id, adam, 'admin');
  await insertMember(ctx.database.db, team.id, mia);
  await insertMember(ctx.database.db, team.id, max);
  samTeam = await insertTeam(ctx.database.db, sam, 'Sam team');
  projectId = (await ok<{ id: string }>(olive, 'POST', '/api/projects', { name: 'Specs', teamId: team.id }, 201)).id;
  samProjectId = (await ok<{ id: string }>(sam, 'POST', '/api/projects', { name: 'Elsewhere', teamId: samTeam.id }, 201)).id;
});

afterAll(() => {
  for (const c of clients) c.destroy();
  const config = ctx.config?.storage;
  if (config?.kind === 'local') rmSync(config.dir, { recursive: true, force: true });
});

const create = (user: TestUser, body: Record<string, unknown>) => ok<NoteDto>(user, 'POST', '/api/notes', body, 201);
const list = async (user: TestUser, query = '') => (await ok<NoteListDto>(user, 'GET', `/api/notes${query}`)).notes;
const rowsOf = <T>(r: unknown) => (r as { rows: T[] }).rows;
async function storedKeys(prefix: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const object of ctx.app.deps.storage.list(prefix)) keys.push(object.key);
  return keys;
}

async function connect(user: TestUser, noteId: string): Promise<NoteClient> {
  const client = noteClient(baseUrl, noteId, await ticketFor(ctx.app, user, noteId));
  clients.push(client);
  await client.synced;
  return client;
}

/** Leaves the note (it is stored and compacted as it unloads). */
async function leave(noteId: string, ...cs: NoteClient[]) {
  for (const c of cs) c.destroy();
  await until(() => !ctx.app.notesCollab.isOpen(noteId), 10_000, 'the note unloaded');
}

describe('notes: who may do what', () => {
  it('members create and edit; the author, owner and admins delete; another member gets 403', async () => {
    const note = await create(mia, { teamId: team.id, title: '  Meeting notes  ', projectId });
    expect(note).toMatchObject({
      title: 'Meeting notes',
      teamId: team.id,
      teamName: 'Notes crew',
      projectId,
      projectName: 'Specs',
      pinned: false,
      excerpt: '',
      canDelete: true,
    });
    expect(note.author?.id).toBe(mia.id);
    // Any member edits.
    const edited = await ok<NoteDto>(max, 'PATCH', `/api/notes/${note.id}`, { title: 'Weekly meeting', pinned: true });
    expect(edited).toMatchObject({ title: 'Weekly meeting', pinned: true, canDelete: false });
    expect(edited.lastEditedBy?.id).toBe(max.id);
    // Max is not its author nor a manager: 403; the others may.
    await fails(max, 'DELETE', `/api/notes/${note.id}`, undefined, 403, 'note_delete_denied');
    expect((await ok<NoteDto>(adam, 'GET', `/api/notes/${note.id}`)).canDelete).toBe(true);
    expect((await ok<NoteDto>(olive, 'GET', `/api/notes/${note.id}`)).canDelete).toBe(true);
    await ok(mia, 'DELETE', `/api/notes/${note.id}`, undefined, 204);
    await fails(mia, 'GET', `/api/notes/${note.id}`, undefined, 404, 'note_not_found');
    for (const deleter of [olive, adam]) {
      const n = await create(max, { teamId: team.id, title: 'To delete' });
      await ok(deleter, 'DELETE', `/api/notes/${n.id}`, undefined, 204);
    }
  });

  it('refuses a project of another team, a team one is not in, and bad input (never 500)', async () => {
    await fails(mia, 'POST', '/api/notes', { teamId: team.id, title: 'x', projectId: samProjectId }, 404, 'project_not_found');
    await fails(mia, 'POST', '/api/notes', { teamId: samTeam.id, title: 'x' }, 404, 'team_not_found');
    await fails(mia, 'POST', '/api/notes', { teamId: team.id, title: '   ' }, 400);
    await fails(mia, 'POST', '/api/notes', { teamId: team.id, title: 'x'.repeat(201) }, 400);
    await fails(mia, 'POST', '/api/notes', { teamId: team.id, title: 'x', authorId: sam.id }, 400);
    await fails(mia, 'GET', '/api/notes/not-a-uuid', undefined, 400);
    await fails(mia, 'GET', '/api/notes?teamId=nope', undefined, 400);
    const note = await create(mia, { teamId: team.id, title: 'Mine' });
    await fails(mia, 'PATCH', `/api/notes/${note.id}`, { projectId: samProjectId }, 404, 'project_not_found');
    await fails(mia, 'PATCH', `/api/notes/${note.id}`, { title: '' }, 400);
    await fails(null, 'GET', '/api/notes', undefined, 401);
  });

  it('a stranger gets 404 on every route of a note, its versions, images and socket ticket', async () => {
    const note = await create(mia, { teamId: team.id, title: 'Private' });
    const version = await ok<{ id: string }>(mia, 'POST', `/api/notes/${note.id}/versions`, undefined, 201);
    const base = `/api/notes/${note.id}`;
    const routes: [Parameters<typeof call>[1], string, unknown][] = [
      ['GET', base, undefined],
      ['PATCH', base, { title: 'Mine now' }],
      ['DELETE', base, undefined],
      ['POST', `${base}/socket-ticket`, undefined],
      ['GET', `${base}/versions`, undefined],
      ['POST', `${base}/versions`, undefined],
      ['GET', `${base}/versions/${version.id}`, undefined],
      ['POST', `${base}/versions/${version.id}/restore`, undefined],
    ];
    for (const [method, url, payload] of routes) await fails(sam, method, url, payload, 404, 'note_not_found');
    const upload = multipartBody([{ fileName: 'a.png', content: PNG_1X1, contentType: 'image/png' }]);
    const res = await ctx.app.inject({
      method: 'POST',
      url: `${base}/images`,
      headers: { ...sam.auth, ...upload.headers },
      payload: upload.payload,
    });
    expect(res.statusCode).toBe(404);
    expect((await list(sam)).map((n) => n.id)).not.toContain(note.id);
    expect((await list(sam, `?teamId=${team.id}`)).length).toBe(0);
    // Still there, unchanged.
    expect((await ok<NoteDto>(mia, 'GET', base)).title).toBe('Private');
  });
});

describe('notes: the list', () => {
  it('shows pinned notes first, then the last edited; filters by team, project and text', async () => {
    const own = await insertTeam(ctx.database.db, mia, 'Mia solo');
    const a = await create(mia, { teamId: own.id, title: 'Alpha plan' });
    const b = await create(mia, { teamId: own.id, title: 'Beta plan' });
    const c = await create(mia, { teamId: own.id, title: 'Gamma plan' });
    await ok(mia, 'PATCH', `/api/notes/${a.id}`, { pinned: true });
    await ok(mia, 'PATCH', `/api/notes/${b.id}`, { title: 'Beta plan v2' });
    expect((await list(mia, `?teamId=${own.id}`)).map((n) => n.id)).toEqual([a.id, b.id, c.id]);
    await ctx.database.db.execute(sql`update notes set plain_text = 'The pelican migration checklist' where id = ${c.id}`);
    expect((await list(mia, `?teamId=${own.id}&q=pelic`)).map((n) => n.id)).toEqual([c.id]);
    expect((await list(mia, `?teamId=${own.id}&q=beta`)).map((n) => n.id)).toEqual([b.id]);
    expect((await list(mia, `?teamId=${own.id}&q=${encodeURIComponent("'&|!:*")}`)).length).toBe(0);
    expect((await list(mia, `?teamId=${own.id}`))[2]!.excerpt).toBe('The pelican migration checklist');
    const inProject = await create(mia, { teamId: team.id, title: 'Project note', projectId });
    expect((await list(mia, `?projectId=${projectId}`)).map((n) => n.id)).toEqual([inProject.id]);
  });
});

describe('notes: the document on the server', () => {
  it('keeps the plain text after compaction (headings and paragraphs as lines, mentions and task links as labels)', async () => {
    const note = await create(mia, { teamId: team.id, title: 'Structured' });
    const c = await connect(mia, note.id);
    c.doc.transact(() => {
      const fragment = c.doc.getXmlFragment(NOTE_FRAGMENT);
      const heading = new Y.XmlElement('heading');
      heading.setAttribute('level', '1' as never);
      heading.insert(0, [new Y.XmlText('Launch')]);
      const paragraph = new Y.XmlElement('paragraph');
      const mention = new Y.XmlElement('mention');
      mention.setAttribute('id', 'not-a-user');
      mention.setAttribute('label', 'Someone');
      const link = new Y.XmlElement('taskLink');
      link.setAttribute('taskId', randomUUID());
      link.setAttribute('label', 'Fix the build');
      paragraph.insert(0, [new Y.XmlText('Ask '), mention, new Y.XmlText(' about '), link]);
      const list = new Y.XmlElement('bulletList');
      const item = new Y.XmlElement('listItem');
      const inner = new Y.XmlElement('paragraph');
      inner.insert(0, [new Y.XmlText('first point')]);
      item.insert(0, [inner]);
      list.insert(0, [item]);
      fragment.insert(0, [heading, paragraph, list]);
    });
    await leave(note.id, c);
    const got = await ok<NoteDto>(mia, 'GET', `/api/notes/${note.id}`);
    expect(got.excerpt).toBe('Launch Ask @Someone about Fix the build first point');
    const [row] = rowsOf<{ plain_text: string }>(
      await ctx.database.db.execute(sql`select plain_text from notes where id = ${note.id}`),
    );
    expect(row!.plain_text).toBe('Launch\nAsk @Someone about Fix the build\nfirst point');
    expect(got.lastEditedBy?.id).toBe(mia.id);
  });

  it('notifies a newly mentioned teammate once (in-app and by mail), never a stranger or the author', async () => {
    const note = await create(mia, { teamId: team.id, title: 'Plans' });
    const mention = (id: string, label: string) => {
      const el = new Y.XmlElement('mention');
      el.setAttribute('id', id);
      el.setAttribute('label', label);
      return el;
    };
    const c = await connect(mia, note.id);
    c.doc.transact(() => {
      const p = new Y.XmlElement('paragraph');
      p.insert(0, [new Y.XmlText('Over to '), mention(max.id, 'Max'), mention(sam.id, 'Sam'), mention(mia.id, 'Me')]);
      c.doc.getXmlFragment(NOTE_FRAGMENT).insert(0, [p]);
    });
    await leave(note.id, c);
    const mentions = async (user: TestUser) =>
      (await ok<NotificationListDto>(user, 'GET', '/api/notifications')).notifications.filter(
        (n) => n.type === 'mentioned' && n.data.noteId === note.id,
      );
    const [first, ...others] = await mentions(max);
    expect(others).toEqual([]);
    expect(first).toMatchObject({ title: 'You were mentioned', message: 'Mia Member mentioned you in "Plans"' });
    expect(first!.data).toEqual({ noteId: note.id, teamId: team.id });
    expect(notificationTarget(first!)).toBe(`/notes/${note.id}`);
    expect(await mentions(sam)).toEqual([]);
    expect(await mentions(mia)).toEqual([]);
    const mails = rowsOf<{ to_email: string }>(
      await ctx.database.db.execute(
        sql`select to_email from mail_outbox where kind = 'mentioned' and text_body like ${`%/notes/${note.id}%`}`,
      ),
    );
    expect(mails.map((m) => m.to_email)).toEqual([max.email]);

    // Edited again (the mention still there): no second notification.
    const d = await connect(olive, note.id);
    d.type(' and more text');
    await until(() => d.text().includes('more text'), 2000);
    await leave(note.id, d);
    expect(await mentions(max)).toHaveLength(1);
  });
});

describe('notes: versions', () => {
  it('creates, lists and reads versions; an unknown one is 404; restoring with nobody connected changes the stored text', async () => {
    const note = await create(mia, { teamId: team.id, title: 'Versioned' });
    const c = await connect(mia, note.id);
    c.type('Version one');
    await leave(note.id, c);
    const v1 = await ok<{ id: string; kind: string; title: string; createdBy: { id: string } }>(
      mia,
      'POST',
      `/api/notes/${note.id}/versions`,
      undefined,
      201,
    );
    expect(v1).toMatchObject({ kind: 'manual', title: 'Versioned' });
    expect(v1.createdBy.id).toBe(mia.id);
    const d = await connect(max, note.id);
    d.type(' then two');
    await leave(note.id, d);
    expect((await ok<NoteDto>(mia, 'GET', `/api/notes/${note.id}`)).excerpt).toBe('Version one then two');
    await fails(mia, 'GET', `/api/notes/${note.id}/versions/${randomUUID()}`, undefined, 404, 'note_version_not_found');
    await fails(mia, 'POST', `/api/notes/${note.id}/versions/${randomUUID()}/restore`, undefined, 404, 'note_version_not_found');
    // Another note's version is not this note's.
    const other = await create(mia, { teamId: team.id, title: 'Other' });
    await fails(mia, 'GET', `/api/notes/${other.id}/versions/${v1.id}`, undefined, 404, 'note_version_not_found');

    const restored = await ok<{ kind: string }>(max, 'POST', `/api/notes/${note.id}/versions/${v1.id}/restore`);
    expect(restored.kind).toBe('restore');
    expect((await ok<NoteDto>(mia, 'GET', `/api/notes/${note.id}`)).excerpt).toBe('Version one');
    const e = await connect(olive, note.id);
    expect(e.text()).toBe('Version one');
  });

  it('takes an automatic version after five minutes of editing, and keeps at most 100 (oldest automatic ones pruned)', async () => {
    const note = await create(mia, { teamId: team.id, title: 'Auto' });
    const c = await connect(mia, note.id);
    c.type('edited');
    await leave(note.id, c);
    // The compaction at unload took none: the note is younger than five minutes.
    const kinds = async () =>
      (await ok<{ versions: { kind: string }[] }>(mia, 'GET', `/api/notes/${note.id}/versions`)).versions.map((v) => v.kind);
    expect(await kinds()).toEqual([]);
    // A compactor whose clock is five minutes ahead takes one at its next compaction.
    const later = new NoteCompactor(ctx.database.db, ctx.app.deps.changes, () => Date.now() + AUTO_VERSION_EVERY_MS);
    const d = await connect(mia, note.id);
    d.type(' more');
    // Once the server stored it (flushing what it holds), the compactor finds it.
    const stored = async () =>
      rowsOf<{ n: number }>(
        await ctx.database.db.execute(sql`select count(*)::int as n from note_updates where note_id = ${note.id}`),
      )[0]!.n;
    for (let i = 0; i < 200 && (await stored()) === 0; i++) {
      await ctx.app.notesCollab.flush(note.id);
      await new Promise((r) => setTimeout(r, 10));
    }
    await later.compact(note.id);
    expect(await kinds()).toEqual(['auto']);
    d.destroy();

    // 99 more versions (one manual among the oldest): the 101st prunes the oldest automatic one.
    const state = Buffer.from(Y.encodeStateAsUpdate(new Y.Doc()));
    await ctx.database.db.execute(
      sql`update note_versions set created_at = now() - interval '2 days' where note_id = ${note.id}`,
    );
    await notesRepo.createVersion(ctx.database.db, {
      noteId: note.id,
      kind: 'manual',
      state,
      title: 'Keep',
      createdById: mia.id,
    });
    await ctx.database.db.execute(
      sql`update note_versions set created_at = now() - interval '1 day' where note_id = ${note.id} and kind = 'manual'`,
    );
    for (let i = 0; i < 98; i++) {
      await notesRepo.createVersion(ctx.database.db, { noteId: note.id, kind: 'auto', state, title: 'Auto', createdById: null });
    }
    expect((await kinds()).length).toBe(100);
    await ok(mia, 'POST', `/api/notes/${note.id}/versions`, undefined, 201);
    const after = await kinds();
    expect(after.length).toBe(100);
    expect(after.filter((k) => k === 'manual').length).toBe(2);
  });
});

describe('notes: images', () => {
  it('stores an image of a member and serves it by its signed, expiring URL; refuses other files and forged URLs', async () => {
    const note = await create(mia, { teamId: team.id, title: 'With images' });
    const upload = async (user: TestUser, content: Buffer, fileName = 'a.png') => {
      const body = multipartBody([{ fileName, content, contentType: 'image/png' }]);
      return ctx.app.inject({
        method: 'POST',
        url: `/api/notes/${note.id}/images`,
        headers: { ...user.auth, ...body.headers },
        payload: body.payload,
      });
    };
    const res = await upload(max, PNG_1X1);
    expect(res.statusCode, res.body).toBe(201);
    const { url } = res.json() as { url: string };
    expect(url).toMatch(new RegExp(`^/api/notes/${note.id}/images/[0-9a-f-]{36}\\?exp=\\d+&sig=[A-Za-z0-9_-]{43}$`));
    // No bearer token needed (an <img>): the signature is the authorization.
    const image = await ctx.app.inject({ method: 'GET', url });
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    expect(image.rawPayload.equals(PNG_1X1)).toBe(true);
    expect((await upload(max, GIF_1X1, 'b.gif')).statusCode).toBe(201);
    // Not an image (whatever the name says): 400, nothing kept.
    const text = await upload(max, Buffer.from('<svg onload="alert(1)"></svg>'), 'evil.png');
    expect(text.statusCode).toBe(400);
    // Forged, altered or missing signatures: 404.
    const [path, sig] = url.split('&sig=');
    for (const bad of [path!, `${path}&sig=${'A'.repeat(43)}`, `${path}&sig=x`, url.replace(note.id, randomUUID())]) {
      expect((await ctx.app.inject({ method: 'GET', url: bad })).statusCode, bad).toBe(404);
    }
    expect(sig).toBeDefined();
    // The note deleted: its images go with it.
    await ok(mia, 'DELETE', `/api/notes/${note.id}`, undefined, 204);
    expect((await ctx.app.inject({ method: 'GET', url })).statusCode).toBe(404);
    expect(await storedKeys(`notes/${note.id}/`)).toEqual([]);
  });

  it('sweeps the images of notes deleted with their team (a cascade, without an event)', async () => {
    const own = await insertTeam(ctx.database.db, mia, 'Short-lived');
    const note = await create(mia, { teamId: own.id, title: 'Gone with the team' });
    const keep = await create(mia, { teamId: team.id, title: 'Stays' });
    for (const id of [note.id, keep.id]) {
      const body = multipartBody([{ fileName: 'a.png', content: PNG_1X1, contentType: 'image/png' }]);
      const res = await ctx.app.inject({
        method: 'POST',
        url: `/api/notes/${id}/images`,
        headers: { ...mia.auth, ...body.headers },
        payload: body.payload,
      });
      expect(res.statusCode).toBe(201);
    }
    await ok(mia, 'DELETE', `/api/teams/${own.id}`, undefined, 204);
    expect(await storedKeys(`notes/${note.id}/`)).toHaveLength(1);
    const images = new NoteImages(ctx.database.db, ctx.app.deps.storage, ctx.config.authSecret, 1024 * 1024, ctx.app.log);
    // Too young: kept (its note might be being created).
    expect(await images.sweepDeleted(new Date(Date.now() - 3600_000))).toBe(0);
    expect(await images.sweepDeleted(new Date(Date.now() + 1000))).toBe(1);
    expect(await storedKeys(`notes/${note.id}/`)).toEqual([]);
    expect(await storedKeys(`notes/${keep.id}/`)).toHaveLength(1);
  });
});
