import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import * as samlify from 'samlify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app';
import type { Config } from '../../src/server/config';
import type { Database } from '../../src/server/db/client';
import { oauthIdentities, sessions, teamMembers, teams, users } from '../../src/server/db/schema';
import { createUser, insertTeam, uniqueEmail } from '../factories';
import { openTestDatabase, testConfig } from '../helpers/app';
import { samlResponseOf, startTestIdp, type TestIdp } from '../helpers/saml-idp';

/**
 * SAML 2.0 sign-in (issue 41) against an identity provider that is not our code: samlify acting as IdP on 127.0.0.1
 * (tests/helpers/saml-idp.ts), which checks our signed AuthnRequests and signs its answers.
 */

let database: Database;
let drop: () => Promise<void>;
let app: FastifyInstance;
/** A second instance on the same database (replay across instances, InResponseTo shared). */
let second: FastifyInstance;
let config: Config;
let idp: TestIdp;
let admin: { id: string; auth: { authorization: string } };

const PUBLIC_URL = 'http://localhost:3000';
const ACS = `${PUBLIC_URL}/api/auth/saml/acs`;

beforeAll(async () => {
  idp = await startTestIdp();
  ({ database, drop } = await openTestDatabase());
  // One DATA_DIR for both instances: the SP key generated once is the one both use.
  const dataDir = mkdtempSync(join(tmpdir(), 'crewboard-saml-'));
  config = testConfig({ publicUrl: PUBLIC_URL, dataDir });
  app = await buildApp({ config, database });
  second = await buildApp({ config: { ...config }, database });
  const user = await createUser(app);
  await database.db.update(users).set({ role: 'super_admin' }).where(eq(users.id, user.id));
  admin = user;
  const metadata = await app.inject({ method: 'GET', url: '/api/auth/saml/metadata' });
  idp.trustSp(metadata.body);
}, 60_000);

afterAll(async () => {
  await app?.close();
  await second?.close();
  await drop?.();
  await idp?.close();
});

const putSso = (body: Record<string, unknown>, headers = admin.auth, on = app) =>
  on.inject({ method: 'PUT', url: '/api/admin/sso', headers, payload: body });

const configure = (extra: Record<string, unknown> = {}) =>
  putSso({ enabled: true, idpInitiated: false, idpMetadataXml: idp.metadataXml, ...extra });

beforeEach(async () => {
  idp.next = {};
  idp.user = { nameId: `nid-${crypto.randomUUID()}`, email: uniqueEmail('sso'), name: 'Sso Person' };
  const res = await configure();
  expect(res.statusCode, res.body).toBe(200);
});

/** The name=value pairs a response sets (cleared ones left out), as one Cookie header. */
function cookiesOf(res: { headers: Record<string, unknown> }): string {
  const raw = res.headers['set-cookie'];
  const list = Array.isArray(raw) ? raw : raw ? [raw] : [];
  return list
    .map((c) => String(c).split(';')[0]!)
    .filter((c) => !c.endsWith('='))
    .join('; ');
}

const postAcs = (samlResponse: string, on: FastifyInstance = app) =>
  on.inject({
    method: 'POST',
    url: '/api/auth/saml/acs',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ SAMLResponse: samlResponse }).toString(),
  });

/** Where the ACS sent the browser: the one-time code, or the login page's error. */
function outcome(res: { statusCode: number; headers: Record<string, unknown> }) {
  expect(res.statusCode).toBe(303);
  const location = String(res.headers.location);
  const url = new URL(location, 'http://x');
  if (location.startsWith('/#')) return { code: new URLSearchParams(url.hash.slice(1)).get('oidc_code')!, error: null };
  expect(url.pathname).toBe('/login');
  return { code: null, error: url.searchParams.get('error'), sealed: url.searchParams.get('error_description') };
}

