import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export interface OwnServer {
  baseURL: string;
  dataDir: string;
  stop: () => Promise<void>;
}

/**
 * A second app server for specs that need their own environment (an OIDC issuer, a short token
 * lifetime). It serves the client build the suite's web server made for E2E_PORT.
 */
export async function startOwnServer(port: number, env: Record<string, string> = {}): Promise<OwnServer> {
  const dataDir = mkdtempSync(join(tmpdir(), `crewboard-e2e-${port}-`));
  const baseURL = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: baseURL,
      DATA_DIR: dataDir,
      CLIENT_DIR: resolve('.e2e', process.env.E2E_PORT || '3100', 'client'),
      RATE_LIMIT_ENABLED: 'false',
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      ...env,
    },
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const deadline = Date.now() + 150_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server on ${port} exited: ${stderr}`);
    try {
      const res = await fetch(`${baseURL}/api/health`);
      if (res.ok) break;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server on ${port} did not start: ${stderr}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    baseURL,
    dataDir,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
