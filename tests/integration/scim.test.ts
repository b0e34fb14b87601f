/**
 * SCIM 2.0 provisioning (issue 41) over real HTTP on 127.0.0.1, with a client that speaks the RFC: requests built as
 * scimmy's messages (PatchOp, filters it parses), and every answer checked against scimmy's RFC 7643 definitions of
 * User and Group and its RFC 7644 message shapes (ListResponse, Error).
 */
import { createHash } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import fc from 'fast-check';
import SCIMMY from 'scimmy';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiTokenCreatedDto } from '../../src/domain/schemas/api-token';
import type { CalendarFeedCreatedDto } from '../../src/domain/schemas/calendar';
import type { ScimTokenCreatedDto, ScimTokenListDto } from '../../src/domain/schemas/scim';
import {
  apiTokens,
  auditLog,
  calendarFeeds,
  passwordCredentials,
  scimTokens,
  sessions,
  teamMembers,
  teams,
  users,
} from '../../src/server/db/schema';
import { createUser, insertTeam, type TestUser, uniqueEmail } from '../factories';
import { apiRequests } from '../helpers/api';
import { setupTestApp } from '../helpers/app';

const ctx = setupTestApp();
const { call, ok, fails } = apiRequests(ctx);

const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const GROUP = 'urn:ietf:params:scim:schemas:core:2.0:Group';
const LIST = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';
const ERROR = 'urn:ietf:params:scim:api:messages:2.0:Error';

// biome-ignore lint/suspicious/noExplicitAny: SCIM answers are read as free JSON, checked by scimmy and the assertions.
type Json = Record<string, any>;
interface Answer {
  status: number;
  type: string;
  body: Json;
  location: string | null;
}

let base = '';
let admin: TestUser;
let scimToken = '';
let scimTokenId = '';

/** Every resource answered is one scimmy's RFC 7643 definition accepts, and says what it is. */
function checkResource(resource: Json, kind: 'User' | 'Group') {
  const definition = kind === 'User' ? SCIMMY.Schemas.User.definition : SCIMMY.Schemas.Group.definition;
  expect(() => definition.coerce(resource), JSON.stringify(resource)).not.toThrow();
  expect(resource.schemas).toContain(kind === 'User' ? USER : GROUP);
  expect(resource.meta.resourceType).toBe(kind);
  expect(resource.meta.location).toBe(`${locationBase()}/${kind}s/${resource.id}`);
}

/** A minimal RFC 7644 client: bearer auth, application/scim+json both ways, every answer validated. */
async function scim(method: string, path: string, body?: unknown, token = scimToken): Promise<Answer> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/scim+json' }),
      accept: 'application/scim+json',
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  const answer = {
    status: res.status,
    type: res.headers.get('content-type') ?? '',
    body: text ? (JSON.parse(text) as Json) : {},
    location: res.headers.get('location'),
  };
  if (res.status === 204) {
    expect(text).toBe('');
    return answer;
  }
  expect(answer.type, text).toMatch(/^application\/scim\+json/);
  if (res.status >= 400) {
    // RFC 7644 §3.12: the Error message, its status as a string.
    expect(answer.body.schemas).toEqual([ERROR]);
    expect(answer.body.status).toBe(String(res.status));
    // scimmy builds the RFC's Error message from the same parts (it refuses a status or scimType the RFC does not list).
    const rfc = new SCIMMY.Messages.ErrorResponse({
      status: res.status as 400,
      scimType: answer.body.scimType,
      detail: answer.body.detail,
    });
    expect(answer.body).toEqual(JSON.parse(JSON.stringify({ ...rfc, message: undefined, stack: undefined })));
    return answer;
  }
  const schemas = answer.body.schemas as string[];
  if (schemas.includes(LIST)) {
    for (const r of answer.body.Resources as Json[]) {
      if (r.schemas.includes(USER)) checkResource(r, 'User');
      if (r.schemas.includes(GROUP)) checkResource(r, 'Group');
    }
    expect(answer.body.itemsPerPage).toBe(answer.body.Resources.length);
  } else if (schemas.includes(USER)) checkResource(answer.body, 'User');
  else if (schemas.includes(GROUP)) checkResource(answer.body, 'Group');
  return answer;
}

const patchOp = (...Operations: Json[]) =>
  new SCIMMY.Messages.PatchOp({ schemas: [SCIMMY.Messages.PatchOp.id], Operations } as never) as unknown as Json;

/** A filter as scimmy reads it back: the request says what the RFC means by it. */
const filterQuery = (expression: string) => {
  expect(new SCIMMY.Types.Filter(expression).length).toBe(1);
  return `filter=${encodeURIComponent(expression)}`;
};

const newUser = (email: string, extra: Json = {}) => ({
  schemas: [USER],
  userName: email,
  name: { givenName: 'Grace', familyName: 'Hopper' },
  emails: [{ value: email, type: 'work', primary: true }],
  active: true,
  ...extra,
});