/** Start → the IdP's login page (a real HTTP round trip) → the auto-post form's SAMLResponse, in one browser. */
async function startAtSp(on: FastifyInstance = app) {
  const start = await on.inject({ method: 'GET', url: '/api/auth/saml/start' });
  expect(start.statusCode, start.body).toBe(302);
  const jar = cookiesOf(start);
  const location = String(start.headers.location);
  const page = await fetch(location);
  const html = await page.text();
  expect(page.status, html).toBe(200);
  return { jar, samlResponse: samlResponseOf(html), location };
}

const exchange = (code: string, jar: string, on: FastifyInstance = app) =>
  on.inject({ method: 'POST', url: '/api/auth/google/exchange', payload: { code }, headers: jar ? { cookie: jar } : {} });

async function signInWithSso() {
  const { jar, samlResponse } = await startAtSp();
  const result = outcome(await postAcs(samlResponse));
  expect(result.error).toBeNull();
  const res = await exchange(result.code!, jar);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { access_token: string; user: { id: string; email: string; fullName: string } };
}

const openDescription = async (sealed: string | null | undefined) => {
  const res = await app.inject({ method: 'POST', url: '/api/auth/google/error', payload: { error_description: sealed } });
  return res.statusCode === 200 ? (res.json().description as string) : null;
};

describe('SP metadata and configuration', () => {
  it('serves SP metadata that an IdP library reads: entity ID, ACS, signing certificate, signed requests', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/auth/saml/metadata' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('application/samlmetadata+xml');
    const sp = samlify.ServiceProvider({ metadata: res.body });
    expect(sp.entityMeta.getEntityID()).toBe(`${PUBLIC_URL}/api/auth/saml/metadata`);
    expect(sp.entityMeta.getAssertionConsumerService('post')).toBe(ACS);
    expect(sp.entityMeta.isAuthnRequestSigned()).toBe(true);
    expect(sp.entityMeta.isWantAssertionsSigned()).toBe(true);
    expect(String(sp.entityMeta.getX509Certificate('signing'))).toMatch(/^MII/);
    // The second instance on the same DATA_DIR serves the same key.
    const again = samlify.ServiceProvider({
      metadata: (await second.inject({ method: 'GET', url: '/api/auth/saml/metadata' })).body,
    });
    expect(again.entityMeta.getX509Certificate('signing')).toEqual(sp.entityMeta.getX509Certificate('signing'));
  });

  it('the providers list says whether SSO is offered', async () => {
    const on = await app.inject({ method: 'GET', url: '/api/auth/providers' });
    expect(on.json().sso).toBe(true);
    await putSso({ enabled: false, idpInitiated: false, idpMetadataXml: idp.metadataXml });
    expect((await app.inject({ method: 'GET', url: '/api/auth/providers' })).json().sso).toBe(false);
    const start = await app.inject({ method: 'GET', url: '/api/auth/saml/start' });
    const url = new URL(String(start.headers.location), 'http://x');
    expect(url.pathname).toBe('/login');
    expect(url.searchParams.get('error')).toBe('not_configured');
  });

  it('admin settings: super admin only (401 signed out, 403 for a user), validated, no private key in the answer', async () => {
    expect((await app.inject({ method: 'GET', url: '/api/admin/sso' })).statusCode).toBe(401);
    const stranger = await createUser(app);
    expect((await app.inject({ method: 'GET', url: '/api/admin/sso', headers: stranger.auth })).statusCode).toBe(403);
    expect((await putSso({ enabled: true, idpInitiated: false }, stranger.auth)).statusCode).toBe(403);
    const got = await app.inject({ method: 'GET', url: '/api/admin/sso', headers: admin.auth });
    expect(got.statusCode).toBe(200);
    expect(got.json()).toMatchObject({ enabled: true, configured: true, source: 'panel', sp: { acsUrl: ACS } });
    expect(got.body).not.toContain('PRIVATE KEY');
    // Bad input: a 400 with the field, never a 500.
    const bad = await putSso({ enabled: true, idpInitiated: false, idpMetadataXml: '<not-metadata' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.fields.idpMetadataXml).toBeTruthy();
    expect((await putSso({ enabled: 'yes', idpInitiated: false })).statusCode).toBe(400);
    expect((await putSso({ enabled: true, idpInitiated: false, idpSsoUrl: 'javascript:alert(1)' })).statusCode).toBe(400);
    // Entity ID + SSO URL + certificate work as well as metadata.
    const fields = await putSso({
      enabled: true,
      idpInitiated: false,
      idpEntityId: idp.entityId,
      idpSsoUrl: `${idp.url}/sso`,
      idpCert: `-----BEGIN CERTIFICATE-----\n${idp.certBase64}\n-----END CERTIFICATE-----`,
    });
    expect(fields.statusCode, fields.body).toBe(200);
    expect(fields.json().configured).toBe(true);
    await signInWithSso();
    // And a metadata URL (fetched from the IdP).
    const byUrl = await putSso({ enabled: true, idpInitiated: false, idpMetadataUrl: `${idp.url}/metadata` });
    expect(byUrl.json()).toMatchObject({ configured: true, problem: null });
  });
});

