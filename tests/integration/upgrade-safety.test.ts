import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { type Database, migrationsFolder, openDatabase } from '../../src/server/db/client';
import { BACKUPS_KEPT, migrateSafely, readMigrations, schemaVersion } from '../../src/server/db/migrate-safely';
import { migrateWith, migrationsUpTo } from '../helpers/migrations';
import { createScratchTarget, openScratchDatabase, type ScratchTarget } from '../helpers/scratch-db';
import { waitUntilHealthy } from '../helpers/wait-healthy';

/**
 * Upgrades that cannot lose data (issue 42), on the engine of this run (PGlite, or PostgreSQL with DATABASE_URL): the
 * real server (src/server/main.ts through tsx, as `npm start` runs it) upgrades a database migrated to all but the last
 * migration.
 */

const onPostgres = Boolean(process.env.DATABASE_URL);
const MIGRATIONS = readMigrations();
const LATEST = MIGRATIONS.length;
const PREVIOUS_TAG = MIGRATIONS[LATEST - 2]!.tag;
const VERSION = (JSON.parse(readFileSync('package.json', 'utf8')) as { version: string }).version;
const BACKUP_EXT = onPostgres ? (spawnSync('pg_dump', ['--version']).status === 0 ? 'dump' : 'json') : 'tar.gz';
const USERS = ['ada@example.test', 'grace@example.test', 'linus@example.test'];

const rowsOf = <T>(r: unknown) => (r as { rows: T[] }).rows;
const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

const open = (target: ScratchTarget) =>
  openDatabase(target.databaseUrl ? { databaseUrl: target.databaseUrl } : { dataDir: join(target.dataDir, 'db') });

/** A scratch database migrated to all but the last migration, with users in it; closed. */
async function previousRelease(prefix: string): Promise<ScratchTarget> {
  const target = await createScratchTarget(prefix);
  cleanups.push(() => target.drop());
  const folder = migrationsUpTo(PREVIOUS_TAG);
  cleanups.push(() => rmSync(folder, { recursive: true, force: true }));
  const database = await open(target);
  try {
    await migrateWith(database, folder);
    for (const email of USERS) await database.db.execute(sql`insert into users (email, full_name) values (${email}, 'Someone')`);
  } finally {
    await database.close();
  }
  return target;
}

/** The database's users, its schema version, and which of the tables named exist. */
async function inspect(target: ScratchTarget, tables: string[]) {
  const database = await open(target);
  try {
    return await facts(database, tables);
  } finally {
    await database.close();
  }
}

async function facts(database: Database, tables: string[]) {
  const users = rowsOf<{ email: string }>(await database.db.execute(sql`select email from users order by email`)).map((r) => r.email);
  const present: string[] = [];
  for (const t of tables) {
    const [row] = rowsOf<{ found: boolean }>(await database.db.execute(sql`select to_regclass(${t}) is not null as found`));
    if (row?.found) present.push(t);
  }
  return { users, schema: await schemaVersion(database.db), present };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

function serverEnv(target: ScratchTarget, port: number, extra: Record<string, string>): NodeJS.ProcessEnv {
  return {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: target.dataDir,
    DATABASE_URL: target.databaseUrl ?? '',
    // PGlite's data in a folder of DATA_DIR's, as a server's own would be (the backups beside it).
    ...(target.databaseUrl ? {} : { DATA_DIR: target.dataDir }),
    AUTH_SECRET: '',
    CLIENT_DIR: '/nonexistent',
    RATE_LIMIT_ENABLED: 'false',
    LOG_LEVEL: 'info',
    ...extra,
  };
}

const spawnServer = (env: NodeJS.ProcessEnv) =>
  spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], { stdio: ['ignore', 'pipe', 'pipe'], env });

