import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { request } from 'node:http';
import { SYSTEM_ROLES } from '../domain/constants';
import { setRoleInput } from '../domain/schemas/auth';
import { adminSocketPath } from './admin-socket';
import { loadDatabaseConfig, loadStorageConfig } from './config';
import { backupFiles, createBackup, filesFolderOf, RestoreError, restoreBackup, restoreFiles, S3_BACKUP_NOTE } from './db/backup';
import { openDatabase } from './db/client';
import { appVersion, schemaVersion } from './db/migrate-safely';
import { PRIVATE_UMASK } from './lib/private-dir';
import { createStorage, describeStorage } from './lib/storage';
import { EXPORT_USAGE, exportTeamCommand } from './modules/transfer/transfer.cli';
import { setSystemRole } from './modules/admin/set-role';
import { ChangeRecorder } from './lib/changes';
import { offlineSubscribers } from './subscribers';

const USAGE = `Usage:
  npm run cli -- set-role <email> <${SYSTEM_ROLES.join('|')}>
  npm run cli -- backup <file>     every table as JSON, and the stored files into <file>.files/
                                   (PGlite: stop the server first; an S3 file store is backed up by its own means)
  npm run cli -- restore <file>    into an empty database, in one transaction; then the files of <file>.files/
  npm run cli -- version           crewboard <version> schema <migrations applied to the database>
${EXPORT_USAGE}`;

/** The database of DATABASE_URL, else the PGlite folder DATA_DIR, migrated. */
async function openConfigured() {
  const config = loadDatabaseConfig();
  if (!config.databaseUrl && existsSync(adminSocketPath(config.dataDir))) {
    console.error(`the server is running on ${config.dataDir}: stop it first (PGlite admits one process)`);
    return null;
  }
  const database = await openDatabase(config);
  await database.migrate();
  return database;
}

async function backup(file: string | undefined): Promise<number> {
  if (!file) {
    console.error(USAGE);
    return 2;
  }
  const storageConfig = loadStorageConfig();
  const database = await openConfigured();
  if (!database) return 1;
  const storage = createStorage(storageConfig);
  try {
    const data = await createBackup(database.db);
    if (storageConfig.kind === 'local') {
      // The files beside the backup, written under a temporary name and renamed like the backup itself.
      const folder = filesFolderOf(file);
      const tmpFolder = `${folder}.tmp-${process.pid}`;
      mkdirSync(tmpFolder, { recursive: true });
      const copied = await backupFiles(storage, tmpFolder).catch((error) => {
        rmSync(tmpFolder, { recursive: true, force: true });
        throw error;
      });
      rmSync(folder, { recursive: true, force: true });
      renameSync(tmpFolder, folder);
      data.files = { folder: basename(folder), ...copied };
      console.log(`backed up ${copied.count} files (${copied.bytes} bytes) of ${describeStorage(storageConfig)} to ${folder}`);
    } else {
      console.log(S3_BACKUP_NOTE);
    }
    // Written beside the target, then renamed: a crash never leaves half a backup under its name.
    const tmp = `${file}.tmp-${process.pid}`;
    writeFileSync(tmp, JSON.stringify(data), { mode: 0o600 });
    renameSync(tmp, file);
    const rows = data.tables.reduce((n, t) => n + t.rows.length, 0);
    console.log(`backed up ${rows} rows of ${data.tables.length} tables to ${file}`);
    return 0;
  } finally {
    storage.close?.();
    await database.close();
  }
}

