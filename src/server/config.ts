import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { isIP } from 'node:net';
import { join, resolve } from 'node:path';
import { EMAIL_VERIFICATION_MODES, type EmailVerificationMode } from '../domain/constants';
import type { DatabaseOptions } from './db/client';
import type { PasswordHashing } from './lib/passwords';
import { RATE_LIMITS, type RateLimitName, type RateLimitOverrides } from './lib/rate-limit';
import { daysToSeconds, SESSION_DEFAULTS, type SessionPolicy } from './modules/auth/session-policy';
import { type LdapConfig, type LocalPasswordsConfig, loadLdapConfig, loadLocalPasswords } from './modules/ldap/ldap.config';
import type { RetryPolicy } from './modules/mail/mail.policy';

/**
 * Every setting the server reads from its environment, read here and nowhere else (the README's
 * table of variables follows this file); the rest of the server receives what it needs.
 */

/** Where the data lives (PostgreSQL at DATABASE_URL, else PGlite in DATA_DIR) and how the pool behaves. */
export interface DatabaseConfig extends DatabaseOptions {
  databaseUrl: string | undefined;
  dataDir: string;
}

export interface Config extends DatabaseConfig {
  port: number;
  host: string;
  publicUrl: string;
  authSecret: string;
  accessTokenTtl: number;
  /** Days an invitation can be answered (INVITATION_TTL_DAYS). */
  invitationTtlDays: number;
  /** EMAIL_VERIFICATION: `required` (the default when SMTP_URL is set) or `off` (the default without it). */
  emailVerification: EmailVerificationMode;
  /** Outgoing mail: SMTP_URL and MAIL_FROM. */
  mail: MailConfig;
  rateLimitEnabled: boolean;
  clientDir: string;
  logLevel: string;
  google: { clientId: string; clientSecret: string; issuer: string } | null;
  /**
   * SAML single sign-on (issue 41): the IdP's metadata by URL or as XML (both override the admin panel), and the SP's
   * key and certificate files (else generated once into DATA_DIR). Absent: the admin panel alone decides.
   */
  saml?: { idpMetadataUrl?: string; idpMetadataXml?: string; spKeyFile?: string; spCertFile?: string };
  /** Directory sign-in (LDAP_*; issue 41): null or unset when LDAP_URL is unset. */
  ldap?: LdapConfig | null;
  /** LOCAL_PASSWORDS and BREAK_GLASS_EMAIL (default: local passwords on). */
  localPasswords?: LocalPasswordsConfig;
  /** Proxies whose X-Forwarded-For is believed: none, the nearest N, or those at these addresses/CIDRs. */
  trustProxy: TrustProxy;
  /** What the environment asked for that works, but not as it says (logged at start). */
  warnings?: string[];
  /** Limits other than the defaults of lib/rate-limit.ts (RATE_LIMIT_<NAME>_MAX, RATE_LIMIT_<NAME>_WINDOW). */
  rateLimits?: RateLimitOverrides;
  /** Check every response against its zod schema before sending it (default: unless NODE_ENV is production). */
  checkResponses?: boolean;
  /** Refresh-token reuse grace and session lifetimes (REFRESH_REUSE_INTERVAL, SESSION_IDLE_DAYS, SESSION_MAX_DAYS). */
  sessions?: SessionPolicy;
  /** Where uploaded files live: a folder under DATA_DIR, or an S3-compatible store (S3_*). */
  storage: StorageConfig;
  /** The largest file one upload may carry, in MB (MAX_UPLOAD_MB, default 25). */
  maxUploadMb: number;
  /** WEBHOOKS_ALLOW_PRIVATE=true: webhooks may reach loopback, private and link-local addresses (local tests only). */
  webhooksAllowPrivate?: boolean;
  /** Webhook retries: the wait before each retry (default: 10 s, 1 min, 5 min, 30 min, 2 h, 5 h, 8 h, 8 h ≈ 24 h); tests shorten it. */
  webhookRetryDelaysMs?: number[];
  /** How often the webhook worker looks for due deliveries (default 1 s), and one attempt's limit (default 10 s): tests. */
  webhookPollIntervalMs?: number;
  webhookTimeoutMs?: number;
  /** Days the audit log keeps a row (AUDIT_RETENTION_DAYS, default 365). */
  auditRetentionDays?: number;
  /** Mail received (issue 40): tasks by email and replies to notification mails; off unless configured. */
  inbound?: InboundMailConfig;
  /** PASSWORD_HASHING: `owasp` (the default) or `test`, the test suites' cheap hashes (refused in production). */
  passwordHashing?: PasswordHashing;
  /** BACKUP_BEFORE_MIGRATE: `on` (the default) or `off`: `npm start` backs up a database before it upgrades it. */
  backupBeforeMigrate?: boolean;
  /** MIGRATIONS_DIR: another migrations folder (tests/integration/upgrade-safety.test.ts); default: the app's. */
  migrationsDir?: string;
  /** METRICS_PORT: Prometheus `/metrics` on a listener of its own (on HOST), never the app's port; unset: off. */
  metricsPort?: number;
  /** OTEL_EXPORTER_OTLP_ENDPOINT (OTLP/HTTP, traces to `<endpoint>/v1/traces`) and OTEL_SERVICE_NAME; unset: no tracing. */
  tracing?: TracingConfig;
}