describe('SP-initiated sign-in', () => {
  it('signs the AuthnRequest (the IdP verifies it), creates the account, and hands the session over once', async () => {
    const { jar, samlResponse, location } = await startAtSp();
    const request = new URL(location);
    expect(request.searchParams.get('SigAlg')).toBe('http://www.w3.org/2001/04/xmldsig-more#rsa-sha256');
    expect(request.searchParams.get('Signature')).toBeTruthy();
    expect(idp.accepted.length).toBeGreaterThan(0);
    const result = outcome(await postAcs(samlResponse));
    expect(result.error).toBeNull();
    // Only the browser that started the sign-in can redeem the code (login CSRF).
    expect((await exchange(result.code!, '')).statusCode).toBe(400);
    const res = await exchange(result.code!, jar);
    expect(res.statusCode, res.body).toBe(200);
    const session = res.json();
    expect(session.user).toMatchObject({ email: idp.user.email, fullName: 'Sso Person' });
    expect((await exchange(result.code!, jar)).statusCode).toBe(400);
    const [identity] = await database.db.select().from(oauthIdentities).where(eq(oauthIdentities.userId, session.user.id));
    expect(identity).toMatchObject({ issuer: `saml:${idp.entityId}`, subject: idp.user.nameId });
    const [row] = await database.db.select().from(sessions).where(eq(sessions.userId, session.user.id));
    expect(row?.method).toBe('saml');
    const [user] = await database.db.select().from(users).where(eq(users.id, session.user.id));
    expect(user?.emailVerified).toBe(true);
    // The next sign-in finds the same account through the identity.
    const again = await signInWithSso();
    expect(again.user.id).toBe(session.user.id);
  });

  it('links an existing account with the same verified email', async () => {
    const existing = await createUser(app);
    await database.db.update(users).set({ emailVerified: true }).where(eq(users.id, existing.id));
    idp.user = { nameId: `nid-${crypto.randomUUID()}`, email: existing.email.toUpperCase(), name: 'Other Name' };
    const session = await signInWithSso();
    expect(session.user.id).toBe(existing.id);
  });

  it('does not link an account whose address is not verified', async () => {
    const existing = await createUser(app);
    idp.user = { nameId: `nid-${crypto.randomUUID()}`, email: existing.email };
    const { samlResponse } = await startAtSp();
    const result = outcome(await postAcs(samlResponse));
    expect(result.error).toBe('access_denied');
    expect(await openDescription(result.sealed)).toMatch(/not verified yet/);
  });

  it('takes the email from the NameID when no attribute carries it', async () => {
    const email = uniqueEmail('nameid');
    idp.user = { nameId: email };
    const session = await signInWithSso();
    expect(session.user.email).toBe(email);
  });

  it('an answer to a request started on one instance is taken by another (request IDs are shared)', async () => {
    const { jar, samlResponse } = await startAtSp(app);
    const result = outcome(await postAcs(samlResponse, second));
    expect(result.error).toBeNull();
    expect((await exchange(result.code!, jar, second)).statusCode).toBe(200);
  });
});

