// The server the end-to-end tests run against: a fresh data folder and its own client build,
// so several suites (different E2E_PORT) can run side by side.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';

const port = process.env.E2E_PORT || '3100';
const root = resolve('.e2e', port);
rmSync(root, { recursive: true, force: true });
mkdirSync(root, { recursive: true });

const build = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], {
  stdio: 'inherit',
  env: { ...process.env, CLIENT_OUT_DIR: `${root}/client` },
});
if (build.status !== 0) process.exit(build.status ?? 1);

const server = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
  stdio: 'inherit',
  env: {
    ...process.env,
    PORT: port,
    HOST: '127.0.0.1',
    DATA_DIR: `${root}/data`,
    CLIENT_DIR: `${root}/client`,
    RATE_LIMIT_ENABLED: process.env.RATE_LIMIT_ENABLED ?? 'false',
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
    ACCESS_TOKEN_TTL: process.env.ACCESS_TOKEN_TTL ?? '3600',
    // The webhook specs' receivers listen on 127.0.0.1 (e2e only: private addresses are refused by default).
    // Cheap argon2id hashes: the specs sign up hundreds of people (the production parameters: security.test.ts).
    PASSWORD_HASHING: process.env.PASSWORD_HASHING ?? 'test',
    WEBHOOKS_ALLOW_PRIVATE: process.env.WEBHOOKS_ALLOW_PRIVATE ?? 'true',
    // Tasks by email (issue 40): the intake addresses' domain, so the settings show them (no listener: no port).
    INBOUND_MAIL_DOMAIN: process.env.INBOUND_MAIL_DOMAIN ?? 'in.crewboard.test',
  },
});
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => server.kill(sig));
server.on('exit', (code) => process.exit(code ?? 0));
