import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app';
import { OPERATIONS } from '../../src/server/modules/openapi/openapi.operations';
import { derivedSummary } from '../../src/server/modules/openapi/openapi.transform';
import { createUser } from '../factories';
import { setupTestApp, testConfig } from '../helpers/app';

/**
 * The OpenAPI document (issue 26): every operation named, summarized and secured, and its reference page at /api/docs
 * served from this server under its CSP. The document's lint and generated client: scripts/check-openapi.mjs.
 */

const ctx = setupTestApp();
const ROOT = join(import.meta.dirname, '..', '..');

interface Operation {
  operationId?: string;
  summary?: string;
  description?: string;
  security?: Record<string, string[]>[];
  responses: Record<string, { description?: string }>;
  parameters?: unknown[];
  requestBody?: unknown;
}
interface Document {
  openapi: string;
  info: { title: string; license?: { name: string; url?: string } };
  servers?: { url: string }[];
  security?: Record<string, string[]>[];
  tags?: { name: string; description?: string }[];
  components: { securitySchemes?: Record<string, { type: string; scheme?: string; description?: string }> };
  paths: Record<string, Record<string, Operation>>;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

async function documentOf(): Promise<Document> {
  const res = await ctx.app.inject('/api/openapi.json');
  expect(res.statusCode).toBe(200);
  return res.json() as Document;
}

function operations(doc: Document): { key: string; path: string; method: string; op: Operation }[] {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => METHODS.includes(method))
      .map(([method, op]) => ({ key: `${method.toUpperCase()} ${path}`, path, method, op })),
  );
}

/** What a request without a token gets: 401 from every route that is not public (checked before anything else). */
async function anonymousStatus(method: string, path: string): Promise<number> {
  const url = path.replace(/\{(\w+)\}/g, '00000000-0000-4000-8000-000000000000');
  const res = await ctx.app.inject({ method: method.toUpperCase() as 'GET', url });
  return res.statusCode;
}

