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

// E2E_PRODUCTION=1 (the perf specs, issue 42): the server as `npm start` runs it — the production bundle, NODE_ENV
// production (no answer checked against its schema), the server's own log level and password hashing — on
// DATABASE_URL when set: what a user's browser gets, not the test server's extra work.
const production = process.env.E2E_PRODUCTION === '1';
if (production) {
  const { buildServer } = await import('./build-server.mjs');
  await buildServer(`${root}/server`);
}
const server = spawn(process.execPath, production ? [`${root}/server/main.js`] : ['--import', 'tsx', 'src/server/main.ts'], {
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
    ...(production ? { NODE_ENV: 'production', LOG_LEVEL: process.env.LOG_LEVEL ?? 'info', PASSWORD_HASHING: 'owasp' } : {}),
  },
});
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => server.kill(sig));
server.on('exit', (code) => process.exit(code ?? 0));
