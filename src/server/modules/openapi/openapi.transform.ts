import type { SwaggerTransform, SwaggerTransformObject } from '@fastify/swagger';
import type { FastifySchema, RouteOptions } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponse } from '../../../domain/schemas/common';
import type { RouteAuth } from '../../lib/http';
import { tokenMayReach } from '../api-tokens';
import { DOCUMENT_ONLY_RESPONSES, OPERATIONS, TAGS } from './openapi.operations';
import { addWebhookSchemas } from './openapi.webhooks';

/**
 * The OpenAPI document is made here, centrally, from what every route already declares (its `config.auth`, its
 * `config.rateLimit`, its zod schemas) plus the written map in openapi.operations.ts: so a route added by any module
 * gets an operationId, a summary, its security requirement and its 4xx answers without touching this folder.
 */

export const SECURITY_SCHEME = 'bearerAuth';

/** `METHOD /path/{param}`: the key of an operation in OPERATIONS, the authorization matrix and the fuzz suite. */
export const operationKey = (method: string, url: string) => `${method.toUpperCase()} ${openapiPath(url)}`;

/** Fastify's `/api/tasks/:id` as OpenAPI's `/api/tasks/{id}`. */
export const openapiPath = (url: string) => url.replace(/:(\w+)/g, '{$1}');

const words = (path: string) =>
  path
    .split('/')
    .filter((part) => part && part !== 'api')
    .map((part) => (part.startsWith('{') ? `by-${part.slice(1, -1)}` : part))
    .flatMap((part) => part.split(/[^A-Za-z0-9]+/))
    .filter(Boolean);

const VERBS: Record<string, string> = { GET: 'get', POST: 'post', PUT: 'put', PATCH: 'patch', DELETE: 'delete', HEAD: 'head' };

/** A stable fallback for a route missing from OPERATIONS: `GET /api/teams/{id}/audit` -> `getTeamsByIdAudit`. */
export function derivedOperationId(method: string, url: string): string {
  const parts = words(openapiPath(url)).map((w) => w[0]!.toUpperCase() + w.slice(1));
  return `${VERBS[method.toUpperCase()] ?? method.toLowerCase()}${parts.join('')}`;
}

/** A fallback summary (`GET /api/teams/{id}/audit`); the test lists every route that still uses one. */
export const derivedSummary = (method: string, url: string) => operationKey(method, url);

/** A download route named by its file type (`/api/teams/:id/export.csv`): its body is text of that type. */
function byExtension(url: string): Record<string, unknown> {
  const type = { csv: 'text/csv', ics: 'text/calendar' }[url.split('.').pop() ?? ''];
  if (!type || !/\.\w+$/.test(url)) return {};
  return { 200: { description: `The file (${type}).`, content: { [type]: { schema: z.string() } } } };
}

/** The route options the transform reads (a subset of Fastify's RouteOptions). */
type RouteInfo = Pick<RouteOptions, 'method' | 'url' | 'config'>;

const READ_METHODS = new Set(['GET', 'HEAD']);

const errorContent = (description: string) => ({ description, content: { 'application/json': { schema: errorResponse } } });

