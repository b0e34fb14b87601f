import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { OAuth2Server } from 'oauth2-mock-server';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app';
import type { Config } from '../../src/server/config';
import type { Database } from '../../src/server/db/client';
import { oauthIdentities, users } from '../../src/server/db/schema';
import { Sealer } from '../../src/server/modules/oidc/oidc.seal';
import { displayName, LINK_NEEDS_VERIFIED_ACCOUNT } from '../../src/server/modules/oidc/oidc.service';
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
  /** The browser's cookies after the flow (its jar, as one Cookie header). */
  jar: string;
}

/** The name=value pairs a response sets (cleared ones left out), as one Cookie header. */
function cookiesOf(res: { headers: Record<string, unknown> }): string {
  const raw = res.headers['set-cookie'];
  const list = Array.isArray(raw) ? raw : raw ? [raw] : [];
  return list
    .map((c) => String(c).split(';')[0]!)
    .filter((c) => !c.endsWith('='))
    .join('; ');
}

/** Start → the mock's authorize endpoint → callback, in one browser (one cookie jar); no exchange yet. */
async function runGoogleFlow(options: { tamperState?: boolean; dropCookie?: boolean } = {}): Promise<FlowResult> {
  const start = await app.inject({ method: 'GET', url: '/api/auth/google/start' });
  expect(start.statusCode).toBe(302);
  const jar = cookiesOf(start);
  const authorize = await fetch(String(start.headers.location), { redirect: 'manual' });
  expect(authorize.status).toBe(302);
  const back = new URL(authorize.headers.get('location')!);
  expect(back.pathname).toBe('/api/auth/google/callback');
  if (options.tamperState) back.searchParams.set('state', 'forged');
  const callback = await app.inject({
    method: 'GET',
    url: `${back.pathname}${back.search}`,
    headers: options.dropCookie ? {} : { cookie: jar },
  });
  expect(callback.statusCode).toBe(302);
  const location = String(callback.headers.location);
  const url = new URL(location, 'http://x');
  if (!location.startsWith('/#')) return { location, params: url.searchParams, jar };
  return { location, params: url.searchParams, code: new URLSearchParams(url.hash.slice(1)).get('oidc_code')!, jar };
}

const exchange = (code: string | undefined, jar: string) =>
  app.inject({ method: 'POST', url: '/api/auth/google/exchange', payload: { code }, headers: jar ? { cookie: jar } : {} });

/** The whole sign-in in one browser: the flow, then (on success) the one-time code exchange. */
async function signInWithGoogle(options: { tamperState?: boolean; dropCookie?: boolean } = {}): Promise<FlowResult> {
  const flow = await runGoogleFlow(options);
  if (!flow.code) return flow;
  const res = await exchange(flow.code, flow.jar);
  expect(res.statusCode, res.body).toBe(200);
  // Finding 8: an answer that carries tokens is never cached.
  expect(res.headers['cache-control']).toBe('no-store');
  return { ...flow, session: res.json() };
}

/** What the login page shows for a failure: the description only when our callback sealed it. */
async function openDescription(sealed: string | null, on: FastifyInstance = app) {
  const res = await on.inject({ method: 'POST', url: '/api/auth/google/error', payload: { error_description: sealed } });
  return res.statusCode === 200 ? (res.json().description as string) : null;
}

const me = (token: string) => app.inject({ method: 'GET', url: '/api/auth/user', headers: { authorization: `Bearer ${token}` } });

