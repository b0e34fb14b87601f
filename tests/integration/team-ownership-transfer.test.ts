import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { ERRORS } from '../../src/domain/errors';
import { SETTINGS_MSG } from '../../src/domain/settings-messages';
import type { TeamDto } from '../../src/domain/schemas/team';
import { teamMembers, teams, users } from '../../src/server/db/schema';
import { createUser } from '../factories';
import { setupTestApp } from '../helpers/app';
import { call, recordTeamEvents, teamScenario } from './teams-helpers';

/**
 * POST /api/teams/:id/transfer-ownership: the owner makes another active member the owner and becomes an admin
 * (issue 21: "the sole owner of a team must transfer or delete it first").
 */

const ctx = setupTestApp();

const transfer = (user: Parameters<typeof call>[1], teamId: string, memberId: unknown) =>
  call(ctx.app, user, 'POST', `/api/teams/${teamId}/transfer-ownership`, { memberId });

const reasonOf = (res: { json: () => unknown }) => (res.json() as { error: { reason?: string; code: string } }).error;

const roles = async (teamId: string) =>
  Object.fromEntries(
    (await ctx.database.db.select().from(teamMembers).where(eq(teamMembers.teamId, teamId))).map((m) => [m.userId, m.role]),
  );

describe('transfer of team ownership', () => {
  it('the owner makes a member the owner and becomes an admin; the team row, the events and the DTO follow', async () => {
    const s = await teamScenario(ctx);
    const events = recordTeamEvents(ctx);
    const res = await transfer(s.owner, s.team.id, s.memberMemberId);
    events.stop();
    expect(res.statusCode, res.body).toBe(200);
    const team = res.json() as TeamDto;
    expect(team.ownerId).toBe(s.member.id);
    expect(team.myRole).toBe('admin');
    expect(team.version).toBe(s.team.version + 1);
    expect(team.members.find((m) => m.userId === s.member.id)?.role).toBe('owner');
    expect(team.members.find((m) => m.userId === s.owner.id)?.role).toBe('admin');
    expect(await roles(s.team.id)).toEqual({ [s.owner.id]: 'admin', [s.admin.id]: 'admin', [s.member.id]: 'owner' });
    const [row] = await ctx.database.db.select().from(teams).where(eq(teams.id, s.team.id));
    expect(row!.ownerId).toBe(s.member.id);
    expect(events.seen).toEqual([
      { type: 'team.member_updated', teamId: s.team.id, actorId: s.owner.id, userId: s.member.id, memberId: s.memberMemberId },
      { type: 'team.member_updated', teamId: s.team.id, actorId: s.owner.id, userId: s.owner.id, memberId: s.ownerMemberId },
      { type: 'team.updated', teamId: s.team.id, actorId: s.owner.id },
    ]);

    // The new owner's view; the old owner may no longer edit the team, nor transfer it back.
    const seen = (await call(ctx.app, s.member, 'GET', `/api/teams/${s.team.id}`)).json() as TeamDto;
    expect(seen.myRole).toBe('owner');
    const back = await transfer(s.owner, s.team.id, s.ownerMemberId);
    expect(back.statusCode).toBe(403);
    expect(reasonOf(back).reason).toBe('team_transfer_denied');
    const rename = await call(ctx.app, s.owner, 'PATCH', `/api/teams/${s.team.id}`, {
      name: 'Taken Back',
      version: seen.version,
    });
    expect(rename.statusCode).toBe(403);
  });

  it('afterwards the old owner can leave and delete their account, and the new owner can delete the team', async () => {
    const s = await teamScenario(ctx, 'Handover Crew');
    const refused = await call(ctx.app, s.owner, 'POST', '/api/me/delete', {
      email: s.owner.email,
      currentPassword: s.owner.password,
    });
    expect(refused.statusCode).toBe(409);
    expect(reasonOf(refused).reason).toBe('owns_teams');
    expect(SETTINGS_MSG.ownsTeams(['Handover Crew'])).toContain('transfer it to another member or delete it');
    expect(ERRORS.owns_teams.message).toContain('transfer or delete');

    expect((await call(ctx.app, s.owner, 'POST', `/api/teams/${s.team.id}/leave`)).statusCode).toBe(403);
    expect((await transfer(s.owner, s.team.id, s.adminMemberId)).statusCode).toBe(200);
    const left = await call(ctx.app, s.owner, 'POST', `/api/teams/${s.team.id}/leave`);
    expect(left.statusCode, left.body).toBe(204);
    const deleted = await call(ctx.app, s.owner, 'POST', '/api/me/delete', {
      email: s.owner.email,
      currentPassword: s.owner.password,
    });
    expect(deleted.statusCode, deleted.body).toBe(204);

    // The new owner (it was the admin) runs the team: the old owner's actions are theirs now.
    expect((await call(ctx.app, s.admin, 'POST', `/api/teams/${s.team.id}/leave`)).statusCode).toBe(403);
    const removed = await call(ctx.app, s.admin, 'DELETE', `/api/teams/${s.team.id}`);
    expect(removed.statusCode, removed.body).toBe(204);
    expect(await ctx.database.db.select().from(teams).where(eq(teams.id, s.team.id))).toEqual([]);
  });

  it('an admin or a member may not transfer (403); nobody changes the owner by a role change or removal', async () => {
    const s = await teamScenario(ctx);
    for (const user of [s.admin, s.member]) {
      const res = await transfer(user, s.team.id, s.adminMemberId);
      expect(res.statusCode).toBe(403);
      expect(reasonOf(res)).toMatchObject({ code: 'permission_denied', reason: 'team_transfer_denied' });
    }
    // An admin cannot make themselves (or anyone) owner through the role route either: the body allows admin|member.
    const promote = await call(ctx.app, s.admin, 'PATCH', `/api/teams/${s.team.id}/members/${s.memberMemberId}`, {
      role: 'owner',
    });
    expect(promote.statusCode).toBe(400);
    expect(await roles(s.team.id)).toMatchObject({ [s.owner.id]: 'owner', [s.admin.id]: 'admin', [s.member.id]: 'member' });
  });

  it('a stranger and a missing team get 404, an anonymous caller 401', async () => {
    const s = await teamScenario(ctx);
    const stranger = await transfer(s.stranger, s.team.id, s.memberMemberId);
    expect(stranger.statusCode).toBe(404);
    expect(reasonOf(stranger).reason).toBe('team_not_found');
    const missing = await transfer(s.owner, '00000000-0000-4000-8000-000000000000', s.memberMemberId);
    expect(missing.statusCode).toBe(404);
    expect(reasonOf(missing).reason).toBe('team_not_found');
    const anonymous = await transfer(null, s.team.id, s.memberMemberId);
    expect(anonymous.statusCode).toBe(401);
    expect(await roles(s.team.id)).toMatchObject({ [s.owner.id]: 'owner', [s.member.id]: 'member' });
  });

  it('the target must be another active member of this team; bad bodies are 400, never 500', async () => {
    const s = await teamScenario(ctx);
    const other = await teamScenario(ctx, 'Other Crew');
    // A member of another team (by their membership id there), and an id of nobody: 404 member_not_found.
    for (const memberId of [other.memberMemberId, '00000000-0000-4000-8000-000000000000']) {
      const res = await transfer(s.owner, s.team.id, memberId);
      expect(res.statusCode).toBe(404);
      expect(reasonOf(res).reason).toBe('member_not_found');
    }
    const self = await transfer(s.owner, s.team.id, s.ownerMemberId);
    expect(self.statusCode).toBe(400);
    expect(reasonOf(self).reason).toBe('transfer_to_self');
    // A deactivated account cannot receive it.
    await ctx.database.db.update(users).set({ isActive: false }).where(eq(users.id, s.admin.id));
    expect(reasonOf(await transfer(s.owner, s.team.id, s.adminMemberId)).reason).toBe('member_not_found');
    for (const body of [{}, { memberId: 'not-a-uuid' }, { memberId: s.adminMemberId, role: 'owner' }, null]) {
      const res = await call(ctx.app, s.owner, 'POST', `/api/teams/${s.team.id}/transfer-ownership`, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
    expect(await roles(s.team.id)).toMatchObject({ [s.owner.id]: 'owner' });
  });

  it('two transfers at once: one wins, the team keeps exactly one owner', async () => {
    const s = await teamScenario(ctx);
    const results = await Promise.all([
      transfer(s.owner, s.team.id, s.adminMemberId),
      transfer(s.owner, s.team.id, s.memberMemberId),
    ]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 403]);
    const after = await roles(s.team.id);
    expect(Object.values(after).filter((r) => r === 'owner')).toHaveLength(1);
    expect(after[s.owner.id]).toBe('admin');
    const [row] = await ctx.database.db.select().from(teams).where(eq(teams.id, s.team.id));
    expect(after[row!.ownerId]).toBe('owner');
  });

  it('a transfer racing the removal or the departure of its target leaves the team with its owner', async () => {
    for (const race of ['remove', 'leave'] as const) {
      const s = await teamScenario(ctx);
      const [moved, gone] = await Promise.all([
        transfer(s.owner, s.team.id, s.memberMemberId),
        race === 'remove'
          ? call(ctx.app, s.admin, 'DELETE', `/api/teams/${s.team.id}/members/${s.memberMemberId}`)
          : call(ctx.app, s.member, 'POST', `/api/teams/${s.team.id}/leave`),
      ]);
      const after = await roles(s.team.id);
      const owners = Object.entries(after).filter(([, r]) => r === 'owner');
      expect(owners, `${race}: ${moved.statusCode} ${gone.statusCode}`).toHaveLength(1);
      const [row] = await ctx.database.db.select().from(teams).where(eq(teams.id, s.team.id));
      expect(owners[0]![0]).toBe(row!.ownerId);
    }
  });

  it('a transfer racing the target account deletion leaves the team with an active owner', async () => {
    const s = await teamScenario(ctx);
    const [moved, deleted] = await Promise.all([
      transfer(s.owner, s.team.id, s.memberMemberId),
      call(ctx.app, s.member, 'POST', '/api/me/delete', { email: s.member.email, currentPassword: s.member.password }),
    ]);
    const [row] = await ctx.database.db.select().from(teams).where(eq(teams.id, s.team.id));
    const [owner] = await ctx.database.db.select().from(users).where(eq(users.id, row!.ownerId));
    expect(owner!.isActive, `${moved.statusCode} ${deleted.statusCode}`).toBe(true);
    expect(Object.values(await roles(s.team.id)).filter((r) => r === 'owner')).toHaveLength(1);
  });

  it('a signed-in user with no team at all gets 404', async () => {
    const s = await teamScenario(ctx);
    const loner = await createUser(ctx.app);
    expect((await transfer(loner, s.team.id, s.memberMemberId)).statusCode).toBe(404);
  });
});