/** The 4xx answers a route gives whatever its module wrote, derived from how it is declared. */
function derivedErrors(route: RouteInfo, method: string, schema: FastifySchema): Record<string, unknown> {
  const auth = (route.config as { auth?: RouteAuth } | undefined)?.auth;
  const rateLimit = (route.config as { rateLimit?: unknown } | undefined)?.rateLimit;
  const errors: Record<string, unknown> = {};
  if (schema.params || schema.querystring || schema.body) {
    errors[400] = errorContent('The request is invalid (`validation_failed`, with a message per field in `error.fields`).');
  }
  // SCIM (issue 41) declares its own answers, in its own error shape (RFC 7644 §3.12).
  if (auth === 'scim') return {};
  const forbidden: string[] = [];
  const own = Object.keys((schema.response as object | undefined) ?? {});
  if (own.includes('403')) forbidden.push('the caller may see it but not do this (`error.reason` says why)');
  if (auth && auth !== 'public') {
    errors[401] = errorContent(
      'No bearer token, or one that is invalid, expired or revoked (`unauthenticated`, `session_invalid`).',
    );
    if (auth === 'super_admin') forbidden.push('the caller is not a super admin (`admin_only`)');
    if (tokenMayReach(route.url) && !READ_METHODS.has(method)) {
      forbidden.push('a read-only API token cannot write (`token_scope_read_only`)');
    }
  }
  // Checked before the route's own rule: public account routes (sign-in, emailed links) refuse a token too.
  if (!tokenMayReach(route.url)) forbidden.push('a personal API token is never accepted here (`token_not_allowed`)');
  if (forbidden.length) errors[403] = errorContent(`Forbidden: ${forbidden.join('; ')}.`);
  if (rateLimit) errors[429] = errorContent('Too many requests: wait for `Retry-After` seconds (`rate_limited`).');
  return errors;
}

/** A note in the operation's description on who may call it with which kind of bearer token. */
function accessNote(route: RouteInfo, method: string): string {
  const auth = (route.config as { auth?: RouteAuth } | undefined)?.auth;
  if (auth === 'scim') {
    return 'SCIM 2.0 (RFC 7644): a SCIM token only (`Authorization: Bearer scim_…`, made by a super admin: createScimToken); sessions and personal API tokens get 401. Bodies are `application/scim+json`; errors are SCIM Error messages.';
  }
  if (!auth || auth === 'public') {
    return tokenMayReach(route.url) ? 'Public: no bearer token needed.' : 'Public; a personal API token gets 403 here.';
  }
  const who = auth === 'super_admin' ? 'Super admins only' : 'Signed in';
  if (!tokenMayReach(route.url)) return `${who}, with a session's access token only: personal API tokens get 403.`;
  if (READ_METHODS.has(method)) return `${who}: a session's access token or a personal API token (read-only or read-write).`;
  return `${who}: a session's access token or a read-write personal API token (read-only tokens get 403).`;
}

/** Set by transformRoute on an operation whose body may be left out; transformDocument turns it into `required: false`. */
const OPTIONAL_BODY = 'x-crewboard-optional-body';

/**
 * Per route: the zod schemas become JSON Schema (fastify-type-provider-zod), then the operation gets its id, summary,
 * security requirement, derived 4xx answers and any documented-only answers (files, redirects, event streams).
 * Routes outside /api (the SPA's `/`, static files) are not part of the API and stay out of the document; SCIM's
 * /scim/v2 (issue 41) is.
 */
export const transformRoute: SwaggerTransform = (input) => {
  const { route, url } = input;
  if (!url.startsWith('/api/') && !url.startsWith('/scim/v2/')) return { schema: { hide: true } as FastifySchema, url };
  const method = String(Array.isArray(route.method) ? route.method[0] : route.method).toUpperCase();
  const key = operationKey(method, url);
  const own = (input.schema ?? {}) as FastifySchema & { summary?: string; operationId?: string; description?: string };
  const written = OPERATIONS[key];
  const derived = derivedErrors(route, method, own);
  // The route's own answers win over the derived ones (a bare schema of its own gets the derived description), and
  // the written document-only ones win over both (bytes and streams its schema cannot say).
  const response: Record<string, unknown> = { ...derived, ...byExtension(url) };
  for (const [status, answer] of Object.entries((own.response as Record<string, unknown> | undefined) ?? {})) {
    const mine = derived[status] as { description: string } | undefined;
    const bare = answer instanceof z.ZodType && !answer.description;
    response[status] =
      mine && bare ? { description: mine.description, content: { 'application/json': { schema: answer } } } : answer;
  }
  Object.assign(response, DOCUMENT_ONLY_RESPONSES[key]);
  // A body the route may go without (`.nullish()`: a status deleted with no `moveTo`) is documented as its object,
  // and marked for transformDocument, which makes its requestBody not required.
  let body = own.body;
  while (body instanceof z.ZodOptional || body instanceof z.ZodNullable) body = body.unwrap() as z.ZodType;
  const bodyOptional = body !== own.body;
  const converted = jsonSchemaTransform({ ...input, schema: { ...own, ...(bodyOptional && { body }), response } });
  const schema = converted.schema as FastifySchema & Record<string, unknown>;
  if (schema.hide) return converted;
  const auth = (route.config as { auth?: RouteAuth } | undefined)?.auth;
  const description = [own.description, accessNote(route, method)].filter(Boolean).join('\n\n');
  return {
    url: converted.url,
    schema: {
      ...schema,
      operationId: own.operationId ?? written?.id ?? derivedOperationId(method, url),
      summary: own.summary ?? written?.summary ?? derivedSummary(method, url),
      description,
      security: auth === 'public' ? [] : [{ [SECURITY_SCHEME]: [] }],
      ...(bodyOptional && { [OPTIONAL_BODY]: true }),
    },
  };
};

