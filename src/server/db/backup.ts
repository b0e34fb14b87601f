import { sql } from 'drizzle-orm';
import { LocalStorage, type ObjectStorage } from '../lib/storage';
import type { Db, DbOrTx, Tx } from './client';
import { recountAllProjects, recountTaskChildren } from './task-counters';

/**
 * Logical backup and restore, the same on PGlite and PostgreSQL: every table of the `public`
 * schema, in foreign-key order, as JSON rows (`row_to_json`), restored with
 * `json_populate_recordset` so every column keeps its exact type. Restore runs in one transaction
 * into an empty, migrated database of the same schema. Tables derived from the others are not
 * written: restore rebuilds them.
 */

const BACKUP_FORMAT = 'crewboard-backup';
const BACKUP_VERSION = 1;

export interface Backup {
  format: typeof BACKUP_FORMAT;
  version: typeof BACKUP_VERSION;
  createdAt: string;
  /** The last migration applied to the source database. */
  migration: string | null;
  tables: { name: string; rows: Record<string, unknown>[] }[];
  /**
   * The stored files (attachments, avatars) of a local file store, copied into a folder beside the backup file
   * (`<file>.files/`, one file per key); absent when the files are in an S3 store, which is backed up by its own means.
   */
  files?: { folder: string; count: number; bytes: number };
}

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

/** Derived from the tasks (the task triggers count them as they are restored; restore recounts them). */
export const DERIVED_TABLES: readonly string[] = ['project_status_counts', 'task_status_spans', 'project_completion_months'];
const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * Nullable references that close a foreign-key cycle (migration 0019: a series names its newest task, and each of its
 * tasks names the series). They are left out of the table order: their rows are restored with the column null, and
 * the column set once every table is back.
 */
const DEFERRED_REFERENCES: readonly { table: string; column: string }[] = [{ table: 'task_series', column: 'current_task_id' }];
const isDeferred = (table: string, column: string) => DEFERRED_REFERENCES.some((d) => d.table === table && d.column === column);

/** The public tables, parents before children (a topological sort of the foreign keys, less DEFERRED_REFERENCES). */
export async function tablesInForeignKeyOrder(db: DbOrTx): Promise<string[]> {
  const tables = rowsOf<{ name: string }>(
    await db.execute(sql`select tablename as name from pg_tables where schemaname = 'public' order by tablename`),
  ).map((r) => r.name);
  const edges = rowsOf<{ child: string; parent: string; column: string }>(
    await db.execute(sql`
      select c.relname as child, p.relname as parent, a.attname as column
      from pg_constraint k
      join pg_class c on c.oid = k.conrelid
      join pg_class p on p.oid = k.confrelid
      join pg_namespace n on n.oid = c.relnamespace
      join pg_attribute a on a.attrelid = k.conrelid and a.attnum = k.conkey[1]
      where k.contype = 'f' and n.nspname = 'public' and c.oid <> p.oid`),
  ).filter((e) => !isDeferred(e.child, e.column));
  const ordered: string[] = [];
  const done = new Set<string>();
  const visiting = new Set<string>();
  const visit = (t: string) => {
    if (done.has(t)) return;
    if (visiting.has(t)) throw new Error(`foreign-key cycle through ${t}`);
    visiting.add(t);
    for (const e of edges) if (e.child === t) visit(e.parent);
    visiting.delete(t);
    done.add(t);
    ordered.push(t);
  };
  for (const t of tables) visit(t);
  return ordered;
}

/**
 * A table's columns the backup carries, in order: all but the generated ones (the search vectors, migration 0007),
 * which the database computes again as the rows are restored, and which no insert may name.
 */
async function storedColumns(db: DbOrTx, table: string): Promise<string[]> {
  return rowsOf<{ name: string }>(
    await db.execute(sql`
      select a.attname as name from pg_attribute a
      where a.attrelid = ${ident(table)}::regclass and a.attnum > 0 and not a.attisdropped and a.attgenerated = ''
      order by a.attnum`),
  ).map((r) => r.name);
}

async function lastMigration(db: DbOrTx): Promise<string | null> {
  try {
    const rows = rowsOf<{ hash: string }>(
      await db.execute(sql`select hash from drizzle.__drizzle_migrations order by created_at desc limit 1`),
    );
    return rows[0]?.hash ?? null;
  } catch {
    return null;
  }
}