beforeAll(async () => {
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  const address = ctx.app.server.address();
  if (!address || typeof address === 'string') throw new Error('not listening');
  base = `http://127.0.0.1:${address.port}/scim/v2`;
  admin = await createUser(ctx.app, { fullName: 'Ada Admin' });
  await ctx.database.db.update(users).set({ role: 'super_admin' }).where(eq(users.id, admin.id));
  const created = await ok<ScimTokenCreatedDto>(admin, 'POST', '/api/admin/scim-tokens', { name: 'Okta' }, 201);
  scimToken = created.token;
  scimTokenId = created.id;
});

afterAll(async () => {
  await ctx.app.close();
});

/** meta.location is PUBLIC_URL's; requests go to the listening port. */
const locationBase = () => 'http://localhost:3000/scim/v2';

describe('SCIM tokens in the admin API', () => {
  it('refuses strangers: 401 signed out, 403 for a member, 403 for a super admin’s personal API token', async () => {
    const member = await createUser(ctx.app);
    await fails(null, 'GET', '/api/admin/scim-tokens', undefined, 401);
    await fails(null, 'POST', '/api/admin/scim-tokens', { name: 'x' }, 401);
    await fails(null, 'DELETE', `/api/admin/scim-tokens/${scimTokenId}`, undefined, 401);
    await fails(member, 'GET', '/api/admin/scim-tokens', undefined, 403, 'admin_only');
    await fails(member, 'POST', '/api/admin/scim-tokens', { name: 'x' }, 403, 'admin_only');
    await fails(member, 'DELETE', `/api/admin/scim-tokens/${scimTokenId}`, undefined, 403, 'admin_only');
    const pat = await ok<ApiTokenCreatedDto>(
      admin,
      'POST',
      '/api/me/api-tokens',
      { name: 'CI', expiresInDays: 30, scope: 'write' },
      201,
    );
    const asToken = await ctx.app.inject({
      method: 'POST',
      url: '/api/admin/scim-tokens',
      payload: { name: 'via token' },
      headers: { authorization: `Bearer ${pat.token}` },
    });
    expect(asToken.statusCode).toBe(403);
    expect(asToken.json().error.reason).toBe('token_not_allowed');
    // Nothing was made.
    const listed = await ok<ScimTokenListDto>(admin, 'GET', '/api/admin/scim-tokens');
    expect(listed.tokens.map((t) => t.name)).toEqual(['Okta']);
  });

  it('answers the token once, stores only its SHA-256, lists it without the secret, and validates the name', async () => {
    const res = await call(admin, 'POST', '/api/admin/scim-tokens', { name: '  Entra ID ' });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.headers['cache-control']).toBe('no-store');
    const created = res.json() as ScimTokenCreatedDto;
    expect(created.token).toMatch(/^scim_[A-Za-z0-9_-]{43}$/);
    expect(created).toMatchObject({ name: 'Entra ID', prefix: created.token.slice(0, 11), createdBy: { id: admin.id } });
    const [row] = await ctx.database.db.select().from(scimTokens).where(eq(scimTokens.id, created.id));
    expect(row!.tokenHash).toBe(createHash('sha256').update(created.token).digest('hex'));
    const listed = await ok<ScimTokenListDto>(admin, 'GET', '/api/admin/scim-tokens');
    expect(JSON.stringify(listed)).not.toContain(created.token);
    expect(listed.tokens.find((t) => t.id === created.id)).toMatchObject({ name: 'Entra ID', lastUsedAt: null });
    await fails(admin, 'POST', '/api/admin/scim-tokens', { name: ' ' }, 400, 'validation_failed');
    await fails(admin, 'POST', '/api/admin/scim-tokens', { name: 'x', extra: 1 }, 400, 'validation_failed');
    await fails(admin, 'DELETE', '/api/admin/scim-tokens/not-a-uuid', undefined, 400, 'validation_failed');
    await fails(admin, 'DELETE', `/api/admin/scim-tokens/${crypto.randomUUID()}`, undefined, 404, 'scim_token_not_found');
    // Revoked: refused at once, and its revocation is audited as a token's.
    expect((await scim('GET', '/Users?count=1', undefined, created.token)).status).toBe(200);
    await ok(admin, 'DELETE', `/api/admin/scim-tokens/${created.id}`, undefined, 204);
    const refused = await scim('GET', '/Users?count=1', undefined, created.token);
    expect(refused.status).toBe(401);
    await fails(admin, 'DELETE', `/api/admin/scim-tokens/${created.id}`, undefined, 404, 'scim_token_not_found');
    const audit = await ctx.database.db.select().from(auditLog).where(eq(auditLog.targetId, created.id));
    expect(audit.map((a) => [a.action, a.targetType, a.actorId]).sort()).toEqual([
      ['api_token.created', 'scim_token', admin.id],
      ['api_token.revoked', 'scim_token', admin.id],
    ]);
  });
});

