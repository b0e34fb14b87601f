import { and, desc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { NOTIFICATION_PREFERENCE_KINDS } from '../../src/domain/constants';
import { MSG } from '../../src/domain/messages';
import { SETTINGS_MSG } from '../../src/domain/settings-messages';
import type { UserDto } from '../../src/domain/schemas/auth';
import type { NotificationPreferencesDto, ProfileDto } from '../../src/domain/schemas/me';
import { TIME_ZONE_UNKNOWN } from '../../src/domain/schemas/time-zone';
import type { NotificationListDto } from '../../src/domain/schemas/notification';
import { mailOutbox, oauthIdentities, passwordCredentials, tasks, teamMembers, users } from '../../src/server/db/schema';
import { createUser, insertMember, insertTeam, signIn, uniqueEmail, type TestUser } from '../factories';
import { apiRequests, type Method } from '../helpers/api';
import { setupTestApp } from '../helpers/app';

const ctx = setupTestApp();

const { call } = apiRequests(ctx);

const errorOf = (res: { json: () => unknown }) =>
  (res.json() as { error: { code: string; reason?: string; message: string; fields?: Record<string, string> } }).error;

/** The mails queued for an address, newest first. */
const mailsTo = (email: string) =>
  ctx.database.db.select().from(mailOutbox).where(eq(mailOutbox.toEmail, email)).orderBy(desc(mailOutbox.id));

/** The token of the newest link of this kind sent to an address. */
async function linkToken(email: string, kind: 'change_email'): Promise<string> {
  const [mail] = (await mailsTo(email)).filter((m) => m.kind === kind);
  const match = mail?.textBody.match(/\/confirm-email\?token=([A-Za-z0-9_%-]+)/);
  if (!match) throw new Error(`no ${kind} link to ${email}`);
  return decodeURIComponent(match[1]!);
}

const me = async (user: TestUser) => {
  const res = await call(user, 'GET', '/api/auth/user');
  return { status: res.statusCode, user: res.statusCode === 200 ? (res.json() as UserDto) : null };
};

describe('settings: profile', () => {
  it('changes the full name and the time zone, and refuses a zone it does not know', async () => {
    const user = await createUser(ctx.app, { fullName: 'Pat Profile' });
    const first = await call(user, 'GET', '/api/me/profile');
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ timeZone: null, hasPassword: true, user: { id: user.id, fullName: 'Pat Profile' } });

    const res = await call(user, 'PATCH', '/api/me/profile', { fullName: '  Zoe Quill ', timeZone: 'Europe/Paris' });
    expect(res.statusCode, res.body).toBe(200);
    const profile = res.json() as ProfileDto;
    expect(profile.user).toMatchObject({ fullName: 'Zoe Quill', firstName: 'Zoe', lastName: 'Quill' });
    expect(profile.timeZone).toBe('Europe/Paris');
    expect((await me(user)).user?.fullName).toBe('Zoe Quill');

    for (const timeZone of ['Mars/Olympus_Mons', 'europe/paris', '+01:00', '', 'x'.repeat(100), 42]) {
      const bad = await call(user, 'PATCH', '/api/me/profile', { timeZone });
      expect(bad.statusCode, String(timeZone)).toBe(400);
      expect(errorOf(bad).fields?.timeZone).toBe(TIME_ZONE_UNKNOWN);
    }
    expect(((await call(user, 'GET', '/api/me/profile')).json() as ProfileDto).timeZone).toBe('Europe/Paris');
    // UTC (which Intl leaves out of its list) and a null back to the default.
    expect(((await call(user, 'PATCH', '/api/me/profile', { timeZone: 'UTC' })).json() as ProfileDto).timeZone).toBe('UTC');
    expect(((await call(user, 'PATCH', '/api/me/profile', { timeZone: null })).json() as ProfileDto).timeZone).toBeNull();

    const short = await call(user, 'PATCH', '/api/me/profile', { fullName: 'Z' });
    expect(short.statusCode).toBe(400);
    expect(errorOf(short).fields?.fullName).toBe(MSG.fullNameMin);
    // Nothing else of the row can be written through the body.
    const mass = await call(user, 'PATCH', '/api/me/profile', { fullName: 'Zoe Quill', role: 'super_admin' });
    expect(mass.statusCode).toBe(400);
    expect((await me(user)).user?.role).toBe('team_member');
  });
});

