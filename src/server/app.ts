import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { constants as zlibConstants } from 'node:zlib';
import fastifyCompress from '@fastify/compress';
import fastifyHelmet from '@fastify/helmet';
import fastifyStatic from '@fastify/static';
import Fastify, {
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
  type onSendHookHandler,
} from 'fastify';
import { hasZodFastifySchemaValidationErrors, validatorCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type ErrorReason, errorBody, errorStatus } from '../domain/errors';
import { fieldErrors } from '../domain/forms';
import { canUseAdminArea } from '../domain/permissions';
import { healthResponse } from '../domain/schemas/auth';
import { appVersion, schemaVersion } from './db/migrate-safely';
import type { Config } from './config';
import type { Database } from './db/client';
import { bucketStore } from './db/rate-limit-buckets';
import { hasSsoRequiredTeam, runRequestScope, setRequestCaller } from './db/sso-lock';
import { readOutboxDepths } from './db/outbox-depth';
import { AppError, pgCode } from './lib/errors';
import { type AuthContext, typed, type RouteAuth } from './lib/http';
import { EventBus } from './lib/events';
import { createStorage, type ObjectStorage } from './lib/storage';
import { RateLimiter, type RateLimitRule } from './lib/rate-limit';
import { OneLineRequestLog } from './lib/request-log';
import { installMetrics } from './lib/metrics';
import { installTracing } from './lib/tracing';
import { createSerializerCompiler } from './lib/serializer';
import { Throttle } from './lib/throttle';
import { TokenService } from './lib/tokens';
import { ApiTokenService, isApiToken, requireTokenMayReach, requireTokenScope } from './modules/api-tokens';
import { authRoutes, AuthService, sendLinkOnSignUp } from './modules/auth';
import { LdapService } from './modules/ldap';
import { SamlService } from './modules/saml';
import { TwoFactorService } from './modules/security';
import { touchLastSeen } from './modules/users';
import { ChangeRecorder } from './lib/changes';
import { usePasswordHashing } from './lib/passwords';
import { registerModules } from './modules';
import { subscribers } from './subscribers';
import { isApiDocsRoute, registerOpenApi } from './modules/openapi';
import { notifyPendingInvitations } from './modules/notifications';

declare module 'fastify' {
  interface FastifyContextConfig {
    rateLimit?: RateLimitRule;
    /**
     * The route sets a deliberate Cache-Control of its own on a successful answer (signed file links, avatars, the
     * calendar feed); every other /api answer is `no-store` (apiNoStore).
     */
    ownCacheControl?: true;
  }
  interface FastifyInstance {
    deps: AppServices;
  }
}

export interface AppServices {
  config: Config;
  database: Database;
  tokens: TokenService;
  auth: AuthService;
  rateLimiter: RateLimiter;
  events: EventBus;
  twoFactor: TwoFactorService;
  /** The file store (config.storage): attachments and avatars. */
  storage: ObjectStorage;
  /** Personal API tokens (issue 26): `Authorization: Bearer cb_…`. */
  apiTokens: ApiTokenService;
  /** The one path for every change (issue 34): services record what happened, the subscribers react. */
  changes: ChangeRecorder;
  /** SAML single sign-on (issue 41): the sign-in page asks it whether 'Sign in with SSO' is offered. */
  saml: SamlService;
}

export interface BuildAppOptions {
  config: Config;
  database: Database;
  /** A file store of the caller's (tests); else the one config.storage names. */
  storage?: ObjectStorage;
  logger?: FastifyServerOptions['logger'];
}

/** Connection-level database failures: answered 503, never 500. */
const UNAVAILABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', '57P01', '57P02', '57P03', '53300']);
function isDatabaseUnavailable(error: unknown): boolean {
  // Drizzle wraps the driver's error: look down the cause chain.
  let e: unknown = error;
  for (let i = 0; i < 4 && e && typeof e === 'object'; i++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && UNAVAILABLE_CODES.has(code)) return true;
    const message = String((e as Error).message ?? '');
    if (UNAVAILABLE_MESSAGE.test(message)) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}
