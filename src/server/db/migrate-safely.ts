import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import {
  chmodSync,
  createWriteStream,
  existsSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  type Stats,
  statSync,
  writeFileSync,
} from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { makePrivateDir } from '../lib/private-dir';
import { createBackup } from './backup';
import { type Database, type Db, type DbOrTx, migrationsFolder } from './client';

/**
 * Upgrades that cannot lose data (issue 42). `npm start` migrates through `migrateSafely`:
 *
 * - The schema version is the number of migrations applied: the rows of drizzle's migrations table
 *   (`drizzle.__drizzle_migrations`, one row per applied migration); 0 for an empty database.
 * - Before it applies a pending migration to a database that already has applied ones, it takes a
 *   backup into `DATA_DIR/backups/<UTC time>-schema<from>-to-schema<to>` (PGlite: `.tar.gz`, the data
 *   folder as `dumpDataDir` gives it; PostgreSQL: `.dump`, `pg_dump -Fc`, when pg_dump is on PATH and
 *   works, else `.json`, the CLI's backup) and keeps the last BACKUPS_KEPT of them.
 * - The pending migrations run in ONE transaction, as drizzle's migrator runs them (same table, same
 *   hashes, same "newer than the last applied" rule), so a failed one leaves the database as it was
 *   before the start; the error names the migration's file tag.
 */

export const BACKUPS_KEPT = 5;
const MIGRATIONS_SCHEMA = 'drizzle';
const MIGRATIONS_TABLE = '__drizzle_migrations';
const BACKUP_NAME = /^(\d{8}T\d{6}Z)-schema(\d+)-to-schema(\d+)\.(tar\.gz|dump|json)$/;

export interface Migration {
  tag: string;
  /** The journal's `when`: drizzle records it as `created_at`. */
  when: number;
  statements: string[];
  hash: string;
}

/** The migrations of `folder`, as drizzle's `readMigrationFiles` reads them, with their file tags. */
export function readMigrations(folder = migrationsFolder()): Migration[] {
  const journal = JSON.parse(readFileSync(join(folder, 'meta', '_journal.json'), 'utf8')) as {
    entries: { tag: string; when: number }[];
  };
  return journal.entries.map((entry) => {
    const text = readFileSync(join(folder, `${entry.tag}.sql`), 'utf8');
    return {
      tag: entry.tag,
      when: entry.when,
      statements: text.split('--> statement-breakpoint'),
      hash: createHash('sha256').update(text).digest('hex'),
    };
  });
}

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

/** How many migrations the database has applied, and when the last was made (null: none). */
export async function appliedMigrations(db: DbOrTx): Promise<{ count: number; last: number | null }> {
  const [exists] = rowsOf<{ found: boolean }>(
    await db.execute(sql.raw(`select to_regclass('${MIGRATIONS_SCHEMA}.${MIGRATIONS_TABLE}') is not null as found`)),
  );
  if (!exists?.found) return { count: 0, last: null };
  const [row] = rowsOf<{ count: number | string; last: number | string | null }>(
    await db.execute(sql.raw(`select count(*) as count, max(created_at) as last from ${MIGRATIONS_SCHEMA}.${MIGRATIONS_TABLE}`)),
  );
  return { count: Number(row?.count ?? 0), last: row?.last == null ? null : Number(row.last) };
}

/**
 * The schema version: the number of migrations applied (GET /api/health, `npm run cli -- version`). One query where the
 * migrations table exists (health stays one round trip, as its ping was); 0 where it does not.
 */
export async function schemaVersion(db: Db): Promise<number> {
  try {
    const [row] = rowsOf<{ count: number | string }>(
      await db.execute(sql.raw(`select count(*) as count from ${MIGRATIONS_SCHEMA}.${MIGRATIONS_TABLE}`)),
    );
    return Number(row?.count ?? 0);
  } catch (error) {
    // An empty database (no migrations table) reads as 0; a database that does not answer fails here again.
    return (await appliedMigrations(db).catch(() => Promise.reject(error))).count;
  }
}

let cachedVersion: string | undefined;

/** package.json's version: the nearest package.json named crewboard above this module (src/server/db, or dist/server). */
export function appVersion(): string {
  if (cachedVersion) return cachedVersion;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) {
      const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'crewboard' && pkg.version) {
        cachedVersion = pkg.version;
        return cachedVersion;
      }
    }
    const parent = dirname(dir);
    if (parent === dir) return 'unknown';
    dir = parent;
  }
}

/** A migration failed: nothing of this start's migrations was kept. */
export class MigrationFailedError extends Error {
  constructor(
    readonly tag: string,
    readonly failure: unknown,
    readonly backup: string | null,
  ) {
    // The database's own words (drizzle wraps them in "Failed query: <the whole statement>").
    const inner = failure instanceof Error && failure.cause instanceof Error ? failure.cause : failure;
    const reason = (inner instanceof Error ? inner.message : String(inner)).replace(/\s+/g, ' ').trim();
    super(
      `migration ${tag} failed (${reason}); the database is as it was before this start` +
        (backup ? `; backup: ${backup}` : '; no backup was taken'),
    );
    this.name = 'MigrationFailedError';
  }
}

