import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import type { TestUser } from '../factories';

export type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/**
 * Requests through `app.inject` as a user (null: signed out). The app is looked up on each request: a test file's
 * context (setupTestApp) only has it once its beforeAll has run.
 */
export function apiRequests(source: { app: FastifyInstance } | (() => FastifyInstance)) {
  const app = () => (typeof source === 'function' ? source() : source.app);

  const call = (user: TestUser | null, method: Method, url: string, payload?: unknown) =>
    app().inject({ method, url, payload: payload as never, headers: user ? user.auth : {} });

  /** Asserts the status (200 unless told) and returns the parsed body (undefined when there is none). */
  async function ok<T>(user: TestUser, method: Method, url: string, payload?: unknown, status = 200): Promise<T> {
    const res = await call(user, method, url, payload);
    expect(res.statusCode, res.body).toBe(status);
    return (res.body ? res.json() : undefined) as T;
  }

  /** Asserts the status and, when given, the error's reason (or its code where it has no reason). */
  async function fails(user: TestUser | null, method: Method, url: string, payload: unknown, status: number, reason?: string) {
    const res = await call(user, method, url, payload);
    expect(res.statusCode, res.body).toBe(status);
    if (reason) expect(res.json().error.reason ?? res.json().error.code).toBe(reason);
    return res;
  }

  return { call, ok, fails };
}

/**
 * Two projects of the owner's team, one of the stranger's own team, and a webhook on the owner's team that is never
 * delivered (the worker of a test app set up with a long poll interval): its queued deliveries are what a test reads.
 */
export async function projectsAndQueuedHook(
  ok: ReturnType<typeof apiRequests>['ok'],
  who: { owner: TestUser; stranger: TestUser; teamId: string },
  names: readonly [string, string],
  events: readonly string[],
) {
  const { owner, stranger, teamId } = who;
  const projectId = (await ok<{ id: string }>(owner, 'POST', '/api/projects', { name: names[0], teamId }, 201)).id;
  const otherProjectId = (await ok<{ id: string }>(owner, 'POST', '/api/projects', { name: names[1], teamId }, 201)).id;
  const strangerTeamId = (await ok<{ id: string }[]>(stranger, 'GET', '/api/teams'))[0]!.id;
  const strangerProjectId = (
    await ok<{ id: string }>(stranger, 'POST', '/api/projects', { name: 'Theirs', teamId: strangerTeamId }, 201)
  ).id;
  const hookId = (
    await ok<{ id: string }>(owner, 'POST', `/api/teams/${teamId}/webhooks`, { url: 'http://127.0.0.1:9/never', events }, 201)
  ).id;
  return { projectId, otherProjectId, strangerProjectId, hookId };
}
