import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { type Database, openDatabase } from '../../src/server/db/client';

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

async function admin(baseUrl: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: baseUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/**
 * A scratch database `<prefix>…`: always a new folder under the system's temp dir; with `baseUrl`
 * (DATABASE_URL by default; null for PGlite whatever the environment says), also a new PostgreSQL
 * database `<prefix>_<random>` on that server.
 */
export async function createScratchTarget(
  prefix: string,
  baseUrl: string | null = process.env.DATABASE_URL || null,
): Promise<ScratchTarget> {
  const dataDir = mkdtempSync(join(tmpdir(), `${prefix.replaceAll('_', '-')}-`));
  const removeDir = async () => rmSync(dataDir, { recursive: true, force: true });
  if (!baseUrl) return { dataDir, drop: removeDir };
  const name = `${prefix}_${randomBytes(5).toString('hex')}`;
  await admin(baseUrl, `create database ${name}`);
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return {
    dataDir,
    databaseUrl: url.toString(),
    drop: async () => {
      await removeDir();
      await admin(baseUrl, `drop database if exists ${name} with (force)`);
    },
  };
}

/**
 * A migrated scratch database, opened: PGlite in memory by default (nothing to remove); with
 * DATABASE_URL, a fresh PostgreSQL database, whose URL is returned for a second connection.
 * `drop()` closes it and removes it.
 */
export async function openScratchDatabase(
  prefix: string,
): Promise<{ database: Database; databaseUrl?: string; drop: () => Promise<void> }> {
  const target = process.env.DATABASE_URL ? await createScratchTarget(prefix) : null;
  const database = await openDatabase(target ? { databaseUrl: target.databaseUrl } : { dataDir: 'memory://' });
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
