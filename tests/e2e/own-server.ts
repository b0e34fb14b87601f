import { type ChildProcess, spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { createScratchTarget } from '../helpers/scratch-db';
import { waitUntilHealthy } from '../helpers/wait-healthy';

export interface OwnServer {
  baseURL: string;
  dataDir: string;
  /** Everything the server wrote so far (its log: stdout and stderr). */
  output: () => string;
  /**
   * The links of the mails logged for `to` so far, oldest first: without SMTP_URL the mail worker writes each mail to
   * the log (needs LOG_LEVEL=info).
   */
  mailedLinks: (to: string) => string[];
  stop: () => Promise<void>;
}

/** The links of the mails in a server's JSON log lines addressed to `to`. */
function linksLogged(log: string, to: string): string[] {
  const links: string[] = [];
  for (const line of log.split('\n')) {
    if (!line.includes('"mail"')) continue;
    try {
      const entry = JSON.parse(line) as { mail?: { to?: string; links?: string[] } };
      if (entry.mail?.to === to) links.push(...(entry.mail.links ?? []));
    } catch {
      // not a JSON log line
    }
  }
  return links;
}

/**
 * A second app server for specs that need their own environment (an OIDC issuer, a short token
 * lifetime). It serves the client build the suite's web server made for E2E_PORT.
 */
export async function startOwnServer(port: number, env: Record<string, string> = {}): Promise<OwnServer> {
  // PGlite in a folder of its own, like the suite's web server (scripts/e2e-server.mjs).
  const scratch = await createScratchTarget(`crewboard_e2e_${port}`, null);
  const baseURL = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: baseURL,
      DATA_DIR: scratch.dataDir,
      CLIENT_DIR: resolve('.e2e', process.env.E2E_PORT || '3100', 'client'),
      RATE_LIMIT_ENABLED: 'false',
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      ...env,
    },
  });
  let stderr = '';
  let stdout = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  await waitUntilHealthy(child, baseURL, 150_000, () => stderr);
  return {
    baseURL,
    dataDir: scratch.dataDir,
    output: () => stdout + stderr,
    mailedLinks: (to) => linksLogged(stdout, to),
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      await scratch.drop();
    },
  };
}