/** Starts the server on `target`, reads its health, stops it; returns the health answer and the log. */
async function startAndStop(target: ScratchTarget, extra: Record<string, string> = {}) {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawnServer(serverEnv(target, port, extra));
  let output = '';
  child.stdout?.on('data', (c: Buffer) => {
    output += c.toString();
  });
  child.stderr?.on('data', (c: Buffer) => {
    output += c.toString();
  });
  try {
    await waitUntilHealthy(child, url, 60_000, () => output);
    const health = (await (await fetch(`${url}/api/health`)).json()) as { status: string; version: string; schemaVersion: number };
    return { health, log: () => output };
  } finally {
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
  }
}

const backupsOf = (target: ScratchTarget) => {
  const folder = join(target.dataDir, 'backups');
  return existsSync(folder) ? readdirSync(folder).sort() : [];
};

// PGlite's folder: DATA_DIR itself would hold the server's auth secret and socket too. The server opens DATA_DIR; so
// on PGlite the scratch target's folder is the database's, and `open` must open the same one.
const dbDirOf = (target: ScratchTarget) => (target.databaseUrl ? null : target.dataDir);

describe(`upgrades on ${onPostgres ? 'PostgreSQL' : 'PGlite'}`, () => {
  it('backs up before it migrates, names the backup by the schema versions, keeps the data; health reports them', async () => {
    const target = await previousRelease('upgrades_ok');
    const { health, log } = await startAndStop(target);
    expect(health).toEqual({ status: 'ok', version: VERSION, schemaVersion: LATEST });

    const files = backupsOf(target);
    expect(files).toHaveLength(1);
    const name = files[0]!;
    expect(name).toMatch(new RegExp(`^\\d{8}T\\d{6}Z-schema${LATEST - 1}-to-schema${LATEST}\\.${BACKUP_EXT.replace('.', '\\.')}$`));
    const file = join(target.dataDir, 'backups', name);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(target.dataDir, 'backups')).mode & 0o777).toBe(0o700);
    // One log line says where.
    expect(log().split('\n').filter((l) => l.includes(file))).toHaveLength(1);

    expect(await inspect(target, [])).toMatchObject({ users: [...USERS].sort(), schema: LATEST });

    // The backup holds the database as it was: the previous schema, the same rows.
    if (BACKUP_EXT === 'tar.gz') {
      const copy = await openDatabase({ dataDir: 'memory://', loadDataDir: new Blob([readFileSync(file)]) });
      try {
        expect(await facts(copy, [])).toMatchObject({ users: [...USERS].sort(), schema: LATEST - 1 });
      } finally {
        await copy.close();
      }
    } else if (BACKUP_EXT === 'dump') {
      const list = spawnSync('pg_restore', ['-l', file], { encoding: 'utf8' });
      expect(list.status).toBe(0);
      expect(list.stdout).toContain('TABLE DATA public users');
    } else {
      const json = JSON.parse(readFileSync(file, 'utf8')) as { tables: { name: string; rows: unknown[] }[] };
      expect(json.tables.find((t) => t.name === 'users')?.rows).toHaveLength(USERS.length);
    }

    // A start with nothing pending takes no backup.
    await startAndStop(target);
    expect(backupsOf(target)).toEqual(files);
  });

  it('BACKUP_BEFORE_MIGRATE=off takes none', async () => {
    const target = await previousRelease('upgrades_off');
    const { health } = await startAndStop(target, { BACKUP_BEFORE_MIGRATE: 'off' });
    expect(health.schemaVersion).toBe(LATEST);
    expect(backupsOf(target)).toEqual([]);
  });

  it(`keeps the last ${BACKUPS_KEPT} backups over six upgrades (and no other file is touched)`, async () => {
    const scratch = await openScratchDatabase('upgrades_six');
    cleanups.push(() => scratch.drop());
    const target = await createScratchTarget('upgrades-six', null);
    cleanups.push(() => target.drop());
    const folder = migrationsUpTo(MIGRATIONS[LATEST - 1]!.tag);
    cleanups.push(() => rmSync(folder, { recursive: true, force: true }));
    const journalFile = join(folder, 'meta', '_journal.json');
    const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as { entries: Record<string, unknown>[] };
    const last = MIGRATIONS[LATEST - 1]!.when;
    await migrateSafely(scratch.database, { dataDir: target.dataDir, folder, databaseUrl: scratch.databaseUrl });
    writeFileSync(join(target.dataDir, 'notes.txt'), 'mine');
    let second = 0;
    for (let i = 1; i <= 6; i++) {
      const tag = `${String(LATEST - 1 + i).padStart(4, '0')}_upgrade_${i}`;
      writeFileSync(join(folder, `${tag}.sql`), `CREATE TABLE "upgrade_step_${i}" ("id" integer);`);
      journal.entries.push({ idx: LATEST - 1 + i, version: '7', when: last + i, tag, breakpoints: true });
      writeFileSync(journalFile, JSON.stringify(journal));
      const result = await migrateSafely(scratch.database, {
        dataDir: target.dataDir,
        folder,
        databaseUrl: scratch.databaseUrl,
        // Each upgrade a second later, so the names tell their order by time.
        now: () => new Date(Date.UTC(2026, 10, 29, 8, 15, second++)),
      });
      expect(result).toMatchObject({ from: LATEST + i - 1, to: LATEST + i });
    }
    const kept = backupsOf(target);
    expect(kept).toHaveLength(BACKUPS_KEPT);
    expect(kept.map((n) => /-schema(\d+)-to-schema(\d+)\./.exec(n)!.slice(1).map(Number))).toEqual(
      [2, 3, 4, 5, 6].map((i) => [LATEST + i - 1, LATEST + i]),
    );
    expect(readdirSync(target.dataDir)).toContain('notes.txt');
  });

  it('a failing migration: the server exits non-zero with one line naming it and the backup; the database is as before', async () => {
    const target = await previousRelease('upgrades_broken');
    // Today's migrations and a broken one after them: its first statement works, its second fails.
    const folder = migrationsUpTo(MIGRATIONS[LATEST - 1]!.tag);
    cleanups.push(() => rmSync(folder, { recursive: true, force: true }));
    const tag = `${String(LATEST).padStart(4, '0')}_broken`;
    writeFileSync(
      join(folder, `${tag}.sql`),
      'CREATE TABLE "upgrade_probe" ("id" integer);\n--> statement-breakpoint\nSELECT 1 / 0;',
    );
    const journalFile = join(folder, 'meta', '_journal.json');
    const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as { entries: Record<string, unknown>[] };
    journal.entries.push({ idx: LATEST, version: '7', when: MIGRATIONS[LATEST - 1]!.when + 1, tag, breakpoints: true });
    writeFileSync(journalFile, JSON.stringify(journal));

    const child = spawnServer(serverEnv(target, await freePort(), { MIGRATIONS_DIR: folder, LOG_LEVEL: 'warn' }));
    let stderr = '';
    child.stderr?.on('data', (c: Buffer) => {
      stderr += c.toString();
    });
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).not.toBe(0);
    const lines = stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    const [backup] = backupsOf(target);
    expect(backup).toMatch(new RegExp(`-schema${LATEST - 1}-to-schema${LATEST + 1}\\.`));
    expect(lines[0]).toContain(tag);
    expect(lines[0]).toContain(join(target.dataDir, 'backups', backup!));

    // As before: the previous schema and its rows; nothing of the failing migration, nor of the one before it in the
    // same upgrade (0020's tables): the pending migrations run in one transaction.
    const after = await inspect(target, ['users', 'upgrade_probe', 'forms', 'project_shares']);
    expect(after).toEqual({ users: [...USERS].sort(), schema: LATEST - 1, present: ['users'] });
  });
});

// Keep the import used when the folder of the app's migrations is needed elsewhere.
void migrationsFolder;
void dbDirOf;
