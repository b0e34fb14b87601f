import { rmSync } from 'node:fs';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NoteDto, NoteSocketTicketDto } from '../../src/domain/schemas/note';
import { buildApp } from '../../src/server/app';
import { NoteImages } from '../../src/server/modules/notes/note-images';
import { createUser, insertTeam, type TestUser } from '../factories';
import { apiRequests } from '../helpers/api';
import { setupTestApp, testConfig } from '../helpers/app';
import { multipartBody, PNG_1X1 } from '../helpers/multipart';

/** Issue 35, item 4: capability URLs (file, note-image and avatar links) stay out of the request log; note images expire. */

const ctx = setupTestApp();
const { ok } = apiRequests(ctx);
let mia: TestUser;
let note: NoteDto;
let imageUrl: string;

beforeAll(async () => {
  mia = await createUser(ctx.app, { fullName: 'Mia Member' });
  const team = await insertTeam(ctx.database.db, mia, 'Links crew');
  note = await ok<NoteDto>(mia, 'POST', '/api/notes', { teamId: team.id, title: 'Pictures' }, 201);
  const body = multipartBody([{ fileName: 'a.png', content: PNG_1X1, contentType: 'image/png' }]);
  const res = await ctx.app.inject({
    method: 'POST',
    url: `/api/notes/${note.id}/images`,
    headers: { ...mia.auth, ...body.headers },
    payload: body.payload,
  });
  expect(res.statusCode, res.body).toBe(201);
  imageUrl = (res.json() as { url: string }).url;
});

afterAll(() => {
  const config = ctx.config?.storage;
  if (config?.kind === 'local') rmSync(config.dir, { recursive: true, force: true });
});

describe('the request log', () => {
  it('never holds the sig of a file or note-image link, nor the file of an avatar path', async () => {
    let log = '';
    const stream = new Writable({
      write(chunk, _enc, done) {
        log += chunk.toString();
        done();
      },
    });
    const app = await buildApp({ config: testConfig(), database: ctx.database, logger: { level: 'info', stream } });
    try {
      await app.inject(
        '/api/files/0b7f3c1e-5a7d-4c55-9f59-2a1b7e9d0c11?exp=9999999999&sig=FiLeSiGsEcReT0123456789abcdefghijklmnopqrst',
      );
      await app.inject(`/api/notes/${note.id}/images/0b7f3c1e-5a7d-4c55-9f59-2a1b7e9d0c11?exp=1&sig=NoTeSiGsEcReT`);
      await app.inject('/api/notes/x/images/y?sig=OlDsTaBlEsIgSeCrEt');
      await app.inject('/api/avatars/0b7f3c1e-5a7d-4c55-9f59-2a1b7e9d0c11/AvAtArFiLeSeCrEt.png');
      // Escapes decoded by the router or the query parser hide nothing.
      await app.inject('/api/files/abc?%73ig=EsCaPeDsIgSeCrEt&exp=1');
      await app.inject('/api/%61vatars/u/EsCaPeDaVaTaRsEcReT');
    } finally {
      await app.close();
    }
    expect(log).toContain('/api/files/0b7f3c1e-5a7d-4c55-9f59-2a1b7e9d0c11?exp=9999999999&sig=[redacted]');
    expect(log).toContain('/api/avatars/0b7f3c1e-5a7d-4c55-9f59-2a1b7e9d0c11/[redacted]');
    for (const secret of [
      'FiLeSiGsEcReT',
      'NoTeSiGsEcReT',
      'OlDsTaBlEsIgSeCrEt',
      'AvAtArFiLeSeCrEt',
      'EsCaPeDsIgSeCrEt',
      'EsCaPeDaVaTaRsEcReT',
    ]) {
      expect(log).not.toContain(secret);
    }
  });
});

describe('note image links', () => {
  it('are signed with an expiry like attachment links, and an expired one is refused', async () => {
    expect(imageUrl).toMatch(/\?exp=\d+&sig=[A-Za-z0-9_-]{43}$/);
    const exp = Number(new URL(imageUrl, 'http://x').searchParams.get('exp'));
    const now = Date.now() / 1000;
    // At least two hours, ending on the hour (as /api/files links).
    expect(exp - now).toBeGreaterThanOrEqual(2 * 3600);
    expect(exp - now).toBeLessThanOrEqual(3 * 3600);
    expect(exp % 3600).toBe(0);
    const fresh = await ctx.app.inject(imageUrl);
    expect(fresh.statusCode).toBe(200);
    expect(fresh.headers['cache-control']).toMatch(/^private, max-age=\d+$/);
    expect(Number(/max-age=(\d+)/.exec(String(fresh.headers['cache-control']))![1])).toBeLessThanOrEqual(exp - now + 1);

    // The same note and file, signed by the server's own key three hours ago: expired by now.
    const storage = ctx.app.deps.storage;
    const past = new NoteImages(ctx.database.db, storage, ctx.config.authSecret, 1024 * 1024, ctx.app.log, () => {
      return Date.now() - 4 * 3600_000;
    });
    const file = imageUrl.split('/images/')[1]!.split('?')[0]!;
    const expired = past.url(note.id, file);
    expect(expired).not.toBe(imageUrl);
    expect((await ctx.app.inject(expired)).statusCode).toBe(404);
    // The never-expiring form of before (`?sig=` alone) opens nothing.
    expect((await ctx.app.inject(`/api/notes/${note.id}/images/${file}?sig=${'A'.repeat(43)}`)).statusCode).toBe(404);
  });

  it('are renewed when the note is opened: the socket ticket carries the query that signs its images', async () => {
    const ticket = await ok<NoteSocketTicketDto>(mia, 'POST', `/api/notes/${note.id}/socket-ticket`);
    expect(ticket.imageQuery).toMatch(/^exp=\d+&sig=[A-Za-z0-9_-]{43}$/);
    const path = imageUrl.split('?')[0]!;
    const res = await ctx.app.inject(`${path}?${ticket.imageQuery}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
  });
});