describe('settings: password change', () => {
  it('needs the current password, keeps this session, ends the others, and mails a notice', async () => {
    const user = await createUser(ctx.app);
    const other = await signIn(ctx.app, user.email, user.password);
    const change = (password: string, currentPassword = user.password) =>
      call(user, 'POST', '/api/me/password', { currentPassword, password });

    const wrong = await change('a brand new secret', 'not my password');
    expect(wrong.statusCode).toBe(400);
    expect(errorOf(wrong)).toMatchObject({ reason: 'wrong_password', fields: { currentPassword: MSG.currentPasswordWrong } });
    const common = await change('password123');
    expect(errorOf(common).reason).toBe('password_too_common');
    expect(errorOf(await change('short1')).fields?.password).toBe(MSG.passwordMin8);
    expect((await me(other)).status).toBe(200);
    expect((await mailsTo(user.email)).filter((m) => m.kind === 'password_changed')).toHaveLength(0);

    const res = await change('a brand new secret');
    expect(res.statusCode, res.body).toBe(204);
    expect((await me(user)).status).toBe(200);
    expect((await me(other)).status).toBe(401);
    const refresh = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/token?grant_type=refresh_token',
      payload: { refresh_token: other.session.refresh_token },
    });
    expect(refresh.statusCode).toBe(400);

    await expect(signIn(ctx.app, user.email, user.password)).rejects.toThrow(/400/);
    await signIn(ctx.app, user.email, 'a brand new secret');
    const [notice] = (await mailsTo(user.email)).filter((m) => m.kind === 'password_changed');
    expect(notice?.subject).toBe('Your Crewboard password was changed');
  });
});

describe('settings: email change', () => {
  it('changes the address only when the link to the new one is opened, once, and tells the old one', async () => {
    const user = await createUser(ctx.app);
    const taken = await createUser(ctx.app);
    const next = uniqueEmail('moved');
    const request = (email: string, currentPassword = user.password) =>
      call(user, 'POST', '/api/me/email', { email, currentPassword });

    expect(errorOf(await request(taken.email.toUpperCase()))).toMatchObject({ code: 'conflict', reason: 'email_taken' });
    expect(errorOf(await request(user.email)).reason).toBe('email_unchanged');
    expect(errorOf(await request(next, 'not my password')).reason).toBe('wrong_password');
    expect(errorOf(await call(user, 'POST', '/api/me/email', { email: next })).reason).toBe('wrong_password');
    expect(await mailsTo(next)).toHaveLength(0);

    // A second request replaces the first link.
    expect((await request(next)).statusCode).toBe(202);
    const replaced = await linkToken(next, 'change_email');
    const res = await request(` ${next.toUpperCase()} `);
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json()).toEqual({ message: SETTINGS_MSG.emailChangeSent(next) });
    const token = await linkToken(next, 'change_email');
    expect(token).not.toBe(replaced);
    expect((await me(user)).user?.email).toBe(user.email);

    const confirm = (t: string) =>
      ctx.app.inject({ method: 'POST', url: '/api/auth/confirm-email-change', payload: { token: t } });
    expect(errorOf(await confirm(replaced)).reason).toBe('link_invalid');
    const done = await confirm(token);
    expect(done.statusCode, done.body).toBe(204);
    expect((await me(user)).user).toMatchObject({ email: next, emailVerified: true });
    expect(errorOf(await confirm(token)).reason).toBe('link_invalid');

    const [notice] = (await mailsTo(user.email)).filter((m) => m.kind === 'email_changed');
    expect(notice?.textBody).toContain(next);
    await expect(signIn(ctx.app, user.email, user.password)).rejects.toThrow(/400/);
    await signIn(ctx.app, next, user.password);
  });

  it('refuses the link when the address was taken meanwhile, and keeps it for later', async () => {
    const user = await createUser(ctx.app);
    const next = uniqueEmail('race');
    expect((await call(user, 'POST', '/api/me/email', { email: next, currentPassword: user.password })).statusCode).toBe(202);
    const token = await linkToken(next, 'change_email');
    await createUser(ctx.app, { email: next });
    const res = await ctx.app.inject({ method: 'POST', url: '/api/auth/confirm-email-change', payload: { token } });
    expect(res.statusCode).toBe(409);
    expect(errorOf(res).reason).toBe('email_taken');
    expect((await me(user)).user?.email).toBe(user.email);
  });

  it('asks an account without a password (Google sign-in) for none', async () => {
    const user = await createUser(ctx.app);
    await ctx.database.db.delete(passwordCredentials).where(eq(passwordCredentials.userId, user.id));
    expect(((await call(user, 'GET', '/api/me/profile')).json() as ProfileDto).hasPassword).toBe(false);
    const res = await call(user, 'POST', '/api/me/email', { email: uniqueEmail('google') });
    expect(res.statusCode, res.body).toBe(202);
    // …and it has no current password to change.
    const change = await call(user, 'POST', '/api/me/password', {
      currentPassword: 'anything at all',
      password: 'a new secret 1',
    });
    expect(errorOf(change).reason).toBe('wrong_password');
  });
});