describe('the OpenAPI document', () => {
  it('declares bearerAuth for both kinds of token, servers, a licence and tags with descriptions', async () => {
    const doc = await documentOf();
    const scheme = doc.components.securitySchemes?.bearerAuth;
    expect(scheme).toMatchObject({ type: 'http', scheme: 'bearer' });
    // Session access tokens and personal API tokens, and what a token may not do.
    expect(scheme?.description).toContain('access_token');
    expect(scheme?.description).toContain('Authorization: Bearer cb_');
    expect(scheme?.description).toContain('token_scope_read_only');
    expect(scheme?.description).toContain('token_not_allowed');
    expect(Object.keys(doc.components.securitySchemes ?? {})).toEqual(['bearerAuth']);
    expect(doc.security).toEqual([{ bearerAuth: [] }]);
    expect(doc.servers?.length).toBeGreaterThan(0);
    expect(doc.info.license?.name).toBeTruthy();
    expect(doc.info.license?.url).toMatch(/^https?:\/\//);
    for (const tag of doc.tags ?? []) expect(tag.description, tag.name).toBeTruthy();
  });

  it('gives every operation a summary, a unique operationId, its security and a 4xx answer', async () => {
    const doc = await documentOf();
    const all = operations(doc);
    expect(all.length).toBeGreaterThan(100);
    const ids = all.map(({ op }) => op.operationId);
    expect(ids.filter((id) => !id)).toEqual([]);
    expect(
      ids.filter((id, i) => ids.indexOf(id) !== i),
      'duplicate operationIds',
    ).toEqual([]);
    expect(all.filter(({ op }) => !op.summary?.trim()).map(({ key }) => key)).toEqual([]);
    for (const { key, method, path, op } of all) {
      // The document says what the server does: a route needing a token refuses a request without one.
      const isPublic = (await anonymousStatus(method, path)) !== 401;
      expect(op.security, key).toEqual(isPublic ? [] : [{ bearerAuth: [] }]);
      if (!isPublic) expect(op.responses['401'], `${key} answers 401`).toBeDefined();
      for (const [status, answer] of Object.entries(op.responses)) {
        expect(answer.description, `${key} ${status}`).not.toBe('Default Response');
      }
    }
    // Only GET /api/health has no client error at all (see redocly.yaml).
    const without4xx = all.filter(({ op }) => !Object.keys(op.responses).some((s) => s.startsWith('4'))).map((o) => o.key);
    expect(without4xx).toEqual(['GET /api/health']);
  });

  it('says which operations a personal API token cannot use', async () => {
    const doc = await documentOf();
    const sessions = doc.paths['/api/me/sessions']?.get;
    expect(sessions?.responses['403']?.description).toContain('token_not_allowed');
    expect(sessions?.description).toContain('personal API tokens get 403');
    const create = doc.paths['/api/tasks']?.post;
    expect(create?.responses['403']?.description).toContain('token_scope_read_only');
    expect(doc.paths['/api/tasks']?.get?.responses['403']?.description ?? '').not.toContain('token_scope_read_only');
    // Public sign-in refuses a token too.
    expect(doc.paths['/api/auth/token']?.post?.responses['403']?.description).toContain('token_not_allowed');
  });

  it('has a written summary and operationId for every route, and no entry for a route that is gone', async () => {
    const doc = await documentOf();
    const all = operations(doc);
    // A route may write its own summary; its operationId and a summary are written down centrally all the same.
    const missing = all.filter(({ key }) => !OPERATIONS[key]).map(({ key }) => key);
    // Add each to OPERATIONS in src/server/modules/openapi/openapi.operations.ts: `'<key>': { id: '…', summary: '…' },`.
    expect(missing, 'routes without a written operationId and summary').toEqual([]);
    expect(all.filter(({ op, method, path }) => op.summary === derivedSummary(method, path)).map(({ key }) => key)).toEqual([]);
    const keys = new Set(all.map(({ key }) => key));
    expect(
      Object.keys(OPERATIONS).filter((key) => !keys.has(key)),
      'entries for routes that do not exist',
    ).toEqual([]);
  });

  it('accepts only the lint findings redocly.yaml explains, and each one still holds', async () => {
    const doc = await documentOf();
    const ignore = readFileSync(join(ROOT, '.redocly.lint-ignore.yaml'), 'utf8');
    const pointers = [...ignore.matchAll(/- '#\/paths\/([^/]+)\/(\w+)\/responses'/g)].map(([, path, method]) => ({
      path: (path ?? '').replaceAll('~1', '/'),
      method: method ?? '',
    }));
    expect(pointers.map((p) => `${p.method.toUpperCase()} ${p.path}`).sort()).toEqual([
      'GET /api/auth/google/callback',
      'GET /api/auth/google/start',
      'GET /api/auth/saml/start',
      'GET /api/health',
      'POST /api/auth/saml/acs',
    ]);
    const health = doc.paths['/api/health']?.get;
    expect(health?.parameters ?? []).toEqual([]);
    expect(await anonymousStatus('get', '/api/health')).toBe(200);
    expect(Object.keys(health?.responses ?? {}).filter((s) => s.startsWith('4'))).toEqual([]);
    for (const path of ['/api/auth/google/start', '/api/auth/google/callback']) {
      const statuses = Object.keys(doc.paths[path]?.get?.responses ?? {});
      expect(statuses).toContain('302');
      expect(statuses.filter((s) => s.startsWith('2'))).toEqual([]);
    }
    // SAML (issue 41): 302 to the identity provider, 303 back to the app after its POST.
    for (const [path, method, status] of [
      ['/api/auth/saml/start', 'get', '302'],
      ['/api/auth/saml/acs', 'post', '303'],
    ] as const) {
      const statuses = Object.keys(doc.paths[path]?.[method]?.responses ?? {});
      expect(statuses).toContain(status);
      expect(statuses.filter((s) => s.startsWith('2'))).toEqual([]);
    }
  });

  it('leaves the reference page, the document itself and anything outside /api out of the document', async () => {
    const doc = await documentOf();
    // SCIM's /scim/v2 (issue 41) is an API of its own and is in the document.
    const isApi = (p: string) => p.startsWith('/api/') || p.startsWith('/scim/v2/');
    expect(Object.keys(doc.paths).filter((p) => !isApi(p) || p.startsWith('/api/docs'))).toEqual([]);
    expect(doc.paths['/api/openapi.json']).toBeUndefined();
  });
});

describe('/api/docs', () => {
  it('serves the reference page and its files from this server, under the CSP, to anyone', async () => {
    const page = await ctx.app.inject('/api/docs');
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body).toContain('<title>Crewboard API reference</title>');
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("default-src 'self'");
    expect(csp).not.toContain('unsafe-eval');

    // No script or stylesheet from elsewhere, no inline script: each one a file of ours.
    const scripts = [...page.body.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attributes, inline] of scripts) {
      expect(attributes).toMatch(/\ssrc="/);
      expect(inline?.trim()).toBe('');
    }
    const assets = [...page.body.matchAll(/(?:src|href)="([^"]+)"/g)].map(([, url]) => url ?? '');
    expect(
      assets.filter((url) => /^(https?:)?\/\//i.test(url)),
      'assets from another origin',
    ).toEqual([]);
    expect(assets.filter((url) => !url.startsWith('/api/docs/static/'))).toEqual([]);
    const types: Record<string, RegExp> = { js: /javascript/, css: /text\/css/, png: /image\/png/ };
    for (const url of assets) {
      const res = await ctx.app.inject(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type'], url).toMatch(types[url.split('.').pop() ?? ''] ?? /./);
      expect(String(res.headers['content-security-policy']), url).toContain("script-src 'self'");
      // The page loads this server's document, and calls no validator badge service.
      if (url.endsWith('swagger-initializer.js')) {
        expect(res.body).toContain("url: resolveUrl('./json')");
        expect(res.body).toContain('validatorUrl: null');
        expect(res.body).not.toMatch(/validator\.swagger\.io|petstore|unpkg|cdn/i);
      }
    }
  });

  it('renders this very document, with or without a bearer token', async () => {
    const [docs, api] = await Promise.all([ctx.app.inject('/api/docs/json'), ctx.app.inject('/api/openapi.json')]);
    expect(docs.statusCode).toBe(200);
    expect(docs.json()).toEqual(api.json());
    const user = await createUser(ctx.app);
    const signedIn = await ctx.app.inject({ url: '/api/docs', headers: { authorization: `Bearer ${user.token}` } });
    expect(signedIn.statusCode).toBe(200);
  });

  it('makes public only the routes the Swagger UI plugin registers there, not any route under /api/docs', async () => {
    const app = await buildApp({ config: testConfig(), database: ctx.database });
    try {
      expect(() => app.get('/api/docs/extra', async () => 'no')).toThrow(/does not declare config\.auth/);
    } finally {
      await app.close();
    }
  });
});