export interface TracingConfig {
  /** Where spans are sent: the OTLP/HTTP traces URL. */
  tracesUrl: string;
  serviceName: string;
}

/** METRICS_PORT: a port other than the app's own, so that the metrics are never public by accident. */
function loadMetricsPort(env: NodeJS.ProcessEnv, appPort: number): number | undefined {
  if (!env.METRICS_PORT?.trim()) return undefined;
  const port = int(env.METRICS_PORT.trim(), 0, 'METRICS_PORT');
  if (port < 1 || port > 65535) throw new Error(`METRICS_PORT must be a port from 1 to 65535, got "${env.METRICS_PORT}"`);
  if (port === appPort) throw new Error('METRICS_PORT must differ from PORT: the metrics are never served on the public port');
  return port;
}

/** OTEL_EXPORTER_OTLP_ENDPOINT (the OTLP/HTTP base URL, as the OpenTelemetry specification names it). */
function loadTracing(env: NodeJS.ProcessEnv): TracingConfig | undefined {
  const endpoint = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  if (!endpoint) return undefined;
  if (!URL.canParse(endpoint) || !/^https?:$/.test(new URL(endpoint).protocol)) {
    throw new Error(`OTEL_EXPORTER_OTLP_ENDPOINT must be an http:// or https:// URL, got "${endpoint}"`);
  }
  return { tracesUrl: `${endpoint.replace(/\/+$/, '')}/v1/traces`, serviceName: env.OTEL_SERVICE_NAME?.trim() || 'crewboard' };
}

/**
 * The file store: `${DATA_DIR}/files` by default; an S3-compatible object store (path-style addressing) when
 * S3_ENDPOINT, S3_BUCKET, S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY are all set (S3_REGION, default us-east-1).
 */
export type StorageConfig =
  | { kind: 'local'; dir: string }
  | { kind: 's3'; endpoint: string; bucket: string; region: string; accessKeyId: string; secretAccessKey: string };

