import { and, desc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { Client } from 'ldapts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS } from '../../src/domain/errors';
import { MSG } from '../../src/domain/messages';
import { buildApp } from '../../src/server/app';
import { type Config, loadConfig } from '../../src/server/config';
import type { Database } from '../../src/server/db/client';
import { auditLog, oauthIdentities, sessions, teamMembers, users } from '../../src/server/db/schema';
import { type LdapConfig, loadLdapConfig } from '../../src/server/modules/ldap';
import { LdapDirectory, userFilterFor } from '../../src/server/modules/ldap/ldap.directory';
import { createUser, insertMember, insertTeam, sessionIdOf } from '../factories';
import { codeMaker } from '../helpers/totp';
import { openTestDatabase, testConfig } from '../helpers/app';
import { SERVICE_DN, SERVICE_PASSWORD, slapdMissing, startSlapd, SUFFIX, type TestLdapServer } from '../helpers/slapd';

const missing = slapdMissing();
if (missing) console.warn(`ldap.test.ts: ${missing}`);

const PEOPLE = [
  { uid: 'alice', mail: 'Alice@Example.org', cn: 'Alice Archer', password: 'alice-directory-pw' },
  { uid: 'bob', mail: 'bob@example.org', cn: 'Bob Builder', password: 'bob-directory-pw' },
  { uid: 'carol', mail: 'carol@example.org', cn: 'Carol Closed', password: 'carol-directory-pw', disabled: true },
  { uid: 'erin', mail: 'erin@example.org', cn: 'Erin Early', password: 'erin-directory-pw' },
  { uid: 'gina', mail: 'gina@example.org', cn: 'Gina Groups', password: 'gina-directory-pw' },
  { uid: 'tara', mail: 'tara@example.org', cn: 'Tara Totp', password: 'tara-directory-pw' },
  { uid: 'theo', mail: 'theo@example.org', cn: 'Theo Twofactor', password: 'theo-directory-pw' },
];
const GROUPS = [
  { cn: 'devs', members: ['gina'] },
  { cn: 'leads', members: [] },
  { cn: 'readers', members: ['gina'] },
];

let slapd: TestLdapServer;
let database: Database;
let drop: () => Promise<void>;
const apps: FastifyInstance[] = [];
/** The StartTLS app: LDAP_CA_FILE trusted, the group map on. */
let app: FastifyInstance;
let plain: FastifyInstance;
let teamA: { id: string };
let teamB: { id: string };
let teamOutside: { id: string };
let owner: Awaited<ReturnType<typeof createUser>>;

/** The LDAP_* environment for this server (StartTLS, CA trusted), with `overrides`. */
function ldapEnv(overrides: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  return {
    LDAP_URL: slapd.url,
    LDAP_BIND_DN: SERVICE_DN,
    LDAP_BIND_PASSWORD: SERVICE_PASSWORD,
    LDAP_SEARCH_BASE: `ou=people,${SUFFIX}`,
    LDAP_DISABLED_FILTER: '(description=disabled)',
    LDAP_CA_FILE: slapd.caFile,
    ...overrides,
  };
}

async function appWith(env: NodeJS.ProcessEnv, more: Partial<Config> = {}): Promise<FastifyInstance> {
  const built = await buildApp({ config: testConfig({ ldap: loadLdapConfig(env), ...more }), database });
  apps.push(built);
  return built;
}

const signIn = (on: FastifyInstance, email: string, password: string) =>
  on.inject({ method: 'POST', url: '/api/auth/token?grant_type=password', payload: { email, password } });

async function lastAudit(action: string, targetLabel?: string) {
  const rows = await database.db
    .select()
    .from(auditLog)
    .where(
      targetLabel
        ? and(eq(auditLog.action, action as never), eq(auditLog.targetLabel, targetLabel))
        : eq(auditLog.action, action as never),
    )
    .orderBy(desc(auditLog.id))
    .limit(1);
  return rows[0];
}

async function membership(teamId: string, userId: string) {
  const [row] = await database.db
    .select()
    .from(teamMembers)
    .where(and(eq(teamMembers.teamId, teamId), eq(teamMembers.userId, userId)));
  return row;
}

describe.skipIf(Boolean(missing))('directory sign-in (LDAP) against a real slapd', () => {
  beforeAll(async () => {
    slapd = await startSlapd(PEOPLE, GROUPS);
    ({ database, drop } = await openTestDatabase());
    plain = await buildApp({ config: testConfig(), database });
    apps.push(plain);
    owner = await createUser(plain, { fullName: 'Olive Owner' });
    teamA = await insertTeam(database.db, owner, 'Team A');
    teamB = await insertTeam(database.db, owner, 'Team B');
    teamOutside = await insertTeam(database.db, owner, 'Team Outside');
    const groupMap = JSON.stringify({
      [slapd.groupDn('devs')]: { team: teamA.id, role: 'member' },
      [slapd.groupDn('leads')]: { team: teamA.id, role: 'admin' },
      [slapd.groupDn('readers')]: { team: teamB.id, role: 'viewer' },
    });
    app = await appWith(ldapEnv({ LDAP_GROUP_MAP: groupMap }));
  }, 60_000);

  afterAll(async () => {
    for (const a of apps) await a.close();
    await drop?.();
    await slapd?.stop();
  });

  it('says on /api/auth/providers that directory sign-in is on', async () => {
    const res = await app.inject('/api/auth/providers');
    expect(res.json()).toMatchObject({ ldap: true, localPasswords: true });
    expect((await plain.inject('/api/auth/providers')).json()).toMatchObject({ ldap: false, localPasswords: true });
  });

  it('signs in by username over StartTLS: the first sign-in creates a verified account, linked by DN, session method ldap', async () => {
    const res = await signIn(app, 'alice', 'alice-directory-pw');
    expect(res.statusCode).toBe(200);
    const session = res.json();
    expect(session.user).toMatchObject({ email: 'alice@example.org', fullName: 'Alice Archer', emailVerified: true });
    const [identity] = await database.db.select().from(oauthIdentities).where(eq(oauthIdentities.userId, session.user.id));
    expect(identity).toMatchObject({ issuer: `ldap:${slapd.url}`, subject: slapd.userDn('alice') });
    const [row] = await database.db.select().from(sessions).where(eq(sessions.userId, session.user.id));
    expect(row?.method).toBe('ldap');
    expect(await lastAudit('auth.sign_in', 'alice@example.org')).toMatchObject({ details: { method: 'ldap' } });
    // The session works.
    const me = await app.inject({ url: '/api/auth/user', headers: { authorization: `Bearer ${session.access_token}` } });
    expect(me.json().email).toBe('alice@example.org');
  });

  it('signs in by email to the same account', async () => {
    const byName = (await signIn(app, 'alice', 'alice-directory-pw')).json();
    const byEmail = await signIn(app, 'ALICE@example.org', 'alice-directory-pw');
    expect(byEmail.statusCode).toBe(200);
    expect(byEmail.json().user.id).toBe(byName.user.id);
    const count = await database.db.select().from(users).where(eq(users.email, 'alice@example.org'));
    expect(count).toHaveLength(1);
  });

  it('links to an existing account with the same verified email (no second account)', async () => {
    const local = await createUser(plain, { email: 'bob@example.org', password: 'bob-local-password' });
    await database.db.update(users).set({ emailVerified: true }).where(eq(users.id, local.id));
    const res = await signIn(app, 'bob', 'bob-directory-pw');
    expect(res.statusCode).toBe(200);
    expect(res.json().user.id).toBe(local.id);
    const [identity] = await database.db.select().from(oauthIdentities).where(eq(oauthIdentities.userId, local.id));
    expect(identity?.subject).toBe(slapd.userDn('bob'));
  });

  it('does not link onto an existing account whose address is not verified', async () => {
    const squatter = await createUser(plain, { email: 'erin@example.org', password: 'erin-local-password' });
    const res = await signIn(app, 'erin', 'erin-directory-pw');
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toBe(ERRORS.directory_link_unverified.message);
    const linked = await database.db.select().from(oauthIdentities).where(eq(oauthIdentities.userId, squatter.id));
    expect(linked).toEqual([]);
  });

  it('refuses a wrong password (400 invalid_credentials, a failed sign-in audited)', async () => {
    const res = await signIn(app, 'alice', 'not-her-password');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: { code: 'invalid_credentials', message: MSG.invalidCredentials } });
    expect(await lastAudit('auth.sign_in_failed')).toMatchObject({ targetLabel: 'alice', details: { method: 'ldap' } });
    expect((await signIn(app, 'nobody-here', 'whatever')).statusCode).toBe(400);
  });

  it('refuses an empty password before any bind (the directory would take it as an anonymous bind)', async () => {
    // This slapd, like some directories, lets a DN with an empty password bind (anonymously).
    const raw = new Client({ url: slapd.url });
    await expect(raw.bind(slapd.userDn('alice'), '')).resolves.toBeUndefined();
    await raw.unbind();
    const res = await signIn(app, 'alice', '');
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('validation_failed');
    // And the directory client itself refuses it, whatever its caller checked.
    const directory = new LdapDirectory(loadLdapConfig(ldapEnv()) as LdapConfig);
    await expect(directory.authenticate('alice', '')).resolves.toEqual({ kind: 'rejected' });
  });

  it('escapes the username in the filter (RFC 4515): no injection', async () => {
    expect(userFilterFor('(|(uid={{username}})(mail={{username}}))', '*)(uid=*')).toBe(
      '(|(uid=\\2a\\29\\28uid=\\2a)(mail=\\2a\\29\\28uid=\\2a))',
    );
    for (const name of ['al*', '*)(uid=*', 'alice)(|(uid=*', '*', 'alice\\']) {
      const res = await signIn(app, name, 'alice-directory-pw');
      expect(res.statusCode, name).toBe(400);
      expect(res.json().error.code, name).toBe('invalid_credentials');
    }
  });

  it('refuses a user the directory says is disabled, with a clear message', async () => {
    const res = await signIn(app, 'carol', 'carol-directory-pw');
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toBe('Your directory account is disabled. Please contact your administrator.');
    expect(await lastAudit('auth.sign_in_failed')).toMatchObject({
      targetLabel: 'carol',
      details: { method: 'ldap', reason: 'directory_account_disabled' },
    });
    // Re-enabled in the directory: in.
    slapd.setDisabled('carol', false);
    expect((await signIn(app, 'carol', 'carol-directory-pw')).statusCode).toBe(200);
    slapd.setDisabled('carol', true);
    expect((await signIn(app, 'carol', 'carol-directory-pw')).statusCode).toBe(400);
  });

  it('asks for the second factor when the account has TOTP on, as the password flow does', async () => {
    const first = (await signIn(app, 'tara', 'tara-directory-pw')).json();
    await database.db.update(users).set({ totpEnabledAt: new Date() }).where(eq(users.id, first.user.id));
    const res = await signIn(app, 'tara', 'tara-directory-pw');
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ error: { code: 'unauthenticated' } });
    expect(typeof res.json().error.mfa_token).toBe('string');
  });

  it("a directory password and a TOTP code give a session whose method is 'ldap' (the code is an addition), not 'two_factor'", async () => {
    const first = (await signIn(app, 'theo', 'theo-directory-pw')).json();
    const post = (url: string, payload: unknown) =>
      app.inject({ method: 'POST', url, payload: payload as never, headers: { authorization: `Bearer ${first.access_token}` } });
    // A directory account has no local password to give again.
    const setup = await post('/api/me/2fa/setup', {});
    expect(setup.statusCode, setup.body).toBe(200);
    const nextCode = codeMaker(setup.json().secret);
    expect((await post('/api/me/2fa/enable', { code: nextCode() })).statusCode).toBe(200);
    const challenged = await signIn(app, 'theo', 'theo-directory-pw');
    expect(challenged.statusCode).toBe(401);
    const res = await app.inject({
      method: 'POST',
      url: '/api/auth/token?grant_type=mfa',
      payload: { mfa_token: challenged.json().error.mfa_token, code: nextCode() },
    });
    expect(res.statusCode, res.body).toBe(200);
    const [row] = await database.db
      .select()
      .from(sessions)
      .where(eq(sessions.id, sessionIdOf(res.json().access_token)));
    expect(row?.method).toBe('ldap');
    expect(await lastAudit('auth.sign_in', 'theo@example.org')).toMatchObject({ details: { method: 'ldap' } });
  });

  it('StartTLS refuses a server whose CA is not trusted (no LDAP_CA_FILE, or another CA): 503, nothing sent in clear', async () => {
    for (const caFile of [undefined, slapd.otherCaFile]) {
      const untrusting = await appWith(ldapEnv({ LDAP_CA_FILE: caFile }));
      const res = await signIn(untrusting, 'alice', 'alice-directory-pw');
      expect(res.statusCode).toBe(503);
      expect(res.json().error.message).toBe(ERRORS.directory_unavailable.message);
    }
  });

  it('signs in over ldaps:// with LDAP_CA_FILE (and refuses it without)', async () => {
    const secure = await appWith(ldapEnv({ LDAP_URL: slapd.ldapsUrl }));
    const res = await signIn(secure, 'alice', 'alice-directory-pw');
    expect(res.statusCode).toBe(200);
    const untrusting = await appWith(ldapEnv({ LDAP_URL: slapd.ldapsUrl, LDAP_CA_FILE: undefined }));
    expect((await signIn(untrusting, 'alice', 'alice-directory-pw')).statusCode).toBe(503);
  });

  it('reconciles LDAP_GROUP_MAP at each sign-in: added, role changed, removed, each audited; other teams untouched', async () => {
    const first = await signIn(app, 'gina', 'gina-directory-pw');
    expect(first.statusCode).toBe(200);
    const gina = first.json().user as { id: string; email: string };
    await insertMember(database.db, teamOutside.id, gina, 'member');
    expect(await membership(teamA.id, gina.id)).toMatchObject({ role: 'member' });
    expect(await membership(teamB.id, gina.id)).toMatchObject({ role: 'viewer' });
    const added = await lastAudit('team.member_added', gina.email);
    expect(added).toMatchObject({ actorId: gina.id, details: { via: 'ldap' } });

    // Into leads: the higher role of two groups of one team.
    slapd.setGroupMembers('leads', ['gina']);
    expect((await signIn(app, 'gina', 'gina-directory-pw')).statusCode).toBe(200);
    expect(await membership(teamA.id, gina.id)).toMatchObject({ role: 'admin' });
    expect(await lastAudit('team.role_changed', gina.email)).toMatchObject({
      teamId: teamA.id,
      details: { from: 'member', to: 'admin' },
    });

    // Out of every group: out of the mapped teams, not of the team the map does not name.
    slapd.setGroupMembers('leads', []);
    slapd.setGroupMembers('devs', []);
    slapd.setGroupMembers('readers', []);
    expect((await signIn(app, 'gina', 'gina-directory-pw')).statusCode).toBe(200);
    expect(await membership(teamA.id, gina.id)).toBeUndefined();
    expect(await membership(teamB.id, gina.id)).toBeUndefined();
    expect(await membership(teamOutside.id, gina.id)).toMatchObject({ role: 'member' });
    expect(await lastAudit('team.member_removed', gina.email)).toMatchObject({ details: { left: false } });

    // A team's owner is never changed by the map.
    const ownerRow = await membership(teamA.id, owner.id);
    expect(ownerRow?.role).toBe('owner');
  });

  it('LOCAL_PASSWORDS=off refuses a local password, but lets BREAK_GLASS_EMAIL in', async () => {
    const local = await createUser(plain, { password: 'local-only-password' });
    const breakGlass = await createUser(plain, { password: 'break-glass-password' });
    const env = ldapEnv({ LOCAL_PASSWORDS: 'off', BREAK_GLASS_EMAIL: breakGlass.email.toUpperCase() });
    const strict = await appWith(env, { localPasswords: loadConfig({ ...env, AUTH_SECRET: 'x'.repeat(32) }).localPasswords });
    expect((await strict.inject('/api/auth/providers')).json()).toMatchObject({ ldap: true, localPasswords: false });
    const refused = await signIn(strict, local.email, 'local-only-password');
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.code).toBe('invalid_credentials');
    expect((await signIn(strict, breakGlass.email, 'break-glass-password')).statusCode).toBe(200);
    // Directory users still sign in; with local passwords on, the same local account does too.
    expect((await signIn(strict, 'alice', 'alice-directory-pw')).statusCode).toBe(200);
    expect((await signIn(app, local.email, 'local-only-password')).statusCode).toBe(200);
    // Nor does it make password accounts that could never sign in.
    const signup = await strict.inject({
      method: 'POST',
      url: '/api/auth/signup',
      payload: { email: `new-${Date.now()}@example.test`, password: 'long enough pw', fullName: 'New Person' },
    });
    expect(signup.statusCode).toBe(403);
    expect(signup.json().error.reason).toBe('local_passwords_off');
  });

  it('without LDAP, the field stays an email (the spec texts), and a username is refused', async () => {
    const res = await signIn(plain, 'alice', 'alice-directory-pw');
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('validation_failed');
  });
});

