// The production server as a child process: bundled like `npm run build` does (esbuild, npm
// packages external) but into node_modules/.cache so nothing in dist/ is touched (and the bundle
// still resolves its npm packages from the project's node_modules).
import { type ChildProcess, spawn } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { build } from 'esbuild';

export const BUILD_DIR = join(import.meta.dirname, '..', 'node_modules', '.cache', 'crewboard-bench');

/** Bundles src/server/main.ts to <BUILD_DIR>/server/main.js (+ migrations) and returns its path. */
export async function bundleServer(): Promise<string> {
  const outdir = join(BUILD_DIR, 'server');
  rmSync(outdir, { recursive: true, force: true });
  mkdirSync(outdir, { recursive: true });
  await build({
    entryPoints: { main: 'src/server/main.ts' },
    outdir,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    packages: 'external',
    logLevel: 'warning',
  });
  cpSync('src/server/db/migrations', join(outdir, 'migrations'), { recursive: true });
  return join(outdir, 'main.js');
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

export interface RunningServer {
  url: string;
  pid: number;
  /** Resident set size in MB, from /proc/<pid>/status (NaN where /proc is missing). */
  rssMb(): number;
  cpuMs(): number;
  /** The last lines the server wrote (warnings and errors at LOG_LEVEL=warn). */
  output(): string;
  stop(): Promise<void>;
}

export function rssOf(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = /VmRSS:\s+(\d+)\s+kB/.exec(status)?.[1];
    return kb ? Number(kb) / 1024 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

/** CPU time (user + system) the process has used so far, in ms (NaN where /proc is missing). */
export function cpuMsOf(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime are fields 14 and 15 of stat(5), in clock ticks (100 per second on Linux).
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return Number.NaN;
  }
}

/** `nodeArgs`: extra Node flags for the server, e.g. `--cpu-prof` (bench --profile=<dir>). */
export async function startServer(entry: string, env: NodeJS.ProcessEnv, nodeArgs: string[] = []): Promise<RunningServer> {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, [...nodeArgs, entry], {
    env: { ...env, PORT: String(port), HOST: '127.0.0.1', NODE_ENV: 'production' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-8000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}) during start-up:\n${output}`);
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not become healthy in 60 s:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const pid = child.pid!;
  return {
    url,
    pid,
    rssMb: () => rssOf(pid),
    cpuMs: () => cpuMsOf(pid),
    output: () => output,
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
        await exited;
        clearTimeout(timer);
      }
    },
  };
}