const UNAVAILABLE_MESSAGE =
  /timeout exceeded when trying to connect|Connection terminated|connect ECONNREFUSED|Query read timeout|Client has encountered a connection error|Cannot use a pool after calling end/i;

/**
 * What is logged of an error: a failed query's parameters (emails, hashes, ids) stay out of the
 * logs; the SQL text, the driver's message and code, and the stack are kept.
 */
function loggable(error: unknown): unknown {
  const e = error as { name?: string; message?: string; query?: unknown; params?: unknown; cause?: unknown; stack?: string };
  if (!e || typeof e !== 'object' || !('params' in e)) return error;
  const cause = e.cause as { message?: string; code?: string; stack?: string } | undefined;
  return {
    type: e.name,
    message: String(e.message ?? '').split('\nparams:')[0],
    query: e.query,
    cause: cause ? { message: cause.message, code: cause.code, stack: cause.stack } : undefined,
  };
}

/**
 * Database refusals of a value that passed validation: a foreign key, a check, a malformed value,
 * a NUL byte or a character PostgreSQL cannot store (22021/22P05), a number or string out of range.
 */
const BAD_VALUE_CODES = new Set(['23503', '23514', '22P02', '22007', '22008', '22021', '22P05', '22001', '22003', '54000']);

/** Never logged, whatever logger the caller configures (main.ts passes its own list too). */
const LOG_REDACT = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.body.password',
  'req.body.refresh_token',
  'req.body.mfa_token',
  'req.body.code',
  'res.headers["set-cookie"]',
];

/**
 * The request line of the log, as Fastify's own but without the secret of an emailed link (`?token=…`, `&proof=…`), of a note socket (`?ticket=…`),
 * of a file or note-image link (`?sig=…`), of an avatar (the file segment after /api/avatars/<userId>/), of a
 * calendar feed (the path segment after /api/calendar/feeds/) or of issue 40's public links (/share/, /forms/,
 * /requests/ and their API): capability URLs are logged like tokens.
 */
export const logRequest = (req: Pick<FastifyRequest, 'method' | 'url' | 'host' | 'ip' | 'socket'>) => ({
  method: req.method,
  url: redactUrl(req.url),
  host: req.host,
  remoteAddress: req.ip,
  remotePort: req.socket?.remotePort,
});

/** Query parameters whose value is a secret (compared once decoded, as the router and the querystring parser read them). */
const SECRET_PARAMS = new Set(['token', 'proof', 'ticket', 'sig']);
const decoded = (text: string) => {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
};

