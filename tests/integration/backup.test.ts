import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app';
import { type Backup, createBackup, DERIVED_TABLES, restoreBackup, tablesInForeignKeyOrder } from '../../src/server/db/backup';
import { type Database, type Db, openDatabase } from '../../src/server/db/client';
import * as Y from 'yjs';
import { NOTE_FRAGMENT } from '../../src/domain/schemas/note';
import { docFrom, noteText } from '../../src/server/modules/notes/note-document';
import { NoteCompactor } from '../../src/server/modules/notes/notes.compaction';
import * as notesRepo from '../../src/server/modules/notes/notes.repo';
import { createUser } from '../factories';
import { openTestDatabase, setupTestApp, testConfig } from '../helpers/app';
import { createScratchTarget } from '../helpers/scratch-db';

/** Backup and restore round trips, on the engine of this run (PGlite, or PostgreSQL with DATABASE_URL). */

const ctx = setupTestApp();

const rowsOf = <T>(r: unknown) => (r as { rows: T[] }).rows;

/**
 * Every row of every table, as JSON text sorted, for an exact comparison; a derived table (which
 * restore rebuilds) by what it means: each project's counts, whatever their slots.
 */
async function dump(db: Db): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const name of await tablesInForeignKeyOrder(db)) {
    const query =
      name === 'project_status_counts'
        ? `select json_build_object('project_id', project_id, 'status', status, 'n', sum(n))::text as j
           from project_status_counts group by project_id, status having sum(n) <> 0`
        : name === 'project_completion_months'
          ? // Slotted like the counts above: compared as sums per project and month.
            `select json_build_object('project_id', project_id, 'month', month, 'completed', sum(completed))::text as j
             from project_completion_months group by project_id, month having sum(completed) <> 0`
          : `select row_to_json(t)::text as j from "${name}" t`;
    out[name] = rowsOf<{ j: string }>(await db.execute(sql.raw(query)))
      .map((r) => r.j)
      .sort();
  }
  expect(Object.keys(out)).toEqual(expect.arrayContaining([...DERIVED_TABLES]));
  return out;
}

/** Each note's document (compacted state and the updates after it) as text, by note id. */
async function noteTexts(db: Db): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const ids = rowsOf<{ id: string }>(await db.execute(sql`select id from notes order by id`));
  for (const { id } of ids) {
    const stored = await notesRepo.readDocument(db, id);
    const doc = docFrom([...(stored.state ? [stored.state] : []), ...stored.updates.map((u) => u.update)]);
    out[id] = noteText(doc);
  }
  return out;
}

