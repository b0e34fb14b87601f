import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UserDto } from '../../src/domain/schemas/auth';
import type { AttachmentDto, AttachmentListDto } from '../../src/domain/schemas/task-detail';
import type { DomainEvent } from '../../src/server/lib/events';
import { backupFiles, restoreFiles } from '../../src/server/db/backup';
import { insertDefaultStatuses } from '../../src/server/db/project-statuses';
import { projects, taskAttachments, tasks } from '../../src/server/db/schema';
import { LocalStorage, type ObjectStorage } from '../../src/server/lib/storage';
import { FileLinks } from '../../src/server/modules/attachments/file-links';
import { sweepOrphans } from '../../src/server/modules/attachments/orphan-sweep';
import { AvatarsService } from '../../src/server/modules/avatars';
import { createUser, insertMember, insertTeam, type TestUser } from '../factories';
import { setupTestApp } from '../helpers/app';
import { GIF_1X1, multipartBody, type FilePart, PNG_1X1 } from '../helpers/multipart';

/** Task attachments and avatars (issues 22 and 21): upload, download, types from the bytes, limits, permissions, clean-up. */

const ctx = setupTestApp({ maxUploadMb: 1 });
const MB = 1024 * 1024;

let owner: TestUser;
let admin: TestUser;
let member: TestUser;
let member2: TestUser;
let stranger: TestUser;
let teamId: string;
let projectId: string;
let taskId: string;

const storage = (): ObjectStorage => ctx.app.deps.storage;

async function newTask(title = 'Has files'): Promise<string> {
  const [task] = await ctx.database.db.insert(tasks).values({ title, projectId, creatorId: owner.id }).returning();
  return task!.id;
}

beforeAll(async () => {
  [owner, admin, member, member2, stranger] = await Promise.all([
    createUser(ctx.app, { fullName: 'Olive Owner' }),
    createUser(ctx.app, { fullName: 'Ada Admin' }),
    createUser(ctx.app, { fullName: 'Max Member' }),
    createUser(ctx.app, { fullName: 'Mia Member' }),
    createUser(ctx.app, { fullName: 'Stan Stranger' }),
  ]);
  const db = ctx.database.db;
  const team = await insertTeam(db, owner);
  teamId = team.id;
  await insertMember(db, teamId, admin, 'admin');
  await insertMember(db, teamId, member);
  await insertMember(db, teamId, member2);
  await insertTeam(db, stranger);
  const [project] = await db.insert(projects).values({ name: 'Files', teamId, ownerId: owner.id }).returning();
  await insertDefaultStatuses(db, [project!.id]);
  projectId = project!.id;
  taskId = await newTask();
});

afterAll(() => {
  const config = ctx.config?.storage;
  if (config?.kind === 'local') rmSync(config.dir, { recursive: true, force: true });
});

function upload(user: TestUser | null, task: string, files: FilePart[], fields?: Record<string, string>) {
  const body = multipartBody(files, fields);
  return ctx.app.inject({
    method: 'POST',
    url: `/api/tasks/${task}/attachments`,
    headers: { ...(user?.auth ?? {}), ...body.headers },
    payload: body.payload,
  });
}

async function uploaded(user: TestUser, task: string, file: FilePart): Promise<AttachmentDto> {
  const res = await upload(user, task, [file]);
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as AttachmentDto;
}

async function keysUnder(prefix: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const o of storage().list(prefix)) keys.push(o.key);
  return keys;
}

const call = (user: TestUser | null, method: 'GET' | 'DELETE', url: string) =>
  ctx.app.inject({ method, url, headers: user?.auth ?? {} });

