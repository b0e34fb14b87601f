import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { insertDefaultStatuses } from '../../src/server/db/project-statuses';
import { projects, tasks, users } from '../../src/server/db/schema';
import { createUser, insertTeam, signIn, type TestUser } from '../factories';
import { setupTestApp } from '../helpers/app';

const ctx = setupTestApp();

async function makeSuperAdmin(user: TestUser) {
  await ctx.database.db.update(users).set({ role: 'super_admin' }).where(eq(users.id, user.id));
}

const get = (url: string, user?: TestUser) => ctx.app.inject({ method: 'GET', url, headers: user?.auth ?? {} });
const patch = (url: string, payload: unknown, user?: TestUser) =>
  ctx.app.inject({ method: 'PATCH', url, payload: payload as object, headers: user?.auth ?? {} });

describe('admin API', () => {
  it('answers 401 to anonymous callers and 403 to a team_member on every route', async () => {
    const member = await createUser(ctx.app);
    const other = await createUser(ctx.app);
    const routes = [
      () => get('/api/admin/overview'),
      () => get('/api/admin/users'),
      () => patch(`/api/admin/users/${other.id}`, { isActive: false }),
    ];
    for (const call of routes) {
      const res = await call();
      expect(res.statusCode).toBe(401);
      expect(res.json().error.code).toBe('unauthenticated');
    }
    const asMember = [
      () => get('/api/admin/overview', member),
      () => get('/api/admin/users', member),
      () => patch(`/api/admin/users/${other.id}`, { isActive: false }, member),
    ];
    for (const call of asMember) {
      const res = await call();
      expect(res.statusCode).toBe(403);
      expect(res.json().error.code).toBe('permission_denied');
    }
    // The member's attempt changed nothing.
    const [row] = await ctx.database.db.select().from(users).where(eq(users.id, other.id));
    expect(row!.isActive).toBe(true);
  });

  it('a role change applies on the next request (no stale role in the token)', async () => {
    const u = await createUser(ctx.app);
    expect((await get('/api/admin/overview', u)).statusCode).toBe(403);
    await makeSuperAdmin(u);
    expect((await get('/api/admin/overview', u)).statusCode).toBe(200);
  });

  it('shows real figures, recent users newest first and system alerts', async () => {
    const admin = await createUser(ctx.app, { fullName: 'Ada Admin' });
    await makeSuperAdmin(admin);
    const before = (await get('/api/admin/overview', admin)).json();

    const owner = await createUser(ctx.app, { fullName: 'Newest Person' });
    const team = await insertTeam(ctx.database.db, owner);
    const [project] = await ctx.database.db
      .insert(projects)
      .values({ name: 'P', teamId: team.id, ownerId: owner.id })
      .returning();
    await insertDefaultStatuses(ctx.database.db, [project!.id]);
    await ctx.database.db.insert(tasks).values([
      { title: 'done now', projectId: project!.id, creatorId: owner.id, status: 'completed' },
      { title: 'open', projectId: project!.id, creatorId: owner.id, status: 'todo' },
      // Completed long ago: not this month.
      {
        title: 'done last year',
        projectId: project!.id,
        creatorId: owner.id,
        status: 'completed',
        updatedAt: new Date(Date.now() - 400 * 24 * 3600 * 1000),
      },
    ]);
    // Seen 40 days ago: not active in the last 30 days.
    const stale = await createUser(ctx.app, { fullName: 'Stale Sam' });
    await ctx.database.db
      .update(users)
      .set({ lastSeenAt: new Date(Date.now() - 40 * 24 * 3600 * 1000) })
      .where(eq(users.id, stale.id));
    await ctx.database.db.update(users).set({ lastSeenAt: new Date() }).where(eq(users.id, owner.id));

    const res = await get('/api/admin/overview', admin);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    const [{ n: totalUsers }] = (await ctx.database.db.select({ n: sql<number>`count(*)::int` }).from(users)) as [{ n: number }];
    expect(body.stats.totalUsers).toBe(totalUsers);
    expect(body.stats.totalUsers).toBe(before.stats.totalUsers + 2);
    expect(body.stats.teams).toBe(before.stats.teams + 1);
    expect(body.stats.projects).toBe(before.stats.projects + 1);
    expect(body.stats.tasks).toBe(before.stats.tasks + 3);
    expect(body.stats.tasksCompletedThisMonth).toBe(before.stats.tasksCompletedThisMonth + 1);
    expect(body.stats.activeUsers30d).toBeGreaterThanOrEqual(2); // the admin (via this call) and the owner
    const activeRows = await ctx.database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(users)
      .where(sql`last_seen_at >= now() - interval '30 days'`);
    expect(body.stats.activeUsers30d).toBe(Number(activeRows[0]!.n));

    expect(body.recentUsers[0]).toMatchObject({ fullName: 'Stale Sam', role: 'team_member', isActive: true });
    expect(body.recentUsers[1]).toMatchObject({ fullName: 'Newest Person', email: owner.email });
    const times = body.recentUsers.map((u: { createdAt: string }) => Date.parse(u.createdAt));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    expect(body.recentUsers[0]).not.toHaveProperty('passwordHash');

    const byId = Object.fromEntries(body.alerts.map((a: { id: string }) => [a.id, a]));
    expect(byId.database).toMatchObject({ type: 'info', title: 'Database reachable' });
    expect(byId.migrations).toMatchObject({ type: 'info', title: 'Migrations current' });
    expect(byId.google).toMatchObject({ type: 'warning', title: 'Google sign-in not configured' });
  });

  it('flags pending migrations when the database lags the journal', async () => {
    const admin = await createUser(ctx.app);
    await makeSuperAdmin(admin);
    const rows = (await ctx.database.db.execute(
      sql`select id, hash, created_at from drizzle.__drizzle_migrations`,
    )) as unknown as {
      rows: { id: number; hash: string; created_at: string }[];
    };
    await ctx.database.db.execute(sql`delete from drizzle.__drizzle_migrations`);
    try {
      const body = (await get('/api/admin/overview', admin)).json();
      const migrations = body.alerts.find((a: { id: string }) => a.id === 'migrations');
      expect(migrations).toMatchObject({ type: 'error', title: 'Migrations pending' });
    } finally {
      for (const r of rows.rows) {
        await ctx.database.db.execute(
          sql`insert into drizzle.__drizzle_migrations (id, hash, created_at) values (${r.id}, ${r.hash}, ${r.created_at})`,
        );
      }
    }
    const after = (await get('/api/admin/overview', admin)).json();
    expect(after.alerts.find((a: { id: string }) => a.id === 'migrations').type).toBe('info');
  });

  it('searches users by name or email', async () => {
    const admin = await createUser(ctx.app);
    await makeSuperAdmin(admin);
    const target = await createUser(ctx.app, { fullName: 'Zebedee Quux' });
    const res = await get('/api/admin/users?q=zebedee', admin);
    expect(res.statusCode).toBe(200);
    expect(res.json().users.map((u: { id: string }) => u.id)).toEqual([target.id]);
    const byEmail = await get(`/api/admin/users?q=${encodeURIComponent(target.email.toUpperCase())}`, admin);
    expect(byEmail.json().users.map((u: { id: string }) => u.id)).toEqual([target.id]);
    // LIKE wildcards are taken literally.
    expect((await get('/api/admin/users?q=%25', admin)).json().users).toEqual([]);
  });

  it('deactivation ends every session of the user at once; reactivation lets them sign in again', async () => {
    const admin = await createUser(ctx.app);
    await makeSuperAdmin(admin);
    const target = await createUser(ctx.app);
    const second = await signIn(ctx.app, target.email, target.password);
    expect((await get('/api/auth/user', target)).statusCode).toBe(200);

    const res = await patch(`/api/admin/users/${target.id}`, { isActive: false }, admin);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: target.id, isActive: false });

    // Both sessions are over: access tokens refused, refresh tokens refused.
    expect((await get('/api/auth/user', target)).statusCode).toBe(401);
    expect((await get('/api/auth/user', second)).statusCode).toBe(401);
    for (const s of [target.session, second.session]) {
      const refresh = await ctx.app.inject({
        method: 'POST',
        url: '/api/auth/token?grant_type=refresh_token',
        payload: { refresh_token: s.refresh_token },
      });
      expect(refresh.statusCode).toBe(400);
    }
    const revoked = await ctx.database.db.execute(
      sql`select count(*)::int as n from sessions where user_id = ${target.id} and revoked_at is null`,
    );
    expect(Number((revoked as unknown as { rows: { n: number }[] }).rows[0]!.n)).toBe(0);
    const signInAgain = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/token?grant_type=password',
      payload: { email: target.email, password: target.password },
    });
    expect(signInAgain.statusCode).toBe(400);

    const back = await patch(`/api/admin/users/${target.id}`, { isActive: true }, admin);
    expect(back.statusCode).toBe(200);
    expect(back.json().isActive).toBe(true);
    await expect(signIn(ctx.app, target.email, target.password)).resolves.toMatchObject({ id: target.id });
  });

  it('refuses self-deactivation, and keeps the admin signed in', async () => {
    const admin = await createUser(ctx.app);
    await makeSuperAdmin(admin);
    const res = await patch(`/api/admin/users/${admin.id}`, { isActive: false }, admin);
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toMatchObject({ code: 'permission_denied', message: 'You cannot deactivate your own account' });
    expect((await get('/api/admin/overview', admin)).statusCode).toBe(200);
  });

  it('validates input: unknown user 404, bad id 400, unknown keys 400, role not writable', async () => {
    const admin = await createUser(ctx.app);
    await makeSuperAdmin(admin);
    const target = await createUser(ctx.app);
    expect((await patch('/api/admin/users/00000000-0000-4000-8000-000000000000', { isActive: false }, admin)).statusCode).toBe(
      404,
    );
    expect((await patch('/api/admin/users/not-a-uuid', { isActive: false }, admin)).statusCode).toBe(400);
    expect((await patch(`/api/admin/users/${target.id}`, { isActive: 'no' }, admin)).statusCode).toBe(400);
    const sneaky = await patch(`/api/admin/users/${target.id}`, { isActive: true, role: 'super_admin' }, admin);
    expect(sneaky.statusCode).toBe(400);
    const [row] = await ctx.database.db.select().from(users).where(eq(users.id, target.id));
    expect(row!.role).toBe('team_member');
  });

  it('documents the admin routes in the OpenAPI document', async () => {
    const doc = (await get('/api/openapi.json')).json();
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/api/admin/overview', '/api/admin/users', '/api/admin/users/{id}']),
    );
  });
});