export interface MigrateSafelyOptions {
  /** DATA_DIR: the backups go into its `backups/` folder. */
  dataDir: string;
  /** BACKUP_BEFORE_MIGRATE (default on). */
  backup?: boolean;
  /** The migrations folder (default: the app's). */
  folder?: string;
  /** PostgreSQL: the database pg_dump reads. */
  databaseUrl?: string;
  log?: (message: string) => void;
  now?: () => Date;
  /** The pg_dump to run (default: `pg_dump` on PATH); tests name a missing one for the JSON backup. */
  pgDump?: string;
}

export interface MigrateResult {
  from: number;
  to: number;
  /** The backup's path, when one was taken. */
  backup: string | null;
}

/** `20261129T081500Z` */
export const backupStamp = (date: Date) =>
  date
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');

/** Migrates `database`, with a backup first when it upgrades a database that holds applied migrations. */
export async function migrateSafely(database: Database, options: MigrateSafelyOptions): Promise<MigrateResult> {
  const migrations = readMigrations(options.folder);
  const applied = await appliedMigrations(database.db);
  const pending = migrations.filter((m) => applied.last === null || applied.last < m.when);
  const from = applied.count;
  const to = from + pending.length;
  if (pending.length === 0) return { from, to, backup: null };

  let backup: string | null = null;
  if (from > 0 && options.backup !== false) {
    backup = await takeBackup(database, options, from, to);
    options.log?.(`backed up the database (schema ${from}) before migrating it to schema ${to}: ${backup}`);
  }

  let current = pending[0]!.tag;
  try {
    await database.db.transaction(async (tx) => {
      // Several instances starting at once on one PostgreSQL: one migrates, the others wait here, then find nothing left.
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext('crewboard.migrations'))`);
      await tx.execute(sql.raw(`create schema if not exists ${MIGRATIONS_SCHEMA}`));
      await tx.execute(
        sql.raw(
          `create table if not exists ${MIGRATIONS_SCHEMA}.${MIGRATIONS_TABLE} (id serial primary key, hash text not null, created_at bigint)`,
        ),
      );
      const { last } = await appliedMigrations(tx);
      for (const migration of pending) {
        if (last !== null && migration.when <= last) continue;
        current = migration.tag;
        for (const statement of migration.statements) await tx.execute(sql.raw(statement));
        await tx.execute(
          sql`insert into ${sql.identifier(MIGRATIONS_SCHEMA)}.${sql.identifier(MIGRATIONS_TABLE)} (hash, created_at) values (${migration.hash}, ${migration.when})`,
        );
      }
    });
  } catch (error) {
    throw new MigrationFailedError(current, error, backup);
  }
  return { from, to, backup };
}

async function takeBackup(database: Database, options: MigrateSafelyOptions, from: number, to: number): Promise<string> {
  const folder = join(options.dataDir, 'backups');
  makePrivateDir(folder);
  const base = join(folder, `${backupStamp((options.now ?? (() => new Date()))())}-schema${from}-to-schema${to}`);
  let file: string;
  if (database.pglite) {
    // A consistent copy: nothing else runs before the server starts, and the checkpoint writes every change out to the
    // folder. Not PGlite's dumpDataDir: it would hold the whole folder in memory, and take the backups with it. Nor the
    // uploaded files (DATA_DIR/files by default): no migration touches them, and they may weigh far more than the rest.
    await database.pglite.query('checkpoint');
    file = `${base}.tar.gz`;
    const dir = database.pglite.dataDir;
    if (dir && !dir.startsWith('memory://')) {
      const tmp = `${file}.tmp-${process.pid}`;
      await tarGzFolder(dir, tmp, new Set(['backups', 'files']));
      chmodSync(tmp, 0o600);
      renameSync(tmp, file);
    } else {
      // In memory (the tests): PGlite's own dump.
      writePrivate(file, Buffer.from(await (await database.pglite.dumpDataDir('gzip')).arrayBuffer()));
    }
  } else if (options.databaseUrl && pgDump(options.pgDump ?? 'pg_dump', options.databaseUrl, `${base}.dump`, options.log)) {
    file = `${base}.dump`;
  } else {
    file = `${base}.json`;
    writePrivate(file, Buffer.from(JSON.stringify(await createBackup(database.db))));
  }
  pruneBackups(folder, BACKUPS_KEPT);
  return file;
}

/** Written under a temporary name, then renamed: a crash never leaves half a backup under its name. */
function writePrivate(file: string, data: Buffer): void {
  const tmp = `${file}.tmp-${process.pid}`;
  writeFileSync(tmp, data, { mode: 0o600 });
  chmodSync(tmp, 0o600);
  renameSync(tmp, file);
}

/** `pg_dump -Fc` into `file`; false when pg_dump is missing or fails (a client older than the server). */
function pgDump(command: string, databaseUrl: string, file: string, log?: (message: string) => void): boolean {
  const tmp = `${file}.tmp-${process.pid}`;
  // The password through the environment, not the command line (which other accounts of the host may read).
  const env = { ...process.env };
  let dbname = databaseUrl;
  try {
    const url = new URL(databaseUrl);
    if (url.password) {
      env.PGPASSWORD = decodeURIComponent(url.password);
      url.password = '';
      dbname = url.toString();
    }
  } catch {
    // Not a URL (a libpq keyword string): as it is.
  }
  const result = spawnSync(command, ['-Fc', '--no-password', '-f', tmp, `--dbname=${dbname}`], {
    encoding: 'utf8',
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  if (result.error || result.status !== 0) {
    rmSync(tmp, { force: true });
    if (!(result.error && (result.error as NodeJS.ErrnoException).code === 'ENOENT')) {
      const reason = (result.error?.message ?? result.stderr ?? '').replace(/\s+/g, ' ').trim();
      log?.(`pg_dump failed (${reason}): taking the JSON backup instead`);
    }
    return false;
  }
  chmodSync(tmp, 0o600);
  renameSync(tmp, file);
  return true;
}

/** Deletes all but the newest `keep` backups of this naming in `folder` (other files are left alone). */
export function pruneBackups(folder: string, keep: number): void {
  const backups = readdirSync(folder)
    .map((name) => ({ name, match: BACKUP_NAME.exec(name) }))
    .filter((b): b is { name: string; match: RegExpExecArray } => b.match !== null)
    .sort((a, b) => a.match[1]!.localeCompare(b.match[1]!) || Number(a.match[2]) - Number(b.match[2]));
  for (const old of backups.slice(0, Math.max(0, backups.length - keep))) rmSync(join(folder, old.name), { force: true });
}

/**
 * `folder` as a gzipped ustar archive at `file`, its entries relative to it (`tar -xzf file -C <empty folder>` gives it
 * back): folders and regular files (sockets and links are left out), less the top-level names in `skip`.
 */
async function tarGzFolder(folder: string, file: string, skip: ReadonlySet<string>): Promise<void> {
  const gzip = createGzip();
  const out = createWriteStream(file, { mode: 0o600 });
  const done = pipeline(gzip, out);
  const write = async (chunk: Buffer) => {
    if (!gzip.write(chunk)) await once(gzip, 'drain');
  };
  const walk = async (relative: string) => {
    for (const entry of readdirSync(join(folder, relative), { withFileTypes: true })) {
      const path = relative ? `${relative}/${entry.name}` : entry.name;
      if (!relative && skip.has(entry.name)) continue;
      const full = join(folder, path);
      if (entry.isDirectory()) {
        await write(tarHeader(`${path}/`, statSync(full), 0, '5'));
        await walk(path);
      } else if (entry.isFile()) {
        const data = readFileSync(full);
        await write(tarHeader(path, statSync(full), data.length, '0'));
        await write(data);
        if (data.length % 512) await write(Buffer.alloc(512 - (data.length % 512)));
      }
    }
  };
  try {
    await walk('');
    await write(Buffer.alloc(1024));
    gzip.end();
    await done;
  } catch (error) {
    gzip.destroy();
    await done.catch(() => undefined);
    rmSync(file, { force: true });
    throw error;
  }
}

function tarHeader(path: string, stat: Stats, size: number, type: '0' | '5'): Buffer {
  const header = Buffer.alloc(512);
  let name = path;
  let prefix = '';
  if (Buffer.byteLength(name) > 100) {
    const cut = path.lastIndexOf('/', path.length - 2);
    prefix = path.slice(0, cut);
    name = path.slice(cut + 1);
    if (Buffer.byteLength(name) > 100 || Buffer.byteLength(prefix) > 155)
      throw new Error(`path too long for a tar backup: ${path}`);
  }
  const octal = (value: number, length: number) => value.toString(8).padStart(length - 1, '0');
  header.write(name, 0, 100);
  header.write(octal(stat.mode & 0o7777, 8), 100);
  header.write(octal(0, 8), 108);
  header.write(octal(0, 8), 116);
  header.write(octal(size, 12), 124);
  header.write(octal(Math.floor(stat.mtimeMs / 1000), 12), 136);
  header.write('        ', 148);
  header.write(type, 156);
  header.write('ustar\u000000', 257);
  header.write(prefix, 345, 155);
  let sum = 0;
  for (const byte of header) sum += byte;
  header.write(`${octal(sum, 7)}\u0000 `, 148);
  return header;
}