describe('upload and download', () => {
  it('stores a text file and serves the same bytes with safe headers', async () => {
    const text = 'Hello, team!\nÜnïcode ✓ — line two\n';
    const dto = await uploaded(member, taskId, { fileName: 'notes.txt', content: text, contentType: 'text/plain' });
    expect(dto).toMatchObject({
      taskId,
      fileName: 'notes.txt',
      contentType: 'text/plain',
      size: Buffer.byteLength(text),
      isImage: false,
      uploader: { id: member.id, fullName: 'Max Member', avatar: null },
    });
    const link = new URL(dto.url, 'http://x');
    expect(link.pathname).toBe(`/api/files/${dto.id}`);
    const exp = Number(link.searchParams.get('exp'));
    // Rounded up to the hour (cache-friendly), at least two hours ahead.
    expect(exp % 3600).toBe(0);
    expect(exp * 1000).toBeGreaterThan(Date.now() + 2 * 3600_000 - 1000);

    // No bearer: the signature is the authorization.
    const res = await ctx.app.inject(dto.url);
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.equals(Buffer.from(text))).toBe(true);
    expect(res.headers['content-type']).toBe('text/plain');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="notes.txt"; filename*=UTF-8''notes.txt`);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
    expect(res.headers['cache-control']).toMatch(/^private, max-age=\d+$/);
    expect(await keysUnder(`tasks/${taskId}/`)).toHaveLength(1);
  });

  it('serves a raster image inline, and lists the files oldest first with the card counting them', async () => {
    const dto = await uploaded(member2, taskId, { fileName: 'pixel.png', content: PNG_1X1, contentType: 'image/png' });
    expect(dto).toMatchObject({ contentType: 'image/png', isImage: true, size: PNG_1X1.length });
    const res = await ctx.app.inject(dto.url);
    expect(res.rawPayload.equals(PNG_1X1)).toBe(true);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['content-disposition']).toMatch(/^inline; /);

    const list = await call(owner, 'GET', `/api/tasks/${taskId}/attachments`);
    expect(list.statusCode).toBe(200);
    const names = (list.json() as AttachmentListDto).attachments.map((a) => a.fileName);
    expect(names).toEqual(['notes.txt', 'pixel.png']);
    const task = await call(member, 'GET', `/api/tasks/${taskId}`);
    expect(task.json().attachmentCount).toBe(2);
  });

  it('takes the type from the bytes, never from the name or the browser', async () => {
    const task = await newTask('Types');
    const png = await uploaded(member, task, { fileName: 'innocent.txt', content: PNG_1X1, contentType: 'text/plain' });
    expect(png).toMatchObject({ contentType: 'image/png', isImage: true });
    const html = await uploaded(member, task, {
      fileName: 'photo.png',
      content: '<html><script>alert(document.cookie)</script></html>',
      contentType: 'image/png',
    });
    expect(html).toMatchObject({ contentType: 'text/plain', isImage: false });
    const served = await ctx.app.inject(html.url);
    expect(served.headers['content-type']).toBe('text/plain');
    expect(served.headers['content-disposition']).toMatch(/^attachment; /);
    const svg = await uploaded(member, task, {
      fileName: 'logo.png',
      content: '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"></svg>',
      contentType: 'image/svg+xml',
    });
    expect(svg.isImage).toBe(false);
    expect(svg.contentType).not.toMatch(/svg/);
    const binary = await uploaded(member, task, { fileName: 'data.txt', content: Buffer.from([0x00, 0xff, 0x10, 0x80, 0x00]) });
    expect(binary.contentType).toBe('application/octet-stream');
    const gif = await uploaded(member, task, { fileName: 'anim', content: GIF_1X1, contentType: 'application/pdf' });
    expect(gif).toMatchObject({ contentType: 'image/gif', isImage: true });
  });

  it('sanitizes the file name: no path, no control or direction characters, at most 255 characters', async () => {
    const task = await newTask('Names');
    const a = await uploaded(member, task, { fileName: '../../etc/pa\u0007ss\u202ewd.txt', content: 'x' });
    expect(a.fileName).toBe('passwd.txt');
    const b = await uploaded(member, task, { fileName: 'C:\\Users\\me\\résumé (final) 100%.pdf', content: 'x' });
    expect(b.fileName).toBe('résumé (final) 100%.pdf');
    const res = await ctx.app.inject(b.url);
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="r_sum_ (final) 100_.pdf"; filename*=UTF-8''r%C3%A9sum%C3%A9%20%28final%29%20100%25.pdf`,
    );
    const c = await uploaded(member, task, { fileName: `${'n'.repeat(300)}.txt`, content: 'x' });
    expect(c.fileName).toHaveLength(255);
    const d = await uploaded(member, task, { fileName: '..', content: 'x' });
    expect(d.fileName).toBe('file');
  });

  it('answers 413 file_too_large over MAX_UPLOAD_MB and keeps nothing; exactly the limit is fine', async () => {
    const task = await newTask('Big');
    const over = await upload(member, task, [{ fileName: 'big.bin', content: randomBytes(MB + 1) }]);
    expect(over.statusCode).toBe(413);
    expect(over.json().error).toMatchObject({ code: 'payload_too_large', reason: 'file_too_large' });
    expect(await keysUnder(`tasks/${task}/`)).toEqual([]);
    const root = ctx.config.storage.kind === 'local' ? ctx.config.storage.dir : '';
    expect(readdirSync(join(root, '.incoming'))).toEqual([]);
    const rows = await ctx.database.db.select().from(taskAttachments);
    expect(rows.some((r) => r.taskId === task)).toBe(false);

    const exact = await upload(member, task, [{ fileName: 'exact.bin', content: randomBytes(MB) }]);
    expect(exact.statusCode, exact.body).toBe(201);
    expect(exact.json().size).toBe(MB);
  });

  it('answers 400 file_missing without a file in the field `file`, and never 500 on a broken body', async () => {
    const none = await upload(member, taskId, [], { note: 'no file' });
    expect(none.statusCode).toBe(400);
    expect(none.json().error.reason).toBe('file_missing');
    const otherField = await upload(member, taskId, [{ field: 'document', fileName: 'a.txt', content: 'x' }]);
    expect(otherField.json().error.reason).toBe('file_missing');
    const json = await ctx.app.inject({
      method: 'POST',
      url: `/api/tasks/${taskId}/attachments`,
      headers: { ...member.auth, 'content-type': 'application/json' },
      payload: { file: 'x' },
    });
    expect(json.statusCode).toBe(400);
    expect(json.json().error.reason).toBe('file_missing');
    for (const [contentType, payload] of [
      ['multipart/form-data', 'no boundary'],
      ['multipart/form-data; boundary=abc', '--abc\r\nContent-Disposition: form-data; name="file"; filename="a"\r\n\r\ncut'],
      ['multipart/form-data; boundary=abc', 'garbage'],
    ]) {
      const res = await ctx.app.inject({
        method: 'POST',
        url: `/api/tasks/${taskId}/attachments`,
        headers: { ...member.auth, 'content-type': contentType! },
        payload,
      });
      expect(res.statusCode, `${contentType} ${payload}: ${res.body}`).toBeGreaterThanOrEqual(400);
      expect(res.statusCode).toBeLessThan(500);
    }
    // JSON routes still take JSON only: multipart is parsed by the upload routes alone.
    const body = multipartBody([{ fileName: 'a.txt', content: 'x' }]);
    const elsewhere = await ctx.app.inject({
      method: 'PATCH',
      url: `/api/tasks/${taskId}`,
      headers: { ...member.auth, ...body.headers },
      payload: body.payload,
    });
    expect(elsewhere.statusCode).toBe(415);
  });

  it('answers 409 too_many_attachments on a task that holds 100 files', async () => {
    const task = await newTask('Full');
    await ctx.database.db.insert(taskAttachments).values(
      Array.from({ length: 100 }, (_, i) => ({
        taskId: task,
        uploaderId: member.id,
        fileName: `f${i}`,
        contentType: 'text/plain',
        size: 1,
        storageKey: `tasks/${task}/${randomUUID()}`,
      })),
    );
    const res = await upload(member, task, [{ fileName: 'one-more.txt', content: 'x' }]);
    expect(res.statusCode).toBe(409);
    expect(res.json().error.reason).toBe('too_many_attachments');
  });

  it('publishes task.detail_changed (attachments) to the team on upload and delete', async () => {
    const seen: DomainEvent[] = [];
    const off = ctx.app.deps.events.subscribe((e) => seen.push(e));
    try {
      const dto = await uploaded(member, taskId, { fileName: 'e.txt', content: 'e' });
      const del = await call(member, 'DELETE', `/api/tasks/${taskId}/attachments/${dto.id}`);
      expect(del.statusCode).toBe(204);
    } finally {
      off();
    }
    const changes = seen.filter((e) => e.type === 'task.detail_changed');
    expect(changes).toHaveLength(2);
    expect(changes[0]).toMatchObject({ teamId, taskId, projectId, part: 'attachments', actorId: member.id });
  });
});