describe('/scim/v2 authentication', () => {
  it('takes only a live SCIM token: no token, a wrong one, a session or an API token get 401; a SCIM token gets nothing on /api', async () => {
    expect((await scim('GET', '/Users', undefined, '')).status).toBe(401);
    expect((await scim('GET', '/Users', undefined, `scim_${'x'.repeat(43)}`)).status).toBe(401);
    expect((await scim('GET', '/Users', undefined, admin.token)).status).toBe(401);
    const pat = await ok<ApiTokenCreatedDto>(
      admin,
      'POST',
      '/api/me/api-tokens',
      { name: 'CI2', expiresInDays: 30, scope: 'write' },
      201,
    );
    expect((await scim('GET', '/Users', undefined, pat.token)).status).toBe(401);
    expect((await scim('POST', '/Users', newUser(uniqueEmail('pat')), pat.token)).status).toBe(401);
    const onApi = await ctx.app.inject({
      method: 'GET',
      url: '/api/auth/user',
      headers: { authorization: `Bearer ${scimToken}` },
    });
    expect(onApi.statusCode).toBe(401);
    const onAdmin = await ctx.app.inject({
      method: 'GET',
      url: '/api/admin/users',
      headers: { authorization: `Bearer ${scimToken}` },
    });
    expect(onAdmin.statusCode).toBe(401);
  });

  it('stops a token whose creator is no longer a super admin', async () => {
    const other = await createUser(ctx.app);
    await ctx.database.db.update(users).set({ role: 'super_admin' }).where(eq(users.id, other.id));
    const { token } = await ok<ScimTokenCreatedDto>(other, 'POST', '/api/admin/scim-tokens', { name: 'Temp' }, 201);
    expect((await scim('GET', '/Users?count=0', undefined, token)).status).toBe(200);
    await ctx.database.db.update(users).set({ role: 'team_member' }).where(eq(users.id, other.id));
    expect((await scim('GET', '/Users?count=0', undefined, token)).status).toBe(401);
  });

  it('serves the discovery documents', async () => {
    const config = await scim('GET', '/ServiceProviderConfig');
    expect(config.status).toBe(200);
    expect(config.body).toMatchObject({ patch: { supported: true }, filter: { supported: true }, bulk: { supported: false } });
    const types = await scim('GET', '/ResourceTypes');
    expect(types.body.Resources.map((t: Json) => t.endpoint)).toEqual(['/Users', '/Groups']);
    expect((await scim('GET', '/ResourceTypes/User')).body.schema).toBe(USER);
    const schemas = await scim('GET', '/Schemas');
    expect(schemas.body.Resources.map((s: Json) => s.id)).toEqual([USER, GROUP]);
    expect((await scim('GET', `/Schemas/${USER}`)).body.name).toBe('User');
    expect((await scim('GET', '/Schemas/nope')).status).toBe(404);
    expect((await scim('GET', '/Nothing/here')).status).toBe(404);
  });
});