/** A populated world, made through the API (so every table the features write gets rows). */
async function populate(db: Database) {
  const app = await buildApp({ config: testConfig(), database: db });
  await app.ready();
  try {
    const [owner, member] = await Promise.all([
      createUser(app, { fullName: "Zoë O'Brien-Łukasz" }),
      createUser(app, { fullName: 'Mia <b>Member</b>' }),
    ]);
    const post = async (user: typeof owner, url: string, payload: unknown, method: 'POST' | 'PATCH' = 'POST') => {
      const res = await app.inject({ method, url, headers: user.auth, payload: payload as never });
      if (res.statusCode >= 300) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
      return res.json() as { id: string };
    };
    const team = await post(owner, '/api/teams', { name: 'Backup crew', description: 'Line one\nline two ✓' });
    const inv = await post(owner, `/api/teams/${team.id}/invitations`, { email: member.email, role: 'admin' });
    await post(member, `/api/invitations/${inv.id}/respond`, { accept: true });
    await post(owner, `/api/teams/${team.id}/invitations`, { email: 'pending@example.com' });
    const project = await post(owner, '/api/projects', {
      name: 'Restore me',
      teamId: team.id,
      startDate: '2025-01-01',
      endDate: '2025-12-31',
    });
    for (let i = 0; i < 12; i++) {
      const task = await post(member, '/api/tasks', {
        title: `Task ${i} "quoted" \\ back`,
        projectId: project.id,
        assigneeId: i % 2 ? owner.id : member.id,
        tags: ['a,b', 'ünïcode', `t${i}`],
        dueDate: `2025-06-0${(i % 9) + 1}`,
        priority: i % 2 ? 'urgent' : 'low',
      });
      if (i % 3 === 0) await post(member, `/api/tasks/${task.id}/status`, { status: 'completed' }, 'PATCH');
    }
    // A note (issue 25) whose document is binary (bytea): a compacted state, an update after it, and a version.
    const note = await post(member, '/api/notes', { teamId: team.id, title: 'Runbook ✓', projectId: project.id });
    const doc = new Y.Doc();
    const paragraph = new Y.XmlElement('paragraph');
    doc.getXmlFragment(NOTE_FRAGMENT).insert(0, [paragraph]);
    const text = new Y.XmlText('Zoë’s runbook: ünïcode \u0000 and bytes');
    paragraph.insert(0, [text]);
    await notesRepo.appendUpdates(db.db, note.id, [{ update: Y.encodeStateAsUpdate(doc), userId: member.id }]);
    await new NoteCompactor(db.db, app.deps.changes).compact(note.id);
    await post(member, `/api/notes/${note.id}/versions`, {});
    const before = Y.encodeStateVector(doc);
    text.insert(text.length, ' — appended later');
    await notesRepo.appendUpdates(db.db, note.id, [{ update: Y.encodeStateAsUpdate(doc, before), userId: owner.id }]);
    // A rotated refresh token (bigserial ids and parent links).
    await app.inject({
      method: 'POST',
      url: '/api/auth/token?grant_type=refresh_token',
      payload: { refresh_token: owner.session.refresh_token },
    });
    // The notification listener writes after each commit: once a last assignment, published after every
    // change above, has its notification, the notifications before it are written too.
    app.deps.events.publish({
      type: 'task.updated',
      teamId: team.id,
      actorId: member.id,
      taskId: crypto.randomUUID(),
      projectId: project.id,
      title: 'sentinel',
      creatorId: member.id,
      previousAssigneeId: null,
      assigneeId: owner.id,
      previousStatus: 'todo',
      status: 'todo',
      previousCategory: 'unstarted',
      category: 'unstarted',
    });
    const sentinels = async () =>
      rowsOf<{ n: number }>(
        await db.db.execute(sql`select count(*)::int as n from notifications where message like '%"sentinel"'`),
      )[0]!.n;
    await expect.poll(sentinels, { timeout: 10_000 }).toBe(1);
  } finally {
    await app.close();
  }
}

