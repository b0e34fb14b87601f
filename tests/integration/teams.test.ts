import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { MSG } from '../../src/domain/messages';
import type { TeamDto } from '../../src/domain/schemas/team';
import { teamMembers, teams } from '../../src/server/db/schema';
import { createUser } from '../factories';
import { setupTestApp } from '../helpers/app';
import { call, recordTeamEvents, teamScenario } from './teams-helpers';

const ctx = setupTestApp();

const recordEvents = () => recordTeamEvents(ctx);

describe('POST /api/teams', () => {
  it('creates the team and the active owner membership, and publishes team.created', async () => {
    const owner = await createUser(ctx.app, { fullName: 'Olive Owner' });
    const { seen, stop } = recordEvents();
    const res = await call(ctx.app, owner, 'POST', '/api/teams', { name: '  Design Crew ', description: ' Pixels ' });
    stop();
    expect(res.statusCode).toBe(201);
    const team = res.json() as TeamDto;
    expect(team).toMatchObject({ name: 'Design Crew', description: 'Pixels', ownerId: owner.id, myRole: 'owner', version: 0 });
    expect(team.members).toHaveLength(1);
    expect(team.members[0]).toMatchObject({
      userId: owner.id,
      role: 'owner',
      status: 'active',
      user: { id: owner.id, email: owner.email, firstName: 'Olive', lastName: 'Owner' },
    });
    const rows = await ctx.database.db.select().from(teamMembers).where(eq(teamMembers.teamId, team.id));
    expect(rows).toHaveLength(1);
    expect(seen).toContainEqual({ type: 'team.created', teamId: team.id, actorId: owner.id });
  });

  it('validates the name with the spec messages and rejects unknown keys', async () => {
    const u = await createUser(ctx.app);
    const blank = await call(ctx.app, u, 'POST', '/api/teams', { name: '   ' });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().error.fields.name).toBe(MSG.teamNameRequired);
    const short = await call(ctx.app, u, 'POST', '/api/teams', { name: ' a ' });
    expect(short.statusCode).toBe(400);
    expect(short.json().error.fields.name).toBe(MSG.teamNameMin);
    const extra = await call(ctx.app, u, 'POST', '/api/teams', { name: 'Good name', ownerId: u.id });
    expect(extra.statusCode).toBe(400);
    const anon = await call(ctx.app, null, 'POST', '/api/teams', { name: 'Good name' });
    expect(anon.statusCode).toBe(401);
  });

  it('leaves no team behind when the owner membership cannot be written (one transaction)', async () => {
    const u = await createUser(ctx.app);
    const db = ctx.database.db;
    await db.execute(sql`create or replace function crewboard_test_fail_owner() returns trigger language plpgsql as $$
      begin
        if exists (select 1 from teams where id = new.team_id and name = 'Txn Boom') then
          raise exception 'membership insert refused';
        end if;
        return new;
      end $$`);
    await db.execute(sql`create trigger crewboard_test_fail_owner before insert on team_members
      for each row execute function crewboard_test_fail_owner()`);
    try {
      const res = await call(ctx.app, u, 'POST', '/api/teams', { name: 'Txn Boom' });
      expect(res.statusCode).toBe(500);
      expect(res.json()).toEqual({ error: { code: 'internal', message: 'Internal server error' } });
      expect(await db.select().from(teams).where(eq(teams.name, 'Txn Boom'))).toEqual([]);
    } finally {
      await db.execute(sql`drop trigger crewboard_test_fail_owner on team_members`);
      await db.execute(sql`drop function crewboard_test_fail_owner()`);
    }
  });
});

