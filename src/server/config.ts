import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

export interface Config {
  port: number;
  host: string;
  publicUrl: string;
  dataDir: string;
  databaseUrl: string | undefined;
  authSecret: string;
  accessTokenTtl: number;
  rateLimitEnabled: boolean;
  clientDir: string;
  logLevel: string;
  google: { clientId: string; clientSecret: string; issuer: string } | null;
  trustProxy: boolean;
}

function int(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer, got "${value}"`);
  return n;
}

/** The signing secret: AUTH_SECRET, else one generated on first start and kept in DATA_DIR (mode 0600). */
function loadAuthSecret(env: NodeJS.ProcessEnv, dataDir: string): string {
  if (env.AUTH_SECRET) {
    if (env.AUTH_SECRET.length < 32) throw new Error('AUTH_SECRET must be at least 32 characters');
    return env.AUTH_SECRET;
  }
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, 'auth-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600, flag: 'wx' });
  return secret;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = int(env.PORT, 3000, 'PORT');
  const dataDir = resolve(env.DATA_DIR || './data');
  const googleId = env.GOOGLE_CLIENT_ID;
  const googleSecret = env.GOOGLE_CLIENT_SECRET;
  return {
    port,
    host: env.HOST || '0.0.0.0',
    publicUrl: (env.PUBLIC_URL || `http://localhost:${port}`).replace(/\/$/, ''),
    dataDir,
    databaseUrl: env.DATABASE_URL || undefined,
    authSecret: loadAuthSecret(env, dataDir),
    accessTokenTtl: int(env.ACCESS_TOKEN_TTL, 3600, 'ACCESS_TOKEN_TTL') || 3600,
    rateLimitEnabled: env.RATE_LIMIT_ENABLED !== 'false',
    clientDir: resolve(env.CLIENT_DIR || './dist/client'),
    logLevel: env.LOG_LEVEL || 'info',
    google:
      googleId && googleSecret
        ? {
            clientId: googleId,
            clientSecret: googleSecret,
            issuer: (env.OIDC_ISSUER_URL || 'https://accounts.google.com').replace(/\/$/, ''),
          }
        : null,
    trustProxy: env.TRUST_PROXY === 'true',
  };
}
