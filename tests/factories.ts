import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { SessionDto } from '../src/domain/schemas/auth';

export interface TestUser {
  id: string;
  email: string;
  password: string;
  fullName: string;
  token: string;
  session: SessionDto;
  /** Headers for an authenticated call. */
  auth: { authorization: string };
}

let counter = 0;
export const uniqueEmail = (prefix = 'user') =>
  `${prefix}.${Date.now().toString(36)}.${(counter++).toString(36)}.${randomBytes(3).toString('hex')}@example.com`;

/** Signs a new user up and in through the API. */
export async function createUser(
  app: FastifyInstance,
  overrides: { email?: string; password?: string; fullName?: string } = {},
): Promise<TestUser> {
  const email = overrides.email ?? uniqueEmail();
  const password = overrides.password ?? 'correct horse battery';
  const fullName = overrides.fullName ?? 'Test User';
  const signup = await app.inject({ method: 'POST', url: '/api/auth/signup', payload: { email, password, fullName } });
  if (signup.statusCode !== 201) throw new Error(`signup failed: ${signup.statusCode} ${signup.body}`);
  return signIn(app, email, password, fullName);
}

export async function signIn(app: FastifyInstance, email: string, password: string, fullName = ''): Promise<TestUser> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/auth/token?grant_type=password',
    payload: { email, password },
  });
  if (res.statusCode !== 200) throw new Error(`sign-in failed: ${res.statusCode} ${res.body}`);
  const session = res.json() as SessionDto;
  return {
    id: session.user.id,
    email: session.user.email,
    password,
    fullName: fullName || session.user.fullName,
    token: session.access_token,
    session,
    auth: { authorization: `Bearer ${session.access_token}` },
  };
}
