import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  renameSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config';
import { type Database, openDatabase } from '../../src/server/db/client';
import { BACKUPS_KEPT, migrateSafely, readMigrations, schemaVersion } from '../../src/server/db/migrate-safely';
import { migrateWith, migrationsUpTo } from '../helpers/migrations';
import { freePort } from '../helpers/free-port';
import { createScratchTarget, type ScratchTarget } from '../helpers/scratch-db';
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
  openDatabase(target.databaseUrl ? { databaseUrl: target.databaseUrl } : { dataDir: target.dataDir });

/** Migrates `target` to all but the last migration and puts users in it; closed. */
async function fillPrevious(target: ScratchTarget): Promise<void> {
  const folder = migrationsUpTo(PREVIOUS_TAG);
  const database = await open(target);
  try {
    await migrateWith(database, folder);
    for (const email of USERS) await database.db.execute(sql`insert into users (email, full_name) values (${email}, 'Someone')`);
  } finally {
    await database.close();
    rmSync(folder, { recursive: true, force: true });
  }
}

let pgliteOriginal: Promise<string> | undefined;

/**
 * A dump of such a PGlite database, made once per machine for these migrations and this PGlite (a file in the temp dir,
 * as tests/helpers/scratch-db.ts keeps its migrated template): a new cluster and twenty migrations take seconds (15 on
 * a busy machine); unpacking the dump, a moment.
 */
function previousPgliteDump(): Promise<string> {
  pgliteOriginal ??= (async () => {
    const pglite = JSON.parse(readFileSync('node_modules/@electric-sql/pglite/package.json', 'utf8')) as { version: string };
    const key = createHash('sha256')
      .update(pglite.version)
      .update(
        MIGRATIONS.slice(0, -1)
          .map((m) => m.hash)
          .join(),
      )
      .update(USERS.join())
      .digest('hex')
      .slice(0, 16);
    const dir = join(tmpdir(), 'crewboard-pglite-templates');
    const file = join(dir, `previous-release-${key}.tar`);
    if (existsSync(file)) return file;
    const original = await createScratchTarget('upgrades_original', null);
    try {
      await fillPrevious(original);
      const database = await open(original);
      const dump = await database.pglite!.dumpDataDir('none');
      await database.close();
      mkdirSync(dir, { recursive: true });
      const partial = `${file}.${process.pid}`;
      writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
      renameSync(partial, file);
      return file;
    } finally {
      await original.drop();
    }
  })();
  return pgliteOriginal;
}

/** A scratch database migrated to all but the last migration, with users in it; closed. */
async function previousRelease(prefix: string): Promise<ScratchTarget> {
  const target = await createScratchTarget(prefix);
  cleanups.push(() => target.drop());
  if (target.databaseUrl) {
    await fillPrevious(target);
    return target;
  }
  expect(spawnSync('tar', ['-xf', await previousPgliteDump(), '-C', target.dataDir]).status).toBe(0);
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
  const users = rowsOf<{ email: string }>(await database.db.execute(sql`select email from users order by email`)).map(
    (r) => r.email,
  );
  const present: string[] = [];
  for (const t of tables) {
    const [row] = rowsOf<{ found: boolean }>(await database.db.execute(sql`select to_regclass(${t}) is not null as found`));
    if (row?.found) present.push(t);
  }
  return { users, schema: await schemaVersion(database.db), present };
}

/** Every column and constraint of the public schema, as text: equal before and after means no migration left a trace. */
async function fingerprint(target: ScratchTarget): Promise<string[]> {
  const database = await open(target);
  try {
    const columns = rowsOf<{ c: string }>(
      await database.db.execute(sql`select table_name || '.' || column_name || ' ' || data_type as c
        from information_schema.columns where table_schema = 'public'`),
    );
    const constraints = rowsOf<{ c: string }>(
      await database.db.execute(sql`select conname || ' ' || pg_get_constraintdef(oid) as c
        from pg_constraint where connamespace = 'public'::regnamespace`),
    );
    return [...columns, ...constraints].map((r) => r.c).sort();
  } finally {
    await database.close();
  }
}

function serverEnv(target: ScratchTarget, port: number, extra: Record<string, string>): NodeJS.ProcessEnv {
  return {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: target.dataDir,
    DATABASE_URL: target.databaseUrl ?? '',
    AUTH_SECRET: '',
    CLIENT_DIR: '/nonexistent',
    RATE_LIMIT_ENABLED: 'false',
    LOG_LEVEL: 'info',
    ...extra,
  };
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'inherit'] });
    let stdout = '';
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString();
    });
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, stdout }));
  });
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
    await waitUntilHealthy(child, url, 150_000, () => output);
    const health = (await (await fetch(`${url}/api/health`)).json()) as {
      status: string;
      version: string;
      schemaVersion: number;
    };
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