/** A request URL with its secrets replaced by `[redacted]` (the path is logged decoded, so an escape hides nothing). */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  const path = decoded(q < 0 ? url : url.slice(0, q))
    .replace(/(\/api\/calendar\/feeds\/)[^/?#]*/i, '$1[redacted]')
    .replace(/(\/api\/avatars\/[^/?#]*\/)[^/?#]*/i, '$1[redacted]')
    // Issue 40's capability links: a shared board, a form, a request's status (their pages and their API).
    .replace(/^(\/+(?:share|forms|requests)\/|\/+api\/(?:share|public-forms|requests)\/)[^/?#]*/i, '$1[redacted]');
  if (q < 0) return path;
  const query = url
    .slice(q + 1)
    .split('&')
    .map((part) => {
      const eq = part.indexOf('=');
      const key = eq < 0 ? part : part.slice(0, eq);
      return SECRET_PARAMS.has(decoded(key.replace(/\+/g, ' ')).toLowerCase()) ? `${key}=[redacted]` : part;
    });
  return `${path}?${query.join('&')}`;
}

const isApiUrl = (url: string) => url === '/api' || url.startsWith('/api/') || url.startsWith('/api?');

/**
 * `Cache-Control: no-store` on every /api answer, set here and nowhere else (issue 35, item 7): JSON, errors, 404s,
 * 304s, redirects and files alike, so that no token, secret or private list is kept by a browser's or a proxy's cache
 * (RFC 6749 §5.1 for tokens). A route with `config.ownCacheControl` keeps the policy it set on a successful answer (2xx
 * or 304); its errors are not stored either. Non-/api answers (the app's static files) keep their own.
 */
const apiNoStore: onSendHookHandler = async (req, reply, payload) => {
  if (!isApiUrl(req.url)) return payload;
  const status = reply.statusCode;
  const ownPolicy =
    req.routeOptions.config?.ownCacheControl === true && (status < 300 || status === 304) && reply.hasHeader('cache-control');
  if (!ownPolicy) reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
  return payload;
};

/** The SPA's public pages reached by a token in their path (issue 40): a shared board, a form, a request's status. */
const PUBLIC_TOKEN_PAGES = /^\/(share|forms|requests)\//;

/** How often rate-limit rows that are full again are deleted (each instance; a delete of a few rows). */
const PRUNE_RATE_LIMITS_EVERY_MS = 60_000;

/**
 * Fastify's `trustProxy` for TRUST_PROXY: a hop count trusts that many proxies nearest the app, whatever
 * their address (Fastify 5.12 itself refuses a number: its hop count trusts no proxy at all).
 */
function trustProxyOption(trust: Config['trustProxy']): FastifyServerOptions['trustProxy'] {
  if (typeof trust === 'number') return trust > 0 ? (_address: string, hop: number) => hop < trust : false;
  return trust;
}

/** `last_seen_at` is written at most this often per user by one process (the admin panel shows days). */
const LAST_SEEN_EVERY_MS = 60_000;

export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const { config, database } = options;
  const app = Fastify({
    logger:
      options.logger && typeof options.logger === 'object'
        ? { redact: LOG_REDACT, serializers: { req: logRequest }, ...options.logger }
        : (options.logger ?? false),
    bodyLimit: 1024 * 1024,
    // Longer path parameters reach the route's own schema (a 400 or 404 in our error shape) instead of Fastify's 414.
    routerOptions: { maxParamLength: 500 },
    trustProxy: trustProxyOption(config.trustProxy),
    genReqId: () => crypto.randomUUID(),
    logController: new OneLineRequestLog(),
  });

  for (const warning of config.warnings ?? []) app.log.warn(warning);
  usePasswordHashing(config.passwordHashing ?? 'owasp');
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(createSerializerCompiler({ check: config.checkResponses ?? true }));

  const tokens = new TokenService(config.authSecret, config.accessTokenTtl);
  const events = new EventBus();
  const changes = new ChangeRecorder(subscribers(config, events));
  const auth = new AuthService(
    database.db,
    tokens,
    changes,
    {
      onUserCreated: async (tx, record, user) => {
        await notifyPendingInvitations(tx, user, config.invitationTtlDays, config.emailVerification);
        await sendLinkOnSignUp(tx, record, user, config);
      },
    },
    config.sessions,
  );
  // Directory sign-in (issue 41): the directory checks passwords before the local ones (LOCAL_PASSWORDS, BREAK_GLASS_EMAIL).
  const ldap = config.ldap ? new LdapService(database.db, changes, auth, config.ldap, (m) => app.log.warn(m)) : null;
  auth.useDirectory(ldap, config.localPasswords ?? { enabled: true, breakGlassEmail: null });
  const buckets = bucketStore(database.db);
  const rateLimiter = new RateLimiter(buckets, config.rateLimitEnabled, config.rateLimits);
  const twoFactor = new TwoFactorService(database.db, changes, auth, rateLimiter, buckets, config.authSecret);
  const storage = options.storage ?? createStorage(config.storage);
  const apiTokens = new ApiTokenService(database.db, changes, config.authSecret);
  const saml = new SamlService(database.db, changes, auth, config);
  app.decorate('deps', { config, database, tokens, auth, rateLimiter, events, twoFactor, storage, apiTokens, changes, saml });
  app.decorateRequest('auth', null);

  // Issue 42: tracing first, so that its request span holds every later hook's work (OTEL_EXPORTER_OTLP_ENDPOINT);
  // Prometheus metrics when METRICS_PORT is set (main.ts opens their listener). Neither loads anything when unset.
  if (config.tracing) await installTracing(app, database, config.tracing);
  const metricsSources = { database, readOutboxes: () => readOutboxDepths(database.db) };
  app.decorate('metrics', config.metricsPort ? await installMetrics(app, metricsSources) : null);

  // Every API route must declare who may call it.
  app.addHook('onRoute', (route) => {
    // The reference page's own routes (the Swagger UI plugin under /api/docs) cannot declare it: they are public.
    if (isApiDocsRoute(route)) route.config = { ...route.config, auth: 'public' };
    if (route.url.startsWith('/api') && !route.config?.auth) {
      throw new Error(`route ${route.method} ${route.url} does not declare config.auth`);
    }
  });
  app.addHook('onSend', apiNoStore);

  const lastSeen = new Throttle(LAST_SEEN_EVERY_MS);
  // The request's caller, for the SSO lock the membership reads apply (db/sso-lock.ts): the rest of the request runs in it.
  app.addHook('onRequest', (_req, _reply, done) => runRequestScope(done));
  app.addHook('onRequest', async (req) => {
    const mode: RouteAuth | undefined = req.routeOptions.config?.auth;
    if (!mode) return;
    const rule = req.routeOptions.config?.rateLimit;
    if (rule) await rateLimiter.consume(rule, req.ip, (req.query as { grant_type?: string } | undefined)?.grant_type);
    const header = req.headers.authorization;
    const bearer = header?.startsWith('Bearer ') ? header.slice(7).trim() : null;
    // A personal API token never reaches account, token or session management, signed-in or public.
    if (isApiToken(bearer)) requireTokenMayReach(req.routeOptions.url ?? '');
    if (mode === 'public') return;
    // SCIM routes authenticate their own bearer, a SCIM token, and answer in SCIM's error shape (modules/scim).
    if (mode === 'scim') return;
    if (!bearer) throw new AppError('unauthenticated');
    const found: (Pick<AuthContext, 'user' | 'sessionId' | 'apiToken'> & { ssoLocked?: boolean }) | null = isApiToken(bearer)
      ? await apiTokens.authenticate(bearer, rateLimiter.apiToken(req.ip))
      : await auth.authenticate(bearer);
    if (!found) throw new AppError('session_invalid');
    const { apiToken } = found;
    if (apiToken) requireTokenScope(apiToken.scope, req.method);
    const { role } = found.user;
    req.auth = { userId: found.user.id, sessionId: found.sessionId, user: found.user, role, apiToken };
    // An API token is never an SSO session (issue 41).
    const ssoLocked = found.ssoLocked ?? (await hasSsoRequiredTeam(database.db, found.user.id));
    if (ssoLocked) setRequestCaller(found.user.id, true);
    if (mode === 'super_admin' && !canUseAdminArea(role)) throw new AppError('admin_only');
    if (lastSeen.due(found.user.id)) void touchLastSeen(database.db, found.user.id).catch(() => {});
  });

  if (config.rateLimitEnabled) {
    const pruning = setInterval(() => {
      rateLimiter.prune().catch((error) => app.log.warn({ err: loggable(error) }, 'pruning rate-limit rows failed'));
    }, PRUNE_RATE_LIMITS_EVERY_MS);
    pruning.unref();
    app.addHook('onClose', async () => clearInterval(pruning));
  }

  await app.register(fastifyHelmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'https:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'none'"],
        frameAncestors: ["'none'"],
        formAction: ["'self'"],
      },
    },
    hsts: config.publicUrl.startsWith('https://'),
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    crossOriginEmbedderPolicy: false,
  });
  // Bodies up to the request limit are compressed in one call, not through a stream (measured: the
  // stream path cost a third of a board request's CPU in small writes).
  // Brotli quality 1: on API JSON (mostly ids) it packs as tight as the library's default 4 at half
  // the CPU (measured on a 200-card board: 0.47 vs 1.06 ms, 23.9 vs 23.6 KB). Static assets are
  // compressed at build time instead.
  await app.register(fastifyCompress, {
    threshold: 1024,
    syncThreshold: 1024 * 1024,
    brotliOptions: {
      params: { [zlibConstants.BROTLI_PARAM_MODE]: zlibConstants.BROTLI_MODE_TEXT, [zlibConstants.BROTLI_PARAM_QUALITY]: 1 },
    },
  });

  // The OpenAPI document (operation ids, summaries, security, 4xx answers: see modules/openapi) and /api/docs.
  await registerOpenApi(app, { publicUrl: config.publicUrl });

  const send = (reply: FastifyReply, reason: ErrorReason, fields?: Record<string, string>) =>
    reply.code(errorStatus(reason)).send(errorBody(reason, fields));

  app.setErrorHandler((error: FastifyError, req, reply) => {
    if (error instanceof AppError) {
      if (error.headers) reply.headers(error.headers);
      return send(reply, error.reason, error.fields);
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const issues = error.validation.map((issue) => ({
        path: issue.instancePath.split('/').filter(Boolean),
        message: issue.message,
      }));
      return send(reply, 'validation_failed', fieldErrors(issues));
    }
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return send(reply, 'payload_too_large');
    if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return send(reply, 'unsupported_media_type');
    if (isDatabaseUnavailable(error)) {
      req.log.warn({ err: loggable(error) }, 'database unavailable');
      reply.header('retry-after', '5');
      return send(reply, 'unavailable');
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      return send(
        reply,
        status === 404 ? 'not_found' : status === 429 ? 'rate_limited' : status === 413 ? 'payload_too_large' : 'bad_request',
      );
    }
    const pg = pgCode(error);
    if (pg === '23505') return send(reply, 'conflict');
    if (pg && BAD_VALUE_CODES.has(pg)) return send(reply, 'invalid_value');
    req.log.error({ err: loggable(error) }, 'unhandled error');
    return send(reply, 'internal');
  });

  app.setNotFoundHandler((req, reply) => {
    const path = req.url.split('?')[0] ?? '';
    const indexFile = join(config.clientDir, 'index.html');
    if (!path.startsWith('/api') && (req.method === 'GET' || req.method === 'HEAD') && existsSync(indexFile)) {
      // The public pages of issue 40 carry their token in the URL: not indexed, never sent on as a referrer.
      if (PUBLIC_TOKEN_PAGES.test(path)) reply.header('x-robots-tag', 'noindex').header('referrer-policy', 'no-referrer');
      return reply.header('cache-control', 'no-cache').sendFile('index.html', config.clientDir);
    }
    return send(reply, 'not_found');
  });

  const r = typed(app);
  r.get('/api/health', {
    config: { auth: 'public' },
    schema: { tags: ['system'], response: { 200: healthResponse } },
    handler: async () => {
      // A query, as the ping was: the database answers. The schema version is the number of migrations applied.
      const schema = await schemaVersion(database.db);
      return { status: 'ok' as const, version: appVersion(), schemaVersion: schema };
    },
  });
  r.get('/api/openapi.json', {
    config: { auth: 'public' },
    schema: { hide: true, response: { 200: z.unknown() } },
    handler: async () => app.swagger(),
  });

  authRoutes(app, auth);
  registerModules(app);
  // After the modules' own onClose hooks (the orphan sweep finishes first): the store's connections go last.
  if (!options.storage) app.addHook('onClose', async () => storage.close?.());

  if (existsSync(config.clientDir)) {
    await app.register(fastifyStatic, {
      root: config.clientDir,
      wildcard: false,
      index: false,
      // The build writes .br and .gz copies of scripts and stylesheets (vite.config.ts).
      preCompressed: true,
      setHeaders(res, path) {
        if (path.includes(`${join(config.clientDir, 'assets')}`)) {
          res.header('cache-control', 'public, max-age=31536000, immutable');
        } else {
          res.header('cache-control', 'no-cache');
        }
      },
    });
    app.get('/', { config: {} }, (_req, reply) => reply.header('cache-control', 'no-cache').sendFile('index.html'));
  }

  return app;
}