const S3_VARIABLES = ['S3_ENDPOINT', 'S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const;

/** The file store's settings alone (the backup CLI needs them, without the server's secret). */
export function loadStorageConfig(env: NodeJS.ProcessEnv = process.env): StorageConfig {
  const given = S3_VARIABLES.filter((name) => env[name]?.trim());
  if (given.length === 0) return { kind: 'local', dir: join(resolve(env.DATA_DIR || './data'), 'files') };
  const missing = S3_VARIABLES.filter((name) => !env[name]?.trim());
  if (missing.length > 0) throw new Error(`An S3 file store needs ${S3_VARIABLES.join(', ')}: ${missing.join(', ')} not set`);
  const endpoint = env.S3_ENDPOINT!.trim();
  if (!URL.canParse(endpoint) || !/^https?:$/.test(new URL(endpoint).protocol)) {
    throw new Error(`S3_ENDPOINT must be an http:// or https:// URL, got "${endpoint}"`);
  }
  return {
    kind: 's3',
    endpoint,
    bucket: env.S3_BUCKET!.trim(),
    region: env.S3_REGION?.trim() || 'us-east-1',
    accessKeyId: env.S3_ACCESS_KEY_ID!.trim(),
    secretAccessKey: env.S3_SECRET_ACCESS_KEY!.trim(),
  };
}

function int(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer, got "${value}"`);
  return n;
}

/** A positive number, or undefined when unset (or not one: the default then applies). */
function positive(value: string | undefined): number | undefined {
  const n = Number(value);
  return value && Number.isFinite(n) && n > 0 ? n : undefined;
}

/** The signing secret: AUTH_SECRET, else one generated on first start and kept in DATA_DIR (mode 0600). */
function loadAuthSecret(env: NodeJS.ProcessEnv, dataDir: string): string {
  if (env.AUTH_SECRET) {
    if (env.AUTH_SECRET.length < 32) throw new Error('AUTH_SECRET must be at least 32 characters');
    return env.AUTH_SECRET;
  }
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const file = join(dataDir, 'auth-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600, flag: 'wx' });
  return secret;
}

/** The database settings alone: what the CLI needs, without the server's secret. */
export function loadDatabaseConfig(env: NodeJS.ProcessEnv = process.env): DatabaseConfig {
  return {
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir: resolve(env.DATA_DIR || './data'),
    poolSize: positive(env.DB_POOL_SIZE),
    connectTimeoutMs: positive(env.DB_CONNECT_TIMEOUT_MS),
    // Off unless asked for: TCP keep-alive already notices a dead server.
    queryTimeoutMs: positive(env.DB_QUERY_TIMEOUT_MS),
  };
}

export type TrustProxy = false | number | string[];

/** Ranges proxy-addr knows by name, beside addresses and CIDRs. */
const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isProxyAddress(entry: string): boolean {
  if (PROXY_RANGE_NAMES.has(entry)) return true;
  const [address = '', bits, ...rest] = entry.split('/');
  const version = isIP(address);
  if (!version || rest.length > 0) return false;
  return bits === undefined || (/^\d+$/.test(bits) && Number(bits) <= (version === 4 ? 32 : 128));
}

/**
 * TRUST_PROXY: unset, `false` or `0` trusts no proxy; a number trusts that many proxies nearest the app;
 * otherwise a comma-separated list of proxy addresses or CIDRs. `true` once trusted every hop, which
 * let any client name its own IP: it now means 1, with a warning.
 */
function loadTrustProxy(value: string | undefined, warnings: string[]): TrustProxy {
  const raw = value?.trim() ?? '';
  if (raw === '' || raw === 'false') return false;
  if (raw === 'true') {
    warnings.push(
      'TRUST_PROXY=true is read as TRUST_PROXY=1: only the proxy next to the app is trusted, not every hop of X-Forwarded-For. Set the number of proxies, or better their addresses.',
    );
    return 1;
  }
  if (/^\d+$/.test(raw)) return int(raw, 0, 'TRUST_PROXY') || false;
  const list = raw.split(',').map((entry) => entry.trim());
  const bad = list.find((entry) => !isProxyAddress(entry));
  if (bad !== undefined) {
    throw new Error(
      `TRUST_PROXY must be false, a number of proxies or a comma-separated list of proxy addresses or CIDRs, got "${bad}"`,
    );
  }
  return list;
}

function loadRateLimits(env: NodeJS.ProcessEnv): RateLimitOverrides {
  const overrides: RateLimitOverrides = {};
  for (const name of Object.keys(RATE_LIMITS) as RateLimitName[]) {
    // accountIp -> RATE_LIMIT_ACCOUNT_IP_MAX
    const prefix = `RATE_LIMIT_${name.replace(/[A-Z]/g, (c) => `_${c}`).toUpperCase()}`;
    const capacity = positive(env[`${prefix}_MAX`]);
    const windowSeconds = positive(env[`${prefix}_WINDOW`]);
    if (capacity !== undefined || windowSeconds !== undefined) overrides[name] = { capacity, windowSeconds };
  }
  return overrides;
}

export interface MailConfig {
  /** SMTP_URL (`smtp://user:pass@host:587`, `smtps://…`); null: each mail is written to the server log instead. */
  smtpUrl: string | null;
  /** MAIL_FROM: the sender of every mail. */
  from: string;
  /** How often the outbox worker looks for due mail (default 2 s); tests set it shorter. */
  pollIntervalMs?: number;
  /** How often the daily digest looks for people whose 08:00 has come (default 5 min). */
  digestIntervalMs?: number;
  /** When a failed delivery is tried again (default MAIL_RETRY); tests shorten it. */
  retry?: RetryPolicy;
}

/**
 * Mail received (issue 40, decision 0028): INBOUND_MAIL_DOMAIN (the domain of the intake and reply addresses; without
 * it nothing is received), INBOUND_SMTP_PORT (Crewboard's own SMTP listener, on HOST), IMAP_URL
 * (`imap://user:pass@host:143/INBOX` with STARTTLS, or `imaps://…`; polled every IMAP_POLL_SECONDS, default 60).
 */
export interface InboundMailConfig {
  domain: string | null;
  smtpPort: number | null;
  imapUrl: string | null;
  imapPollMs: number;
}

function loadInbound(env: NodeJS.ProcessEnv): InboundMailConfig {
  const domain = env.INBOUND_MAIL_DOMAIN?.trim().toLowerCase() || null;
  if (domain && !/^[a-z0-9-]+(\.[a-z0-9-]+)*$/.test(domain)) throw new Error('INBOUND_MAIL_DOMAIN must be a domain name');
  const port = env.INBOUND_SMTP_PORT?.trim() ? int(env.INBOUND_SMTP_PORT, 0, 'INBOUND_SMTP_PORT') : null;
  const imapUrl = env.IMAP_URL?.trim() || null;
  if (imapUrl) {
    const url = URL.canParse(imapUrl) ? new URL(imapUrl) : null;
    if (!url || (url.protocol !== 'imap:' && url.protocol !== 'imaps:') || !url.hostname)
      throw new Error('IMAP_URL must be imap://user:password@host:port/mailbox or imaps://…');
  }
  if ((port !== null || imapUrl) && !domain)
    throw new Error('INBOUND_SMTP_PORT and IMAP_URL need INBOUND_MAIL_DOMAIN (the domain of the intake addresses)');
  const pollSeconds = env.IMAP_POLL_SECONDS?.trim() ? int(env.IMAP_POLL_SECONDS, 60, 'IMAP_POLL_SECONDS') : 60;
  return { domain, smtpPort: port, imapUrl, imapPollMs: Math.max(1, pollSeconds) * 1000 };
}

/** SMTP_URL and MAIL_FROM. An SMTP_URL is never echoed in an error: it carries the password. */
function loadMail(env: NodeJS.ProcessEnv, publicUrl: string): MailConfig {
  const raw = env.SMTP_URL?.trim() || null;
  if (raw) {
    const url = URL.canParse(raw) ? new URL(raw) : null;
    if (!url || (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') || !url.hostname) {
      throw new Error('SMTP_URL must be smtp://user:password@host:port or smtps://user:password@host:port');
    }
  }
  const host = URL.canParse(publicUrl) ? new URL(publicUrl).hostname : 'localhost';
  const from = env.MAIL_FROM?.trim() || `Crewboard <no-reply@${host}>`;
  if (!from.includes('@') || /[\r\n]/.test(from))
    throw new Error(`MAIL_FROM must be an address or "Name <address>", got "${from}"`);
  return { smtpUrl: raw, from };
}

/** EMAIL_VERIFICATION, else `required` when a mail transport is configured (SMTP_URL) and `off` without one. */
function loadEmailVerification(env: NodeJS.ProcessEnv): EmailVerificationMode {
  const value = env.EMAIL_VERIFICATION?.trim().toLowerCase();
  if (!value) return env.SMTP_URL ? 'required' : 'off';
  if (!(EMAIL_VERIFICATION_MODES as readonly string[]).includes(value)) {
    throw new Error(`EMAIL_VERIFICATION must be ${EMAIL_VERIFICATION_MODES.join(' or ')}, got "${env.EMAIL_VERIFICATION}"`);
  }
  return value as EmailVerificationMode;
}

function loadPasswordHashing(env: NodeJS.ProcessEnv): PasswordHashing {
  const value = env.PASSWORD_HASHING || 'owasp';
  if (value !== 'owasp' && value !== 'test') throw new Error(`PASSWORD_HASHING must be owasp or test, got "${value}"`);
  if (value === 'test' && env.NODE_ENV === 'production') {
    throw new Error('PASSWORD_HASHING=test is for the test suites only, never with NODE_ENV=production');
  }
  return value;
}

function onOff(value: string | undefined, fallback: boolean, name: string): boolean {
  if (!value) return fallback;
  if (value === 'on' || value === 'off') return value === 'on';
  throw new Error(`${name} must be on or off, got "${value}"`);
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = int(env.PORT, 3000, 'PORT');
  const database = loadDatabaseConfig(env);
  const googleId = env.GOOGLE_CLIENT_ID;
  const googleSecret = env.GOOGLE_CLIENT_SECRET;
  const warnings: string[] = [];
  const publicUrl = (env.PUBLIC_URL || `http://localhost:${port}`).replace(/\/$/, '');
  return {
    port,
    host: env.HOST || '0.0.0.0',
    publicUrl,
    ...database,
    authSecret: loadAuthSecret(env, database.dataDir),
    accessTokenTtl: int(env.ACCESS_TOKEN_TTL, 3600, 'ACCESS_TOKEN_TTL') || 3600,
    invitationTtlDays: int(env.INVITATION_TTL_DAYS, 7, 'INVITATION_TTL_DAYS') || 7,
    emailVerification: loadEmailVerification(env),
    mail: loadMail(env, publicUrl),
    inbound: loadInbound(env),
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
    ldap: loadLdapConfig(env),
    localPasswords: loadLocalPasswords(env),
    saml: {
      idpMetadataUrl: env.SAML_IDP_METADATA_URL || undefined,
      idpMetadataXml: env.SAML_IDP_METADATA || undefined,
      spKeyFile: env.SAML_SP_KEY_FILE || undefined,
      spCertFile: env.SAML_SP_CERT_FILE || undefined,
    },
    trustProxy: loadTrustProxy(env.TRUST_PROXY, warnings),
    warnings,
    rateLimits: loadRateLimits(env),
    checkResponses: env.NODE_ENV !== 'production',
    storage: loadStorageConfig(env),
    maxUploadMb: int(env.MAX_UPLOAD_MB, 25, 'MAX_UPLOAD_MB') || 25,
    webhooksAllowPrivate: env.WEBHOOKS_ALLOW_PRIVATE === 'true',
    auditRetentionDays: int(env.AUDIT_RETENTION_DAYS, 365, 'AUDIT_RETENTION_DAYS') || 365,
    passwordHashing: loadPasswordHashing(env),
    backupBeforeMigrate: onOff(env.BACKUP_BEFORE_MIGRATE, true, 'BACKUP_BEFORE_MIGRATE'),
    migrationsDir: env.MIGRATIONS_DIR || undefined,
    metricsPort: loadMetricsPort(env, port),
    tracing: loadTracing(env),
    sessions: {
      refreshReuseInterval: int(env.REFRESH_REUSE_INTERVAL, SESSION_DEFAULTS.refreshReuseInterval, 'REFRESH_REUSE_INTERVAL'),
      idleTimeout: daysToSeconds(int(env.SESSION_IDLE_DAYS, SESSION_DEFAULTS.idleDays, 'SESSION_IDLE_DAYS')),
      maxLifetime: daysToSeconds(int(env.SESSION_MAX_DAYS, SESSION_DEFAULTS.maxDays, 'SESSION_MAX_DAYS')),
    },
  };
}