describe('GET /api/teams', () => {
  it('lists only my teams, newest first, with my role, filtered by q on name or description', async () => {
    const s = await teamScenario(ctx, 'Rocket Squad');
    const second = await call(ctx.app, s.owner, 'POST', '/api/teams', { name: 'Zeta', description: 'Handles ROCKET fuel' });
    const other = await call(ctx.app, s.stranger, 'POST', '/api/teams', { name: 'Rocket Strangers' });
    expect(other.statusCode).toBe(201);

    const mine = (await call(ctx.app, s.owner, 'GET', '/api/teams')).json() as TeamDto[];
    expect(mine.map((t) => t.name)).toEqual(['Zeta', 'Rocket Squad']);
    expect(mine.every((t) => t.myRole === 'owner')).toBe(true);

    const asMember = (await call(ctx.app, s.member, 'GET', '/api/teams')).json() as TeamDto[];
    expect(asMember).toHaveLength(1);
    expect(asMember[0]).toMatchObject({ id: s.team.id, myRole: 'member' });
    expect(asMember[0]!.members.map((m) => m.role)).toEqual(['owner', 'admin', 'member']);

    const q = (await call(ctx.app, s.owner, 'GET', '/api/teams?q=rocket')).json() as TeamDto[];
    expect(q.map((t) => t.id)).toEqual([second.json().id, s.team.id]);
    const byDesc = (await call(ctx.app, s.owner, 'GET', '/api/teams?q=FUEL')).json() as TeamDto[];
    expect(byDesc.map((t) => t.name)).toEqual(['Zeta']);
    const wildcard = (await call(ctx.app, s.owner, 'GET', '/api/teams?q=%25')).json() as TeamDto[];
    expect(wildcard).toEqual([]);

    const strangers = (await call(ctx.app, s.stranger, 'GET', '/api/teams')).json() as TeamDto[];
    expect(strangers.map((t) => t.name)).toEqual(['Rocket Strangers']);
  });
});

describe('GET /api/teams/:id', () => {
  it('is visible to every member, 404 for a stranger, 400 for a bad id', async () => {
    const s = await teamScenario(ctx);
    for (const [u, role] of [
      [s.owner, 'owner'],
      [s.admin, 'admin'],
      [s.member, 'member'],
    ] as const) {
      const res = await call(ctx.app, u, 'GET', `/api/teams/${s.team.id}`);
      expect(res.statusCode).toBe(200);
      expect(res.json().myRole).toBe(role);
    }
    const stranger = await call(ctx.app, s.stranger, 'GET', `/api/teams/${s.team.id}`);
    expect(stranger.statusCode).toBe(404);
    expect(stranger.json().error.code).toBe('not_found');
    expect((await call(ctx.app, s.owner, 'GET', '/api/teams/not-a-uuid')).statusCode).toBe(400);
  });
});

describe('PATCH /api/teams/:id', () => {
  it('lets only the owner edit; admin and member get 403 with the spec message; stranger 404', async () => {
    const s = await teamScenario(ctx);
    const url = `/api/teams/${s.team.id}`;
    for (const u of [s.admin, s.member]) {
      const res = await call(ctx.app, u, 'PATCH', url, { name: 'Hijacked' });
      expect(res.statusCode).toBe(403);
      expect(res.json().error).toEqual({ code: 'permission_denied', reason: 'team_edit_denied', message: MSG.teamNoPermission });
    }
    expect((await call(ctx.app, s.stranger, 'PATCH', url, { name: 'Hijacked' })).statusCode).toBe(404);

    const { seen, stop } = recordEvents();
    const ok = await call(ctx.app, s.owner, 'PATCH', url, { name: 'Renamed', description: '', version: 0 });
    stop();
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ name: 'Renamed', description: null, version: 1, myRole: 'owner' });
    expect(seen).toContainEqual({ type: 'team.updated', teamId: s.team.id, actorId: s.owner.id });
  });

  it('answers 409 to an edit based on a stale version', async () => {
    const s = await teamScenario(ctx);
    const url = `/api/teams/${s.team.id}`;
    expect((await call(ctx.app, s.owner, 'PATCH', url, { name: 'First', version: 0 })).statusCode).toBe(200);
    const stale = await call(ctx.app, s.owner, 'PATCH', url, { name: 'Second', version: 0 });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().error).toEqual({ code: 'conflict', reason: 'stale_edit', message: MSG.staleEdit });
    const current = (await call(ctx.app, s.owner, 'GET', url)).json();
    expect(current.name).toBe('First');
  });

  it('keeps pending invitations showing the current team name', async () => {
    const s = await teamScenario(ctx);
    const invitee = await createUser(ctx.app);
    await call(ctx.app, s.owner, 'POST', `/api/teams/${s.team.id}/invitations`, { email: invitee.email, role: 'member' });
    await call(ctx.app, s.owner, 'PATCH', `/api/teams/${s.team.id}`, { name: 'New Name' });
    const mine = (await call(ctx.app, invitee, 'GET', '/api/invitations')).json();
    expect(mine.received[0].teamName).toBe('New Name');
  });
});