describe('directory sign-in settings', () => {
  const base = { LDAP_URL: 'ldap://127.0.0.1:389', LDAP_SEARCH_BASE: 'dc=example,dc=org' };
  it('a bad LDAP_GROUP_MAP stops the start with a clear error', () => {
    expect(() => loadLdapConfig({ ...base, LDAP_GROUP_MAP: '{not json' })).toThrow(/LDAP_GROUP_MAP must be JSON/);
    expect(() => loadLdapConfig({ ...base, LDAP_GROUP_MAP: '[]' })).toThrow(/LDAP_GROUP_MAP must be a JSON object/);
    expect(() => loadLdapConfig({ ...base, LDAP_GROUP_MAP: '{"cn=x,dc=y": {"team": "nope"}}' })).toThrow(/team id/);
    const role = '{"cn=x,dc=y": {"team": "00000000-0000-4000-8000-000000000000", "role": "owner"}}';
    expect(() => loadLdapConfig({ ...base, LDAP_GROUP_MAP: role })).toThrow(/role "owner"/);
  });

  it('checks the URL, the filters, the bind password and the CA file', () => {
    expect(loadLdapConfig({})).toBeNull();
    expect(loadLdapConfig(base)).toMatchObject({
      userFilter: '(|(uid={{username}})(mail={{username}}))',
      emailAttribute: 'mail',
      nameAttribute: 'cn',
      disabledFilter: null,
      groupMap: [],
    });
    expect(() => loadLdapConfig({ ...base, LDAP_URL: 'http://x' })).toThrow(/LDAP_URL must be/);
    expect(() => loadLdapConfig({ LDAP_URL: base.LDAP_URL })).toThrow(/LDAP_SEARCH_BASE/);
    expect(() => loadLdapConfig({ ...base, LDAP_USER_FILTER: '(uid=alice)' })).toThrow(/\{\{username\}\}/);
    expect(() => loadLdapConfig({ ...base, LDAP_DISABLED_FILTER: '(a=b' })).toThrow(/LDAP_DISABLED_FILTER/);
    expect(() => loadLdapConfig({ ...base, LDAP_BIND_DN: 'cn=x' })).toThrow(/LDAP_BIND_PASSWORD/);
    expect(() => loadLdapConfig({ ...base, LDAP_CA_FILE: '/nonexistent.pem' })).toThrow(/LDAP_CA_FILE cannot be read/);
    expect(() => loadConfig({ AUTH_SECRET: 'x'.repeat(32), LOCAL_PASSWORDS: 'no' })).toThrow(/LOCAL_PASSWORDS must be on or off/);
  });
});