// Servers start in these tests (a few seconds each, more on a busy machine): concurrently, each with its own database.
describe.concurrent(`upgrades on ${onPostgres ? 'PostgreSQL' : 'PGlite'}`, { timeout: 240_000 }, () => {
  it('backs up before it migrates, names the backup by the schema versions, keeps the data; health reports them', async () => {
    const target = await previousRelease('upgrades_ok');
    // An uploaded file of the default store, and an earlier backup of another naming: neither goes into the tarball.
    mkdirSync(join(target.dataDir, 'files', 'ab'), { recursive: true });
    writeFileSync(join(target.dataDir, 'files', 'ab', 'upload'), 'an attachment');
    const { health, log } = await startAndStop(target);
    expect(health).toEqual({ status: 'ok', version: VERSION, schemaVersion: LATEST });

    const files = backupsOf(target);
    expect(files).toHaveLength(1);
    const name = files[0]!;
    expect(name).toMatch(
      new RegExp(`^\\d{8}T\\d{6}Z-schema${LATEST - 1}-to-schema${LATEST}\\.${BACKUP_EXT.replace('.', '\\.')}$`),
    );
    const file = join(target.dataDir, 'backups', name);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(target.dataDir, 'backups')).mode & 0o777).toBe(0o700);
    // One log line says where.
    expect(
      log()
        .split('\n')
        .filter((l) => l.includes(file)),
    ).toHaveLength(1);

    expect(await inspect(target, [])).toMatchObject({ users: [...USERS].sort(), schema: LATEST });

    // The backup holds the database as it was: the previous schema, the same rows.
    if (BACKUP_EXT === 'tar.gz') {
      // Restored as the README says: unpacked into an empty folder, opened there.
      const restored = mkdtempSync(join(tmpdir(), 'upgrades-restored-'));
      cleanups.push(() => rmSync(restored, { recursive: true, force: true }));
      expect(spawnSync('tar', ['-xzf', file, '-C', restored]).status).toBe(0);
      expect(readdirSync(restored)).toContain('PG_VERSION');
      expect(readdirSync(restored).filter((n) => n === 'backups' || n === 'files')).toEqual([]);
      const copy = await openDatabase({ dataDir: restored });
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

    // With nothing pending, no backup.
    const database = await open(target);
    try {
      expect(await migrateSafely(database, { dataDir: target.dataDir, databaseUrl: target.databaseUrl })).toEqual({
        from: LATEST,
        to: LATEST,
        backup: null,
      });
    } finally {
      await database.close();
    }
    expect(backupsOf(target)).toEqual(files);
  });

  it('BACKUP_BEFORE_MIGRATE=off takes none', async () => {
    const target = await previousRelease('upgrades_off');
    const env = { DATA_DIR: target.dataDir, DATABASE_URL: target.databaseUrl ?? '', AUTH_SECRET: 'x'.repeat(32) };
    expect(loadConfig(env).backupBeforeMigrate).toBe(true);
    const config = loadConfig({ ...env, BACKUP_BEFORE_MIGRATE: 'off' });
    expect(config.backupBeforeMigrate).toBe(false);
    expect(() => loadConfig({ ...env, BACKUP_BEFORE_MIGRATE: 'no' })).toThrow(/BACKUP_BEFORE_MIGRATE must be on or off/);
    // As src/server/main.ts migrates.
    const database = await open(target);
    try {
      const result = await migrateSafely(database, { ...config, backup: config.backupBeforeMigrate });
      expect(result).toEqual({ from: LATEST - 1, to: LATEST, backup: null });
      expect(await facts(database, [])).toMatchObject({ users: [...USERS].sort(), schema: LATEST });
    } finally {
      await database.close();
    }
    expect(backupsOf(target)).toEqual([]);
    // `npm run cli -- version` (the built CLI; here its source) says what health says.
    const cli = await run(process.execPath, ['--import', 'tsx', 'src/server/cli.ts', 'version'], {
      ...process.env,
      ...env,
      LOG_LEVEL: 'warn',
    });
    expect(cli).toEqual({ code: 0, stdout: `crewboard ${VERSION} schema ${LATEST}\n` });
  });

  it.runIf(onPostgres)('without pg_dump, PostgreSQL is backed up as the CLI backs it up (JSON)', async () => {
    const target = await previousRelease('upgrades_json');
    const database = await open(target);
    try {
      const result = await migrateSafely(database, {
        dataDir: target.dataDir,
        databaseUrl: target.databaseUrl,
        pgDump: 'pg_dump-not-installed',
      });
      expect(result.backup).toMatch(new RegExp(`-schema${LATEST - 1}-to-schema${LATEST}\\.json$`));
      const json = JSON.parse(readFileSync(result.backup!, 'utf8')) as { tables: { name: string; rows: { email: string }[] }[] };
      expect(
        json.tables
          .find((t) => t.name === 'users')
          ?.rows.map((r) => r.email)
          .sort(),
      ).toEqual([...USERS].sort());
      expect(statSync(result.backup!).mode & 0o777).toBe(0o600);
    } finally {
      await database.close();
    }
  });

  it.runIf(onPostgres)(
    'two instances upgrading one PostgreSQL at once: one migrates, the other waits and finds it done',
    async () => {
      const target = await previousRelease('upgrades_two');
      const [a, b] = [await open(target), await open(target)];
      try {
        const options = { dataDir: target.dataDir, databaseUrl: target.databaseUrl, backup: false };
        await expect(Promise.all([migrateSafely(a, options), migrateSafely(b, options)])).resolves.toHaveLength(2);
        expect(await facts(a, [])).toMatchObject({ users: [...USERS].sort(), schema: LATEST });
      } finally {
        await Promise.all([a.close(), b.close()]);
      }
    },
  );

  it(`keeps the last ${BACKUPS_KEPT} backups over seven upgrades (and no other file of the folder is touched)`, async () => {
    const target = await previousRelease('upgrades_seven');
    const folder = migrationsUpTo(MIGRATIONS[LATEST - 1]!.tag);
    cleanups.push(() => rmSync(folder, { recursive: true, force: true }));
    const journalFile = join(folder, 'meta', '_journal.json');
    const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as { entries: Record<string, unknown>[] };
    mkdirSync(join(target.dataDir, 'backups'), { recursive: true });
    writeFileSync(join(target.dataDir, 'backups', 'mine.dump'), 'not one of the upgrade backups');
    const database = await open(target);
    try {
      // Today's last migration, then six more.
      for (let i = 0; i <= 6; i++) {
        if (i > 0) {
          const tag = `${String(LATEST - 1 + i).padStart(4, '0')}_upgrade_${i}`;
          writeFileSync(join(folder, `${tag}.sql`), `CREATE TABLE "upgrade_step_${i}" ("id" integer);`);
          journal.entries.push({
            idx: LATEST - 1 + i,
            version: '7',
            when: MIGRATIONS[LATEST - 1]!.when + i,
            tag,
            breakpoints: true,
          });
          writeFileSync(journalFile, JSON.stringify(journal));
        }
        const result = await migrateSafely(database, {
          dataDir: target.dataDir,
          folder,
          databaseUrl: target.databaseUrl,
          // Each upgrade a second after the one before.
          now: () => new Date(Date.UTC(2026, 10, 29, 8, 15, i)),
        });
        expect(result).toMatchObject({ from: LATEST - 1 + i, to: LATEST + i, backup: expect.any(String) });
      }
      expect(await facts(database, [])).toMatchObject({ users: [...USERS].sort(), schema: LATEST + 6 });
    } finally {
      await database.close();
    }
    const kept = backupsOf(target).filter((n) => n !== 'mine.dump');
    expect(kept.map((n) => /^20261129T0815(\d\d)Z-schema(\d+)-to-schema(\d+)\./.exec(n)!.slice(1).map(Number))).toEqual(
      [2, 3, 4, 5, 6].map((i) => [i, LATEST - 1 + i, LATEST + i]),
    );
    expect(backupsOf(target)).toContain('mine.dump');
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
    const before = await fingerprint(target);

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
    expect(lines[0]).toMatch(new RegExp(`^Crewboard did not start: migration ${tag} failed \\(division by zero\\)`));
    expect(lines[0]).toContain(join(target.dataDir, 'backups', backup!));

    // As before: the previous schema and its rows; nothing of the failing migration, nor of today's last one before it
    // in the same upgrade (every column and constraint is as it was): the pending migrations run in one transaction.
    const after = await inspect(target, ['users', 'upgrade_probe']);
    expect(after).toEqual({ users: [...USERS].sort(), schema: LATEST - 1, present: ['users'] });
    expect(await fingerprint(target)).toEqual(before);
  });
});
