// The production server as a child process, bundled by the production build script
// (scripts/build-server.mjs) into node_modules/.cache, so nothing in dist/ is touched and the
// bundle still resolves its npm packages from the project's node_modules.
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { buildServer } from '../scripts/build-server.mjs';
import { waitUntilHealthy } from '../tests/helpers/wait-healthy';

// BENCH_BUILD_DIR: a folder of its own, so that two benches run side by side never bundle into one another; under the
// project (node_modules/.cache/<name>), since the bundle's packages resolve from the folder's node_modules.
const BUILD_DIR = process.env.BENCH_BUILD_DIR || join(import.meta.dirname, '..', 'node_modules', '.cache', 'crewboard-bench');

/** Bundles the server to <BUILD_DIR>/server (as `npm run build` does dist/server) and returns main.js's path. */
export function bundleServer(): Promise<string> {
  return buildServer(join(BUILD_DIR, 'server'));
}

function freePort(): Promise<number> {
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
  /** What holds the server's memory (bench/memory-probe.mjs, when loaded with --import): its next `[memory]` line. */
  memory(): Promise<unknown>;
  stop(): Promise<void>;
}

function rssOf(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = /VmRSS:\s+(\d+)\s+kB/.exec(status)?.[1];
    return kb ? Number(kb) / 1024 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

/** CPU time (user + system) the process has used so far, in ms (NaN where /proc is missing). */
function cpuMsOf(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime are fields 14 and 15 of stat(5), in clock ticks (100 per second on Linux).
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return Number.NaN;
  }
}

/**
 * The Node flags `npm start` gives the server (package.json's `start`: `node <flags> scripts/start.mjs`), so that the bench
 * measures the server as it runs in production (issue 42: `--max-old-space-size`).
 */
export function startFlags(): string[] {
  const pkg = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'package.json'), 'utf8')) as { scripts: { start: string } };
  const words = pkg.scripts.start.split(/\s+/);
  return words.slice(1, words.indexOf('scripts/start.mjs')).filter((w) => w.startsWith('--'));
}

/** `nodeArgs`: extra Node flags for the server, e.g. `--cpu-prof` (bench --profile=<dir>), after npm start's own. */
export async function startServer(entry: string, env: NodeJS.ProcessEnv, nodeArgs: string[] = []): Promise<RunningServer> {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, [...startFlags(), ...nodeArgs, entry], {
    env: { ...env, PORT: String(port), HOST: '127.0.0.1', NODE_ENV: 'production' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const memoryLines: string[] = [];
  const keep = (chunk: Buffer) => {
    const text = chunk.toString();
    for (const m of text.matchAll(/^\[memory\] (\{.*\})$/gm)) memoryLines.push(m[1]!);
    output = (output + text).slice(-8000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  await waitUntilHealthy(child, url, 60_000, () => output);
  const pid = child.pid!;
  return {
    url,
    pid,
    rssMb: () => rssOf(pid),
    cpuMs: () => cpuMsOf(pid),
    output: () => output,
    async memory() {
      const seen = memoryLines.length;
      child.kill('SIGUSR2');
      for (let i = 0; i < 50 && memoryLines.length === seen; i++) await new Promise((r) => setTimeout(r, 100));
      return memoryLines.length > seen ? JSON.parse(memoryLines.at(-1)!) : undefined;
    },
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