describe('refused answers', () => {
  /** A signed answer to a real request of ours, bent by `next`. */
  async function answer(next: TestIdp['next']) {
    const { samlResponse: _unused, location } = await startAtSp();
    const requestId = idp.accepted.at(-1)!;
    expect(new URL(location).searchParams.get('SAMLRequest')).toBeTruthy();
    // The request's first answer was never posted: answer it again, bent.
    return idp.respond(requestId, idp.user, next);
  }

  async function expectRefused(samlResponse: string, on: FastifyInstance = app) {
    const before = (await database.db.select().from(sessions)).length;
    const result = outcome(await postAcs(samlResponse, on));
    expect(result.code).toBeNull();
    expect(result.error).toBe('access_denied');
    expect(await openDescription(result.sealed)).toBe('The identity provider’s answer was refused.');
    expect((await database.db.select().from(sessions)).length).toBe(before);
  }

  it('a tampered assertion (content changed after signing)', async () => {
    await expectRefused(await answer({ tamper: true }));
  });

  it('an assertion signed by another key', async () => {
    const other = await startTestIdp();
    try {
      other.trustSp((await app.inject({ method: 'GET', url: '/api/auth/saml/metadata' })).body);
      const { location } = await startAtSp();
      void location;
      const forged = await other.respond(idp.accepted.at(-1)!, idp.user, { tags: { Issuer: idp.entityId } });
      await expectRefused(forged);
    } finally {
      await other.close();
    }
  });

  it('an unsigned assertion (only the Response is signed)', async () => {
    await expectRefused(await answer({ unsignedAssertion: true }));
  });

  it('a wrong audience', async () => {
    await expectRefused(await answer({ tags: { Audience: 'https://other-sp.example.org/metadata' } }));
  });

  it('a wrong recipient', async () => {
    await expectRefused(await answer({ tags: { SubjectRecipient: 'https://other-sp.example.org/acs' } }));
  });

  it('an expired assertion (beyond the allowed clock skew)', async () => {
    const past = new Date(Date.now() - 10 * 60_000).toISOString();
    const longAgo = new Date(Date.now() - 20 * 60_000).toISOString();
    await expectRefused(
      await answer({
        tags: {
          ConditionsNotBefore: longAgo,
          IssueInstant: longAgo,
          ConditionsNotOnOrAfter: past,
          SubjectConfirmationDataNotOnOrAfter: past,
        },
      }),
    );
  });

  it('an assertion not valid yet', async () => {
    const future = new Date(Date.now() + 10 * 60_000).toISOString();
    await expectRefused(await answer({ tags: { ConditionsNotBefore: future } }));
  });

  it('a replayed assertion, on the same instance and on a second one', async () => {
    const { jar, samlResponse } = await startAtSp();
    const first = outcome(await postAcs(samlResponse));
    expect(first.error).toBeNull();
    expect((await exchange(first.code!, jar)).statusCode).toBe(200);
    await expectRefused(samlResponse);
    await expectRefused(samlResponse, second);
  });

  it('the same assertion ID in an answer to another request (replay of the assertion, not of the request)', async () => {
    const assertionId = `_${crypto.randomUUID()}`;
    expect(outcome(await postAcs(await answer({ tags: { AssertionID: assertionId } }))).error).toBeNull();
    await expectRefused(await answer({ tags: { AssertionID: assertionId } }));
  });

  it('an answer to a request we never sent', async () => {
    await expectRefused(await idp.respond('_never-sent-by-us', idp.user));
  });

  it('garbage instead of a SAML response: the login page, never a 500', async () => {
    for (const body of [
      'not base64 !!',
      Buffer.from('<x/>').toString('base64'),
      Buffer.from('<!DOCTYPE x><x/>').toString('base64'),
    ]) {
      const res = await postAcs(body);
      expect(res.statusCode).toBe(303);
      expect(String(res.headers.location)).toMatch(/^\/login\?/);
    }
    const empty = await app.inject({ method: 'POST', url: '/api/auth/saml/acs', payload: {} });
    expect(empty.statusCode).toBe(400);
  });
});