describe('who may', () => {
  it('a stranger gets 404 task_not_found and anonymous 401 on every attachment route', async () => {
    const dto = await uploaded(member, taskId, { fileName: 's.txt', content: 's' });
    for (const [method, url] of [
      ['GET', `/api/tasks/${taskId}/attachments`],
      ['DELETE', `/api/tasks/${taskId}/attachments/${dto.id}`],
    ] as const) {
      const asStranger = await call(stranger, method, url);
      expect(asStranger.statusCode, url).toBe(404);
      expect(asStranger.json().error.reason).toBe('task_not_found');
      expect((await call(null, method, url)).statusCode, url).toBe(401);
    }
    const up = await upload(stranger, taskId, [{ fileName: 'x.txt', content: 'x' }]);
    expect(up.statusCode).toBe(404);
    expect(up.json().error.reason).toBe('task_not_found');
    expect((await upload(null, taskId, [{ fileName: 'x.txt', content: 'x' }])).statusCode).toBe(401);
    // A task that does not exist answers as one the caller may not see.
    expect((await call(member, 'GET', `/api/tasks/${randomUUID()}/attachments`)).statusCode).toBe(404);
  });

  it('a file link with a bad, altered, missing or expired signature is 404 file_link_invalid', async () => {
    const dto = await uploaded(member, taskId, { fileName: 'sig.txt', content: 'sig' });
    const other = await uploaded(member, taskId, { fileName: 'other.txt', content: 'other' });
    const link = new URL(dto.url, 'http://x');
    const exp = link.searchParams.get('exp')!;
    const sig = link.searchParams.get('sig')!;
    const flipped = `${sig.slice(0, -2)}${sig.at(-2) === 'A' ? 'B' : 'A'}${sig.at(-1)}`;
    const expired = new FileLinks(ctx.config.authSecret, () => Date.now() - 5 * 3600_000).url(dto.id);
    const foreign = new FileLinks(randomBytes(32).toString('hex')).url(dto.id);
    for (const url of [
      `/api/files/${dto.id}?exp=${exp}&sig=${flipped}`,
      `/api/files/${dto.id}?exp=${Number(exp) + 3600}&sig=${sig}`,
      `/api/files/${other.id}?exp=${exp}&sig=${sig}`,
      `/api/files/${dto.id}?exp=${exp}`,
      `/api/files/${dto.id}`,
      `/api/files/${dto.id}?exp=abc&sig=${sig}`,
      `/api/files/${dto.id}?exp=${exp}&sig=${'x'.repeat(300)}`,
      expired,
      foreign,
    ]) {
      const res = await ctx.app.inject(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.json().error.reason, url).toBe('file_link_invalid');
    }
    expect((await ctx.app.inject(dto.url)).statusCode).toBe(200);
  });

  it('the uploader or a team owner/admin deletes a file; another member gets 403; the bytes go too', async () => {
    const files = await Promise.all(['a', 'b', 'c'].map((n) => uploaded(member, taskId, { fileName: `${n}.txt`, content: n })));
    const denied = await call(member2, 'DELETE', `/api/tasks/${taskId}/attachments/${files[0]!.id}`);
    expect(denied.statusCode).toBe(403);
    expect(denied.json().error.reason).toBe('attachment_delete_denied');
    for (const [user, file] of [
      [member, files[0]!],
      [admin, files[1]!],
      [owner, files[2]!],
    ] as const) {
      const res = await call(user, 'DELETE', `/api/tasks/${taskId}/attachments/${file.id}`);
      expect(res.statusCode).toBe(204);
      const link = await ctx.app.inject(file.url);
      expect(link.statusCode).toBe(404);
      expect(link.json().error.reason).toBe('attachment_not_found');
    }
    const keys = await keysUnder(`tasks/${taskId}/`);
    const rows = await ctx.database.db.select({ key: taskAttachments.storageKey }).from(taskAttachments);
    for (const key of keys) expect(rows.map((r) => r.key)).toContain(key);
    // Gone, or named under another task: 404.
    expect((await call(owner, 'DELETE', `/api/tasks/${taskId}/attachments/${files[0]!.id}`)).statusCode).toBe(404);
    const elsewhere = await uploaded(member, await newTask('Other'), { fileName: 'o.txt', content: 'o' });
    const wrongTask = await call(owner, 'DELETE', `/api/tasks/${taskId}/attachments/${elsewhere.id}`);
    expect(wrongTask.statusCode).toBe(404);
    expect(wrongTask.json().error.reason).toBe('attachment_not_found');
  });
});