describe('settings: account deletion', () => {
  it('refuses the owner of a team, naming it', async () => {
    const owner = await createUser(ctx.app);
    await insertTeam(ctx.database.db, owner, 'Owned Crew');
    const res = await call(owner, 'POST', '/api/me/delete', { email: owner.email, currentPassword: owner.password });
    expect(res.statusCode).toBe(409);
    expect(errorOf(res)).toMatchObject({ reason: 'owns_teams', message: SETTINGS_MSG.ownsTeams(['Owned Crew']) });
    expect((await me(owner)).status).toBe(200);
  });

  it('needs the typed address and the password, then anonymises the account and keeps its tasks', async () => {
    const owner = await createUser(ctx.app, { fullName: 'Olive Owner' });
    const leaver = await createUser(ctx.app, { fullName: 'Lee Leaver' });
    const db = ctx.database.db;
    const team = await insertTeam(db, owner, 'Stays Crew');
    await insertMember(db, team.id, leaver);
    const project = await call(owner, 'POST', '/api/projects', { name: 'Kept', teamId: team.id });
    const projectId = (project.json() as { id: string }).id;
    const created = await call(leaver, 'POST', '/api/tasks', { title: 'Made by the leaver', projectId, assigneeId: leaver.id });
    expect(created.statusCode, created.body).toBe(201);
    const taskId = (created.json() as { id: string }).id;
    await db.insert(oauthIdentities).values({ issuer: 'https://idp.example', subject: 'leaver', userId: leaver.id });

    const del = (body: Record<string, unknown>) => call(leaver, 'POST', '/api/me/delete', body);
    expect(errorOf(await del({ email: 'someone@else.example', currentPassword: leaver.password })).reason).toBe(
      'delete_confirmation_mismatch',
    );
    expect(errorOf(await del({ email: leaver.email })).reason).toBe('wrong_password');
    const res = await del({ email: ` ${leaver.email.toUpperCase()}`, currentPassword: leaver.password });
    expect(res.statusCode, res.body).toBe(204);

    expect((await me(leaver)).status).toBe(401);
    await expect(signIn(ctx.app, leaver.email, leaver.password)).rejects.toThrow(/400/);
    const [row] = await db.select().from(users).where(eq(users.id, leaver.id));
    expect(row).toMatchObject({
      fullName: SETTINGS_MSG.deletedUserName,
      isActive: false,
      email: `deleted-${leaver.id}@deleted.invalid`,
    });
    expect(await db.select().from(oauthIdentities).where(eq(oauthIdentities.userId, leaver.id))).toHaveLength(0);
    expect(
      await db
        .select()
        .from(teamMembers)
        .where(and(eq(teamMembers.userId, leaver.id), eq(teamMembers.teamId, team.id))),
    ).toHaveLength(0);
    // The task stays, created by the anonymised account, now unassigned.
    const task = await call(owner, 'GET', `/api/tasks/${taskId}`);
    expect(task.statusCode, task.body).toBe(200);
    const [taskRow] = await db.select().from(tasks).where(eq(tasks.id, taskId));
    expect(taskRow).toMatchObject({ creatorId: leaver.id, assigneeId: null });
    // The address is free again.
    await createUser(ctx.app, { email: leaver.email });
  });
});

