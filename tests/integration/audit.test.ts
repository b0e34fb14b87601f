import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { and, asc, desc, eq, gt, sql } from 'drizzle-orm';
import { OAuth2Server } from 'oauth2-mock-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditAction } from '../../src/domain/constants';
import { AUDIT_CSV_HEADER, type AuditEntryDto, type AuditPageDto, auditCsvRecord } from '../../src/domain/schemas/audit';
import type { InvitationDto, TeamDto } from '../../src/domain/schemas/team';
import { adminSocketPath, startAdminSocket } from '../../src/server/admin-socket';
import { buildApp } from '../../src/server/app';
import { auditLog, mailOutbox, users } from '../../src/server/db/schema';
import { setSystemRole } from '../../src/server/modules/admin/set-role';
import { purgeAuditLog } from '../../src/server/modules/audit/audit.retention';
import { createUser, enableTwoFactor, insertMember, type TestUser, uniqueEmail } from '../factories';
import { setupTestApp, testConfig } from '../helpers/app';
import { wrongCode } from '../helpers/totp';

/** Issue 26, audit log: every listed action leaves exactly one row; reading is for super admins and team managers. */

const mock = new OAuth2Server();
const CLIENT_ID = 'crewboard-audit-client';
let oidcClaims: Record<string, unknown> = {};
beforeAll(async () => {
  await mock.issuer.keys.generate('RS256');
  await mock.start(0, '127.0.0.1');
  mock.service.on('beforeTokenSigning', (token) => Object.assign(token.payload, oidcClaims));
});
afterAll(async () => {
  await mock.stop();
});

const ctx = setupTestApp({
  // Read when the app is built (after the mock issuer above has started).
  get google() {
    return { clientId: CLIENT_ID, clientSecret: 'audit-secret', issuer: mock.issuer.url! };
  },
});

/** The address every request of this file comes from (no proxy is trusted: req.ip is the peer). */
const IP = '203.0.113.7';

