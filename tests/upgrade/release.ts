import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { waitUntilHealthy } from '../helpers/wait-healthy';

/**
 * The previous release, as it ran: its commit (tests/upgrade/previous-release) extracted from this clone's history, its
 * server bundled by its own scripts/build-server.mjs (as `npm start` builds and runs it), with today's node_modules when
 * today's package.json still pins every dependency it pinned. Today's server is bundled the same way, into a folder of
 * its own (dist/ is shared).
 */

export const ROOT = resolve(import.meta.dirname, '../..');

/** The 40-hex commit of tests/upgrade/previous-release (its first line that is not a comment). */
export function previousReleaseCommit(): string {
  const line = readFileSync(join(ROOT, 'tests/upgrade/previous-release'), 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .find((l) => l && !l.startsWith('#'));
  if (!line || !/^[0-9a-f]{40}$/.test(line)) {
    throw new Error(`tests/upgrade/previous-release must hold one full commit id (40 hex digits), got "${line ?? ''}"`);
  }
  return line;
}

type Pins = Record<string, string>;
const pinsOf = (file: string): Pins => {
  const pkg = JSON.parse(readFileSync(file, 'utf8')) as { dependencies?: Pins; devDependencies?: Pins };
  return { ...pkg.dependencies, ...pkg.devDependencies };
};

/** The old package.json's dependencies that today's pins differently or not at all ("name: old → today"). */
export function dependencyDifferences(oldDir: string): string[] {
  const today = pinsOf(join(ROOT, 'package.json'));
  return Object.entries(pinsOf(join(oldDir, 'package.json')))
    .filter(([name, version]) => today[name] !== version)
    .map(([name, version]) => `${name}: ${version} → ${today[name] ?? 'removed'}`);
}

export interface Release {
  commit: string;
  dir: string;
  /** How its node_modules came to be: today's (a link) or its own lockfile's (`npm ci`). */
  modules: 'today' | 'own';
  differences: string[];
  remove(): void;
}

/**
 * Extracts `commit` into a temporary folder (`git archive | tar -x`). Fails with a clear message when the commit is not
 * in this clone (a shallow clone: CI fetches the full history). Its node_modules: a link to today's when every dependency
 * it pins is pinned alike today; else `npm ci` of its own lockfile (slow; the test says why).
 */
export function extractRelease(commit: string): Release {
  const known = spawnSync('git', ['-C', ROOT, 'cat-file', '-e', `${commit}^{commit}`]);
  if (known.status !== 0) {
    throw new Error(
      `the previous release ${commit} (tests/upgrade/previous-release) is not in this clone: the upgrade test needs the full history (git fetch --unshallow)`,
    );
  }
  const dir = mkdtempSync(join(tmpdir(), 'crewboard-previous-release-'));
  const extract = spawnSync('sh', ['-c', `git -C "${ROOT}" archive "${commit}" | tar -x -C "${dir}"`], { encoding: 'utf8' });
  if (extract.status !== 0 || !existsSync(join(dir, 'src/server/main.ts'))) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`could not extract ${commit}: ${extract.stderr}`);
  }
  const differences = dependencyDifferences(dir);
  let modules: Release['modules'] = 'today';
  if (differences.length === 0) {
    symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  } else {
    modules = 'own';
    const install = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: dir, encoding: 'utf8', stdio: 'inherit' });
    if (install.status !== 0) {
      rmSync(dir, { recursive: true, force: true });
      throw new Error(`npm ci of the previous release failed; its dependencies differ from today's: ${differences.join(', ')}`);
    }
  }
  return { commit, dir, modules, differences, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * A server built as `npm run build` builds it (scripts/build-server.mjs of the source in `source`: main.js and cli.js,
 * npm packages external) into `<home>/dist/server`; `home` holds (or gets) the package.json and node_modules it runs
 * with. Returns the built folder.
 */
export function buildServerOf(source: string, home: string): string {
  const outdir = join(home, 'dist', 'server');
  if (!existsSync(join(home, 'node_modules'))) symlinkSync(join(ROOT, 'node_modules'), join(home, 'node_modules'), 'dir');
  if (!existsSync(join(home, 'package.json'))) copyFileSync(join(source, 'package.json'), join(home, 'package.json'));
  const script = `import(${JSON.stringify(pathToFileURL(join(source, 'scripts/build-server.mjs')).href)}).then((m) => m.buildServer(${JSON.stringify(outdir)}))`;
  const result = spawnSync(process.execPath, ['-e', script], { cwd: source, encoding: 'utf8' });
  if (result.status !== 0 || !existsSync(join(outdir, 'main.js'))) {
    throw new Error(`building the server of ${source} failed:\n${result.stdout}${result.stderr}`);
  }
  return outdir;
}

/** `npm run cli -- <args>` of the server built in `built`, on DATA_DIR `dataDir` or `databaseUrl`. */
export function runCli(built: string, target: { dataDir: string; databaseUrl?: string }, args: string[]): string {
  const result = spawnSync(process.execPath, [join(built, 'cli.js'), ...args], {
    env: { ...process.env, DATA_DIR: target.dataDir, DATABASE_URL: target.databaseUrl ?? '', LOG_LEVEL: 'warn' },
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`cli ${args.join(' ')}: ${result.status}\n${result.stdout}${result.stderr}`);
  return result.stdout;
}

export interface RunningServer {
  url: string;
  log(): string;
  stop(): Promise<void>;
}

/**
 * Starts the server built in `built` (its main.js) on DATA_DIR `dataDir` (PGlite there, or
 * PostgreSQL at `databaseUrl`) at 127.0.0.1:`port` (both releases at one address: links such as a form's carry it), and waits until it answers its health check. Real password hashing (not the test
 * suites' cheap one): the hashes the old release writes are the ones today's must verify.
 */
export async function startServer(
  built: string,
  target: { dataDir: string; databaseUrl?: string },
  port: number,
  extra: Record<string, string> = {},
): Promise<RunningServer> {
  const url = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: url,
    DATA_DIR: target.dataDir,
    DATABASE_URL: target.databaseUrl ?? '',
    CLIENT_DIR: '/nonexistent',
    RATE_LIMIT_ENABLED: 'false',
    WEBHOOKS_ALLOW_PRIVATE: 'true',
    EMAIL_VERIFICATION: 'off',
    // Intake addresses (issue 40) are made without a listener: the domain alone.
    INBOUND_MAIL_DOMAIN: 'intake.crewboard.test',
    LOG_LEVEL: 'warn',
    ...extra,
  };
  delete env.PASSWORD_HASHING;
  delete env.AUTH_SECRET;
  delete env.NODE_OPTIONS;
  const child: ChildProcess = spawn(process.execPath, [join(built, 'main.js')], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (c: Buffer) => {
    output += c.toString();
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  await waitUntilHealthy(child, url, 150_000, () => output);
  return {
    url,
    log: () => output,
    async stop() {
      // Ended by a signal (a crash, the OOM killer), a child has no exitCode but signalCode: waiting for its 'exit'
      // again would hang the test until its timeout, and skip the cleanup after it (the scratch database).
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      // Its own limit is 15 s (main.ts); past 30 s, it is killed.
      const killer = setTimeout(() => child.kill('SIGKILL'), 30_000);
      await exited;
      clearTimeout(killer);
    },
  };
}
