import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { type Database, migrationsFolder, openDatabase } from '../../src/server/db/client';

/** A throwaway database: where it lives, and how to remove it. */
export interface ScratchTarget {
  /**
   * A fresh folder: PGlite's data without PostgreSQL; with it, the server's own folder (DATA_DIR:
   * its admin socket, a generated auth secret), since a server always needs one.
   */
  dataDir: string;
  /** A fresh PostgreSQL database (given a base URL), else undefined. */
  databaseUrl?: string;
  /** Removes the folder and drops the database (with force: open pools too). */
  drop(): Promise<void>;
}

async function admin(baseUrl: string, ...statements: string[]): Promise<void> {
  const client = new pg.Client({ connectionString: baseUrl });
  await client.connect();
  try {
    for (const statement of statements) await client.query(statement);
  } finally {
    await client.end();
  }
}

const urlOf = (baseUrl: string, name: string) => {
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return url.toString();
};

/**
 * A scratch database `<prefix>…`: always a new folder under the system's temp dir; with `baseUrl`
 * (DATABASE_URL by default; null for PGlite whatever the environment says), also a new PostgreSQL
 * database `<prefix>_<random>` on that server.
 */
export async function createScratchTarget(
  prefix: string,
  baseUrl: string | null = process.env.DATABASE_URL || null,
  options: { migrated?: boolean } = {},
): Promise<ScratchTarget> {
  const dataDir = mkdtempSync(join(tmpdir(), `${prefix.replaceAll('_', '-')}-`));
  const removeDir = async () => rmSync(dataDir, { recursive: true, force: true });
  if (!baseUrl) return { dataDir, drop: removeDir };
  const name = `${prefix}_${randomBytes(5).toString('hex')}`;
  const template = options.migrated ? ` template ${await postgresTemplate(baseUrl)}` : '';
  // A test's database is thrown away: its commits need not wait for the disk.
  await admin(baseUrl, `create database ${name}${template}`, `alter database ${name} set synchronous_commit = off`);
  return {
    dataDir,
    databaseUrl: urlOf(baseUrl, name),
    drop: async () => {
      await removeDir();
      await admin(baseUrl, `drop database if exists ${name} with (force)`);
    },
  };
}

/** A hash of every migration file: what a migrated database depends on. */
function migrationsKey(): string {
  const hash = createHash('sha256');
  const folder = migrationsFolder();
  const files = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true })
      .flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)]))
      .sort();
  for (const file of files(folder)) hash.update(file.slice(folder.length)).update(readFileSync(file));
  return hash.digest('hex').slice(0, 16);
}

/**
 * A migrated PostgreSQL database to copy (`create database … template …` takes some 60 ms; migrating, about a second),
 * made once per server for these migrations: the first worker builds it under an advisory lock, under another name that
 * it renames when done, so no one copies a half-migrated one. Templates of other migrations are dropped then.
 */
async function postgresTemplate(baseUrl: string): Promise<string> {
  const name = `crewboard_tpl_${migrationsKey()}`;
  const client = new pg.Client({ connectionString: baseUrl });
  await client.connect();
  try {
    await client.query('select pg_advisory_lock(hashtext($1))', ['crewboard_tpl']);
    const found = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (found.rowCount === 0) {
      const stale = await client.query<{ datname: string }>(
        "select datname from pg_database where datname like 'crewboard\\_tpl\\_%'",
      );
      for (const { datname } of stale.rows) await client.query(`drop database if exists ${datname} with (force)`);
      const building = `${name}_${randomBytes(3).toString('hex')}`;
      await client.query(`create database ${building}`);
      const database = await openDatabase({ databaseUrl: urlOf(baseUrl, building) });
      try {
        await database.migrate();
      } finally {
        await database.close();
      }
      await client.query(`alter database ${building} rename to ${name}`);
    }
    return name;
  } finally {
    await client.query('select pg_advisory_unlock(hashtext($1))', ['crewboard_tpl']).catch(() => undefined);
    await client.end();
  }
}

/** What a dump of a migrated PGlite database depends on: the migrations, and the PGlite release that wrote it. */
function pgliteTemplateKey(): string {
  const pglite = JSON.parse(
    readFileSync(new URL('../../node_modules/@electric-sql/pglite/package.json', import.meta.url), 'utf8'),
  ) as { version: string };
  return `${pglite.version}-${migrationsKey()}`;
}

let template: Promise<Blob> | undefined;

/**
 * A dump of an empty, migrated PGlite database, made once per machine for these migrations and this PGlite (a file in the
 * temp dir; workers that race to make it each write their own and rename it into place, so none reads a partial one).
 * Loading it takes about 0.8 s; a new cluster's initdb and the migrations took about 4.
 */
function migratedTemplate(): Promise<Blob> {
  template ??= (async () => {
    const dir = join(tmpdir(), 'crewboard-pglite-templates');
    const file = join(dir, `${pgliteTemplateKey()}.tar`);
    if (existsSync(file)) return new Blob([readFileSync(file)]);
    const database = await openDatabase({ dataDir: 'memory://' });
    try {
      await database.migrate();
      const dump = await database.pglite!.dumpDataDir('none');
      mkdirSync(dir, { recursive: true });
      const partial = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
      writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
      renameSync(partial, file);
      return dump;
    } finally {
      await database.close();
    }
  })();
  return template;
}

/**
 * A migrated scratch database, opened: PGlite in memory by default (nothing to remove), loaded from the migrated
 * template; with DATABASE_URL, a fresh PostgreSQL database, a copy of the migrated template, whose URL is returned for a second connection.
 * `drop()` closes it and removes it.
 */
export async function openScratchDatabase(
  prefix: string,
): Promise<{ database: Database; databaseUrl?: string; drop: () => Promise<void> }> {
  const target = process.env.DATABASE_URL ? await createScratchTarget(prefix, undefined, { migrated: true }) : null;
  const database = target
    ? await openDatabase({ databaseUrl: target.databaseUrl })
    : await openDatabase({ dataDir: 'memory://', loadDataDir: await migratedTemplate() });
  // On a template, a no-op that proves it current (every migration already recorded).
  await database.migrate();
  return {
    database,
    databaseUrl: target?.databaseUrl,
    drop: async () => {
      await database.close();
      await target?.drop();
    },
  };
}