describe('DELETE /api/teams/:id', () => {
  it('is for the owner only and cascades to members and invitations', async () => {
    const s = await teamScenario(ctx);
    const url = `/api/teams/${s.team.id}`;
    for (const u of [s.admin, s.member]) {
      const res = await call(ctx.app, u, 'DELETE', url);
      expect(res.statusCode).toBe(403);
      expect(res.json().error.message).toBe(MSG.teamDeleteNoPermission);
    }
    expect((await call(ctx.app, s.stranger, 'DELETE', url)).statusCode).toBe(404);
    const invitee = await createUser(ctx.app);
    await call(ctx.app, s.owner, 'POST', `${url}/invitations`, { email: invitee.email, role: 'member' });

    const { seen, stop } = recordEvents();
    expect((await call(ctx.app, s.owner, 'DELETE', url)).statusCode).toBe(204);
    stop();
    expect(seen).toContainEqual({ type: 'team.deleted', teamId: s.team.id, actorId: s.owner.id });
    expect((await call(ctx.app, s.owner, 'GET', url)).statusCode).toBe(404);
    expect(await ctx.database.db.select().from(teamMembers).where(eq(teamMembers.teamId, s.team.id))).toEqual([]);
    expect((await call(ctx.app, invitee, 'GET', '/api/invitations')).json().received).toEqual([]);
  });
});

describe('POST /api/teams/:id/leave', () => {
  it('lets admin and member leave; the owner cannot; a stranger gets 404', async () => {
    const s = await teamScenario(ctx);
    const url = `/api/teams/${s.team.id}/leave`;
    const owner = await call(ctx.app, s.owner, 'POST', url);
    expect(owner.statusCode).toBe(403);
    expect(owner.json().error.message).toBe(MSG.ownerCannotLeave);
    expect((await call(ctx.app, s.stranger, 'POST', url)).statusCode).toBe(404);

    const { seen, stop } = recordEvents();
    expect((await call(ctx.app, s.member, 'POST', url)).statusCode).toBe(204);
    stop();
    expect(seen).toContainEqual({
      type: 'team.member_removed',
      teamId: s.team.id,
      actorId: s.member.id,
      userId: s.member.id,
      memberId: s.memberMemberId,
    });
    expect((await call(ctx.app, s.member, 'GET', `/api/teams/${s.team.id}`)).statusCode).toBe(404);
    expect((await call(ctx.app, s.admin, 'POST', url)).statusCode).toBe(204);
    const team = (await call(ctx.app, s.owner, 'GET', `/api/teams/${s.team.id}`)).json() as TeamDto;
    expect(team.members.map((m) => m.userId)).toEqual([s.owner.id]);
  });
});

describe('openapi', () => {
  it('documents every teams and invitations route', async () => {
    const doc = (await ctx.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    for (const path of [
      '/api/teams',
      '/api/teams/{id}',
      '/api/teams/{id}/leave',
      '/api/teams/{id}/members/{memberId}',
      '/api/teams/{id}/invitations',
      '/api/invitations',
      '/api/invitations/{id}',
      '/api/invitations/{id}/respond',
    ]) {
      expect(doc.paths[path], path).toBeDefined();
    }
  });
});
