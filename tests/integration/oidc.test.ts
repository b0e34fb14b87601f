import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { OAuth2Server } from 'oauth2-mock-server';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app';
import type { Config } from '../../src/server/config';
import type { Database } from '../../src/server/db/client';
import { oauthIdentities, users } from '../../src/server/db/schema';
import { Sealer } from '../../src/server/modules/oidc/oidc.seal';
import { displayName } from '../../src/server/modules/oidc/oidc.service';
import { createUser, uniqueEmail } from '../factories';
import { openTestDatabase, testConfig } from '../helpers/app';

const CLIENT_ID = 'crewboard-test-client';
const mock = new OAuth2Server();
let database: Database;
let drop: () => Promise<void>;
let app: FastifyInstance;
let plainApp: FastifyInstance;
let config: Config;

/** Claims the mock issuer adds to the next tokens it signs. */
let claims: Record<string, unknown> = {};

beforeAll(async () => {
  await mock.issuer.keys.generate('RS256');
  await mock.start(0, '127.0.0.1');
  mock.service.on('beforeTokenSigning', (token) => {
    Object.assign(token.payload, claims);
  });
  ({ database, drop } = await openTestDatabase());
  config = testConfig({ google: { clientId: CLIENT_ID, clientSecret: 'shh-secret', issuer: mock.issuer.url! } });
  app = await buildApp({ config, database });
  plainApp = await buildApp({ config: testConfig(), database });
}, 60_000);

afterAll(async () => {
  await app?.close();
  await plainApp?.close();
  await drop?.();
  await mock.stop();
});

beforeEach(() => {
  claims = {};
});

interface FlowResult {
  location: string;
  params: URLSearchParams;
  session?: { access_token: string; refresh_token: string; user: { id: string; email: string; fullName: string; role: string } };
  code?: string;
}

/** Start → the mock's authorize endpoint → callback → (on success) the one-time code exchange. */
async function signInWithGoogle(options: { tamperState?: boolean; dropCookie?: boolean } = {}): Promise<FlowResult> {
  const start = await app.inject({ method: 'GET', url: '/api/auth/google/start' });
  expect(start.statusCode).toBe(302);
  const cookie = String(start.headers['set-cookie']).split(';')[0]!;
  const authorize = await fetch(String(start.headers.location), { redirect: 'manual' });
  expect(authorize.status).toBe(302);
  const back = new URL(authorize.headers.get('location')!);
  expect(back.pathname).toBe('/api/auth/google/callback');
  if (options.tamperState) back.searchParams.set('state', 'forged');
  const callback = await app.inject({
    method: 'GET',
    url: `${back.pathname}${back.search}`,
    headers: options.dropCookie ? {} : { cookie },
  });
  expect(callback.statusCode).toBe(302);
  const location = String(callback.headers.location);
  const url = new URL(location, 'http://x');
  if (!location.startsWith('/#')) return { location, params: url.searchParams };
  const code = new URLSearchParams(url.hash.slice(1)).get('oidc_code')!;
  const exchange = await app.inject({ method: 'POST', url: '/api/auth/google/exchange', payload: { code } });
  expect(exchange.statusCode, exchange.body).toBe(200);
  return { location, params: url.searchParams, session: exchange.json(), code };
}

const me = (token: string) =>
  app.inject({ method: 'GET', url: '/api/auth/user', headers: { authorization: `Bearer ${token}` } });

