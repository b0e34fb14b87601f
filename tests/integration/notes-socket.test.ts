import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { NOTE_SOCKET_CLOSE, type NoteDto } from '../../src/domain/schemas/note';
import { buildApp } from '../../src/server/app';
import { type Database, openDatabase } from '../../src/server/db/client';
import type { NoteChannelMessage } from '../../src/server/modules/realtime/realtime.channel';
import { NoteTickets } from '../../src/server/modules/notes/note-tickets';
import { createUser, insertMember, insertTeam, type TestUser } from '../factories';
import { apiRequests } from '../helpers/api';
import { setupTestApp } from '../helpers/app';
import { fragmentText, type NoteClient, noteClient, rawSocket, ticketFor, until } from '../helpers/note-socket';

/** The note socket (issue 25) with real WebSocket clients: y-websocket's provider over `ws`, and raw sockets. */

const ctx = setupTestApp();
const { ok } = apiRequests(ctx);
let baseUrl: string;
let owner: TestUser;
let member: TestUser;
let stranger: TestUser;
let team: { id: string };
const clients: NoteClient[] = [];

beforeAll(async () => {
  baseUrl = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  [owner, member, stranger] = await Promise.all([
    createUser(ctx.app, { fullName: 'Olive Owner' }),
    createUser(ctx.app, { fullName: 'Mia Member' }),
    createUser(ctx.app, { fullName: 'Sam Stranger' }),
  ]);
  team = await insertTeam(ctx.database.db, owner);
  await insertMember(ctx.database.db, team.id, member);
  await insertTeam(ctx.database.db, stranger);
});

afterAll(() => {
  for (const c of clients) c.destroy();
});

const newNote = (title = 'Shared') => ok<NoteDto>(owner, 'POST', '/api/notes', { teamId: team.id, title }, 201);

async function connect(user: TestUser, noteId: string, url = baseUrl, app: FastifyInstance = ctx.app): Promise<NoteClient> {
  const client = noteClient(url, noteId, await ticketFor(app, user, noteId));
  clients.push(client);
  await client.synced;
  return client;
}

const rowsOf = <T>(r: unknown) => (r as { rows: T[] }).rows;

describe('who may open the socket', () => {
  it('refuses a missing, garbled, forged, expired or other-note ticket with 4401', async () => {
    const note = await newNote();
    const other = await newNote('Other');
    const genuine = await ticketFor(ctx.app, owner, note.id);
    const [payload, sig] = genuine.split('.');
    // Signed with another secret; one claiming another user; one expired a second ago.
    const foreign = new NoteTickets('x'.repeat(64)).issue(owner.id, owner.session.user.id, note.id).ticket;
    const tampered = `${Buffer.from(JSON.stringify([member.id, 'x', note.id, 9e9])).toString('base64url')}.${sig}`;
    const expired = new NoteTickets(ctx.config.authSecret, () => Date.now() - 61_000).issue(
      owner.id,
      owner.session.user.id,
      note.id,
    ).ticket;
    const cases = [null, '', 'garbage', `${payload}.AAAA`, foreign, tampered, expired, await ticketFor(ctx.app, owner, other.id)];
    for (const ticket of cases) {
      const s = rawSocket(baseUrl, note.id, ticket);
      expect((await s.closed).code, String(ticket)).toBe(NOTE_SOCKET_CLOSE.unauthenticated);
      expect(s.messages).toEqual([]);
    }
    // The genuine one opens it (the server speaks first: sync step 1).
    const s = rawSocket(baseUrl, note.id, genuine);
    await s.opened;
    await until(() => s.messages.length > 0, 5000, 'sync step 1');
    s.socket.close();
  });

  it('gives a stranger no ticket (404), and a stranger with a ticket for their own note cannot use it here', async () => {
    const note = await newNote();
    const res = await ctx.app.inject({ method: 'POST', url: `/api/notes/${note.id}/socket-ticket`, headers: stranger.auth });
    expect(res.statusCode).toBe(404);
    expect(res.json().error.code).toBe('not_found');
    // A ticket forged with the server's own key for a non-member is still refused by membership (4403).
    const forged = new NoteTickets(ctx.config.authSecret).issue(
      stranger.id,
      (stranger.session as { user: { id: string } }).user.id,
      note.id,
    );
    const sessionId = JSON.parse(Buffer.from(stranger.token.split('.')[1]!, 'base64url').toString()).sid as string;
    const real = new NoteTickets(ctx.config.authSecret).issue(stranger.id, sessionId, note.id);
    expect((await rawSocket(baseUrl, note.id, real.ticket).closed).code).toBe(NOTE_SOCKET_CLOSE.forbidden);
    // A ticket naming a session that is not the user's: 4401.
    expect((await rawSocket(baseUrl, note.id, forged.ticket).closed).code).toBe(NOTE_SOCKET_CLOSE.unauthenticated);
  });
});

