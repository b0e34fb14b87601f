import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../helpers/free-port';
import { waitUntilHealthy } from '../helpers/wait-healthy';

/**
 * The server on PGlite, started as `npm start` starts it (src/server/main.ts, through tsx: tests do
 * not build), under the most permissive umask, so nothing private comes from the environment's umask.
 */
async function startServer(dataDir: string) {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn(
    'sh',
    ['-c', 'umask 000 && exec "$0" "$@"', process.execPath, '--import', 'tsx', 'src/server/main.ts'],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        PUBLIC_URL: url,
        DATA_DIR: dataDir,
        DATABASE_URL: '',
        AUTH_SECRET: '',
        CLIENT_DIR: '/nonexistent',
        RATE_LIMIT_ENABLED: 'false',
        LOG_LEVEL: 'warn',
      },
    },
  );
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  await waitUntilHealthy(child, url, 90_000, () => stderr);
  return {
    url,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Every entry under `dir` (and `dir` itself) that its group or others may read, write or enter. */
function sharedEntries(dir: string): string[] {
  const found: string[] = [];
  const walk = (path: string) => {
    const stat = lstatSync(path);
    if (stat.mode & 0o077) found.push(`${(stat.mode & 0o777).toString(8)} ${path.slice(dir.length) || '/'}`);
    if (stat.isDirectory()) for (const name of readdirSync(path)) walk(join(path, name));
  };
  walk(dir);
  return found;
}

/** Loosens every entry under `dir`, as an earlier version left them (0777 folders, 0666 files). */
function loosen(dir: string) {
  const walk = (path: string) => {
    const stat = lstatSync(path);
    if (stat.isSymbolicLink() || stat.isSocket()) return;
    chmodSync(path, stat.isDirectory() ? 0o777 : 0o666);
    if (stat.isDirectory()) for (const name of readdirSync(path)) walk(join(path, name));
  };
  walk(dir);
}

const mode = (path: string) => lstatSync(path).mode & 0o777;

describe('DATA_DIR', () => {
  const root = mkdtempSync(join(tmpdir(), 'crewboard-datadir-'));
  // Not there yet: the server creates it (and its parent).
  const dataDir = join(root, 'nested', 'data');
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('finding 6: DATA_DIR and every file in it are private to the owner; the CLI socket is 0600', async () => {
    const server = await startServer(dataDir);
    try {
      // Something worth protecting: an email and a password hash.
      const signup = await fetch(`${server.url}/api/auth/signup`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'private@example.com', password: 'a long enough password', fullName: 'Pat Private' }),
      });
      expect(signup.status).toBe(201);
      expect(mode(dataDir)).toBe(0o700);
      expect(mode(join(dataDir, 'cli.sock'))).toBe(0o600);
      expect(readdirSync(join(dataDir, 'pg_wal')).length).toBeGreaterThan(0);
      expect(sharedEntries(dataDir)).toEqual([]);
    } finally {
      await server.stop();
    }
    // Nothing written at shutdown is shared either.
    expect(sharedEntries(dataDir)).toEqual([]);
  }, 120_000);

  it('finding 6: a DATA_DIR an earlier version left world-readable (0777 folders, 0666 files) is tightened at start', async () => {
    loosen(dataDir);
    mkdirSync(join(dataDir, 'old'));
    writeFileSync(join(dataDir, 'old', 'notes.txt'), 'left by hand');
    loosen(dataDir);
    expect(sharedEntries(dataDir).length).toBeGreaterThan(100);

    const server = await startServer(dataDir);
    try {
      expect(sharedEntries(dataDir)).toEqual([]);
      expect(mode(join(dataDir, 'old', 'notes.txt'))).toBe(0o600);
      expect(mode(join(dataDir, 'old'))).toBe(0o700);
    } finally {
      await server.stop();
    }
  }, 120_000);
});