/** Descriptions for answers whose module gave none (Fastify's "Default Response"). */
const STATUS_TEXT: Record<string, string> = {
  200: 'OK',
  201: 'Created',
  202: 'Accepted: the work continues in the background',
  204: 'Done; no content',
  302: 'A redirect',
  400: 'The request is invalid (`validation_failed` with per-field messages, or another reason in `error.reason`).',
  401: 'No bearer token, or one that is invalid, expired or revoked (`unauthenticated`, `session_invalid`).',
  403: 'Forbidden: the caller may see the resource but not do this (`error.reason` says why).',
  404: 'Not found, or not visible to the caller (`not_found` and a specific `error.reason`).',
  409: 'Conflict with the current state (`conflict` and a specific `error.reason`).',
  413: 'The upload is larger than allowed (`payload_too_large`).',
  415: 'Unsupported content type (`unsupported_media_type`).',
  422: 'The request is well formed but cannot be processed (`error.reason` says why).',
  429: 'Too many requests: wait for `Retry-After` seconds (`rate_limited`).',
  503: 'The database or a service it needs is unavailable: retry later (`unavailable`).',
};

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * zod's record of an enum (`z.record(z.enum([...]), v)`) comes out as `additionalProperties` plus `required` keys with no
 * `properties`: spell the keys out, as the linter (and a generated client) expects.
 */
function spellOutRequiredKeys(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) spellOutRequiredKeys(item);
    return;
  }
  if (!isObject(node)) return;
  const { required, additionalProperties } = node;
  if (Array.isArray(required) && isObject(additionalProperties)) {
    const properties = isObject(node.properties) ? { ...node.properties } : {};
    for (const name of required) if (typeof name === 'string' && !(name in properties)) properties[name] = additionalProperties;
    node.properties = properties;
  }
  for (const value of Object.values(node)) spellOutRequiredKeys(value);
}

const ERROR_SCHEMA = 'Error';