describe('/scim/v2/Users', () => {
  it('creates a verified account without a password, gets it, finds it by userName and refuses a second one', async () => {
    const email = uniqueEmail('grace');
    const created = await scim('POST', '/Users', newUser(email.toUpperCase(), { externalId: 'okta-1' }));
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const user = created.body;
    expect(user).toMatchObject({
      userName: email,
      externalId: 'okta-1',
      name: { formatted: 'Grace Hopper' },
      emails: [{ value: email, primary: true }],
      active: true,
    });
    expect(user.meta.location).toBe(`${locationBase()}/Users/${user.id}`);
    expect(created.location).toBe(user.meta.location);
    const [row] = await ctx.database.db.select().from(users).where(eq(users.id, user.id));
    expect(row).toMatchObject({ email, fullName: 'Grace Hopper', emailVerified: true, scimExternalId: 'okta-1', isActive: true });
    expect(await ctx.database.db.select().from(passwordCredentials).where(eq(passwordCredentials.userId, user.id))).toEqual([]);

    expect((await scim('GET', `/Users/${user.id}`)).body).toEqual(user);
    const found = await scim('GET', `/Users?${filterQuery(`userName eq "${email.toUpperCase()}"`)}`);
    expect(found.body).toMatchObject({ schemas: [LIST], totalResults: 1, startIndex: 1, itemsPerPage: 1 });
    expect(found.body.Resources[0].id).toBe(user.id);
    const none = await scim('GET', `/Users?${filterQuery('userName eq "nobody@example.com"')}`);
    expect(none.body).toMatchObject({ totalResults: 0, Resources: [] });

    const again = await scim('POST', '/Users', newUser(email));
    expect(again.status).toBe(409);
    expect(again.body.scimType).toBe('uniqueness');
    // An account that signed up by itself is a user too: the same address is refused.
    const selfMade = await createUser(ctx.app);
    expect((await scim('POST', '/Users', newUser(selfMade.email))).body.scimType).toBe('uniqueness');
  });

  it('answers 400 invalidFilter for any other filter, 404 for unknown ids, 400 for bad bodies', async () => {
    for (const filter of [
      'emails co "x"',
      'userName sw "a"',
      'displayName eq "x"',
      'userName eq x',
      'userName eq "a" and active eq true',
    ]) {
      const res = await scim('GET', `/Users?filter=${encodeURIComponent(filter)}`);
      expect(res.status, filter).toBe(400);
      expect(res.body.scimType, filter).toBe('invalidFilter');
    }
    for (const id of [crypto.randomUUID(), 'not-a-uuid', '%27%20or%201=1']) {
      const res = await scim('GET', `/Users/${id}`);
      expect(res.status, id).toBe(404);
      expect((await scim('PATCH', `/Users/${id}`, patchOp({ op: 'replace', path: 'active', value: false }))).status).toBe(404);
      expect((await scim('DELETE', `/Users/${id}`)).status).toBe(404);
    }
    expect((await scim('POST', '/Users', { schemas: [USER] })).status).toBe(400);
    const notEmail = await scim('POST', '/Users', newUser('grace'));
    expect(notEmail).toMatchObject({ status: 400, body: { scimType: 'invalidValue' } });
    const badActive = await scim('POST', '/Users', newUser(uniqueEmail('b'), { active: 'maybe' }));
    expect(badActive).toMatchObject({ status: 400, body: { scimType: 'invalidValue' } });
    const badJson = await fetch(`${base}/Users`, {
      method: 'POST',
      headers: { authorization: `Bearer ${scimToken}`, 'content-type': 'application/scim+json' },
      body: '{"userName":',
    });
    expect(badJson.status).toBe(400);
    expect(((await badJson.json()) as Json).scimType).toBe('invalidSyntax');
    const badOp = await scim('PATCH', `/Users/${admin.id}`, {
      schemas: [SCIMMY.Messages.PatchOp.id],
      Operations: [{ op: 'move', path: 'active' }],
    });
    expect(badOp).toMatchObject({ status: 400, body: { scimType: 'invalidSyntax' } });
  });

  it('pages with startIndex and count', async () => {
    const all = await scim('GET', '/Users?count=0');
    expect(all.body.Resources).toEqual([]);
    const total = all.body.totalResults as number;
    for (let i = 0; i < 3; i++) await scim('POST', '/Users', newUser(uniqueEmail(`page${i}`)));
    const ids: string[] = [];
    for (let start = 1; start <= total + 3; start += 2) {
      const res = await scim('GET', `/Users?startIndex=${start}&count=2`);
      expect(res.body).toMatchObject({ totalResults: total + 3, startIndex: start });
      ids.push(...res.body.Resources.map((r: Json) => r.id));
    }
    expect(ids.length).toBe(total + 3);
    expect(new Set(ids).size).toBe(ids.length);
    // Past the end: an empty page; below 1 counts as 1.
    expect((await scim('GET', `/Users?startIndex=${total + 10}`)).body.Resources).toEqual([]);
    expect((await scim('GET', '/Users?startIndex=-5&count=1')).body.startIndex).toBe(1);
  });

  it('replaces (PUT) and patches (add, replace, remove, Entra-style values)', async () => {
    const email = uniqueEmail('linus');
    const { body: user } = await scim('POST', '/Users', newUser(email, { name: { formatted: 'Linus T' } }));
    const newEmail = uniqueEmail('linus2');
    const put = await scim(
      'PUT',
      `/Users/${user.id}`,
      newUser(newEmail, { name: { formatted: 'Linus Torvalds' }, externalId: 'e-2' }),
    );
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(put.body).toMatchObject({
      userName: newEmail,
      name: { formatted: 'Linus Torvalds' },
      externalId: 'e-2',
      active: true,
    });
    // A changed address is audited as one, by the token's creator through SCIM.
    const [changed] = await ctx.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.targetId, user.id), eq(auditLog.action, 'auth.email_changed')));
    expect(changed).toMatchObject({ actorId: admin.id, details: { oldEmail: email, newEmail, via: 'scim', scimTokenId } });

    const patched = await scim(
      'PATCH',
      `/Users/${user.id}`,
      patchOp(
        { op: 'replace', path: 'name.givenName', value: 'Lin' },
        { op: 'Replace', value: { 'name.familyName': 'Tor', title: 'ignored' } },
        { op: 'remove', path: 'externalId' },
        { op: 'add', path: 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:department', value: 'R&D' },
      ),
    );
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(patched.body.name.formatted).toBe('Lin Tor');
    expect(patched.body.externalId).toBeUndefined();
    // userName cannot be removed; another user's address cannot be taken.
    expect((await scim('PATCH', `/Users/${user.id}`, patchOp({ op: 'remove', path: 'userName' }))).body.scimType).toBe(
      'mutability',
    );
    const taken = await scim('PATCH', `/Users/${user.id}`, patchOp({ op: 'replace', path: 'userName', value: admin.email }));
    expect(taken).toMatchObject({ status: 409, body: { scimType: 'uniqueness' } });
    const put409 = await scim('PUT', `/Users/${user.id}`, newUser(admin.email));
    expect(put409.status).toBe(409);
    // A super admin is not deprovisioned by SCIM.
    const adminOff = await scim('PATCH', `/Users/${admin.id}`, patchOp({ op: 'replace', path: 'active', value: false }));
    expect(adminOff).toMatchObject({ status: 400, body: { scimType: 'mutability' } });
  });
});

