import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { MSG } from '../../src/domain/messages';
import type { ProjectDto } from '../../src/domain/schemas/project';
import type { DomainEvent } from '../../src/server/lib/events';
import { projects, tasks } from '../../src/server/db/schema';
import { createUser, insertMember, insertTeam, type TestUser } from '../factories';
import { apiRequests } from '../helpers/api';
import { setupTestApp } from '../helpers/app';

const ctx = setupTestApp();

/** A team with an owner, an admin, a plain member, and a stranger (in another team of their own). */
async function world() {
  const [owner, admin, member, stranger] = await Promise.all([
    createUser(ctx.app, { fullName: 'Olive Owner' }),
    createUser(ctx.app, { fullName: 'Adam Admin' }),
    createUser(ctx.app, { fullName: 'Mia Member' }),
    createUser(ctx.app, { fullName: 'Sam Stranger' }),
  ]);
  const db = ctx.database.db;
  const team = await insertTeam(db, owner, 'Apollo Team');
  await insertMember(db, team.id, admin, 'admin');
  await insertMember(db, team.id, member, 'member');
  const otherTeam = await insertTeam(db, stranger, 'Other Team');
  return { owner, admin, member, stranger, team, otherTeam };
}

const { call } = apiRequests(ctx);

async function createProject(user: TestUser, body: Record<string, unknown>): Promise<ProjectDto> {
  const res = await call(user, 'POST', '/api/projects', body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

function captureEvents(): DomainEvent[] {
  const seen: DomainEvent[] = [];
  ctx.app.deps.events.subscribe((e) => seen.push(e));
  return seen;
}

describe('projects API', () => {
  it('lets any active member create a project in their team: owner = caller, progress 0, planning by default', async () => {
    const w = await world();
    const events = captureEvents();
    const p = await createProject(w.member, {
      name: '  Website relaunch ',
      description: 'New site',
      teamId: w.team.id,
      startDate: '2030-01-01',
      endDate: '2030-02-01',
    });
    expect(p).toMatchObject({
      name: 'Website relaunch',
      description: 'New site',
      status: 'planning',
      ownerId: w.member.id,
      teamId: w.team.id,
      teamName: 'Apollo Team',
      teamMemberCount: 3,
      startDate: '2030-01-01',
      endDate: '2030-02-01',
      progress: 0,
      taskCount: 0,
      version: 0,
      myRole: 'member',
    });
    expect(events).toContainEqual(
      expect.objectContaining({ type: 'project.created', projectId: p.id, teamId: w.team.id, actorId: w.member.id, progress: 0 }),
    );
    // The owner sees the same project as editable.
    const asOwner = await call(w.owner, 'GET', `/api/projects/${p.id}`);
    expect(asOwner.statusCode).toBe(200);
    expect(asOwner.json()).toMatchObject({ id: p.id, myRole: expect.stringMatching(/^(owner|admin)$/) });
  });

  it('refuses to create a project in a team the caller is not in (404) and answers a missing team 404', async () => {
    const w = await world();
    const res = await call(w.stranger, 'POST', '/api/projects', { name: 'Sneaky', teamId: w.team.id });
    expect(res.statusCode).toBe(404);
    expect(res.json().error.code).toBe('not_found');
    const missing = await call(w.owner, 'POST', '/api/projects', { name: 'X', teamId: crypto.randomUUID() });
    expect(missing.statusCode).toBe(404);
    expect(await ctx.database.db.select().from(projects).where(eq(projects.name, 'Sneaky'))).toHaveLength(0);
  });

  it('validates: name required, end date after start date (400 with the spec message), unknown status', async () => {
    const w = await world();
    const noName = await call(w.owner, 'POST', '/api/projects', { name: '   ', teamId: w.team.id });
    expect(noName.statusCode).toBe(400);
    expect(noName.json().error).toMatchObject({ code: 'validation_failed', message: MSG.projectNameRequired });

    for (const endDate of ['2030-01-01', '2029-12-31']) {
      const res = await call(w.owner, 'POST', '/api/projects', {
        name: 'Dates',
        teamId: w.team.id,
        startDate: '2030-01-01',
        endDate,
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toMatchObject({
        code: 'validation_failed',
        message: MSG.endAfterStart,
        fields: { endDate: MSG.endAfterStart },
      });
    }
    const badStatus = await call(w.owner, 'POST', '/api/projects', { name: 'S', teamId: w.team.id, status: 'done' });
    expect(badStatus.statusCode).toBe(400);
    const badDate = await call(w.owner, 'POST', '/api/projects', { name: 'S', teamId: w.team.id, startDate: '2030-02-30' });
    expect(badDate.statusCode).toBe(400);
  });

  it('never writes progress or owner_id/ownerId from a body', async () => {
    const w = await world();
    for (const extra of [{ progress: 80 }, { owner_id: w.stranger.id }, { ownerId: w.stranger.id }]) {
      const res = await call(w.owner, 'POST', '/api/projects', { name: 'Mass', teamId: w.team.id, ...extra });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.code).toBe('validation_failed');
    }
    const p = await createProject(w.owner, { name: 'Mine', teamId: w.team.id });
    for (const extra of [{ progress: 80 }, { owner_id: w.admin.id }, { ownerId: w.admin.id }]) {
      const res = await call(w.owner, 'PATCH', `/api/projects/${p.id}`, { name: 'Changed', ...extra });
      expect(res.statusCode).toBe(400);
    }
    const [row] = await ctx.database.db.select().from(projects).where(eq(projects.id, p.id));
    expect(row).toMatchObject({ name: 'Mine', ownerId: w.owner.id });
    expect((await call(w.owner, 'GET', `/api/projects/${p.id}`)).json()).toMatchObject({ progress: 0, taskCount: 0 });
  });

  it('lets only the team owner and admins update: member 403 with the spec message, stranger 404', async () => {
    const w = await world();
    const events = captureEvents();
    const p = await createProject(w.member, { name: 'Roadmap', teamId: w.team.id });

    const asMember = await call(w.member, 'PATCH', `/api/projects/${p.id}`, { name: 'Hijack' });
    expect(asMember.statusCode).toBe(403);
    expect(asMember.json()).toEqual({
      error: { code: 'permission_denied', reason: 'project_edit_denied', message: MSG.projectNoPermission },
    });

    const asStranger = await call(w.stranger, 'PATCH', `/api/projects/${p.id}`, { name: 'Hijack' });
    expect(asStranger.statusCode).toBe(404);
    expect(asStranger.json().error.code).toBe('not_found');

    const asAdmin = await call(w.admin, 'PATCH', `/api/projects/${p.id}`, { status: 'active', description: 'Q3 plan' });
    expect(asAdmin.statusCode).toBe(200);
    expect(asAdmin.json()).toMatchObject({
      name: 'Roadmap',
      status: 'active',
      description: 'Q3 plan',
      version: 1,
      myRole: expect.stringMatching(/^(owner|admin)$/),
    });

    const asOwner = await call(w.owner, 'PATCH', `/api/projects/${p.id}`, { name: 'Roadmap 2', description: null });
    expect(asOwner.statusCode).toBe(200);
    expect(asOwner.json()).toMatchObject({ name: 'Roadmap 2', status: 'active', description: null, version: 2 });
    expect(events.filter((e) => e.type === 'project.updated' && e.projectId === p.id)).toHaveLength(2);
  });

  it('checks the dates against the stored ones on a partial edit', async () => {
    const w = await world();
    const p = await createProject(w.owner, { name: 'Dated', teamId: w.team.id, startDate: '2030-03-01' });
    const res = await call(w.owner, 'PATCH', `/api/projects/${p.id}`, { endDate: '2030-02-01' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({ message: MSG.endAfterStart, fields: { endDate: MSG.endAfterStart } });
    const ok = await call(w.owner, 'PATCH', `/api/projects/${p.id}`, { endDate: '2030-04-01' });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ startDate: '2030-03-01', endDate: '2030-04-01' });
  });

  it('answers a stale version with 409 and keeps the newer edit', async () => {
    const w = await world();
    const p = await createProject(w.owner, { name: 'Versioned', teamId: w.team.id });
    const first = await call(w.owner, 'PATCH', `/api/projects/${p.id}`, { name: 'First', version: 0 });
    expect(first.statusCode).toBe(200);
    const stale = await call(w.admin, 'PATCH', `/api/projects/${p.id}`, { name: 'Second', version: 0 });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().error).toMatchObject({ code: 'conflict', message: MSG.staleEdit });
    expect((await call(w.owner, 'GET', `/api/projects/${p.id}`)).json().name).toBe('First');
  });

  it('moves a project to another team only when the caller is a member there too', async () => {
    const w = await world();
    const p = await createProject(w.owner, { name: 'Mover', teamId: w.team.id });
    const foreign = await call(w.owner, 'PATCH', `/api/projects/${p.id}`, { teamId: w.otherTeam.id });
    expect(foreign.statusCode).toBe(404);

    const second = await insertTeam(ctx.database.db, w.admin, 'Admin Team');
    // The member is assigned a task; they are not in the target team, so the move unassigns them.
    await ctx.database.db.insert(tasks).values({ title: 'T', projectId: p.id, creatorId: w.owner.id, assigneeId: w.member.id });
    const moved = await call(w.owner, 'PATCH', `/api/projects/${p.id}`, { teamId: second.id });
    expect(moved.statusCode).toBe(404); // owner is not in the admin's team

    const byAdmin = await call(w.admin, 'PATCH', `/api/projects/${p.id}`, { teamId: second.id });
    expect(byAdmin.statusCode).toBe(200);
    expect(byAdmin.json()).toMatchObject({
      teamId: second.id,
      teamName: 'Admin Team',
      teamMemberCount: 1,
      myRole: expect.stringMatching(/^(owner|admin)$/),
    });
    const [task] = await ctx.database.db.select().from(tasks).where(eq(tasks.projectId, p.id));
    expect(task!.assigneeId).toBeNull();
    // The old team's owner no longer sees it.
    expect((await call(w.owner, 'GET', `/api/projects/${p.id}`)).statusCode).toBe(404);
  });

  it('lets only the owner and admins delete (cascading tasks): member 403, stranger 404', async () => {
    const w = await world();
    const events = captureEvents();
    const p = await createProject(w.member, { name: 'Doomed', teamId: w.team.id });
    await ctx.database.db.insert(tasks).values({ title: 'Child', projectId: p.id, creatorId: w.member.id });

    const asMember = await call(w.member, 'DELETE', `/api/projects/${p.id}`);
    expect(asMember.statusCode).toBe(403);
    expect(asMember.json().error.message).toBe(MSG.projectNoPermission);
    const asStranger = await call(w.stranger, 'DELETE', `/api/projects/${p.id}`);
    expect(asStranger.statusCode).toBe(404);

    const asAdmin = await call(w.admin, 'DELETE', `/api/projects/${p.id}`);
    expect(asAdmin.statusCode).toBe(204);
    expect(await ctx.database.db.select().from(tasks).where(eq(tasks.projectId, p.id))).toHaveLength(0);
    expect((await call(w.owner, 'GET', `/api/projects/${p.id}`)).statusCode).toBe(404);
    expect((await call(w.owner, 'DELETE', `/api/projects/${p.id}`)).statusCode).toBe(404);
    expect(events).toContainEqual(expect.objectContaining({ type: 'project.deleted', projectId: p.id, teamId: w.team.id }));
  });

  it('hides projects from strangers: GET one 404, absent from their list', async () => {
    const w = await world();
    const p = await createProject(w.owner, { name: 'Secret', teamId: w.team.id });
    const one = await call(w.stranger, 'GET', `/api/projects/${p.id}`);
    expect(one.statusCode).toBe(404);
    const list = await call(w.stranger, 'GET', '/api/projects');
    expect(list.statusCode).toBe(200);
    expect(list.json().map((x: ProjectDto) => x.id)).not.toContain(p.id);
    const filtered = await call(w.stranger, 'GET', `/api/projects?teamId=${w.team.id}`);
    expect(filtered.json()).toEqual([]);
    const bad = await call(w.owner, 'GET', '/api/projects/not-a-uuid');
    expect(bad.statusCode).toBe(400);
    const anonymous = await ctx.app.inject({ method: 'GET', url: '/api/projects' });
    expect(anonymous.statusCode).toBe(401);
  });

  it('lists newest first with team, status and text filters applied on the server, plus counts', async () => {
    const w = await world();
    const second = await insertTeam(ctx.database.db, w.owner, 'Beta Team');
    const a = await createProject(w.owner, { name: 'Alpha launch', teamId: w.team.id, status: 'active' });
    const b = await createProject(w.owner, { name: 'Billing', description: 'Invoices for 50% OFF deals', teamId: second.id });
    const c = await createProject(w.owner, { name: 'Cleanup', teamId: w.team.id, status: 'completed' });
    await ctx.database.db.insert(tasks).values([
      { title: '1', projectId: a.id, creatorId: w.owner.id, status: 'completed' },
      { title: '2', projectId: a.id, creatorId: w.owner.id },
      { title: '3', projectId: a.id, creatorId: w.owner.id },
    ]);
    // A bulk insert straight into the database: the task triggers count it (no app code involved).

    const ids = async (qs: string, user = w.owner) => {
      const res = await call(user, 'GET', `/api/projects${qs}`);
      expect(res.statusCode, res.body).toBe(200);
      return (res.json() as ProjectDto[]).map((p) => p.id);
    };
    expect(await ids('')).toEqual([c.id, b.id, a.id]);
    expect(await ids(`?teamId=${w.team.id}`)).toEqual([c.id, a.id]);
    expect(await ids('?status=active')).toEqual([a.id]);
    expect(await ids(`?teamId=${w.team.id}&status=completed`)).toEqual([c.id]);
    expect(await ids('?q=ALPHA')).toEqual([a.id]);
    expect(await ids('?q=invoices')).toEqual([b.id]); // description, case-insensitive
    expect(await ids('?q=50%25')).toEqual([b.id]); // a literal percent sign
    expect(await ids('?q=_')).toEqual([]); // not a wildcard
    expect(await ids('?status=archived')).toEqual([]);
    // The member sees only the first team's projects.
    expect(await ids('', w.member)).toEqual([c.id, a.id]);

    const list = (await call(w.member, 'GET', '/api/projects')).json() as ProjectDto[];
    const alpha = list.find((p) => p.id === a.id)!;
    expect(alpha).toMatchObject({ taskCount: 3, progress: 33, teamMemberCount: 3, teamName: 'Apollo Team', myRole: 'member' });

    const badStatus = await call(w.owner, 'GET', '/api/projects?status=nope');
    expect(badStatus.statusCode).toBe(400);
  });
});