describe('backup and restore', () => {
  it('restores every row of every table, exactly', async () => {
    await populate(ctx.database);
    const before = await dump(ctx.database.db);
    const counts = Object.fromEntries(Object.entries(before).map(([t, rows]) => [t, rows.length]));
    for (const table of [
      'users',
      'password_credentials',
      'sessions',
      'refresh_tokens',
      'teams',
      'team_members',
      'team_invitations',
      'projects',
      'project_statuses',
      'project_status_counts',
      'tasks',
      'notifications',
      'notes',
      'note_documents',
      'note_updates',
      'note_versions',
      // Append-only (migration 0009's trigger): restore only inserts, into an empty table.
      'audit_log',
    ]) {
      expect(counts[table], table).toBeGreaterThan(0);
    }
    const backup = JSON.parse(JSON.stringify(await createBackup(ctx.database.db))) as Backup;
    const target = await openTestDatabase();
    try {
      const result = await restoreBackup(target.database.db, backup);
      const written = Object.entries(counts).filter(([t]) => !DERIVED_TABLES.includes(t));
      expect(result.rows).toBe(written.reduce((a, [, n]) => a + n, 0));
      expect(await dump(target.database.db)).toEqual(before);
      // The notes' documents are the same bytes, and read as the same text.
      expect(await noteTexts(target.database.db)).toEqual(await noteTexts(ctx.database.db));
      expect(Object.values(await noteTexts(target.database.db))).toContain('Zoë’s runbook: ünïcode  and bytes — appended later');
      // The restored database works: sign in, and new serial ids continue after the restored ones.
      const app = await buildApp({ config: testConfig(), database: target.database });
      await app.ready();
      try {
        const u = await createUser(app);
        const me = await app.inject({ url: '/api/teams', headers: u.auth });
        expect(me.statusCode).toBe(200);
        const maxId = rowsOf<{ m: number }>(
          await target.database.db.execute(sql`select max(id)::int as m from refresh_tokens`),
        )[0]!.m;
        expect(maxId).toBeGreaterThan(Math.max(...before.refresh_tokens!.map((r) => JSON.parse(r).id)));
      } finally {
        await app.close();
      }
      console.log(`backup round trip (${ctx.database.kind}): ${result.rows} rows in ${result.tables} tables restored`);
    } finally {
      await target.drop();
    }
  }, 120_000);

  it('refuses a database that is not empty, and writes nothing from a broken backup (one transaction)', async () => {
    const backup = await createBackup(ctx.database.db);
    // Not empty: the source itself.
    await expect(restoreBackup(ctx.database.db, backup)).rejects.toThrow(/not empty/);
    const target = await openTestDatabase();
    try {
      // A task pointing at a project that is not in the file: the last tables fail, the first must not stay.
      const broken = JSON.parse(JSON.stringify(backup)) as Backup;
      broken.tables = broken.tables.filter((t) => t.name !== 'projects');
      await expect(restoreBackup(target.database.db, broken)).rejects.toThrow();
      const left = await dump(target.database.db);
      expect(Object.values(left).flat()).toEqual([]);
      await expect(restoreBackup(target.database.db, { format: 'other' } as never)).rejects.toThrow(/not a Crewboard backup/);
    } finally {
      await target.drop();
    }
  });
});

describe('npm run cli -- backup / restore', () => {
  /** Runs src/server/cli.ts as the CLI does (tsx here: tests must not build into dist). */
  const cli = (args: string[], env: Record<string, string | undefined>) =>
    spawnSync('npx', ['tsx', 'src/server/cli.ts', ...args], {
      encoding: 'utf8',
      env: { ...process.env, DATABASE_URL: undefined, ...env } as NodeJS.ProcessEnv,
      timeout: 120_000,
    });

  /** A fresh database for the CLI: a PGlite folder, or a PostgreSQL database with DATABASE_URL. */
  async function freshTarget(): Promise<{
    env: Record<string, string | undefined>;
    open: () => Promise<Database>;
    drop: () => Promise<void>;
  }> {
    const target = await createScratchTarget('crewboard_cli');
    return {
      env: { DATA_DIR: target.dataDir, DATABASE_URL: target.databaseUrl, AUTH_SECRET: 'x'.repeat(40) },
      open: () => openDatabase({ dataDir: target.dataDir, databaseUrl: target.databaseUrl }),
      drop: () => target.drop(),
    };
  }

  it('backs a database up to a file and restores it into a new one, every row', async () => {
    const source = await freshTarget();
    const target = await freshTarget();
    const folder = mkdtempSync(join(tmpdir(), 'crewboard-bk-'));
    const file = join(folder, 'backup.json');
    try {
      let db = await source.open();
      await db.migrate();
      await populate(db);
      const before = await dump(db.db);
      await db.close();

      const b = cli(['backup', file], source.env);
      expect(b.status, b.stderr).toBe(0);
      expect(b.stdout).toMatch(/backed up \d+ rows of \d+ tables/);
      expect(JSON.parse(readFileSync(file, 'utf8')).format).toBe('crewboard-backup');

      const r = cli(['restore', file], target.env);
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/restored \d+ rows/);
      db = await target.open();
      expect(await dump(db.db)).toEqual(before);
      await db.close();

      // A second restore into the now non-empty database is refused, and says so.
      const again = cli(['restore', file], target.env);
      expect(again.status).toBe(1);
      expect(again.stderr).toMatch(/not empty/);
    } finally {
      await source.drop();
      await target.drop();
      rmSync(folder, { recursive: true, force: true });
    }
  }, 240_000);
});