describe('editing together', () => {
  it('two clients converge, and a third one later loads the merged document from the database', async () => {
    const note = await newNote();
    const a = await connect(owner, note.id);
    const b = await connect(member, note.id);
    a.type('Hello from A. ');
    b.type('Hello from B. ');
    await until(() => a.text().includes('from B') && b.text().includes('from A'), 5000, 'both texts in both');
    await until(() => a.text() === b.text(), 5000, 'same order');
    const merged = a.text();

    // Everyone leaves: the note is stored and compacted as it unloads.
    a.destroy();
    b.destroy();
    await until(() => !ctx.app.notesCollab.isOpen(note.id), 10_000, 'the note unloaded');
    const [doc] = rowsOf<{ n: number; text: string; through: number }>(
      await ctx.database.db.execute(sql`
        select (select count(*)::int from note_updates where note_id = ${note.id}) as n,
          (select plain_text from notes where id = ${note.id}) as text,
          (select compacted_through from note_documents where note_id = ${note.id}) as through`),
    );
    expect(doc!.n).toBe(0);
    expect(Number(doc!.through)).toBeGreaterThan(0);
    expect(doc!.text).toBe(
      merged
        .split('\n')
        .map((line) => line.trimEnd())
        .join('\n'),
    );

    const c = await connect(owner, note.id);
    expect(c.text()).toBe(merged);
  });

  it('offline edits merge when the client reconnects', async () => {
    const note = await newNote();
    const a = await connect(owner, note.id);
    const b = await connect(member, note.id);
    a.type('online ');
    await until(() => b.text() === 'online ', 5000, 'first text');
    b.provider.disconnect();
    b.type('typed offline. ');
    a.type('meanwhile. ');
    b.provider.params.ticket = await ticketFor(ctx.app, member, note.id);
    b.provider.connect();
    await until(
      () => a.text() === b.text() && a.text().includes('typed offline') && a.text().includes('meanwhile'),
      5000,
      'merge',
    );
  });

  it('restoring a version changes every open editor, and is itself a version', async () => {
    const note = await newNote();
    const a = await connect(owner, note.id);
    const b = await connect(member, note.id);
    a.type('First draft.');
    // Once B has it, the server has it: a version takes what the server holds (stored first).
    await until(() => b.text() === 'First draft.', 5000, 'b has the first draft');
    const v1 = await ok<{ id: string; kind: string }>(owner, 'POST', `/api/notes/${note.id}/versions`, undefined, 201);
    expect(v1.kind).toBe('manual');
    a.type(' Second draft.');
    await until(() => b.text() === 'First draft. Second draft.', 5000, 'b has both drafts');
    const restored = await ok<{ id: string; kind: string }>(member, 'POST', `/api/notes/${note.id}/versions/${v1.id}/restore`);
    expect(restored.kind).toBe('restore');
    await until(() => a.text() === 'First draft.' && b.text() === 'First draft.', 5000, 'restored in both editors');
    const { versions } = await ok<{ versions: { id: string; kind: string }[] }>(owner, 'GET', `/api/notes/${note.id}/versions`);
    expect(versions.map((v) => v.kind)).toEqual(['restore', 'manual']);
    // The restore version's content is the restored text.
    const detail = await ok<{ state: string }>(owner, 'GET', `/api/notes/${note.id}/versions/${restored.id}`);
    const doc = new Y.Doc();
    Y.applyUpdate(doc, Buffer.from(detail.state, 'base64'));
    expect(fragmentText(doc)).toBe('First draft.');
    // Typing goes on after the restore, in both.
    b.type(' Third.');
    await until(() => a.text() === 'First draft. Third.', 5000, 'edit after restore');
  });
});