describe('deprovisioning', () => {
  it("ends a person's sessions, API tokens and calendar feed at once (PATCH active false), and DELETE deactivates", async () => {
    const dana = await createUser(ctx.app, { fullName: 'Dana Departing' });
    const pat = await ok<ApiTokenCreatedDto>(
      dana,
      'POST',
      '/api/me/api-tokens',
      { name: 'CI', expiresInDays: 30, scope: 'read' },
      201,
    );
    const feed = await ok<CalendarFeedCreatedDto>(dana, 'POST', '/api/me/calendar-feed', undefined, 201);
    const feedPath = new URL(feed.url).pathname;
    const withPat = () => ctx.app.inject({ method: 'GET', url: '/api/teams', headers: { authorization: `Bearer ${pat.token}` } });
    const refresh = () =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/auth/token?grant_type=refresh_token',
        payload: { refresh_token: dana.session.refresh_token },
      });
    // All work before.
    expect((await withPat()).statusCode).toBe(200);
    expect((await ctx.app.inject({ method: 'GET', url: feedPath })).statusCode).toBe(200);
    expect((await call(dana, 'GET', '/api/auth/user')).statusCode).toBe(200);

    const off = await scim('PATCH', `/Users/${dana.id}`, patchOp({ op: 'replace', value: { active: 'False' } }));
    expect(off.status, JSON.stringify(off.body)).toBe(200);
    expect(off.body.active).toBe(false);

    // At once: the next request of each is refused.
    expect((await withPat()).statusCode).toBe(401);
    expect((await ctx.app.inject({ method: 'GET', url: feedPath })).statusCode).toBe(404);
    expect((await call(dana, 'GET', '/api/auth/user')).statusCode).toBe(401);
    expect((await refresh()).statusCode).toBe(400);
    expect(
      (await fails(null, 'POST', '/api/auth/token?grant_type=password', { email: dana.email, password: dana.password }, 400))
        .statusCode,
    ).toBe(400);
    // …and not only because the account is off: the credentials themselves are gone.
    expect(
      await ctx.database.db
        .select()
        .from(sessions)
        .where(and(eq(sessions.userId, dana.id), isNull(sessions.revokedAt))),
    ).toEqual([]);
    expect(
      await ctx.database.db
        .select()
        .from(apiTokens)
        .where(and(eq(apiTokens.userId, dana.id), isNull(apiTokens.revokedAt))),
    ).toEqual([]);
    expect(await ctx.database.db.select().from(calendarFeeds).where(eq(calendarFeeds.userId, dana.id))).toEqual([]);
    const audit = await ctx.database.db.select().from(auditLog).where(eq(auditLog.targetId, dana.id));
    expect(audit.find((a) => a.action === 'admin.user_deactivated')).toMatchObject({
      actorId: admin.id,
      details: { via: 'scim' },
    });
    const tokenRow = (await ctx.database.db.select().from(auditLog).where(eq(auditLog.targetId, pat.id))).find(
      (a) => a.action === 'api_token.revoked',
    );
    expect(tokenRow?.details).toMatchObject({ reason: 'deprovisioned', via: 'scim' });

    // Reactivated: the account signs in again; what was revoked stays revoked.
    const on = await scim('PATCH', `/Users/${dana.id}`, patchOp({ op: 'replace', path: 'active', value: true }));
    expect(on.body.active).toBe(true);
    expect((await withPat()).statusCode).toBe(401);

    // DELETE deactivates, never deletes the account (the resource is gone: see "DELETE" below).
    expect((await scim('DELETE', `/Users/${dana.id}`)).status).toBe(204);
    expect((await scim('GET', `/Users/${dana.id}`)).status).toBe(404);
    const [kept] = await ctx.database.db.select().from(users).where(eq(users.id, dana.id));
    expect(kept).toMatchObject({ isActive: false, fullName: 'Dana Departing' });
    expect((await call(dana, 'GET', '/api/auth/user')).statusCode).toBe(401);
  });

  it('PATCH active false is a deactivation the provider still reads (and lists) as active false', async () => {
    const email = uniqueEmail('paused');
    const { body: user } = await scim('POST', '/Users', newUser(email, { externalId: 'ext-paused' }));
    const off = await scim('PATCH', `/Users/${user.id}`, patchOp({ op: 'replace', path: 'active', value: false }));
    expect(off.body.active).toBe(false);
    expect((await scim('GET', `/Users/${user.id}`)).body).toMatchObject({ id: user.id, active: false, externalId: 'ext-paused' });
    const found = await scim('GET', `/Users?${filterQuery(`userName eq "${email}"`)}`);
    expect(found.body.Resources.map((r: Json) => [r.id, r.active])).toEqual([[user.id, false]]);
  });
});