describe('clean-up', () => {
  it('deleting a task deletes its files', async () => {
    const task = await newTask('Doomed');
    await uploaded(member, task, { fileName: 'a.txt', content: 'a' });
    await uploaded(member, task, { fileName: 'b.png', content: PNG_1X1 });
    expect(await keysUnder(`tasks/${task}/`)).toHaveLength(2);
    const res = await call(owner, 'DELETE', `/api/tasks/${task}`);
    expect(res.statusCode).toBe(204);
    await expect.poll(() => keysUnder(`tasks/${task}/`)).toEqual([]);
    expect(await keysUnder(`tasks/${taskId}/`)).not.toEqual([]);
  });

  it('the orphan sweep deletes stored files nothing refers to, once older than an hour', async () => {
    const kept = await uploaded(member, taskId, { fileName: 'kept.txt', content: 'kept' });
    const orphanTask = `tasks/${randomUUID()}/${randomUUID()}`;
    const orphanAvatar = `avatars/${member.id}/${randomUUID()}`;
    for (const key of [orphanTask, orphanAvatar]) await storage().put(key, Readable.from([Buffer.from('orphan')]));
    const avatar = await uploadAvatar(member2, PNG_1X1);
    expect(avatar.statusCode).toBe(200);

    const avatars = new AvatarsService(ctx.database.db, storage(), ctx.app.log);

    // Young files are left alone (an upload in flight has its bytes stored before its row).
    expect(await sweepOrphans(ctx.database.db, storage())).toMatchObject({ deleted: 0 });
    expect(await avatars.sweepOrphans()).toBe(0);
    expect(await keysUnder(orphanTask)).toEqual([orphanTask]);

    // Two hours on: the orphans go (each module sweeps its own prefix), what an attachment or an avatar names stays.
    const later = new Date(Date.now() + 2 * 3600_000);
    expect((await sweepOrphans(ctx.database.db, storage(), { now: later })).deleted).toBe(1);
    expect(await keysUnder(orphanAvatar)).toEqual([orphanAvatar]);
    expect(await avatars.sweepOrphans({ now: later })).toBe(1);
    expect(await keysUnder(orphanTask)).toEqual([]);
    expect(await keysUnder(orphanAvatar)).toEqual([]);
    expect((await ctx.app.inject(kept.url)).statusCode).toBe(200);
    expect((await ctx.app.inject((avatar.json() as UserDto).avatar!)).statusCode).toBe(200);
  });

  it('a backup copies the stored files into a folder, and a restore puts them back, bytes identical', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'crewboard-files-backup-'));
    try {
      const before = (await keysUnder('')).sort();
      expect(before.length).toBeGreaterThan(0);
      const copied = await backupFiles(storage(), folder);
      expect(copied.count).toBe(before.length);
      const target = new LocalStorage(join(folder, '..', `${folder.split('/').pop()}-restored`));
      try {
        const restored = await restoreFiles(folder, target);
        expect(restored).toEqual(copied);
        const after: string[] = [];
        for await (const o of target.list('')) after.push(o.key);
        expect(after.sort()).toEqual(before);
        const key = before[0]!;
        const read = async (s: ObjectStorage) => {
          const chunks: Buffer[] = [];
          for await (const c of (await s.get(key))!.body) chunks.push(c as Buffer);
          return Buffer.concat(chunks);
        };
        expect((await read(target)).equals(await read(storage()))).toBe(true);
      } finally {
        rmSync(target.root, { recursive: true, force: true });
      }
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});