async function restore(file: string | undefined): Promise<number> {
  if (!file || !existsSync(file)) {
    console.error(file ? `no such file: ${file}` : USAGE);
    return 2;
  }
  const storageConfig = loadStorageConfig();
  const database = await openConfigured();
  if (!database) return 1;
  try {
    const backup = JSON.parse(readFileSync(file, 'utf8'));
    const { tables, rows } = await restoreBackup(database.db, backup);
    console.log(`restored ${rows} rows into ${tables} tables`);
    const folder = backup.files ? join(dirname(file), backup.files.folder) : filesFolderOf(file);
    if (existsSync(folder)) {
      const storage = createStorage(storageConfig);
      try {
        const copied = await restoreFiles(folder, storage);
        console.log(`restored ${copied.count} files (${copied.bytes} bytes) into ${describeStorage(storageConfig)}`);
      } catch (error) {
        console.error(
          `the database was restored, but copying the files failed: ${(error as Error).message}. Copy ${folder} into ${describeStorage(storageConfig)} by hand.`,
        );
        return 1;
      } finally {
        storage.close?.();
      }
    } else if (backup.files) {
      console.error(`the backup's files are missing (${folder}): the database was restored without them`);
      return 1;
    } else {
      console.log(`this backup holds no files. ${storageConfig.kind === 's3' ? S3_BACKUP_NOTE : ''}`.trim());
    }
    return 0;
  } catch (error) {
    if (error instanceof RestoreError || error instanceof SyntaxError) {
      console.error(`restore failed, nothing was written: ${error.message}`);
      return 1;
    }
    throw error;
  } finally {
    await database.close();
  }
}

/**
 * `crewboard <version> schema <n>`, as GET /api/health reports them: n is the number of migrations applied to the
 * configured database (read without migrating it; 0 for an empty one). PGlite admits one process: while the server
 * runs on DATA_DIR, its own health answer is read through the admin socket's server instead.
 */
async function version(): Promise<number> {
  const config = loadDatabaseConfig();
  if (!config.databaseUrl && existsSync(adminSocketPath(config.dataDir))) {
    console.error(`the server is running on ${config.dataDir}: ask it (GET /api/health), or stop it first`);
    return 1;
  }
  if (!config.databaseUrl && !existsSync(join(config.dataDir, 'PG_VERSION'))) {
    console.log(`crewboard ${appVersion()} schema 0`);
    return 0;
  }
  const database = await openDatabase(config);
  try {
    console.log(`crewboard ${appVersion()} schema ${await schemaVersion(database.db)}`);
    return 0;
  } finally {
    await database.close();
  }
}

function viaSocket(path: string, body: unknown): Promise<{ status: number; data: { error?: string } }> {
  return new Promise((resolvePromise, reject) => {
    const req = request(
      { socketPath: path, method: 'POST', path: '/set-role', headers: { 'content-type': 'application/json' } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => {
          text += c;
        });
        res.on('end', () => resolvePromise({ status: res.statusCode ?? 500, data: JSON.parse(text || '{}') }));
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

async function setRole(emailArg: string | undefined, roleArg: string | undefined): Promise<number> {
  const parsed = setRoleInput.safeParse({ email: emailArg ?? '', role: roleArg ?? '' });
  if (!parsed.success) {
    console.error(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('\n'));
    console.error(USAGE);
    return 2;
  }
  const { email, role } = parsed.data;
  const config = loadDatabaseConfig();
  const socket = adminSocketPath(config.dataDir);
  if (!config.databaseUrl && existsSync(socket)) {
    try {
      const { status, data } = await viaSocket(socket, { email, role });
      if (status !== 200) {
        console.error(data.error ?? `failed (${status})`);
        return 1;
      }
      console.log(`${email} is now ${role}`);
      return 0;
    } catch {
      // A stale socket from a server that is gone: fall through to opening the database.
    }
  }
  const database = await openDatabase(config);
  try {
    await database.migrate();
    const user = await setSystemRole(new ChangeRecorder(offlineSubscribers()), database.db, email, role, 'cli');
    if (!user) {
      console.error(`no user with email ${email}`);
      return 1;
    }
    console.log(`${email} is now ${role}`);
    return 0;
  } finally {
    await database.close();
  }
}

async function main(argv: string[]): Promise<number> {
  // It may open DATA_DIR's database, and writes backups: as private as the server's files.
  process.umask(PRIVATE_UMASK);
  const [command, ...args] = argv;
  switch (command) {
    case 'set-role':
      return setRole(args[0], args[1]);
    case 'backup':
      return backup(args[0]);
    case 'restore':
      return restore(args[0]);
    case 'version':
      return version();
    case 'export':
      return exportTeamCommand(args, openConfigured, USAGE);
    default:
      console.error(USAGE);
      return 2;
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
