import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app';
import { LocalStorage, type ObjectStorage, S3Storage, StorageKeyError } from '../../src/server/lib/storage';
import { insertDefaultStatuses } from '../../src/server/db/project-statuses';
import { projects, tasks } from '../../src/server/db/schema';
import { createUser, insertTeam } from '../factories';
import { openTestDatabase, testConfig } from '../helpers/app';
import { multipartBody, PNG_1X1 } from '../helpers/multipart';
import { startS3, type TestS3 } from '../helpers/s3';

/**
 * The storage contract (lib/storage/storage.ts), run against both back ends: the folder under DATA_DIR and a real
 * S3-compatible server (s3rver, started here on 127.0.0.1). Then one upload and download through the app on S3.
 */

let s3: TestS3;
const localRoot = mkdtempSync(join(tmpdir(), 'crewboard-storage-'));

beforeAll(async () => {
  s3 = await startS3('crewboard-contract');
}, 30_000);
afterAll(async () => {
  await s3?.stop();
  rmSync(localRoot, { recursive: true, force: true });
});

async function bytesOf(body: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function keysOf(storage: ObjectStorage, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const object of storage.list(prefix)) {
    expect(object.lastModified).toBeInstanceOf(Date);
    keys.push(object.key);
  }
  return keys.sort();
}

/** A stream of `total` bytes in chunks, made as it is read (never whole in memory), with its SHA-256 known ahead. */
function generated(total: number, seed = 7): { stream: Readable; sha256: string } {
  const block = createHash('sha256').update(String(seed)).digest();
  const chunk = Buffer.alloc(64 * 1024);
  for (let i = 0; i < chunk.length; i += block.length) block.copy(chunk, i);
  const hash = createHash('sha256');
  for (let sent = 0; sent < total; sent += chunk.length) hash.update(chunk.subarray(0, Math.min(chunk.length, total - sent)));
  let sent = 0;
  const stream = new Readable({
    read() {
      if (sent >= total) return void this.push(null);
      const n = Math.min(chunk.length, total - sent);
      sent += n;
      this.push(Buffer.from(chunk.subarray(0, n)));
    },
  });
  return { stream, sha256: hash.digest('hex') };
}

/** A stream that sends some bytes, then fails (a client gone, a size limit). */
function failing(): Readable {
  let step = 0;
  return new Readable({
    read() {
      if (step++ === 0) this.push(randomBytes(1000));
      else this.destroy(new Error('the client went away'));
    },
  });
}

const backEnds: [string, () => ObjectStorage][] = [
  ['local folder', () => new LocalStorage(join(localRoot, 'files'))],
  ['S3 (s3rver)', () => new S3Storage(s3.config)],
];

describe.each(backEnds)('storage contract: %s', (_name, make) => {
  let storage: ObjectStorage;
  const run = randomBytes(4).toString('hex');
  beforeAll(() => {
    storage = make();
  });
  afterAll(() => storage.close?.());

  it('stores a stream and gives the same bytes back, with their size', async () => {
    const key = `tasks/${run}/one`;
    const parts = [Buffer.from('héllo '), randomBytes(70_000), Buffer.from(' wörld')];
    const { size } = await storage.put(key, Readable.from(parts), { contentType: 'text/plain' });
    expect(size).toBe(Buffer.concat(parts).length);
    const got = await storage.get(key);
    expect(got?.size).toBe(size);
    expect((await bytesOf(got!.body)).equals(Buffer.concat(parts))).toBe(true);
  });

  it('streams a file larger than several upload parts (12 MB), bytes identical', async () => {
    const key = `tasks/${run}/big`;
    const { stream, sha256 } = generated(12 * 1024 * 1024 + 123);
    const { size } = await storage.put(key, stream);
    expect(size).toBe(12 * 1024 * 1024 + 123);
    const got = await storage.get(key);
    const hash = createHash('sha256');
    for await (const chunk of got!.body) hash.update(chunk as Buffer);
    expect(hash.digest('hex')).toBe(sha256);
  }, 60_000);

  it('answers null for a key that is not there', async () => {
    expect(await storage.get(`tasks/${run}/missing`)).toBeNull();
  });

  it('keeps nothing of an upload whose stream fails', async () => {
    const key = `tasks/${run}/failed`;
    await expect(storage.put(key, failing())).rejects.toThrow();
    expect(await storage.get(key)).toBeNull();
    expect(await keysOf(storage, `tasks/${run}/failed`)).toEqual([]);
  });

  it('lists by prefix, whole segments apart (tasks/a/ is not tasks/ab/)', async () => {
    await storage.put(`tasks/${run}-a/1`, Readable.from([Buffer.from('1')]));
    await storage.put(`tasks/${run}-a/2`, Readable.from([Buffer.from('2')]));
    await storage.put(`tasks/${run}-ab/3`, Readable.from([Buffer.from('3')]));
    expect(await keysOf(storage, `tasks/${run}-a/`)).toEqual([`tasks/${run}-a/1`, `tasks/${run}-a/2`]);
    expect(await keysOf(storage, `tasks/${run}-a`)).toEqual([`tasks/${run}-a/1`, `tasks/${run}-a/2`, `tasks/${run}-ab/3`]);
    expect(await keysOf(storage, '')).toEqual(expect.arrayContaining([`tasks/${run}-a/1`, `tasks/${run}-ab/3`]));
  });

  it('deletes one object, and every object under a prefix, and nothing else', async () => {
    await storage.delete(`tasks/${run}-a/1`);
    await storage.delete(`tasks/${run}-a/never-there`);
    expect(await storage.get(`tasks/${run}-a/1`)).toBeNull();
    await storage.put(`tasks/${run}-a/4`, Readable.from([Buffer.from('4')]));
    expect(await storage.deletePrefix(`tasks/${run}-a/`)).toBe(2);
    expect(await keysOf(storage, `tasks/${run}-a/`)).toEqual([]);
    expect(await keysOf(storage, `tasks/${run}-ab/`)).toEqual([`tasks/${run}-ab/3`]);
    expect(await storage.deletePrefix(`tasks/${run}-none/`)).toBe(0);
  });

  it('refuses keys that could leave the store (.., absolute, empty or hidden segments, backslashes)', async () => {
    for (const key of ['../x', '/etc/passwd', 'tasks/../../x', 'tasks//x', 'tasks/.hidden', 'a\\b', '', 'tasks/x/']) {
      await expect(storage.put(key, Readable.from([Buffer.from('x')])), key).rejects.toBeInstanceOf(StorageKeyError);
      await expect(storage.get(key), key).rejects.toBeInstanceOf(StorageKeyError);
    }
    await expect(keysOf(storage, '../')).rejects.toBeInstanceOf(StorageKeyError);
  });
});