describe('Google (OpenID Connect) sign-in', () => {
  it('reports whether Google is configured', async () => {
    expect((await app.inject({ method: 'GET', url: '/api/auth/providers' })).json()).toEqual({ google: true });
    expect((await plainApp.inject({ method: 'GET', url: '/api/auth/providers' })).json()).toEqual({ google: false });
  });

  it('without configuration, start returns to the login page with an explanation', async () => {
    const res = await plainApp.inject({ method: 'GET', url: '/api/auth/google/start' });
    expect(res.statusCode).toBe(302);
    const url = new URL(String(res.headers.location), 'http://x');
    expect(url.pathname).toBe('/login');
    expect(url.searchParams.get('error')).toBe('not_configured');
    expect(url.searchParams.get('error_description')).toBe('Google sign-in is not configured on this server.');
  });

  it('starts an authorization-code flow with PKCE S256, state, nonce, offline access and consent', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/auth/google/start' });
    expect(res.statusCode).toBe(302);
    const url = new URL(String(res.headers.location));
    expect(`${url.origin}${url.pathname}`).toBe(`${mock.issuer.url}/authorize`);
    const q = Object.fromEntries(url.searchParams);
    expect(q).toMatchObject({
      response_type: 'code',
      client_id: CLIENT_ID,
      redirect_uri: 'http://localhost:3000/api/auth/google/callback',
      scope: 'openid email profile',
      code_challenge_method: 'S256',
      access_type: 'offline',
      prompt: 'consent',
    });
    expect(q.state!.length).toBeGreaterThanOrEqual(32);
    expect(q.nonce!.length).toBeGreaterThanOrEqual(32);
    expect(q.code_challenge).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const cookie = String(res.headers['set-cookie']);
    expect(cookie).toMatch(/^crewboard_oidc=[^;]+; Path=\/api\/auth\/google; Max-Age=600; HttpOnly; SameSite=Lax$/);
    // The cookie is sealed: neither state nor nonce is readable in it.
    expect(cookie).not.toContain(q.state);
    expect(cookie).not.toContain(q.nonce);
  });

  it('first sign-in creates a team_member profile, then the same identity signs into the same account', async () => {
    const email = uniqueEmail('google');
    claims = { sub: `sub-${email}`, email, email_verified: true, name: 'Grace Hopper' };
    const first = await signInWithGoogle();
    expect(first.location).toMatch(/^\/#oidc_code=[A-Za-z0-9._~%-]+$/);
    expect(first.location).not.toContain(first.session!.refresh_token);
    expect(first.location).not.toContain(first.session!.access_token);
    expect(first.session!.user).toMatchObject({ email, fullName: 'Grace Hopper', role: 'team_member', isActive: true });
    expect((await me(first.session!.access_token)).statusCode).toBe(200);

    const [identity] = await database.db.select().from(oauthIdentities).where(eq(oauthIdentities.subject, `sub-${email}`));
    expect(identity).toMatchObject({ issuer: mock.issuer.url, userId: first.session!.user.id, email });

    claims = { sub: `sub-${email}`, email, email_verified: true, name: 'Renamed At Google' };
    const second = await signInWithGoogle();
    expect(second.session!.user.id).toBe(first.session!.user.id);
    expect(await database.db.select().from(users).where(eq(users.email, email))).toHaveLength(1);
  });

  it('a first Google sign-in turns invitations sent before the account existed into notifications', async () => {
    const owner = await createUser(app, { fullName: 'Inviting Owner' });
    const team = await app.inject({ method: 'POST', url: '/api/teams', headers: owner.auth, payload: { name: 'Invite Team' } });
    expect(team.statusCode).toBe(201);
    const email = uniqueEmail('invited-google');
    const invite = await app.inject({
      method: 'POST',
      url: `/api/teams/${team.json().id}/invitations`,
      headers: owner.auth,
      payload: { email, role: 'member' },
    });
    expect(invite.statusCode).toBe(201);
    claims = { sub: `sub-${email}`, email, email_verified: true, name: 'Late Joiner' };
    const result = await signInWithGoogle();
    const list = await app.inject({
      method: 'GET',
      url: '/api/notifications',
      headers: { authorization: `Bearer ${result.session!.access_token}` },
    });
    expect(list.statusCode).toBe(200);
    expect(list.json().notifications.map((n: { type: string }) => n.type)).toContain('team_invite');
  });

  it('links an existing account with the same verified email instead of duplicating it', async () => {
    const existing = await createUser(app, { fullName: 'Password Person' });
    claims = { sub: `sub-${existing.email}`, email: existing.email.toUpperCase(), email_verified: true, name: 'Other Name' };
    const result = await signInWithGoogle();
    expect(result.session!.user).toMatchObject({ id: existing.id, fullName: 'Password Person' });
    expect(await database.db.select().from(users).where(eq(users.email, existing.email))).toHaveLength(1);
  });

  it('refuses to link when the provider does not vouch for the email', async () => {
    const existing = await createUser(app);
    claims = { sub: `sub-unverified-${existing.email}`, email: existing.email, email_verified: false };
    const result = await signInWithGoogle();
    expect(result.params.get('error')).toBe('access_denied');
    expect(result.params.get('error_description')).toMatch(/already exists/);
    const linked = await database.db.select().from(oauthIdentities).where(eq(oauthIdentities.userId, existing.id));
    expect(linked).toHaveLength(0);
  });

  it('names a new profile from full_name, name, the email local part, else User', async () => {
    const email = uniqueEmail('localpart');
    claims = { sub: `sub-${email}`, email, email_verified: true };
    const result = await signInWithGoogle();
    expect(result.session!.user.fullName).toBe(email.split('@')[0]);
    expect(displayName({ full_name: 'Full Name', name: 'Name' }, 'a@b.c')).toBe('Full Name');
    expect(displayName({ name: '  Just Name ' }, 'a@b.c')).toBe('Just Name');
    expect(displayName({}, 'local@b.c')).toBe('local');
    expect(displayName({}, null)).toBe('User');
  });

  it('the one-time code is single use; a replay ends the session it opened', async () => {
    const email = uniqueEmail('replay');
    claims = { sub: `sub-${email}`, email, email_verified: true };
    const result = await signInWithGoogle();
    const again = await app.inject({ method: 'POST', url: '/api/auth/google/exchange', payload: { code: result.code } });
    expect(again.statusCode).toBe(400);
    expect(again.json().error.code).toBe('invalid_grant');
    expect((await me(result.session!.access_token)).statusCode).toBe(401);
  });

  it('refuses an expired, forged or wrong-purpose code', async () => {
    const codes = new Sealer(config.authSecret, 'code');
    const state = new Sealer(config.authSecret, 'state');
    const otherKey = new Sealer('x'.repeat(40), 'code');
    for (const code of [
      await codes.seal({ r: 'whatever' }, -5),
      await state.seal({ r: 'whatever' }, 60),
      await otherKey.seal({ r: 'whatever' }, 60),
      'not-a-code',
    ]) {
      const res = await app.inject({ method: 'POST', url: '/api/auth/google/exchange', payload: { code } });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.code).toBe('invalid_grant');
    }
    const bad = await app.inject({ method: 'POST', url: '/api/auth/google/exchange', payload: { code: 'x', extra: 1 } });
    expect(bad.statusCode).toBe(400);
  });

  it('a forged state or a missing state cookie returns to the login page', async () => {
    claims = { sub: 'sub-state', email: uniqueEmail('state'), email_verified: true };
    for (const options of [{ tamperState: true }, { dropCookie: true }]) {
      const result = await signInWithGoogle(options);
      expect(result.location.startsWith('/login?')).toBe(true);
      expect(result.params.get('error')).toBe('invalid_request');
      expect(result.params.get('error_description')).toBeTruthy();
    }
  });

  it('an ID token with the wrong nonce or audience is refused', async () => {
    claims = { sub: 'sub-nonce', email: uniqueEmail('nonce'), email_verified: true, nonce: 'not-the-nonce' };
    const nonce = await signInWithGoogle();
    expect(nonce.params.get('error')).toBe('invalid_token');
    expect(nonce.params.get('error_description')).toBe('The identity token could not be verified.');

    claims = { sub: 'sub-aud', email: uniqueEmail('aud'), email_verified: true, aud: 'someone-else' };
    const aud = await signInWithGoogle();
    expect(aud.params.get('error')).toBe('invalid_token');
  });

  it('passes the provider’s own error back to the login page', async () => {
    const start = await app.inject({ method: 'GET', url: '/api/auth/google/start' });
    const cookie = String(start.headers['set-cookie']).split(';')[0]!;
    const res = await app.inject({
      method: 'GET',
      url: '/api/auth/google/callback?error=access_denied&error_description=The+user+cancelled',
      headers: { cookie },
    });
    expect(res.statusCode).toBe(302);
    const url = new URL(String(res.headers.location), 'http://x');
    expect(url.pathname).toBe('/login');
    expect(url.searchParams.get('error')).toBe('access_denied');
    expect(url.searchParams.get('error_description')).toBe('The user cancelled');
    // The state cookie is cleared either way.
    expect(String(res.headers['set-cookie'])).toContain('Max-Age=0');
  });

  it('a token endpoint failure returns to the login page', async () => {
    claims = { sub: 'sub-tokenfail', email: uniqueEmail('tokenfail'), email_verified: true };
    mock.service.once('beforeResponse', (response) => {
      response.statusCode = 400;
      response.body = { error: 'invalid_grant' };
    });
    const result = await signInWithGoogle();
    expect(result.params.get('error')).toBe('invalid_grant');
  });

  it('refuses a deactivated account', async () => {
    const existing = await createUser(app);
    await database.db.update(users).set({ isActive: false }).where(eq(users.id, existing.id));
    claims = { sub: `sub-${existing.email}`, email: existing.email, email_verified: true };
    const result = await signInWithGoogle();
    expect(result.params.get('error')).toBe('access_denied');
    expect(result.params.get('error_description')).toBe('This account has been deactivated');
  });

  it('never answers 500 to junk on the callback', async () => {
    for (const url of [
      '/api/auth/google/callback',
      '/api/auth/google/callback?code=a&code=b&state=x',
      `/api/auth/google/callback?code=${'a'.repeat(5000)}`,
    ]) {
      const res = await app.inject({ method: 'GET', url, headers: { cookie: 'crewboard_oidc=garbage' } });
      expect(res.statusCode).toBe(302);
      expect(String(res.headers.location)).toMatch(/^\/login\?error=/);
    }
  });
});