describe('Google (OpenID Connect) sign-in', () => {
  it('reports whether Google is configured', async () => {
    const providers = (on: FastifyInstance) => on.inject({ method: 'GET', url: '/api/auth/providers' });
    expect((await providers(app)).json()).toEqual({
      google: true,
      emailVerification: 'off',
      ldap: false,
      localPasswords: true,
      sso: false,
    });
    expect((await providers(plainApp)).json()).toEqual({
      google: false,
      emailVerification: 'off',
      ldap: false,
      localPasswords: true,
      sso: false,
    });
  });

  it('without configuration, start returns to the login page with an explanation', async () => {
    const res = await plainApp.inject({ method: 'GET', url: '/api/auth/google/start' });
    expect(res.statusCode).toBe(302);
    const url = new URL(String(res.headers.location), 'http://x');
    expect(url.pathname).toBe('/login');
    expect(url.searchParams.get('error')).toBe('not_configured');
    expect(await openDescription(url.searchParams.get('error_description'), plainApp)).toBe(
      'Google sign-in is not configured on this server.',
    );
  });

  it('starts an authorization-code flow with PKCE S256, state and nonce', async () => {
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
    });
    expect(q.state!.length).toBeGreaterThanOrEqual(32);
    expect(q.nonce!.length).toBeGreaterThanOrEqual(32);
    expect(q.code_challenge).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const [cookie, binding] = res.headers['set-cookie'] as string[];
    expect(cookie).toMatch(/^crewboard_oidc=[^;]+; Path=\/api\/auth\/google; Max-Age=600; HttpOnly; SameSite=Lax$/);
    expect(binding).toMatch(/^crewboard_oidc_bind=[A-Za-z0-9_-]{43}; Path=\/api\/auth; Max-Age=660; HttpOnly; SameSite=Lax$/);
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
    expect(first.session!.user).toMatchObject({
      email,
      fullName: 'Grace Hopper',
      role: 'team_member',
      isActive: true,
      // The issuer vouched for the address.
      emailVerified: true,
    });
    expect((await me(first.session!.access_token)).statusCode).toBe(200);

    const [identity] = await database.db
      .select()
      .from(oauthIdentities)
      .where(eq(oauthIdentities.subject, `sub-${email}`));
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

  it('links an existing verified account with the same verified email instead of duplicating it', async () => {
    const existing = await createUser(app, { fullName: 'Password Person' });
    await database.db.update(users).set({ emailVerified: true }).where(eq(users.id, existing.id));
    claims = { sub: `sub-${existing.email}`, email: existing.email.toUpperCase(), email_verified: true, name: 'Other Name' };
    const result = await signInWithGoogle();
    expect(result.session!.user).toMatchObject({ id: existing.id, fullName: 'Password Person' });
    expect(await database.db.select().from(users).where(eq(users.email, existing.email))).toHaveLength(1);
  });

  it('issue 21: Google sign-in is not asked for a second factor (the provider did the proving)', async () => {
    const existing = await createUser(app, { fullName: 'Two Factor Person' });
    await database.db
      .update(users)
      .set({ emailVerified: true, totpSecret: 'sealed elsewhere', totpEnabledAt: new Date() })
      .where(eq(users.id, existing.id));
    const password = await app.inject({
      method: 'POST',
      url: '/api/auth/token?grant_type=password',
      payload: { email: existing.email, password: existing.password },
    });
    expect(password.statusCode).toBe(401);
    expect(password.json().error.reason).toBe('mfa_required');
    claims = { sub: `sub-2fa-${existing.email}`, email: existing.email, email_verified: true, name: 'Two Factor Person' };
    const result = await signInWithGoogle();
    expect(result.session!.user).toMatchObject({ id: existing.id });
  });

  it('issue 21: refuses to link onto an existing account whose address is not verified (no silent takeover)', async () => {
    // Someone registered the address with a password before its owner first used Google sign-in.
    const squatter = await createUser(app, { fullName: 'Early Squatter' });
    claims = { sub: `sub-owner-${squatter.email}`, email: squatter.email, email_verified: true, name: 'Real Owner' };
    const result = await signInWithGoogle();
    expect(result.session).toBeUndefined();
    expect(result.params.get('error')).toBe('access_denied');
    expect(await openDescription(result.params.get('error_description'))).toBe(LINK_NEEDS_VERIFIED_ACCOUNT);
    expect(await database.db.select().from(oauthIdentities).where(eq(oauthIdentities.userId, squatter.id))).toHaveLength(0);
    expect(await database.db.select().from(users).where(eq(users.email, squatter.email))).toHaveLength(1);

    // Once the account proves the address (here: as a followed link would), the same sign-in is linked.
    await database.db.update(users).set({ emailVerified: true }).where(eq(users.id, squatter.id));
    const linked = await signInWithGoogle();
    expect(linked.session!.user).toMatchObject({ id: squatter.id, emailVerified: true });
  });

  it('a first Google sign-in whose address the issuer does not vouch for makes an unverified account', async () => {
    const email = uniqueEmail('unvouched');
    claims = { sub: `sub-${email}`, email, email_verified: false };
    const result = await signInWithGoogle();
    expect(result.session!.user).toMatchObject({ email, emailVerified: false });
  });

  it('refuses to link when the provider does not vouch for the email', async () => {
    const existing = await createUser(app);
    claims = { sub: `sub-unverified-${existing.email}`, email: existing.email, email_verified: false };
    const result = await signInWithGoogle();
    expect(result.params.get('error')).toBe('access_denied');
    expect(await openDescription(result.params.get('error_description'))).toMatch(/already exists/);
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
    const again = await exchange(result.code, result.jar);
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
      expect(await openDescription(result.params.get('error_description'))).toBeTruthy();
    }
  });

  it('an ID token with the wrong nonce or audience is refused', async () => {
    claims = { sub: 'sub-nonce', email: uniqueEmail('nonce'), email_verified: true, nonce: 'not-the-nonce' };
    const nonce = await signInWithGoogle();
    expect(nonce.params.get('error')).toBe('invalid_token');
    expect(await openDescription(nonce.params.get('error_description'))).toBe('The identity token could not be verified.');

    claims = { sub: 'sub-aud', email: uniqueEmail('aud'), email_verified: true, aud: 'someone-else' };
    const aud = await signInWithGoogle();
    expect(aud.params.get('error')).toBe('invalid_token');
  });

  it('passes the provider’s own error back to the login page', async () => {
    const start = await app.inject({ method: 'GET', url: '/api/auth/google/start' });
    const state = new URL(String(start.headers.location)).searchParams.get('state')!;
    const res = await app.inject({
      method: 'GET',
      url: `/api/auth/google/callback?error=access_denied&error_description=The+user+cancelled&state=${state}`,
      headers: { cookie: cookiesOf(start) },
    });
    expect(res.statusCode).toBe(302);
    const url = new URL(String(res.headers.location), 'http://x');
    expect(url.pathname).toBe('/login');
    expect(url.searchParams.get('error')).toBe('access_denied');
    expect(await openDescription(url.searchParams.get('error_description'))).toBe('The user cancelled');
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
    await database.db.update(users).set({ isActive: false, emailVerified: true }).where(eq(users.id, existing.id));
    claims = { sub: `sub-${existing.email}`, email: existing.email, email_verified: true };
    const result = await signInWithGoogle();
    expect(result.params.get('error')).toBe('access_denied');
    expect(await openDescription(result.params.get('error_description'))).toBe('This account has been deactivated');
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

describe('issue 20: security findings', () => {
  it('finding 5 (login CSRF through the one-time Google code): a code minted in one browser is refused in another', async () => {
    const email = uniqueEmail('csrf');
    claims = { sub: `sub-${email}`, email, email_verified: true };
    const attacker = await runGoogleFlow();
    expect(attacker.code).toBeTruthy();
    // The victim's browser: no binding cookie at all, or the binding of a sign-in it started itself.
    const victimStart = await app.inject({ method: 'GET', url: '/api/auth/google/start' });
    for (const jar of ['', cookiesOf(victimStart), 'crewboard_oidc_bind=forged']) {
      const res = await exchange(attacker.code, jar);
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toMatchObject({ code: 'invalid_grant', reason: 'oidc_code_wrong_browser' });
    }
    // Refusing it elsewhere did not spend it: the browser that started the sign-in still completes it, once.
    const own = await exchange(attacker.code, attacker.jar);
    expect(own.statusCode, own.body).toBe(200);
    expect(own.json().user.email).toBe(email);
    expect(String(own.headers['set-cookie'])).toMatch(/^crewboard_oidc_bind=; Path=\/api\/auth; Max-Age=0/);
  });

  it('finding 5: the binding cookie is Secure when PUBLIC_URL is https', async () => {
    const google = { clientId: CLIENT_ID, clientSecret: 'shh-secret', issuer: mock.issuer.url! };
    const tls = await buildApp({ config: testConfig({ publicUrl: 'https://crewboard.example', google }), database });
    try {
      const res = await tls.inject({ method: 'GET', url: '/api/auth/google/start' });
      const cookies = res.headers['set-cookie'] as string[];
      expect(cookies).toHaveLength(2);
      for (const cookie of cookies) expect(cookie).toMatch(/; HttpOnly; SameSite=Lax; Secure$/);
    } finally {
      await tls.close();
    }
  });

  it('finding 8 (error description): the login page gets only descriptions our own callback sealed', async () => {
    const existing = await createUser(app);
    claims = { sub: `sub-8-${existing.email}`, email: existing.email, email_verified: false };
    const failed = await signInWithGoogle();
    const sealed = failed.params.get('error_description')!;
    // Not readable in the URL, but opened by the server.
    expect(sealed).not.toMatch(/already exists/);
    expect(await openDescription(sealed)).toMatch(/^An account with this email already exists/);

    // A hand-made description, one sealed for another purpose, or with another key, or expired: refused.
    const others = [
      '<script>alert(1)</script>',
      'Call support on +1 555 0100',
      await new Sealer(config.authSecret, 'state').seal({ d: 'forged' }, 60),
      await new Sealer('x'.repeat(40), 'error').seal({ d: 'forged' }, 60),
      await new Sealer(config.authSecret, 'error').seal({ d: 'too late' }, -5),
    ];
    for (const value of others) {
      const res = await app.inject({ method: 'POST', url: '/api/auth/google/error', payload: { error_description: value } });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toMatchObject({ code: 'validation_failed', reason: 'oidc_error_unverified' });
    }
  });

  it('finding 8 (error description): a hand-made callback link cannot make us seal its text', async () => {
    // Without the state of a sign-in this browser started, the provider's "error" is not believed.
    await app.inject({ method: 'GET', url: '/api/auth/google/start' });
    const res = await app.inject({
      method: 'GET',
      url: '/api/auth/google/callback?error=access_denied&error_description=Call+support+on+555&state=forged',
    });
    const url = new URL(String(res.headers.location), 'http://x');
    expect(url.pathname).toBe('/login');
    expect(url.searchParams.get('error')).toBe('invalid_request');
    expect(await openDescription(url.searchParams.get('error_description'))).toBe(
      'The sign-in request expired or was not started here. Please try again.',
    );
  });

  it('finding 8 (offline access): the authorization request asks for no offline access and no consent prompt', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/auth/google/start' });
    const q = new URL(String(res.headers.location)).searchParams;
    expect(q.get('scope')).toBe('openid email profile');
    expect(q.has('access_type')).toBe(false);
    expect(q.has('prompt')).toBe(false);
    expect(q.get('scope')).not.toContain('offline_access');
  });
});