describe('settings: notification preferences', () => {
  /** The user's notifications once there are any (they are written after the change commits), within 10 s. */
  async function firstNotifications(user: TestUser): Promise<NotificationListDto> {
    const start = Date.now();
    let list: NotificationListDto;
    do {
      list = (await call(user, 'GET', '/api/notifications')).json() as NotificationListDto;
      if (list.total > 0) break;
      await new Promise((r) => setTimeout(r, 25));
    } while (Date.now() - start < 10_000);
    return list;
  }

  it('round-trips every kind and the digest', async () => {
    const user = await createUser(ctx.app);
    const first = (await call(user, 'GET', '/api/me/notification-preferences')).json() as NotificationPreferencesDto;
    expect(first.digestEnabled).toBe(true);
    expect(Object.keys(first.preferences).sort()).toEqual([...NOTIFICATION_PREFERENCE_KINDS].sort());
    expect(Object.values(first.preferences).every((p) => p.inApp && p.email)).toBe(true);

    const next: NotificationPreferencesDto = {
      preferences: {
        ...first.preferences,
        task_assigned: { inApp: false, email: true },
        mentioned: { inApp: true, email: false },
      },
      digestEnabled: false,
    };
    const put = await call(user, 'PUT', '/api/me/notification-preferences', next);
    expect(put.statusCode, put.body).toBe(200);
    expect((await call(user, 'GET', '/api/me/notification-preferences')).json()).toEqual(next);
    const [row] = await ctx.database.db.select().from(users).where(eq(users.id, user.id));
    expect(row?.digestEnabled).toBe(false);

    const { task_assigned: _dropped, ...missing } = next.preferences;
    const bad = await call(user, 'PUT', '/api/me/notification-preferences', { ...next, preferences: missing });
    expect(bad.statusCode).toBe(400);
    const unknown = await call(user, 'PUT', '/api/me/notification-preferences', {
      ...next,
      preferences: { ...next.preferences, weather: { inApp: true, email: true } },
    });
    expect(unknown.statusCode).toBe(400);
  });

  it('an in-app kind turned off is not written; the others still are', async () => {
    const [owner, member] = await Promise.all([createUser(ctx.app, { fullName: 'Olive Owner' }), createUser(ctx.app)]);
    const team = await insertTeam(ctx.database.db, owner, 'Quiet Crew');
    await insertMember(ctx.database.db, team.id, member);
    const prefs = (await call(member, 'GET', '/api/me/notification-preferences')).json() as NotificationPreferencesDto;
    prefs.preferences.task_assigned = { inApp: false, email: true };
    expect((await call(member, 'PUT', '/api/me/notification-preferences', prefs)).statusCode).toBe(200);

    const project = await call(owner, 'POST', '/api/projects', { name: 'Hush', teamId: team.id });
    const projectId = (project.json() as { id: string }).id;
    const task = await call(owner, 'POST', '/api/tasks', { title: 'Muted', projectId, assigneeId: member.id });
    expect(task.statusCode, task.body).toBe(201);
    // The completion (a kind still on) is written after the assignment's event was handled: the sentinel.
    await call(owner, 'PATCH', `/api/tasks/${(task.json() as { id: string }).id}/status`, { status: 'completed' });
    expect((await firstNotifications(member)).notifications.map((n) => n.type)).toEqual(['task_completed']);
  });

  it("one person's muted kind mutes nobody else's (the members and their muted kinds are read in one statement)", async () => {
    const [owner, quiet, loud] = await Promise.all([
      createUser(ctx.app, { fullName: 'Olive Owner' }),
      createUser(ctx.app),
      createUser(ctx.app),
    ]);
    const team = await insertTeam(ctx.database.db, owner, 'Mixed Crew');
    await insertMember(ctx.database.db, team.id, quiet);
    await insertMember(ctx.database.db, team.id, loud);
    const prefs = (await call(quiet, 'GET', '/api/me/notification-preferences')).json() as NotificationPreferencesDto;
    prefs.preferences.task_assigned = { inApp: false, email: false };
    expect((await call(quiet, 'PUT', '/api/me/notification-preferences', prefs)).statusCode).toBe(200);

    const projectId = ((await call(owner, 'POST', '/api/projects', { name: 'Both', teamId: team.id })).json() as { id: string })
      .id;
    for (const assignee of [quiet, loud]) {
      const task = await call(owner, 'POST', '/api/tasks', { title: 'Assigned', projectId, assigneeId: assignee.id });
      expect(task.statusCode, task.body).toBe(201);
    }
    expect((await firstNotifications(loud)).notifications.map((n) => n.type)).toEqual(['task_assigned']);
    expect(((await call(quiet, 'GET', '/api/notifications')).json() as NotificationListDto).total).toBe(0);
  });
});

describe('settings: who may call', () => {
  it('refuses anonymous callers, and a caller only ever changes their own account', async () => {
    const routes: [Method, string][] = [
      ['GET', '/api/me/profile'],
      ['PATCH', '/api/me/profile'],
      ['POST', '/api/me/email'],
      ['POST', '/api/me/password'],
      ['POST', '/api/me/delete'],
      ['GET', '/api/me/notification-preferences'],
      ['PUT', '/api/me/notification-preferences'],
    ];
    for (const [method, url] of routes) expect((await call(null, method, url, {})).statusCode, `${method} ${url}`).toBe(401);

    const [victim, stranger] = await Promise.all([createUser(ctx.app, { fullName: 'Vic Victim' }), createUser(ctx.app)]);
    // Ids in a body are not taken: there is no way to name another account.
    const res = await call(stranger, 'PATCH', '/api/me/profile', { fullName: 'Taken Over', userId: victim.id });
    expect(res.statusCode).toBe(400);
    const del = await call(stranger, 'POST', '/api/me/delete', { email: victim.email, currentPassword: victim.password });
    expect(errorOf(del).reason).toBe('delete_confirmation_mismatch');
    expect((await me(victim)).user?.fullName).toBe('Vic Victim');
    // A forged or empty token confirms nothing.
    for (const token of ['', 'x'.repeat(43), 'a'.repeat(500)]) {
      const r = await ctx.app.inject({ method: 'POST', url: '/api/auth/confirm-email-change', payload: { token } });
      expect(r.statusCode).toBe(400);
    }
  });
});