describe('membership re-checked while connected', () => {
  it('a member removed from the team is disconnected within a second (4403)', async () => {
    const note = await newNote();
    const newcomer = await createUser(ctx.app, { fullName: 'Rita Removed' });
    const membership = await insertMember(ctx.database.db, team.id, newcomer);
    const c = await connect(newcomer, note.id);
    const stay = await connect(owner, note.id);
    const started = Date.now();
    const res = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/teams/${team.id}/members/${membership.id}`,
      headers: owner.auth,
    });
    expect(res.statusCode, res.body).toBe(204);
    await until(() => c.closes.includes(NOTE_SOCKET_CLOSE.forbidden), 1000, 'closed 4403 within a second');
    expect(Date.now() - started).toBeLessThan(1000);
    // The owner stays connected, and a new ticket is refused to the removed member.
    expect(stay.closes).toEqual([]);
    const again = await ctx.app.inject({ method: 'POST', url: `/api/notes/${note.id}/socket-ticket`, headers: newcomer.auth });
    expect(again.statusCode).toBe(404);
  });

  it('a deleted note closes its sockets (4404); a signed-out session closes its own (4401)', async () => {
    const note = await newNote();
    const c = await connect(member, note.id);
    const res = await ctx.app.inject({ method: 'DELETE', url: `/api/notes/${note.id}`, headers: owner.auth });
    expect(res.statusCode).toBe(204);
    await until(() => c.closes.includes(NOTE_SOCKET_CLOSE.gone), 1000, 'closed 4404');

    const other = await newNote();
    const session = await createUser(ctx.app, { fullName: 'Leaving Soon' });
    await insertMember(ctx.database.db, team.id, session);
    const d = await connect(session, other.id);
    const out = await ctx.app.inject({ method: 'POST', url: '/api/auth/logout', headers: session.auth });
    expect(out.statusCode).toBe(204);
    await until(() => d.closes.includes(NOTE_SOCKET_CLOSE.unauthenticated), 1000, 'closed 4401');
  });
});

describe('two app instances on one PostgreSQL database', () => {
  const url = process.env.DATABASE_URL;
  let second: { app: FastifyInstance; database: Database; url: string } | undefined;

  beforeAll(async () => {
    if (!url) return;
    const database = await openDatabase({ databaseUrl: ctx.databaseUrl });
    const app = await buildApp({ config: ctx.config, database });
    second = { app, database, url: await app.listen({ port: 0, host: '127.0.0.1' }) };
  });
  afterAll(async () => {
    // The clients first: closed by the server, a provider reconnects, and a socket that reached the second instance while
    // it closed would hold its close (a 60 s hook timeout once, on a loaded machine).
    for (const c of clients.splice(0)) c.destroy();
    await second?.app.close();
    await second?.database.close();
  });

  it.skipIf(!url)('updates reach a client connected to the other instance, both ways (needs DATABASE_URL)', async () => {
    const b2 = second!;
    const note = await newNote();
    const a = await connect(owner, note.id);
    const b = await connect(member, note.id, b2.url, b2.app);
    a.type('from instance one; ');
    await until(() => b.text().includes('from instance one'), 2000, 'A → B across instances');
    b.type('from instance two; ');
    await until(() => a.text().includes('from instance two'), 2000, 'B → A across instances');
    await until(() => a.text() === b.text(), 2000, 'converged');
    // Awareness crosses too (names and cursors).
    b.provider.awareness.setLocalStateField('user', { id: member.id, name: 'Mia Member', color: '#f00' });
    await until(
      () =>
        [...a.provider.awareness.getStates().values()].some(
          (s) => (s as { user?: { name: string } }).user?.name === 'Mia Member',
        ),
      2000,
      'awareness across instances',
    );
  });

  it.skipIf(!url)('a large update (> 8 KB) crosses instances by reference', async () => {
    const b2 = second!;
    const note = await newNote();
    const a = await connect(owner, note.id);
    const b = await connect(member, note.id, b2.url, b2.app);
    const seen: NoteChannelMessage[] = [];
    const off = b2.app.eventChannel.onNoteMessage((m) => {
      if (m.noteId === note.id && m.what === 'update') seen.push(m);
    });
    try {
      const big = 'x'.repeat(12_000);
      a.type(big);
      await until(() => b.text() === big, 5000, 'the large update on the other instance');
      expect(seen.some((m) => typeof m.ref === 'number' && m.data === undefined)).toBe(true);
      // Small ones go inline.
      a.type('!');
      await until(() => b.text() === `${big}!`, 2000, 'a small update');
      expect(seen.some((m) => typeof m.data === 'string')).toBe(true);
    } finally {
      off();
    }
  });

  it.skipIf(!url)('a member removed on one instance is disconnected from the other within a second', async () => {
    const b2 = second!;
    const note = await newNote();
    const newcomer = await createUser(ctx.app, { fullName: 'Remote Rita' });
    const membership = await insertMember(ctx.database.db, team.id, newcomer);
    const c = await connect(newcomer, note.id, b2.url, b2.app);
    const res = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/teams/${team.id}/members/${membership.id}`,
      headers: owner.auth,
    });
    expect(res.statusCode).toBe(204);
    await until(() => c.closes.includes(NOTE_SOCKET_CLOSE.forbidden), 1000, 'closed 4403 on the other instance');
  });

  it.skipIf(!url)('two instances compacting one note both keep every update', async () => {
    const b2 = second!;
    const note = await newNote();
    const a = await connect(owner, note.id);
    const b = await connect(member, note.id, b2.url, b2.app);
    for (let i = 0; i < 30; i++) {
      a.type(`a${i} `);
      b.type(`b${i} `);
      await new Promise((r) => setTimeout(r, 5));
    }
    await until(() => a.text() === b.text() && a.text().includes('a29') && a.text().includes('b29'), 5000, 'converged');
    const expected = a.text();
    a.destroy();
    b.destroy();
    await until(() => !ctx.app.notesCollab.isOpen(note.id) && !b2.app.notesCollab.isOpen(note.id), 10_000, 'both unloaded');
    const doc = new Y.Doc();
    const [row] = rowsOf<{ state: string }>(
      await ctx.database.db.execute(sql`select encode(state, 'base64') as state from note_documents where note_id = ${note.id}`),
    );
    Y.applyUpdate(doc, Buffer.from(row!.state.replace(/\n/g, ''), 'base64'));
    for (const u of rowsOf<{ u: string }>(
      await ctx.database.db.execute(
        sql`select encode(update, 'base64') as u from note_updates where note_id = ${note.id} order by id`,
      ),
    )) {
      Y.applyUpdate(doc, Buffer.from(u.u.replace(/\n/g, ''), 'base64'));
    }
    expect(fragmentText(doc)).toBe(expected);
  });
});