const call = (user: TestUser | null, method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
  ctx.app.inject({ method, url, payload: payload as never, headers: user ? user.auth : {}, remoteAddress: IP });

async function ok<T>(
  user: TestUser | null,
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  payload?: unknown,
  status = 200,
) {
  const res = await call(user, method, url, payload);
  expect(res.statusCode, res.body).toBe(status);
  return (res.body ? res.json() : undefined) as T;
}

type Row = typeof auditLog.$inferSelect;

/** The id of the newest row now: what a step's new rows come after. */
async function mark(): Promise<number> {
  const [row] = await ctx.database.db.select({ id: auditLog.id }).from(auditLog).orderBy(desc(auditLog.id)).limit(1);
  return row?.id ?? 0;
}

const rowsSince = (since: number) =>
  ctx.database.db.select().from(auditLog).where(gt(auditLog.id, since)).orderBy(asc(auditLog.id));

/** Runs `step` and returns the one audit row it appended (failing unless there is exactly one, of `action`). */
async function onlyRow(action: AuditAction, step: () => Promise<unknown>): Promise<Row> {
  const since = await mark();
  await step();
  const rows = await rowsSince(since);
  expect(rows.map((r) => r.action)).toEqual([action]);
  return rows[0]!;
}

const makeSuperAdmin = async (user: TestUser) => {
  await ctx.database.db.update(users).set({ role: 'super_admin' }).where(eq(users.id, user.id));
};

const passwordGrant = (email: string, password: string) =>
  call(null, 'POST', '/api/auth/token?grant_type=password', { email, password });

async function newTeam(owner: TestUser, name = `Audit crew ${Math.random().toString(36).slice(2, 7)}`) {
  return ok<TeamDto>(owner, 'POST', '/api/teams', { name }, 201);
}

/** A team with an owner, an admin, a member, and a stranger to it. */
async function scenario() {
  const [owner, admin, member, stranger] = await Promise.all([
    createUser(ctx.app, { fullName: 'Olive Owner' }),
    createUser(ctx.app, { fullName: 'Adam Admin' }),
    createUser(ctx.app, { fullName: 'Mia Member' }),
    createUser(ctx.app, { fullName: 'Sam Stranger' }),
  ]);
  const team = await newTeam(owner);
  const adminMember = await insertMember(ctx.database.db, team.id, admin, 'admin');
  const memberMember = await insertMember(ctx.database.db, team.id, member, 'member');
  return { owner, admin, member, stranger, team, adminMemberId: adminMember.id, memberMemberId: memberMember.id };
}

/** The token of the newest link mailed to `to` whose URL has `path`. */
async function linkToken(to: string, path: string): Promise<string> {
  const mails = await ctx.database.db.select().from(mailOutbox).where(eq(mailOutbox.toEmail, to)).orderBy(desc(mailOutbox.id));
  for (const mail of mails) {
    const match = mail.textBody.match(new RegExp(`${path}\\?token=([A-Za-z0-9_%-]+)`));
    if (match) return decodeURIComponent(match[1]!);
  }
  throw new Error(`no ${path} link mailed to ${to}`);
}

describe('audit log: recording (exactly one row per action)', () => {
  it('auth.sign_in: a password sign-in, with actor, ip and target', async () => {
    const user = await createUser(ctx.app);
    const row = await onlyRow('auth.sign_in', async () =>
      expect((await passwordGrant(user.email, user.password)).statusCode).toBe(200),
    );
    expect(row).toMatchObject({
      actorId: user.id,
      actorEmail: user.email,
      ip: IP,
      teamId: null,
      targetType: 'user',
      targetId: user.id,
    });
    expect(row.details).toMatchObject({ method: 'password' });
  });

  it('auth.sign_in_failed: a wrong password names the attempted email, never the password; an unknown email too', async () => {
    const user = await createUser(ctx.app);
    const wrong = 'not-the-password-42';
    const row = await onlyRow('auth.sign_in_failed', async () =>
      expect((await passwordGrant(user.email, wrong)).statusCode).toBe(400),
    );
    expect(row).toMatchObject({ actorId: null, actorEmail: user.email, ip: IP, targetId: user.id, targetLabel: user.email });
    expect(row.details).toMatchObject({ method: 'password', reason: 'invalid_credentials' });
    expect(JSON.stringify(row)).not.toContain(wrong);

    const nobody = uniqueEmail('nobody');
    const unknown = await onlyRow('auth.sign_in_failed', () => passwordGrant(nobody, wrong));
    expect(unknown).toMatchObject({ actorId: null, actorEmail: nobody, targetId: null, targetLabel: nobody });
  });

  it('auth.sign_in_failed: a deactivated account with the right password', async () => {
    const user = await createUser(ctx.app);
    await ctx.database.db.update(users).set({ isActive: false }).where(eq(users.id, user.id));
    const row = await onlyRow('auth.sign_in_failed', () => passwordGrant(user.email, user.password));
    expect(row.details).toMatchObject({ reason: 'account_deactivated' });
  });

  it('two-factor: enabled, the password step alone records nothing, a wrong code fails, a right one signs in, disabled', async () => {
    const user = await createUser(ctx.app);
    const since = await mark();
    const { secret, nextCode } = await enableTwoFactor(ctx.app, user);
    const enabled = await rowsSince(since);
    expect(enabled.map((r) => r.action)).toEqual(['auth.two_factor_enabled']);
    expect(enabled[0]).toMatchObject({ actorId: user.id, targetId: user.id });

    let mfaToken = '';
    const nothing = await mark();
    const first = await passwordGrant(user.email, user.password);
    expect(first.statusCode).toBe(401);
    mfaToken = first.json().error.mfa_token;
    expect(await rowsSince(nothing)).toEqual([]);

    const failed = await onlyRow('auth.sign_in_failed', async () =>
      expect(
        (await call(null, 'POST', '/api/auth/token?grant_type=mfa', { mfa_token: mfaToken, code: wrongCode(secret) })).statusCode,
      ).toBe(400),
    );
    expect(failed).toMatchObject({ actorId: null, actorEmail: user.email, targetId: user.id, ip: IP });
    expect(failed.details).toMatchObject({ method: 'two_factor', reason: 'mfa_code_invalid' });

    const signedIn = await onlyRow('auth.sign_in', async () =>
      expect(
        (await call(null, 'POST', '/api/auth/token?grant_type=mfa', { mfa_token: mfaToken, code: nextCode() })).statusCode,
      ).toBe(200),
    );
    expect(signedIn).toMatchObject({ actorId: user.id, ip: IP });
    expect(signedIn.details).toMatchObject({ method: 'two_factor' });

    const disabled = await onlyRow('auth.two_factor_disabled', () =>
      ok(user, 'POST', '/api/me/2fa/disable', { password: user.password }, 204),
    );
    expect(disabled).toMatchObject({ actorId: user.id, actorEmail: user.email, ip: IP, targetId: user.id });
  });

  it('auth.sign_in: an OpenID Connect sign-in', async () => {
    const email = uniqueEmail('oidc');
    oidcClaims = { sub: `sub-${email}`, email, email_verified: true, name: 'Oidc Person' };
    const since = await mark();
    const start = await ctx.app.inject({ method: 'GET', url: '/api/auth/google/start', remoteAddress: IP });
    const jar = ([start.headers['set-cookie']].flat() as string[]).map((c) => c.split(';')[0]).join('; ');
    const authorize = await fetch(String(start.headers.location), { redirect: 'manual' });
    const back = new URL(authorize.headers.get('location')!);
    const callback = await ctx.app.inject({
      method: 'GET',
      url: `${back.pathname}${back.search}`,
      headers: { cookie: jar },
      remoteAddress: IP,
    });
    expect(String(callback.headers.location)).toMatch(/^\/#/);
    const rows = await rowsSince(since);
    expect(rows.map((r) => r.action)).toEqual(['auth.sign_in']);
    expect(rows[0]).toMatchObject({ actorEmail: email, ip: IP, targetLabel: email });
    expect(rows[0]!.details).toMatchObject({ method: 'oidc' });
  });

  it('auth.password_changed and auth.password_reset (by the emailed link)', async () => {
    const user = await createUser(ctx.app);
    const changed = await onlyRow('auth.password_changed', () =>
      ok(user, 'POST', '/api/me/password', { currentPassword: user.password, password: 'a brand new passphrase 7' }, 204),
    );
    expect(changed).toMatchObject({ actorId: user.id, actorEmail: user.email, ip: IP, targetId: user.id });

    await ok(null, 'POST', '/api/auth/forgot-password', { email: user.email }, 202);
    const token = await linkToken(user.email, '/reset-password');
    const reset = await onlyRow('auth.password_reset', () =>
      ok(null, 'POST', '/api/auth/reset-password', { token, password: 'another new passphrase 8' }, 204),
    );
    expect(reset).toMatchObject({ actorId: user.id, actorEmail: user.email, ip: IP, targetId: user.id });
  });

  it('auth.email_changed: when the link to the new address is opened', async () => {
    const user = await createUser(ctx.app);
    const next = uniqueEmail('moved');
    const requested = await mark();
    await ok(user, 'POST', '/api/me/email', { email: next, currentPassword: user.password }, 202);
    expect(await rowsSince(requested)).toEqual([]);
    const token = await linkToken(next, '/confirm-email');
    const row = await onlyRow('auth.email_changed', () => ok(null, 'POST', '/api/auth/confirm-email-change', { token }, 204));
    expect(row).toMatchObject({ actorId: user.id, actorEmail: user.email, ip: IP, targetId: user.id, targetLabel: next });
    expect(row.details).toEqual({ oldEmail: user.email, newEmail: next });
  });

  it('invitations: sent, cancelled, and accepted (invitation.accepted and team.member_added, one row each)', async () => {
    const { owner, team } = await scenario();
    const invitee = await createUser(ctx.app);
    let invitation!: InvitationDto;
    const sent = await onlyRow('invitation.sent', async () => {
      invitation = await ok<InvitationDto>(
        owner,
        'POST',
        `/api/teams/${team.id}/invitations`,
        { email: invitee.email, role: 'admin' },
        201,
      );
    });
    expect(sent).toMatchObject({ actorId: owner.id, actorEmail: owner.email, ip: IP, teamId: team.id });
    expect(sent).toMatchObject({ targetType: 'invitation', targetId: invitation.id, targetLabel: invitee.email });
    expect(sent.details).toMatchObject({ role: 'admin' });

    const cancelled = await onlyRow('invitation.cancelled', () =>
      ok(owner, 'DELETE', `/api/invitations/${invitation.id}`, undefined, 204),
    );
    expect(cancelled).toMatchObject({ actorId: owner.id, teamId: team.id, targetId: invitation.id });

    const again = await ok<InvitationDto>(owner, 'POST', `/api/teams/${team.id}/invitations`, { email: invitee.email }, 201);
    const since = await mark();
    await ok(invitee, 'POST', `/api/invitations/${again.id}/respond`, { accept: true });
    const rows = await rowsSince(since);
    expect(rows.map((r) => r.action)).toEqual(['invitation.accepted', 'team.member_added']);
    for (const row of rows)
      expect(row).toMatchObject({ actorId: invitee.id, actorEmail: invitee.email, ip: IP, teamId: team.id });
    expect(rows[0]).toMatchObject({ targetType: 'invitation', targetId: again.id });
    expect(rows[1]).toMatchObject({ targetType: 'user', targetId: invitee.id, targetLabel: invitee.email });
  });

  it('a declined invitation records nothing of the listed actions', async () => {
    const { owner, team } = await scenario();
    const invitee = await createUser(ctx.app);
    const inv = await ok<InvitationDto>(owner, 'POST', `/api/teams/${team.id}/invitations`, { email: invitee.email }, 201);
    const since = await mark();
    await ok(invitee, 'POST', `/api/invitations/${inv.id}/respond`, { accept: false });
    expect(await rowsSince(since)).toEqual([]);
  });

  it('team.role_changed: a role switch (none for a no-op) and an ownership transfer', async () => {
    const { owner, admin, member, team, memberMemberId, adminMemberId } = await scenario();
    const row = await onlyRow('team.role_changed', () =>
      ok(owner, 'PATCH', `/api/teams/${team.id}/members/${memberMemberId}`, { role: 'admin' }),
    );
    expect(row).toMatchObject({ actorId: owner.id, ip: IP, teamId: team.id, targetId: member.id, targetLabel: member.email });
    expect(row.details).toMatchObject({ from: 'member', to: 'admin' });

    const noop = await mark();
    await ok(owner, 'PATCH', `/api/teams/${team.id}/members/${memberMemberId}`, { role: 'admin' });
    expect(await rowsSince(noop)).toEqual([]);

    const transfer = await onlyRow('team.role_changed', () =>
      ok(owner, 'POST', `/api/teams/${team.id}/transfer-ownership`, { memberId: adminMemberId }),
    );
    expect(transfer).toMatchObject({ actorId: owner.id, teamId: team.id, targetId: admin.id });
    expect(transfer.details).toMatchObject({ from: 'admin', to: 'owner', ownershipTransfer: true });
  });

  it('team.member_removed: removed by an admin, and leaving', async () => {
    const { admin, member, stranger, team, memberMemberId } = await scenario();
    const removed = await onlyRow('team.member_removed', () =>
      ok(admin, 'DELETE', `/api/teams/${team.id}/members/${memberMemberId}`, undefined, 204),
    );
    expect(removed).toMatchObject({ actorId: admin.id, teamId: team.id, targetId: member.id, ip: IP });
    expect(removed.details).toMatchObject({ left: false, role: 'member' });

    await insertMember(ctx.database.db, team.id, stranger, 'member');
    const left = await onlyRow('team.member_removed', () => ok(stranger, 'POST', `/api/teams/${team.id}/leave`, undefined, 204));
    expect(left).toMatchObject({ actorId: stranger.id, teamId: team.id, targetId: stranger.id });
    expect(left.details).toMatchObject({ left: true });
  });

  it('project.deleted and team.deleted, the names kept after the rows are gone', async () => {
    const { owner, team } = await scenario();
    const project = await ok<{ id: string }>(owner, 'POST', '/api/projects', { name: 'Doomed project', teamId: team.id }, 201);
    const p = await onlyRow('project.deleted', () => ok(owner, 'DELETE', `/api/projects/${project.id}`, undefined, 204));
    expect(p).toMatchObject({
      actorId: owner.id,
      actorEmail: owner.email,
      ip: IP,
      teamId: team.id,
      targetId: project.id,
      targetLabel: 'Doomed project',
    });

    const t = await onlyRow('team.deleted', () => ok(owner, 'DELETE', `/api/teams/${team.id}`, undefined, 204));
    expect(t).toMatchObject({
      actorId: owner.id,
      teamId: team.id,
      targetType: 'team',
      targetId: team.id,
      targetLabel: team.name,
    });
  });

  it('a refused change records nothing', async () => {
    const { member, team, adminMemberId } = await scenario();
    const since = await mark();
    await call(member, 'PATCH', `/api/teams/${team.id}/members/${adminMemberId}`, { role: 'member' });
    await call(member, 'DELETE', `/api/teams/${team.id}`);
    expect(await rowsSince(since)).toEqual([]);
  });

  it('admin.user_deactivated and admin.user_activated (admin panel), admin.role_set (the CLI, directly and by socket)', async () => {
    const [admin, target] = await Promise.all([createUser(ctx.app), createUser(ctx.app)]);
    await makeSuperAdmin(admin);
    const off = await onlyRow('admin.user_deactivated', () =>
      ok(admin, 'PATCH', `/api/admin/users/${target.id}`, { isActive: false }),
    );
    expect(off).toMatchObject({
      actorId: admin.id,
      actorEmail: admin.email,
      ip: IP,
      targetId: target.id,
      targetLabel: target.email,
    });
    const on = await onlyRow('admin.user_activated', () =>
      ok(admin, 'PATCH', `/api/admin/users/${target.id}`, { isActive: true }),
    );
    expect(on).toMatchObject({ actorId: admin.id, targetId: target.id });

    const direct = await onlyRow('admin.role_set', () =>
      setSystemRole(ctx.app.deps.changes, ctx.database.db, target.email, 'super_admin', 'cli'),
    );
    expect(direct).toMatchObject({ actorId: null, targetId: target.id, targetLabel: target.email });
    expect(direct.details).toEqual({ role: 'super_admin', via: 'cli' });

    const unknown = await mark();
    expect(
      await setSystemRole(ctx.app.deps.changes, ctx.database.db, uniqueEmail('ghost'), 'super_admin', 'cli'),
    ).toBeUndefined();
    expect(await rowsSince(unknown)).toEqual([]);

    const dir = mkdtempSync(join(tmpdir(), 'crewboard-audit-sock-'));
    const server = await startAdminSocket(ctx.database.db, dir, ctx.app.deps.changes);
    try {
      const viaSocket = await onlyRow('admin.role_set', async () => {
        const status = await new Promise<number>((resolve, reject) => {
          const req = request(
            {
              socketPath: adminSocketPath(dir),
              method: 'POST',
              path: '/set-role',
              headers: { 'content-type': 'application/json' },
            },
            (res) => {
              res.resume();
              res.on('end', () => resolve(res.statusCode ?? 0));
            },
          );
          req.on('error', reject);
          req.end(JSON.stringify({ email: target.email, role: 'team_member' }));
        });
        expect(status).toBe(200);
      });
      expect(viaSocket.details).toEqual({ role: 'team_member', via: 'cli_socket' });
    } finally {
      await new Promise((resolve) => server.close(resolve));
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** Every row of a log through the API, walking its pages. */
async function allPages(user: TestUser, base: string, query: Record<string, string>, limit: number): Promise<AuditEntryDto[]> {
  const out: AuditEntryDto[] = [];
  let before: string | null = null;
  for (let i = 0; i < 1000; i++) {
    const qs = new URLSearchParams({ ...query, limit: String(limit), ...(before ? { before } : {}) });
    const page = await ok<AuditPageDto>(user, 'GET', `${base}?${qs}`);
    expect(page.entries.length).toBeLessThanOrEqual(limit);
    out.push(...page.entries);
    before = page.nextCursor;
    if (!before) return out;
  }
  throw new Error('the pages never ended');
}

describe('audit log: reading', () => {
  it('a team’s owner and admins read its rows only; a member gets 403 audit_denied, a stranger 404, signed out 401', async () => {
    const a = await scenario();
    const b = await scenario();
    await ok(a.owner, 'POST', `/api/teams/${a.team.id}/invitations`, { email: uniqueEmail('a') }, 201);
    await ok(b.owner, 'POST', `/api/teams/${b.team.id}/invitations`, { email: uniqueEmail('b') }, 201);

    for (const reader of [a.owner, a.admin]) {
      const page = await ok<AuditPageDto>(reader, 'GET', `/api/teams/${a.team.id}/audit`);
      expect(page.entries.length).toBeGreaterThan(0);
      expect(page.entries.every((e) => e.teamId === a.team.id)).toBe(true);
      expect(page.entries.map((e) => e.action)).toContain('invitation.sent');
    }
    for (const url of [`/api/teams/${a.team.id}/audit`, `/api/teams/${a.team.id}/audit.csv`]) {
      const denied = await call(a.member, 'GET', url);
      expect(denied.statusCode).toBe(403);
      expect(denied.json().error.reason).toBe('audit_denied');
      // The admin of team B is a stranger to team A: 404, as for anyone outside it.
      for (const outsider of [b.admin, b.owner, a.stranger]) {
        const res = await call(outsider, 'GET', url);
        expect(res.statusCode).toBe(404);
        expect(res.body).not.toContain('invitation');
      }
      expect((await call(null, 'GET', url)).statusCode).toBe(401);
    }
    // An unknown team: 404 too.
    expect((await call(a.owner, 'GET', `/api/teams/${crypto.randomUUID()}/audit`)).statusCode).toBe(404);
  });

  it('the super admin reads everything; others get 403 on the admin log, signed out 401', async () => {
    const [admin, plain] = await Promise.all([createUser(ctx.app), createUser(ctx.app)]);
    await makeSuperAdmin(admin);
    const page = await ok<AuditPageDto>(admin, 'GET', '/api/admin/audit?limit=200');
    const {
      rows: [{ n }],
    } = (await ctx.database.db.execute(sql`select count(*)::int as n from audit_log`)) as unknown as { rows: [{ n: number }] };
    expect(page.entries.length).toBe(Math.min(200, Number(n)));
    expect(new Set(page.entries.map((e) => e.teamId)).size).toBeGreaterThan(1);
    for (const url of ['/api/admin/audit', '/api/admin/audit.csv']) {
      expect((await call(plain, 'GET', url)).statusCode).toBe(403);
      expect((await call(null, 'GET', url)).statusCode).toBe(401);
    }
  });

  it('filters by action, actor id, actor email text and time; pages newest first without gaps or repeats', async () => {
    const [admin, actor] = await Promise.all([createUser(ctx.app), createUser(ctx.app, { fullName: 'Filter Person' })]);
    await makeSuperAdmin(admin);
    for (let i = 0; i < 5; i++) await passwordGrant(actor.email, actor.password);
    await passwordGrant(actor.email, 'wrong password here');

    const mine = await allPages(admin, '/api/admin/audit', { actorId: actor.id }, 2);
    // createUser's sign-in and five more.
    expect(mine.map((e) => e.action)).toEqual(Array(6).fill('auth.sign_in'));
    const ids = mine.map((e) => Number(e.id));
    expect(ids).toEqual([...ids].sort((x, y) => y - x));
    expect(new Set(ids).size).toBe(ids.length);

    const byText = await allPages(admin, '/api/admin/audit', { actor: actor.email.toUpperCase() }, 200);
    expect(byText.map((e) => e.action).sort()).toEqual([...Array(6).fill('auth.sign_in'), 'auth.sign_in_failed'].sort());
    const failed = await allPages(admin, '/api/admin/audit', { actor: actor.email, action: 'auth.sign_in_failed' }, 50);
    expect(failed).toHaveLength(1);
    // LIKE wildcards are text: '%' matches no email.
    expect((await ok<AuditPageDto>(admin, 'GET', '/api/admin/audit?actor=%25')).entries).toEqual([]);

    const newest = mine[0]!;
    const oldest = mine.at(-1)!;
    const window = await allPages(
      admin,
      '/api/admin/audit',
      { actorId: actor.id, from: oldest.createdAt, to: newest.createdAt },
      200,
    );
    expect(window.map((e) => e.id)).toEqual(
      mine.filter((e) => e.createdAt >= oldest.createdAt && e.createdAt < newest.createdAt).map((e) => e.id),
    );
    expect(window.map((e) => e.id)).not.toContain(newest.id);
    expect(await allPages(admin, '/api/admin/audit', { actorId: actor.id, from: '2999-01-01T00:00:00Z' }, 10)).toEqual([]);
  });

  it('refuses bad filters with 400, never 500', async () => {
    const admin = await createUser(ctx.app);
    await makeSuperAdmin(admin);
    for (const qs of [
      'before=abc',
      'before=0',
      'before=99999999999999999999',
      'limit=0',
      'limit=201',
      'action=auth.nonsense',
      'actorId=not-a-uuid',
      'from=yesterday',
      'to=2025-13-45T00:00:00Z',
      `actor=${'x'.repeat(201)}`,
    ]) {
      const res = await call(admin, 'GET', `/api/admin/audit?${qs}`);
      expect(res.statusCode, qs).toBe(400);
      expect((await call(admin, 'GET', `/api/admin/audit.csv?${qs}`)).statusCode, qs).toBe(400);
    }
    // A cursor naming no row ends the list.
    expect((await ok<AuditPageDto>(admin, 'GET', '/api/admin/audit?before=999999999999')).entries).toEqual([]);
  });

  it('the CSV holds exactly the JSON rows, RFC 4180, formulas neutralised', async () => {
    const { owner, team } = await scenario();
    const evil = await newTeam(owner, '=HYPERLINK("http://evil.example","x"), "quoted"');
    await ok(owner, 'POST', `/api/teams/${team.id}/invitations`, { email: uniqueEmail('csv') }, 201);
    await ok(owner, 'DELETE', `/api/teams/${evil.id}`, undefined, 204);
    const admin = await createUser(ctx.app);
    await makeSuperAdmin(admin);

    for (const [user, base, query] of [
      [owner, `/api/teams/${team.id}/audit`, {}],
      [admin, '/api/admin/audit', { actorId: owner.id }],
    ] as const) {
      const json = await allPages(user, base, query, 3);
      expect(json.length).toBeGreaterThan(0);
      const res = await call(user, 'GET', `${base}.csv?${new URLSearchParams(query)}`);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/csv/);
      expect(res.headers['content-disposition']).toMatch(/^attachment; filename="crewboard-.*\.csv"$/);
      expect(res.body.endsWith('\r\n')).toBe(true);
      const records = parse(res.body, { relax_quotes: false }) as string[][];
      expect(records[0]).toEqual([...AUDIT_CSV_HEADER]);
      const expected = json.map((e) =>
        auditCsvRecord(e).map((cell) => (cell === null ? '' : /^[=+\-@\t\r]/.test(cell) ? `'${cell}` : cell)),
      );
      expect(records.slice(1)).toEqual(expected);
    }
    const adminCsv = (await call(admin, 'GET', `/api/admin/audit.csv?action=team.deleted&actorId=${owner.id}`)).body;
    const [, deleted] = parse(adminCsv) as string[][];
    expect(deleted![AUDIT_CSV_HEADER.indexOf('target_label')]).toBe(`'=HYPERLINK("http://evil.example","x"), "quoted"`);
  });
});

describe('audit log: append-only', () => {
  it('no route changes it: PUT, PATCH, DELETE and POST on its paths answer 404 or 405', async () => {
    const { owner, team } = await scenario();
    const admin = await createUser(ctx.app);
    await makeSuperAdmin(admin);
    const before = await mark();
    const id = await mark();
    for (const [user, path] of [
      [admin, '/api/admin/audit'],
      [admin, '/api/admin/audit.csv'],
      [admin, `/api/admin/audit/${id}`],
      [owner, `/api/teams/${team.id}/audit`],
      [owner, `/api/teams/${team.id}/audit.csv`],
      [owner, `/api/teams/${team.id}/audit/${id}`],
    ] as const) {
      for (const method of ['PUT', 'PATCH', 'DELETE', 'POST'] as const) {
        const res = await call(user, method, path, { action: 'auth.sign_in' });
        expect([404, 405], `${method} ${path}`).toContain(res.statusCode);
      }
    }
    expect(await rowsSince(before)).toEqual([]);
  });

  it('the database refuses UPDATE, and DELETE outside the purge', async () => {
    const db = ctx.database.db;
    const [row] = await db.select().from(auditLog).limit(1);
    await expect(db.update(auditLog).set({ actorEmail: 'forged@example.com' }).where(eq(auditLog.id, row!.id))).rejects.toThrow();
    await expect(db.delete(auditLog).where(eq(auditLog.id, row!.id))).rejects.toThrow();
    const [after] = await db.select().from(auditLog).where(eq(auditLog.id, row!.id));
    expect(after).toEqual(row);
  });
});

describe('audit log: retention', () => {
  const insertAged = async (daysAgo: number, label: string) => {
    const [row] = await ctx.database.db
      .insert(auditLog)
      .values({
        action: 'auth.sign_in',
        actorId: null,
        targetLabel: label,
        createdAt: new Date(Date.now() - daysAgo * 86_400_000),
      })
      .returning();
    return row!.id;
  };
  const labelled = (label: string) => ctx.database.db.select().from(auditLog).where(eq(auditLog.targetLabel, label));

  it('purges only the rows older than the retention', async () => {
    const label = `retention-${crypto.randomUUID()}`;
    const old = await insertAged(400, label);
    const edge = await insertAged(364, label);
    const fresh = await insertAged(0, label);
    const deleted = await purgeAuditLog(ctx.database.db, 365);
    expect(deleted).toBeGreaterThanOrEqual(1);
    expect((await labelled(label)).map((r) => r.id).sort()).toEqual([edge, fresh].sort());
    expect(old).toBeLessThan(edge);
    // The purge's permission ended with its transaction.
    await expect(ctx.database.db.delete(auditLog).where(and(eq(auditLog.id, fresh)))).rejects.toThrow();
  });

  it('runs when an app starts, with AUDIT_RETENTION_DAYS', async () => {
    const label = `retention-start-${crypto.randomUUID()}`;
    await insertAged(40, label);
    const recent = await insertAged(10, label);
    const app = await buildApp({ config: testConfig({ auditRetentionDays: 30 }), database: ctx.database });
    await app.ready();
    try {
      await expect.poll(async () => (await labelled(label)).map((r) => r.id), { timeout: 10_000 }).toEqual([recent]);
    } finally {
      await app.close();
    }
  });
});