describe('IdP-initiated sign-in', () => {
  it('is refused unless turned on, then accepted (and its code redeemed in that browser)', async () => {
    const unsolicited = await idp.respond(null);
    const refused = outcome(await postAcs(unsolicited));
    expect(refused.error).toBe('access_denied');
    expect(await openDescription(refused.sealed)).toMatch(/started at the identity provider is not allowed/);

    expect((await configure({ idpInitiated: true })).json().idpInitiated).toBe(true);
    const res = await postAcs(await idp.respond(null));
    const ok = outcome(res);
    expect(ok.error).toBeNull();
    const jar = cookiesOf(res);
    expect(jar).toContain('crewboard_oidc_bind=');
    const session = await exchange(ok.code!, jar);
    expect(session.statusCode, session.body).toBe(200);
    expect(session.json().user.email).toBe(idp.user.email);
  });
});

describe('teams that require SSO', () => {
  it('a password session sees the team locked (sso_required); a SAML session of the same person reads it', async () => {
    const sso = await signInWithSso();
    const ssoAuth = { authorization: `Bearer ${sso.access_token}` };
    // The owner (a password session) and the SSO user are members of a team that requires SSO.
    const owner = await createUser(app);
    const team = await insertTeam(database.db, owner);
    await database.db.insert(teamMembers).values({ teamId: team.id, userId: sso.user.id, role: 'member', status: 'active' });
    await database.db.update(teams).set({ requiresSso: true }).where(eq(teams.id, team.id));

    // The owner signed in with a password: locked too (the rule is the team's, for every member).
    const locked = await app.inject({ method: 'GET', url: `/api/teams/${team.id}`, headers: owner.auth });
    expect(locked.statusCode).toBe(403);
    expect(locked.json().error).toMatchObject({ reason: 'sso_required', message: 'This team requires single sign-on.' });
    const projects = await app.inject({ method: 'GET', url: `/api/projects?teamId=${team.id}`, headers: owner.auth });
    // Cross-team and filtered lists leave the locked team's things out.
    expect(projects.statusCode).toBe(200);
    expect(projects.json()).toEqual([]);
    // The team list still shows it, marked locked.
    const list = await app.inject({ method: 'GET', url: '/api/teams', headers: owner.auth });
    const listed = (list.json() as { id: string; ssoLocked: boolean }[]).find((t) => t.id === team.id);
    expect(listed?.ssoLocked).toBe(true);

    // The SAML session reads the team and creates a project in it.
    const open = await app.inject({ method: 'GET', url: `/api/teams/${team.id}`, headers: ssoAuth });
    expect(open.statusCode, open.body).toBe(200);
    expect(open.json().ssoLocked).toBe(false);
    const created = await app.inject({
      method: 'POST',
      url: '/api/projects',
      headers: ssoAuth,
      payload: { teamId: team.id, name: 'Behind SSO' },
    });
    expect(created.statusCode, created.body).toBe(201);
    // A password session neither sees that project in cross-team lists nor opens it.
    const all = await app.inject({ method: 'GET', url: '/api/projects', headers: owner.auth });
    expect(JSON.stringify(all.json())).not.toContain('Behind SSO');
    const direct = await app.inject({ method: 'GET', url: `/api/projects/${created.json().id}`, headers: owner.auth });
    expect([403, 404]).toContain(direct.statusCode);
    // Its tasks neither: not in the task list, the board or search; a personal API token is not an SSO session either.
    const task = await app.inject({
      method: 'POST',
      url: '/api/tasks',
      headers: ssoAuth,
      payload: { projectId: created.json().id, title: 'Quarterly secret plan' },
    });
    expect(task.statusCode, task.body).toBe(201);
    for (const url of ['/api/tasks', '/api/tasks/board', '/api/search?q=Quarterly%20secret']) {
      const seen = await app.inject({ method: 'GET', url, headers: owner.auth });
      expect(seen.statusCode, `${url} ${seen.body}`).toBe(200);
      expect(seen.body, url).not.toContain(task.json().id);
      const bySso = await app.inject({ method: 'GET', url, headers: ssoAuth });
      expect(bySso.body, url).toContain(task.json().id);
    }
    expect((await app.inject({ method: 'GET', url: `/api/tasks/${task.json().id}`, headers: owner.auth })).statusCode).toBe(404);
    const token = await app.inject({
      method: 'POST',
      url: '/api/me/api-tokens',
      headers: ssoAuth,
      payload: { name: 'script', scope: 'read', expiresInDays: 30 },
    });
    expect(token.statusCode, token.body).toBe(201);
    const bearer = { authorization: `Bearer ${token.json().token}` };
    const byToken = await app.inject({ method: 'GET', url: `/api/teams/${team.id}`, headers: bearer });
    expect(byToken.statusCode).toBe(403);
    expect(byToken.json().error.reason).toBe('sso_required');
    // A stranger still gets 404 (existence does not leak), not the lock.
    const stranger = await createUser(app);
    expect((await app.inject({ method: 'GET', url: `/api/teams/${team.id}`, headers: stranger.auth })).statusCode).toBe(404);
  });
  it('a password session reads nothing of the team through the prepared reads either: dashboard, analytics, timeline, board, list, search', async () => {
    const sso = await signInWithSso();
    const ssoAuth = { authorization: `Bearer ${sso.access_token}` };
    const owner = await createUser(app);
    const team = await insertTeam(database.db, owner);
    await database.db.insert(teamMembers).values({ teamId: team.id, userId: sso.user.id, role: 'member', status: 'active' });
    const project = await app.inject({
      method: 'POST',
      url: '/api/projects',
      headers: owner.auth,
      payload: { teamId: team.id, name: 'Locked roadmap' },
    });
    expect(project.statusCode, project.body).toBe(201);
    const today = new Date().toISOString().slice(0, 10);
    const task = await app.inject({
      method: 'POST',
      url: '/api/tasks',
      headers: owner.auth,
      payload: { projectId: project.json().id, title: 'Merger timeline', dueDate: today, startDate: today },
    });
    expect(task.statusCode, task.body).toBe(201);
    await database.db.update(teams).set({ requiresSso: true }).where(eq(teams.id, team.id));

    const from = new Date(Date.now() - 30 * 86_400_000).toISOString().slice(0, 10);
    const to = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
    const reads = [
      '/api/dashboard',
      '/api/analytics',
      `/api/timeline?from=${from}&to=${to}`,
      '/api/tasks/board',
      '/api/tasks?limit=500',
      '/api/search?q=Merger',
    ];
    const secrets = [project.json().id, task.json().id, 'Locked roadmap', 'Merger timeline'];
    for (const url of reads) {
      // Twice each: the second run reuses the prepared statement (and, on PostgreSQL, its plan).
      for (const round of [1, 2]) {
        const locked = await app.inject({ method: 'GET', url, headers: owner.auth });
        expect(locked.statusCode, `${url} ${locked.body}`).toBe(200);
        for (const secret of secrets) expect(locked.body, `${url} (run ${round}) shows ${secret}`).not.toContain(secret);
        const open = await app.inject({ method: 'GET', url, headers: ssoAuth });
        expect(open.statusCode, `${url} ${open.body}`).toBe(200);
        if (url !== '/api/analytics') expect(open.body, url).toContain(project.json().id);
      }
    }
    // The figures too, not only the names: the locked caller's dashboard and board count nothing; the SAML session's count the task.
    const figures = async (auth: Record<string, string>) => {
      const dashboard = (await app.inject({ method: 'GET', url: '/api/dashboard', headers: auth })).json();
      const board = (await app.inject({ method: 'GET', url: '/api/tasks/board', headers: auth })).json();
      return {
        total: dashboard.stats.totalTasks,
        teams: dashboard.stats.activeTeams,
        board: board.total,
        workflows: board.workflows.length,
      };
    };
    expect(await figures(owner.auth)).toMatchObject({ total: 0, teams: 0, board: 0, workflows: 0 });
    expect(await figures(ssoAuth)).toMatchObject({ total: 1, teams: 1, board: 1, workflows: 1 });
  });
});