describe('DELETE /scim/v2/Users/:id (RFC 7644 §3.6)', () => {
  it('answers 404 to every later operation on the deleted user and leaves it out of lists and filters', async () => {
    const email = uniqueEmail('gone');
    const person = await createUser(ctx.app, { email, fullName: 'Gone Person' });
    await scim('PATCH', `/Users/${person.id}`, patchOp({ op: 'add', path: 'externalId', value: 'ext-gone' }));
    const group = await scim('POST', '/Groups', { schemas: [GROUP], displayName: 'Gone group', members: [{ value: person.id }] });
    expect(group.status).toBe(201);
    const listed = async () => {
      const ids: string[] = [];
      for (let start = 1; ; start += 100) {
        const res = await scim('GET', `/Users?startIndex=${start}&count=100`);
        ids.push(...res.body.Resources.map((r: Json) => r.id));
        if (start + 100 > res.body.totalResults) return { ids, total: res.body.totalResults as number };
      }
    };
    const before = await listed();
    expect(before.ids).toContain(person.id);

    expect((await scim('DELETE', `/Users/${person.id}`)).status).toBe(204);

    expect((await scim('GET', `/Users/${person.id}`)).status).toBe(404);
    expect((await scim('PUT', `/Users/${person.id}`, newUser(email))).status).toBe(404);
    const patch = await scim('PATCH', `/Users/${person.id}`, patchOp({ op: 'replace', path: 'active', value: true }));
    expect(patch.status).toBe(404);
    expect((await scim('DELETE', `/Users/${person.id}`)).status).toBe(404);
    const after = await listed();
    expect(after.ids).not.toContain(person.id);
    expect(after.total).toBe(before.total - 1);
    const filtered = await scim('GET', `/Users?${filterQuery(`userName eq "${email}"`)}`);
    expect(filtered.body).toMatchObject({ totalResults: 0, Resources: [] });
    // Not a group member to SCIM either, and not one to add.
    const members = (await scim('GET', `/Groups/${group.body.id}`)).body.members as Json[];
    expect(members.map((m) => m.value)).not.toContain(person.id);
    const add = await scim(
      'PATCH',
      `/Groups/${group.body.id}`,
      patchOp({ op: 'add', path: 'members', value: [{ value: person.id }] }),
    );
    expect(add).toMatchObject({ status: 400, body: { scimType: 'invalidValue' } });
    // The account stays, deactivated and unlinked (the 404 above changed nothing), signed out, its work its own.
    const [row] = await ctx.database.db.select().from(users).where(eq(users.id, person.id));
    expect(row).toMatchObject({ isActive: false, scimExternalId: null, fullName: 'Gone Person' });
    expect(row!.scimDeletedAt).toBeInstanceOf(Date);
    expect((await call(person, 'GET', '/api/auth/user')).statusCode).toBe(401);
    const audit = await ctx.database.db.select().from(auditLog).where(eq(auditLog.targetId, person.id));
    expect(audit.map((a) => a.action)).toContain('admin.user_deactivated');
    const provisioned = audit.filter((a) => a.action === 'admin.user_provisioned').map((a) => a.details as Json);
    expect(provisioned.some((d) => d.fields?.includes('deleted'))).toBe(true);
  });

  it('does not count the deleted user in uniqueness: a create with its userName or externalId brings the account back', async () => {
    const email = uniqueEmail('back');
    const first = (await scim('POST', '/Users', newUser(email, { externalId: 'ext-back' }))).body;
    expect((await scim('DELETE', `/Users/${first.id}`)).status).toBe(204);
    // Its externalId is free at once.
    const other = await scim('POST', '/Users', newUser(uniqueEmail('other'), { externalId: 'ext-back' }));
    expect(other.status, JSON.stringify(other.body)).toBe(201);
    await scim('DELETE', `/Users/${other.body.id}`);
    const again = await scim('POST', '/Users', newUser(email, { externalId: 'ext-back', name: { formatted: 'Back Again' } }));
    expect(again.status, JSON.stringify(again.body)).toBe(201);
    expect(again.body).toMatchObject({ id: first.id, userName: email, active: true, externalId: 'ext-back' });
    expect(again.body.name.formatted).toBe('Back Again');
    expect((await scim('GET', `/Users/${first.id}`)).status).toBe(200);
    expect((await scim('DELETE', `/Users/${first.id}`)).status).toBe(204);
  });

  it('refuses to delete a super admin (400 mutability), who stays a SCIM User', async () => {
    const res = await scim('DELETE', `/Users/${admin.id}`);
    expect(res).toMatchObject({ status: 400, body: { scimType: 'mutability' } });
    expect((await scim('GET', `/Users/${admin.id}`)).body.active).toBe(true);
  });
});