/** Reads every row of every table in one repeatable-read snapshot. */
export async function createBackup(db: Db): Promise<Backup> {
  return db.transaction(
    async (tx) => {
      const tables: Backup['tables'] = [];
      for (const name of await tablesInForeignKeyOrder(tx)) {
        if (DERIVED_TABLES.includes(name)) continue;
        const columns = (await storedColumns(tx, name)).map((c) => `t.${ident(c)}`).join(', ');
        const rows = rowsOf<{ row: Record<string, unknown> }>(
          await tx.execute(sql.raw(`select row_to_json(r) as row from (select ${columns} from ${ident(name)} t) r`)),
        ).map((r) => r.row);
        tables.push({ name, rows });
      }
      return {
        format: BACKUP_FORMAT,
        version: BACKUP_VERSION,
        createdAt: new Date().toISOString(),
        migration: await lastMigration(tx),
        tables,
      };
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
}

export class RestoreError extends Error {}

/** Restores `backup` into `db`, which must be migrated to the same schema and hold no rows. */
export async function restoreBackup(db: Db, backup: Backup): Promise<{ tables: number; rows: number }> {
  if (backup?.format !== BACKUP_FORMAT || backup.version !== BACKUP_VERSION || !Array.isArray(backup.tables)) {
    throw new RestoreError('not a Crewboard backup file');
  }
  return db.transaction(async (tx) => {
    const present = await tablesInForeignKeyOrder(tx);
    const migration = await lastMigration(tx);
    if (backup.migration && migration && backup.migration !== migration) {
      throw new RestoreError('the backup was taken at another schema version: migrate both to the same version first');
    }
    for (const name of present) {
      const n = rowsOf<{ n: number }>(await tx.execute(sql.raw(`select count(*)::int as n from ${ident(name)}`)))[0]?.n ?? 0;
      if (Number(n) > 0) throw new RestoreError(`the target database is not empty (table ${name} has rows)`);
    }
    const byName = new Map(backup.tables.map((t) => [t.name, t.rows]));
    for (const name of byName.keys()) {
      if (!present.includes(name)) throw new RestoreError(`table ${name} does not exist in the target database`);
    }
    let rows = 0;
    for (const name of present) {
      if (DERIVED_TABLES.includes(name)) continue;
      const data = name === 'tasks' ? parentsFirst(byName.get(name) ?? []) : (byName.get(name) ?? []);
      const stored = await storedColumns(tx, name);
      const columns = sql.raw(stored.map(ident).join(', '));
      // A deferred reference comes back null here, and is set below once its target's rows are back.
      const values = sql.raw(stored.map((c) => (isDeferred(name, c) ? 'null' : ident(c))).join(', '));
      for (let i = 0; i < data.length; i += 500) {
        const chunk = JSON.stringify(data.slice(i, i + 500));
        await tx.execute(
          sql`insert into ${sql.raw(ident(name))} (${columns}) select ${values} from json_populate_recordset(null::${sql.raw(ident(name))}, ${chunk}::json)`,
        );
      }
      rows += data.length;
      // Serial columns continue after the restored ids.
      const serials = rowsOf<{ col: string; seq: string }>(
        await tx.execute(sql`
          select a.attname as col, pg_get_serial_sequence(${ident(name)}, a.attname) as seq
          from pg_attribute a
          where a.attrelid = ${ident(name)}::regclass and a.attnum > 0 and not a.attisdropped
            and pg_get_serial_sequence(${ident(name)}, a.attname) is not null`),
      );
      for (const { col, seq } of serials) {
        await tx.execute(
          sql`select setval(${seq}::regclass, coalesce((select max(${sql.raw(ident(col))}) from ${sql.raw(ident(name))}), 0) + 1, false)`,
        );
      }
    }
    for (const { table, column } of DEFERRED_REFERENCES) {
      const data = (byName.get(table) ?? []).filter((r) => r[column] != null).map((r) => ({ id: r.id, [column]: r[column] }));
      const [t, c] = [sql.raw(ident(table)), sql.raw(ident(column))];
      for (let i = 0; i < data.length; i += 500) {
        const chunk = JSON.stringify(data.slice(i, i + 500));
        await tx.execute(
          sql`update ${t} x set ${c} = j.${c} from json_populate_recordset(null::${t}, ${chunk}::json) j where x.id = j.id`,
        );
      }
    }
    // The task triggers counted the restored tasks; one row per project and status instead of one per slot.
    await recountAllProjects(tx);
    await recountTaskChildren(tx);
    await recountTaskStructure(tx);
    await recountTaskTime(tx);
    return { tables: present.length, rows };
  });
}

/**
 * Tasks with every parent before its sub-tasks (migration 0013): a chunk's foreign keys are checked at the end of its
 * statement, so a sub-task may share its parent's chunk but not come in a chunk before it. Stable otherwise.
 */
function parentsFirst(rows: Record<string, unknown>[]): Record<string, unknown>[] {
  const parentOf = new Map(rows.map((r) => [String(r.id), r.parent_id == null ? null : String(r.parent_id)]));
  const depth = new Map<string, number>();
  const depthOf = (id: string): number => {
    const chain: string[] = [];
    let at: string | null = id;
    // Up to a task of known depth, a top-level one, or one whose parent is not in the backup (the foreign key says so).
    while (at !== null && !depth.has(at) && parentOf.has(at) && !chain.includes(at)) {
      chain.push(at);
      at = parentOf.get(at) ?? null;
    }
    let d = at !== null && depth.has(at) ? depth.get(at)! + 1 : 0;
    for (let i = chain.length - 1; i >= 0; i--) depth.set(chain[i]!, d++);
    return depth.get(id)!;
  };
  return rows
    .map((row, i) => ({ row, i, d: depthOf(String(row.id)) }))
    .sort((a, b) => a.d - b.d || a.i - b.i)
    .map((x) => x.row);
}

/**
 * The counters of migration 0013 from the restored rows: sub-task counts and open blockers (the triggers added the
 * restored sub-tasks and dependencies to the counts the restored tasks already carried).
 */
async function recountTaskStructure(tx: Tx): Promise<void> {
  await tx.execute(sql`
    with sub as (
      select parent_id as id, count(*) filter (where status_category = 'completed')::int as done,
        count(*) filter (where status_category <> 'canceled')::int as total
      from tasks where parent_id is not null group by parent_id
    ),
    blk as (
      select d.task_id as id, count(*)::int as open
      from task_dependencies d join tasks b on b.id = d.blocked_by_id
      where b.status_category <> 'completed' group by d.task_id
    ),
    counted as (
      select x.id, coalesce(sub.done, 0) as done, coalesce(sub.total, 0) as total, coalesce(blk.open, 0) as open
      from tasks x left join sub on sub.id = x.id left join blk on blk.id = x.id
    )
    update tasks t set subtask_done = c.done, subtask_total = c.total, open_blocker_count = c.open
    from counted c
    where c.id = t.id and (t.subtask_done, t.subtask_total, t.open_blocker_count) is distinct from (c.done, c.total, c.open)`);
}

/**
 * The time of migration 0019 from the restored entries. The tasks came back with their figures and the entries were
 * then added to them by the triggers: every task's own time counted twice, and, the triggers climbing with each entry,
 * every subtree's too. Setting each task's own time back to the sum of its entries makes the triggers take the
 * difference up the tree, which halves the subtree figures back to what they were.
 */
async function recountTaskTime(tx: Tx): Promise<void> {
  await tx.execute(sql`
    update tasks t set logged_minutes = coalesce(e.m, 0)
    from tasks x left join (select task_id, sum(minutes)::int as m from time_entries group by task_id) e on e.task_id = x.id
    where x.id = t.id and t.logged_minutes <> coalesce(e.m, 0)`);
}

// ---------------------------------------------------------------------------------------------------------------
// Files

/** The folder of a backup's files: beside the backup file. */
export const filesFolderOf = (backupFile: string): string => `${backupFile}.files`;

/** What a backup says about files kept in an S3 store (the CLI prints it). */
export const S3_BACKUP_NOTE =
  "The files are in an S3-compatible store: back that bucket up by its own means (versioning, replication or the provider's snapshots). This backup holds the database only.";

/** Copies every object of `from` into `to`, streaming one object at a time. */
async function copyObjects(from: ObjectStorage, to: ObjectStorage): Promise<{ count: number; bytes: number }> {
  let count = 0;
  let bytes = 0;
  for await (const { key } of from.list('')) {
    const object = await from.get(key);
    if (!object) continue; // deleted meanwhile
    const { size } = await to.put(key, object.body);
    count++;
    bytes += size;
  }
  return { count, bytes };
}

/**
 * Copies the file store's objects into `folder` (one file per key). Taken after the database snapshot: a file
 * uploaded meanwhile is an extra (the orphan sweep removes it after a restore); one deleted meanwhile is missing.
 */
export function backupFiles(storage: ObjectStorage, folder: string): Promise<{ count: number; bytes: number }> {
  return copyObjects(storage, new LocalStorage(folder));
}

/** Copies the files of a backup's folder into the file store (local or S3: a local backup can move to S3 this way). */
export function restoreFiles(folder: string, storage: ObjectStorage): Promise<{ count: number; bytes: number }> {
  return copyObjects(new LocalStorage(folder), storage);
}