/** The error body, the same in every answer: one component instead of a copy per operation. */
function shareErrorSchema(doc: Json): void {
  const bodies = new Map<string, Json[]>();
  forEachOperation(doc, (operation) => {
    for (const answer of Object.values((operation.responses as Json | undefined) ?? {})) {
      const media = isObject(answer) && isObject(answer.content) ? answer.content['application/json'] : undefined;
      const error = isObject(media) && isObject(media.schema) ? (media.schema.properties as Json | undefined)?.error : undefined;
      if (!isObject(media) || !isObject(error) || !isObject(error.properties) || !('code' in error.properties)) continue;
      const text = JSON.stringify(media.schema);
      bodies.set(text, [...(bodies.get(text) ?? []), media]);
    }
  });
  // The common error body (a module may answer with a variant of its own: that one stays inline).
  const [text, medias] = [...bodies.entries()].sort((a, b) => b[1].length - a[1].length)[0] ?? [];
  if (!text || !medias) return;
  for (const media of medias) media.schema = { $ref: `#/components/schemas/${ERROR_SCHEMA}` };
  const components = (doc.components as Json | undefined) ?? {};
  components.schemas = { ...((components.schemas as Json | undefined) ?? {}), [ERROR_SCHEMA]: JSON.parse(text) };
  doc.components = components;
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

function forEachOperation(doc: Json, visit: (operation: Json, method: string, path: string) => void): void {
  for (const [path, item] of Object.entries((doc.paths as Json | undefined) ?? {})) {
    if (!isObject(item)) continue;
    for (const method of METHODS) if (isObject(item[method])) visit(item[method] as Json, method, path);
  }
}

export interface DocumentOptions {
  /** PUBLIC_URL: where users (and API clients) reach this instance. */
  publicUrl: string;
}

export const BEARER_DESCRIPTION = [
  'Every `/api` route that is not public takes `Authorization: Bearer <token>`, with one of two kinds of token:',
  '',
  "- **A session's access token**: the `access_token` of `POST /api/auth/token` (a short-lived signed JWT; refresh it " +
    'with `grant_type=refresh_token`). It may call every route its user may.',
  '- **A personal API token**: `Authorization: Bearer cb_…`, made in Settings → API tokens (shown once; expires after ' +
    '30, 90 or 365 days, or never). It acts with its owner’s rights on every route its scope allows: a **read-only** ' +
    'token gets 403 (`token_scope_read_only`) on anything but GET; a token never reaches account, token or session ' +
    'management (`/api/auth/*`, `/api/me/*` but the profile and notification preferences) and gets 403 ' +
    '(`token_not_allowed`) there. A revoked or expired token gets 401 at once.',
  '',
  'A missing, invalid, expired or revoked token answers 401.',
].join('\n');

/** The document's one security scheme, and its default requirement (public operations say `security: []`). */
export const SECURITY = {
  securitySchemes: { [SECURITY_SCHEME]: { type: 'http' as const, scheme: 'bearer', description: BEARER_DESCRIPTION } },
  security: (): Record<string, string[]>[] => [{ [SECURITY_SCHEME]: [] }],
};

/** The whole document: servers, security, tags, licence, shared error schema and the linter's small fixes. */
export function transformDocument(_options: DocumentOptions): SwaggerTransformObject {
  return (input) => {
    const doc = { ...('openapiObject' in input ? input.openapiObject : input.swaggerObject) } as Json;
    // Relative: the instance that serves this document (PUBLIC_URL is where users reach it; a document fetched
    // through another name or a proxy stays right).
    doc.servers = [{ url: '/', description: 'The Crewboard instance serving this document' }];
    const used = new Set<string>();
    forEachOperation(doc, (operation) => {
      for (const tag of (operation.tags as string[] | undefined) ?? []) used.add(tag);
      if (operation[OPTIONAL_BODY]) {
        delete operation[OPTIONAL_BODY];
        if (isObject(operation.requestBody)) operation.requestBody.required = false;
      }
      for (const [status, answer] of Object.entries((operation.responses as Json | undefined) ?? {})) {
        if (isObject(answer) && answer.description === 'Default Response') answer.description = STATUS_TEXT[status] ?? 'Answer';
      }
    });
    doc.tags = [...used].sort().map((name) => ({ name, description: TAGS[name] ?? `Operations on ${name}.` }));
    spellOutRequiredKeys(doc.paths);
    shareErrorSchema(doc);
    // The webhook deliveries' bodies (issue 35, item 11): named schemas, the callbacks of the operation adding a hook.
    addWebhookSchemas(doc, { path: '/api/teams/{id}/webhooks', method: 'post' });
    return doc;
  };
}