describe('uniqueness (RFC 7644 §3.3; the unique indexes of migration 0023)', () => {
  it('answers 409 uniqueness, never 500, to a second user or group with an externalId or userName already held', async () => {
    const a = await scim('POST', '/Users', newUser(uniqueEmail('ua'), { externalId: 'ext-dup' }));
    expect(a.status).toBe(201);
    const dupExternal = await scim('POST', '/Users', newUser(uniqueEmail('ub'), { externalId: 'ext-dup' }));
    expect(dupExternal).toMatchObject({ status: 409, body: { scimType: 'uniqueness' } });
    expect(dupExternal.body.detail).toContain('externalId');
    const dupName = await scim('POST', '/Users', newUser(a.body.userName, { externalId: 'ext-other' }));
    expect(dupName).toMatchObject({ status: 409, body: { scimType: 'uniqueness' } });
    const b = (await scim('POST', '/Users', newUser(uniqueEmail('uc')))).body;
    const put = await scim('PUT', `/Users/${b.id}`, newUser(b.userName, { externalId: 'ext-dup' }));
    expect(put).toMatchObject({ status: 409, body: { scimType: 'uniqueness' } });
    const patch = await scim('PATCH', `/Users/${b.id}`, patchOp({ op: 'add', path: 'externalId', value: 'ext-dup' }));
    expect(patch).toMatchObject({ status: 409, body: { scimType: 'uniqueness' } });
    // Two users without one (or with an empty one) are no conflict.
    expect((await scim('POST', '/Users', newUser(uniqueEmail('ud'), { externalId: '' }))).status).toBe(201);
    expect((await scim('POST', '/Users', newUser(uniqueEmail('ue'), { externalId: '' }))).status).toBe(201);

    const g = await scim('POST', '/Groups', { schemas: [GROUP], displayName: 'Dup A', externalId: 'grp-dup' });
    expect(g.status).toBe(201);
    const g2 = await scim('POST', '/Groups', { schemas: [GROUP], displayName: 'Dup B', externalId: 'grp-dup' });
    expect(g2).toMatchObject({ status: 409, body: { scimType: 'uniqueness' } });
    expect(g2.body.detail).toContain('externalId');
    const g3 = await scim('POST', '/Groups', { schemas: [GROUP], displayName: 'Dup C' });
    const g4 = await scim('POST', '/Groups', { schemas: [GROUP], displayName: 'Dup D' });
    expect([g3.status, g4.status]).toEqual([201, 201]);
    const rename = await scim('PATCH', `/Groups/${g3.body.id}`, patchOp({ op: 'add', path: 'externalId', value: 'grp-dup' }));
    expect(rename).toMatchObject({ status: 409, body: { scimType: 'uniqueness' } });
    // Nothing half-made: one team holds it.
    const holders = await ctx.database.db.select().from(teams).where(eq(teams.scimExternalId, 'grp-dup'));
    expect(holders.map((t) => t.id)).toEqual([g.body.id]);
  });
});

describe('/scim/v2/Groups', () => {
  it('creates a team owned by the token’s creator, with members, and manages them by PATCH and PUT', async () => {
    const u1 = (await scim('POST', '/Users', newUser(uniqueEmail('g1')))).body;
    const u2 = (await scim('POST', '/Users', newUser(uniqueEmail('g2')))).body;
    const u3 = (await scim('POST', '/Users', newUser(uniqueEmail('g3')))).body;
    const created = await scim('POST', '/Groups', {
      schemas: [GROUP],
      displayName: 'Platform',
      externalId: 'grp-1',
      members: [{ value: u1.id }, { value: u2.id }],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const group = created.body;
    expect(group).toMatchObject({ displayName: 'Platform', externalId: 'grp-1' });
    const memberIds = (g: Json) => (g.members as Json[]).map((m) => m.value).sort();
    expect(memberIds(group)).toEqual([admin.id, u1.id, u2.id].sort());
    const [team] = await ctx.database.db.select().from(teams).where(eq(teams.id, group.id));
    expect(team).toMatchObject({ name: 'Platform', ownerId: admin.id, scimExternalId: 'grp-1' });
    const roles = await ctx.database.db.select().from(teamMembers).where(eq(teamMembers.teamId, group.id));
    expect(Object.fromEntries(roles.map((r) => [r.userId, r.role]))).toEqual({
      [admin.id]: 'owner',
      [u1.id]: 'member',
      [u2.id]: 'member',
    });
    // A member sees the team through the API at once.
    const added = await ctx.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.teamId, group.id), eq(auditLog.action, 'team.member_added')));
    expect(added).toHaveLength(2);

    const byName = await scim('GET', `/Groups?${filterQuery('displayName eq "platform"')}`);
    expect(byName.body.Resources.map((g: Json) => g.id)).toEqual([group.id]);
    expect((await scim('GET', '/Groups?filter=externalId%20eq%20%22grp-1%22')).body.scimType).toBe('invalidFilter');
    const lean = await scim('GET', `/Groups/${group.id}?excludedAttributes=members`);
    expect(lean.body.members).toBeUndefined();

    // PATCH: add u3, remove u1 by filter, remove u2 Entra-style, rename; the owner is never removed.
    const patched = await scim(
      'PATCH',
      `/Groups/${group.id}`,
      patchOp(
        { op: 'add', path: 'members', value: [{ value: u3.id }] },
        { op: 'remove', path: `members[value eq "${u1.id}"]` },
        { op: 'remove', path: 'members', value: [{ value: u2.id }, { value: admin.id }] },
        { op: 'replace', path: 'displayName', value: 'Platform Team' },
      ),
    );
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(patched.body.displayName).toBe('Platform Team');
    expect(memberIds(patched.body)).toEqual([admin.id, u3.id].sort());
    // PUT replaces the members (the owner stays).
    const put = await scim('PUT', `/Groups/${group.id}`, {
      schemas: [GROUP],
      displayName: 'Platform Team',
      externalId: 'grp-1',
      members: [{ value: u1.id }],
    });
    expect(memberIds(put.body)).toEqual([admin.id, u1.id].sort());
    // Unknown members and bad names are refused, changing nothing.
    const unknown = await scim(
      'PATCH',
      `/Groups/${group.id}`,
      patchOp({ op: 'add', path: 'members', value: [{ value: crypto.randomUUID() }] }),
    );
    expect(unknown).toMatchObject({ status: 400, body: { scimType: 'invalidValue' } });
    expect((await scim('PATCH', `/Groups/${group.id}`, patchOp({ op: 'replace', path: 'displayName', value: '' }))).status).toBe(
      400,
    );
    expect(
      (await scim('PATCH', `/Groups/${group.id}`, patchOp({ op: 'replace', path: 'owner', value: 'x' }))).body.scimType,
    ).toBe('invalidPath');
    expect(memberIds((await scim('GET', `/Groups/${group.id}`)).body)).toEqual([admin.id, u1.id].sort());

    // DELETE: the team stays, unlinked, with its owner only; the group is gone (404).
    expect((await scim('DELETE', `/Groups/${group.id}`)).status).toBe(204);
    expect((await scim('GET', `/Groups/${group.id}`)).status).toBe(404);
    expect((await scim('DELETE', `/Groups/${group.id}`)).status).toBe(404);
    const [kept] = await ctx.database.db.select().from(teams).where(eq(teams.id, group.id));
    expect(kept).toMatchObject({ name: 'Platform Team', scimExternalId: null });
    const left = await ctx.database.db.select().from(teamMembers).where(eq(teamMembers.teamId, group.id));
    expect(left.map((m) => m.userId)).toEqual([admin.id]);
  });

  it('shows only SCIM groups: a team made in the app is not a group', async () => {
    const owner = await createUser(ctx.app);
    const team = await insertTeam(ctx.database.db, owner, 'Hand made');
    expect((await scim('GET', `/Groups/${team.id}`)).status).toBe(404);
    expect(
      (await scim('PATCH', `/Groups/${team.id}`, patchOp({ op: 'replace', path: 'displayName', value: 'Taken' }))).status,
    ).toBe(404);
    const listed = await scim('GET', '/Groups?count=200');
    expect(listed.body.Resources.map((g: Json) => g.id)).not.toContain(team.id);
    // A group without an externalId is a group all the same.
    const bare = await scim('POST', '/Groups', { schemas: [GROUP], displayName: 'No external id' });
    expect(bare.status).toBe(201);
    expect(bare.body.externalId).toBeUndefined();
    expect((await scim('GET', `/Groups/${bare.body.id}`)).status).toBe(200);
    expect((await scim('POST', '/Groups', { schemas: [GROUP], displayName: 'x' })).body.scimType).toBe('invalidValue');
  });
});

