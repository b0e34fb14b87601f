import { describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import type { CalendarFeedCreatedDto } from '../../src/domain/schemas/calendar';
import { buildApp } from '../../src/server/app';
import { createUser, insertTeam } from '../factories';
import { apiRequests } from '../helpers/api';
import { setupTestApp, testConfig } from '../helpers/app';

/**
 * Issue 35, item 7 (and issue 34): `Cache-Control: no-store` on every /api answer, set one way (one onSend hook):
 * JSON, errors, 404s and 304s; only a route that declares a policy of its own (files, avatars, note images, the
 * calendar feed) keeps it, and only on success.
 */

const ctx = setupTestApp({ webhooksAllowPrivate: true });
const { call } = apiRequests(ctx);

const noStore = (res: LightMyRequestResponse, what: string) => {
  expect(res.headers['cache-control'], `${what}: ${res.statusCode}`).toBe('no-store');
};

describe('Cache-Control on /api answers', () => {
  it('is no-store on every operation of the OpenAPI document, signed out and with a stranger’s ids', async () => {
    const doc = (await ctx.app.inject('/api/openapi.json')).json() as { paths: Record<string, Record<string, unknown>> };
    noStore(await ctx.app.inject('/api/openapi.json'), 'openapi.json');
    const id = '0b7f3c1e-5a7d-4c55-9f59-2a1b7e9d0c11';
    let checked = 0;
    for (const [path, operations] of Object.entries(doc.paths)) {
      for (const method of Object.keys(operations)) {
        if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
        const url = path.replace(/\{[^}]+\}/g, id);
        const res = await ctx.app.inject({
          method: method.toUpperCase() as 'GET',
          url,
          payload: method === 'get' ? undefined : {},
        });
        noStore(res, `${method} ${path}`);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(50);
  });

  it('is no-store on signed-in JSON answers, a created webhook’s secret, 401s, 404s and 400s', async () => {
    const user = await createUser(ctx.app, { fullName: 'Cass Cache' });
    const team = await insertTeam(ctx.database.db, user, 'Cache crew');
    for (const url of ['/api/auth/user', '/api/me/profile', '/api/teams', '/api/dashboard', `/api/teams/${team.id}/webhooks`]) {
      const res = await call(user, 'GET', url);
      expect(res.statusCode, url).toBe(200);
      noStore(res, url);
    }
    const hook = await call(user, 'POST', `/api/teams/${team.id}/webhooks`, {
      url: 'http://127.0.0.1:9/hook',
      events: ['task.created'],
    });
    expect(hook.statusCode, hook.body).toBe(201);
    expect(hook.json()).toHaveProperty('secret');
    noStore(hook, 'POST webhooks');
    noStore(await call(user, 'GET', '/api/no-such-route'), 'unknown /api route');
    noStore(await call(user, 'GET', '/api/tasks/not-a-uuid'), '400');
    noStore(await call(null, 'GET', '/api/auth/user'), '401');
    noStore(await call(user, 'POST', '/api/me/calendar-feed'), 'POST calendar-feed');
    noStore(await ctx.app.inject('/api/docs'), '/api/docs');
  });

  it('keeps the calendar feed’s own private, short policy on success only; its 404 is no-store', async () => {
    const user = await createUser(ctx.app, { fullName: 'Fern Feed' });
    const created = (await call(user, 'POST', '/api/me/calendar-feed')).json() as CalendarFeedCreatedDto;
    const path = new URL(created.url).pathname;
    const feed = await ctx.app.inject(path);
    expect(feed.statusCode).toBe(200);
    expect(feed.headers['cache-control']).toBe('private, max-age=300');
    noStore(await ctx.app.inject(path.replace(/cal_[^/]+/, `cal_${'x'.repeat(43)}`)), 'unknown feed');
  });

  it('is no-store on a 304 and on an answer whose route set another policy without declaring one', async () => {
    const app = await buildApp({ config: testConfig(), database: ctx.database });
    app.get('/api/test-not-modified', { config: { auth: 'public' } }, (_req, reply) => reply.code(304).send());
    app.get('/api/test-cached', { config: { auth: 'public' } }, (_req, reply) =>
      reply.header('cache-control', 'public, max-age=600').send({ ok: true }),
    );
    app.get('/api/test-own', { config: { auth: 'public', ownCacheControl: true } }, (_req, reply) =>
      reply.code(304).header('cache-control', 'private, max-age=60').send(),
    );
    try {
      noStore(await app.inject('/api/test-not-modified'), '304');
      noStore(await app.inject('/api/test-cached'), 'undeclared policy');
      expect((await app.inject('/api/test-own')).headers['cache-control']).toBe('private, max-age=60');
    } finally {
      await app.close();
    }
  });
});