function uploadAvatar(user: TestUser | null, content: Buffer | string, fileName = 'me.png') {
  const body = multipartBody([{ fileName, content }]);
  return ctx.app.inject({
    method: 'POST',
    url: '/api/me/avatar',
    headers: { ...(user?.auth ?? {}), ...body.headers },
    payload: body.payload,
  });
}

describe('avatars', () => {
  it('uploads, serves without a bearer, replaces (the old file goes) and clears', async () => {
    const first = await uploadAvatar(admin, PNG_1X1);
    expect(first.statusCode, first.body).toBe(200);
    const user = first.json() as UserDto;
    expect(user).toMatchObject({ id: admin.id, email: admin.email });
    expect(user.avatar).toMatch(new RegExp(`^/api/avatars/${admin.id}/[0-9a-f-]{36}$`));
    expect((await call(admin, 'GET', '/api/auth/user')).json().avatar).toBe(user.avatar);

    const served = await ctx.app.inject(user.avatar!);
    expect(served.statusCode).toBe(200);
    expect(served.rawPayload.equals(PNG_1X1)).toBe(true);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(served.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    // Teammates see it where people are shown (an uploader here).
    const file = await uploaded(admin, taskId, { fileName: 'by-admin.txt', content: 'x' });
    expect(file.uploader?.avatar).toBe(user.avatar);

    const second = await uploadAvatar(admin, GIF_1X1, 'me.gif');
    expect(second.statusCode).toBe(200);
    const replaced = second.json() as UserDto;
    expect(replaced.avatar).not.toBe(user.avatar);
    expect((await ctx.app.inject(replaced.avatar!)).headers['content-type']).toBe('image/gif');
    expect((await ctx.app.inject(user.avatar!)).statusCode).toBe(404);
    expect(await keysUnder(`avatars/${admin.id}/`)).toEqual([replaced.avatar!.replace('/api/avatars/', 'avatars/')]);

    const cleared = await call(admin, 'DELETE', '/api/me/avatar');
    expect(cleared.statusCode).toBe(200);
    expect((cleared.json() as UserDto).avatar).toBeNull();
    expect((await ctx.app.inject(replaced.avatar!)).statusCode).toBe(404);
    expect(await keysUnder(`avatars/${admin.id}/`)).toEqual([]);
  });

  it('takes only a raster image of at most 5 MB, read from the bytes, and keeps nothing else', async () => {
    for (const content of ['<svg xmlns="http://www.w3.org/2000/svg"/>', 'just text', Buffer.from([0, 1, 2, 3])]) {
      const res = await uploadAvatar(owner, content);
      expect(res.statusCode).toBe(400);
      expect(res.json().error.fields.file).toMatch(/PNG, JPEG, GIF or WebP/);
    }
    const big = Buffer.concat([PNG_1X1, randomBytes(5 * MB)]);
    const tooBig = await uploadAvatar(owner, big);
    expect(tooBig.statusCode).toBe(413);
    expect(tooBig.json().error.reason).toBe('file_too_large');
    expect(await keysUnder(`avatars/${owner.id}/`)).toEqual([]);
    expect((await call(owner, 'GET', '/api/auth/user')).json().avatar).toBeNull();
    expect((await uploadAvatar(owner, '')).statusCode).toBe(400);
  });

  it('anonymous gets 401 on changing one; an unknown or malformed avatar URL is 404', async () => {
    expect((await uploadAvatar(null, PNG_1X1)).statusCode).toBe(401);
    expect((await call(null, 'DELETE', '/api/me/avatar')).statusCode).toBe(401);
    for (const url of [
      `/api/avatars/${owner.id}/${randomUUID()}`,
      '/api/avatars/not-a-user/not-a-file',
      `/api/avatars/${owner.id}/..%2F..%2Fauth-secret`,
    ]) {
      expect((await ctx.app.inject(url)).statusCode, url).toBe(404);
    }
  });
});