describe('bad bodies (the fuzz of fuzz.test.ts, for SCIM: its own token and error shape)', () => {
  it('never answers 500 to any body on any SCIM write, and every refusal is an RFC 7644 error', async () => {
    const user = await scim('POST', '/Users', newUser(uniqueEmail('fuzz-scim')));
    const group = await scim('POST', '/Groups', { schemas: [GROUP], displayName: 'Fuzz group', externalId: 'fz-1' });
    expect([user.status, group.status]).toEqual([201, 201]);
    const routes: [string, string][] = [
      ['POST', '/Users'],
      ['PUT', `/Users/${user.body.id}`],
      ['PATCH', `/Users/${user.body.id}`],
      ['POST', '/Groups'],
      ['PUT', `/Groups/${group.body.id}`],
      ['PATCH', `/Groups/${group.body.id}`],
    ];
    // Random JSON, and bodies of the right shape whose every value is random (the likelier to reach the service).
    const value = fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null), fc.array(fc.anything()), fc.object());
    const shaped = fc.record(
      {
        schemas: fc.oneof(fc.constant([USER]), fc.constant([GROUP]), fc.constant([SCIMMY.Messages.PatchOp.id]), value),
        userName: value,
        displayName: value,
        name: fc.oneof(value, fc.record({ formatted: value, givenName: value, familyName: value })),
        emails: fc.oneof(value, fc.array(fc.record({ value, primary: value }))),
        active: value,
        externalId: value,
        members: fc.oneof(value, fc.array(fc.record({ value }))),
        Operations: fc.oneof(
          value,
          fc.array(fc.record({ op: fc.oneof(fc.constantFrom('add', 'replace', 'remove'), value), path: value, value })),
        ),
      },
      { requiredKeys: [] },
    );
    const seed = Number(process.env.FUZZ_SEED) || Date.now() % 1_000_000;
    const statuses = new Map<number, number>();
    for (const [i, [method, path]] of routes.entries()) {
      const bodies = fc.sample(fc.oneof(fc.anything(), shaped), { numRuns: 40, seed: seed + i });
      for (const body of bodies) {
        const answer = await scim(method, path, body ?? {});
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
        expect(answer.status, `${method} ${path} (seed ${seed}) <- ${JSON.stringify(body)?.slice(0, 300)}`).toBeLessThan(500);
      }
    }
    // Bad bodies were refused (and checked above as RFC 7644 errors), not only taken.
    expect([...statuses.keys()].filter((s) => s >= 400).length).toBeGreaterThan(0);
  });
});
