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