describe('local back end', () => {
  it('writes to a temporary file and renames: a failed upload leaves no file, stale temporary files are cleaned', async () => {
    const root = join(localRoot, 'temp-check');
    const storage = new LocalStorage(root);
    await expect(storage.put('tasks/t/x', failing())).rejects.toThrow();
    expect(readdirSync(join(root, '.incoming'))).toEqual([]);
    // What a crash mid-upload would leave: cleaned once older than the cutoff.
    writeFileSync(join(root, '.incoming', 'stale'), 'half');
    const old = new Date(Date.now() - 2 * 3600_000);
    utimesSync(join(root, '.incoming', 'stale'), old, old);
    writeFileSync(join(root, '.incoming', 'fresh'), 'in flight');
    expect(await storage.cleanIncomplete(new Date(Date.now() - 3600_000))).toBe(1);
    expect(readdirSync(join(root, '.incoming'))).toEqual(['fresh']);
    // Temporary files are never listed as objects.
    expect(await keysOf(storage, '')).toEqual([]);
  });

  it('lists nothing (and fails not) when its folder does not exist yet', async () => {
    const storage = new LocalStorage(join(localRoot, 'never-made'));
    expect(await keysOf(storage, 'tasks/')).toEqual([]);
    expect(await storage.get('tasks/x/y')).toBeNull();
    mkdirSync(join(localRoot, 'never-made'), { recursive: true });
  });
});

describe('the app on an S3 store', () => {
  it('uploads an attachment into the bucket and serves its bytes back', async () => {
    const { database, drop } = await openTestDatabase();
    const app = await buildApp({ config: testConfig({ storage: s3.config }), database });
    await app.ready();
    try {
      expect(app.deps.storage.kind).toBe('s3');
      const owner = await createUser(app);
      const team = await insertTeam(database.db, owner);
      const [project] = await database.db.insert(projects).values({ name: 'S3', teamId: team.id, ownerId: owner.id }).returning();
      await insertDefaultStatuses(database.db, [project!.id]);
      const [task] = await database.db
        .insert(tasks)
        .values({ title: 'On S3', projectId: project!.id, creatorId: owner.id })
        .returning();
      const body = multipartBody([{ fileName: 'pixel.png', content: PNG_1X1 }]);
      const up = await app.inject({
        method: 'POST',
        url: `/api/tasks/${task!.id}/attachments`,
        headers: { ...owner.auth, ...body.headers },
        payload: body.payload,
      });
      expect(up.statusCode, up.body).toBe(201);
      const dto = up.json() as { url: string; contentType: string; size: number };
      expect(dto).toMatchObject({ contentType: 'image/png', size: PNG_1X1.length });
      expect(await keysOf(app.deps.storage, `tasks/${task!.id}/`)).toHaveLength(1);
      const down = await app.inject(dto.url);
      expect(down.statusCode).toBe(200);
      expect(down.rawPayload.equals(PNG_1X1)).toBe(true);
      // Deleting the task deletes its files from the bucket.
      const del = await app.inject({ method: 'DELETE', url: `/api/tasks/${task!.id}`, headers: owner.auth });
      expect(del.statusCode).toBe(204);
      await expect.poll(() => keysOf(app.deps.storage, `tasks/${task!.id}/`)).toEqual([]);
    } finally {
      await app.close();
      await drop();
    }
  }, 60_000);
});
