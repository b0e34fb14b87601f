import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { MSG } from '../../src/domain/messages';
import type { InvitationDto, TeamDto } from '../../src/domain/schemas/team';
import { teamInvitations, teamMembers } from '../../src/server/db/schema';
import { createUser, uniqueEmail } from '../factories';
import { setupTestApp } from '../helpers/app';
import { call, invite, recordTeamEvents, teamScenario } from './teams-helpers';

const ctx = setupTestApp();

const recordEvents = () => recordTeamEvents(ctx);

describe('POST /api/teams/:id/invitations', () => {
  it('owner and admin invite; member 403; stranger 404; fields come from the database', async () => {
    const s = await teamScenario(ctx, 'Invite Crew');
    const url = `/api/teams/${s.team.id}/invitations`;
    const { seen, stop } = recordEvents();
    const byOwner = await call(ctx.app, s.owner, 'POST', url, { email: '  New.Person@Example.COM ', role: 'admin' });
    stop();
    expect(byOwner.statusCode).toBe(201);
    const inv = byOwner.json() as InvitationDto;
    expect(inv).toMatchObject({
      teamId: s.team.id,
      teamName: 'Invite Crew',
      email: 'new.person@example.com',
      role: 'admin',
      status: 'pending',
      invitedBy: s.owner.id,
      inviterName: 'Olive Owner',
      inviterEmail: s.owner.email,
      respondedAt: null,
    });
    expect(seen).toContainEqual({
      type: 'invitation.created',
      teamId: s.team.id,
      actorId: s.owner.id,
      invitationId: inv.id,
      email: 'new.person@example.com',
    });

    const byAdmin = await call(ctx.app, s.admin, 'POST', url, { email: uniqueEmail() });
    expect(byAdmin.statusCode).toBe(201);
    expect(byAdmin.json()).toMatchObject({ role: 'member', inviterName: 'Adam Admin' });

    const byMember = await call(ctx.app, s.member, 'POST', url, { email: uniqueEmail(), role: 'member' });
    expect(byMember.statusCode).toBe(403);
    expect(byMember.json().error.code).toBe('permission_denied');
    expect((await call(ctx.app, s.stranger, 'POST', url, { email: uniqueEmail(), role: 'member' })).statusCode).toBe(404);
  });

  it('refuses a second pending invitation for the same email (any case) and a member email', async () => {
    const s = await teamScenario(ctx);
    const url = `/api/teams/${s.team.id}/invitations`;
    const email = uniqueEmail('dup');
    await invite(ctx.app, s.owner, s.team.id, email);
    const dup = await call(ctx.app, s.admin, 'POST', url, { email: email.toUpperCase(), role: 'admin' });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().error).toEqual({ code: 'conflict', message: MSG.invitationExists });
    for (const m of [s.member, s.owner, s.admin]) {
      const res = await call(ctx.app, s.owner, 'POST', url, { email: m.email.toUpperCase(), role: 'member' });
      expect(res.statusCode).toBe(409);
      expect(res.json().error).toEqual({ code: 'conflict', message: MSG.alreadyMember });
    }
  });

  it('of two concurrent identical invitations, exactly one is stored (201 + 409)', async () => {
    const s = await teamScenario(ctx);
    const url = `/api/teams/${s.team.id}/invitations`;
    const email = uniqueEmail('race');
    const results = await Promise.all([
      call(ctx.app, s.owner, 'POST', url, { email, role: 'member' }),
      call(ctx.app, s.admin, 'POST', url, { email, role: 'member' }),
    ]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409]);
    const loser = results.find((r) => r.statusCode === 409)!;
    expect(loser.json().error.message).toBe(MSG.invitationExists);
    const rows = await ctx.database.db
      .select()
      .from(teamInvitations)
      .where(and(eq(teamInvitations.teamId, s.team.id), eq(teamInvitations.email, email)));
    expect(rows).toHaveLength(1);
  });

  it('the database itself refuses a second pending invitation for a team+email', async () => {
    const s = await teamScenario(ctx);
    const email = uniqueEmail('db');
    await invite(ctx.app, s.owner, s.team.id, email);
    const values = {
      teamId: s.team.id,
      teamName: 'x',
      email,
      role: 'member' as const,
      invitedBy: s.owner.id,
      inviterName: 'x',
      inviterEmail: s.owner.email,
    };
    await expect(ctx.database.db.insert(teamInvitations).values(values)).rejects.toThrow();
    // An answered one does not block: the index covers only pending rows.
    await expect(ctx.database.db.insert(teamInvitations).values({ ...values, status: 'declined' })).resolves.toBeDefined();
  });

  it('validates the body: email required and valid, role member|admin only', async () => {
    const s = await teamScenario(ctx);
    const url = `/api/teams/${s.team.id}/invitations`;
    expect((await call(ctx.app, s.owner, 'POST', url, { email: '   ', role: 'member' })).statusCode).toBe(400);
    expect((await call(ctx.app, s.owner, 'POST', url, { email: 'nope', role: 'member' })).statusCode).toBe(400);
    expect((await call(ctx.app, s.owner, 'POST', url, { email: uniqueEmail(), role: 'owner' })).statusCode).toBe(400);
    expect((await call(ctx.app, s.owner, 'POST', url, { email: uniqueEmail(), teamId: s.team.id })).statusCode).toBe(400);
  });

  it('is rate limited per team (30 per hour)', async () => {
    const s = await teamScenario(ctx);
    const limiter = ctx.app.deps.rateLimiter as unknown as { enabled: boolean };
    const previous = limiter.enabled;
    Object.assign(limiter, { enabled: true });
    try {
      const url = `/api/teams/${s.team.id}/invitations`;
      const codes: number[] = [];
      for (let i = 0; i < 31; i++) {
        codes.push((await call(ctx.app, s.owner, 'POST', url, { email: uniqueEmail('rl'), role: 'member' })).statusCode);
      }
      expect(codes.slice(0, 30).every((c) => c === 201)).toBe(true);
      expect(codes[30]).toBe(429);
    } finally {
      Object.assign(limiter, { enabled: previous });
    }
  });
});

describe('GET /api/teams/:id/invitations', () => {
  it('lists pending invitations for owner and admin; member 403; stranger 404', async () => {
    const s = await teamScenario(ctx);
    const url = `/api/teams/${s.team.id}/invitations`;
    const first = await invite(ctx.app, s.owner, s.team.id, uniqueEmail('a'));
    const second = await invite(ctx.app, s.admin, s.team.id, uniqueEmail('b'));
    for (const u of [s.owner, s.admin]) {
      const res = await call(ctx.app, u, 'GET', url);
      expect(res.statusCode).toBe(200);
      expect((res.json() as InvitationDto[]).map((i) => i.id)).toEqual([second.id, first.id]);
    }
    expect((await call(ctx.app, s.member, 'GET', url)).statusCode).toBe(403);
    expect((await call(ctx.app, s.stranger, 'GET', url)).statusCode).toBe(404);
  });
});

describe('GET /api/invitations', () => {
  it('shows received (to my email) and sent (by me) pending invitations, newest first', async () => {
    const s = await teamScenario(ctx, 'Mine Crew');
    const invitee = await createUser(ctx.app, { fullName: 'Ivy Invitee' });
    const other = await call(ctx.app, s.stranger, 'POST', '/api/teams', { name: 'Other Crew' });
    const older = await invite(ctx.app, s.owner, s.team.id, invitee.email.toUpperCase(), 'admin');
    const newer = await invite(ctx.app, s.stranger, other.json().id, invitee.email);

    const mine = (await call(ctx.app, invitee, 'GET', '/api/invitations')).json();
    expect(mine.received.map((i: InvitationDto) => i.id)).toEqual([newer.id, older.id]);
    expect(mine.sent).toEqual([]);

    const owners = (await call(ctx.app, s.owner, 'GET', '/api/invitations')).json();
    expect(owners.sent.map((i: InvitationDto) => i.id)).toEqual([older.id]);
    expect(owners.received).toEqual([]);

    const members = (await call(ctx.app, s.member, 'GET', '/api/invitations')).json();
    expect(members).toEqual({ received: [], sent: [] });
  });
});

describe('POST /api/invitations/:id/respond', () => {
  it('accept creates the active membership with the invited role and stamps responded_at', async () => {
    const s = await teamScenario(ctx);
    const invitee = await createUser(ctx.app, { fullName: 'Ivy Invitee' });
    const inv = await invite(ctx.app, s.admin, s.team.id, invitee.email, 'admin');
    const url = `/api/invitations/${inv.id}/respond`;

    // Nobody but the invitee answers: team people 403, strangers 404.
    for (const u of [s.owner, s.admin, s.member]) {
      const res = await call(ctx.app, u, 'POST', url, { accept: true });
      expect(res.statusCode).toBe(403);
      expect(res.json().error.message).toBe(MSG.invitationNotForYou);
    }
    expect((await call(ctx.app, s.stranger, 'POST', url, { accept: true })).statusCode).toBe(404);

    const { seen, stop } = recordEvents();
    const res = await call(ctx.app, invitee, 'POST', url, { accept: true });
    stop();
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: inv.id, status: 'accepted' });
    expect(res.json().respondedAt).toEqual(expect.any(String));

    const team = (await call(ctx.app, invitee, 'GET', `/api/teams/${s.team.id}`)).json() as TeamDto;
    expect(team.myRole).toBe('admin');
    const mine = team.members.find((m) => m.userId === invitee.id)!;
    expect(mine).toMatchObject({ role: 'admin', status: 'active' });
    expect(seen.map((e) => e.type)).toEqual(['invitation.accepted', 'team.member_added']);

    const again = await call(ctx.app, invitee, 'POST', url, { accept: false });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe(MSG.invitationAnswered);
    expect((await call(ctx.app, invitee, 'GET', '/api/invitations')).json().received).toEqual([]);
  });

  it('decline stamps responded_at, adds nobody, and cannot be answered again', async () => {
    const s = await teamScenario(ctx);
    const invitee = await createUser(ctx.app);
    const inv = await invite(ctx.app, s.owner, s.team.id, invitee.email);
    const url = `/api/invitations/${inv.id}/respond`;
    const { seen, stop } = recordEvents();
    const res = await call(ctx.app, invitee, 'POST', url, { accept: false });
    stop();
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'declined', respondedAt: expect.any(String) });
    expect(seen.map((e) => e.type)).toEqual(['invitation.declined']);
    expect((await call(ctx.app, invitee, 'GET', `/api/teams/${s.team.id}`)).statusCode).toBe(404);
    expect((await call(ctx.app, invitee, 'POST', url, { accept: true })).statusCode).toBe(409);
    // A declined invitation does not block a new one.
    expect((await call(ctx.app, s.owner, 'POST', `/api/teams/${s.team.id}/invitations`, { email: invitee.email })).statusCode).toBe(201);
  });

  it('two concurrent accepts: one 200, one 409, one membership', async () => {
    const s = await teamScenario(ctx);
    const invitee = await createUser(ctx.app);
    const inv = await invite(ctx.app, s.owner, s.team.id, invitee.email);
    const url = `/api/invitations/${inv.id}/respond`;
    const results = await Promise.all([
      call(ctx.app, invitee, 'POST', url, { accept: true }),
      call(ctx.app, invitee, 'POST', url, { accept: true }),
    ]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    const rows = await ctx.database.db
      .select()
      .from(teamMembers)
      .where(and(eq(teamMembers.teamId, s.team.id), eq(teamMembers.userId, invitee.id)));
    expect(rows).toHaveLength(1);
  });

  it('rejects a body without a boolean accept', async () => {
    const s = await teamScenario(ctx);
    const invitee = await createUser(ctx.app);
    const inv = await invite(ctx.app, s.owner, s.team.id, invitee.email);
    expect((await call(ctx.app, invitee, 'POST', `/api/invitations/${inv.id}/respond`, { accept: 'yes' })).statusCode).toBe(400);
    expect((await call(ctx.app, invitee, 'POST', `/api/invitations/${inv.id}/respond`, {})).statusCode).toBe(400);
  });
});

describe('DELETE /api/invitations/:id', () => {
  it('owner and admin cancel; member and invitee 403; stranger 404; gone afterwards', async () => {
    const s = await teamScenario(ctx);
    const invitee = await createUser(ctx.app);
    const inv = await invite(ctx.app, s.owner, s.team.id, invitee.email);
    const url = `/api/invitations/${inv.id}`;
    for (const u of [s.member, invitee]) {
      const res = await call(ctx.app, u, 'DELETE', url);
      expect(res.statusCode).toBe(403);
      expect(res.json().error.code).toBe('permission_denied');
    }
    expect((await call(ctx.app, s.stranger, 'DELETE', url)).statusCode).toBe(404);

    const { seen, stop } = recordEvents();
    expect((await call(ctx.app, s.admin, 'DELETE', url)).statusCode).toBe(204);
    stop();
    expect(seen).toContainEqual({
      type: 'invitation.cancelled',
      teamId: s.team.id,
      actorId: s.admin.id,
      invitationId: inv.id,
      email: invitee.email,
    });
    expect((await call(ctx.app, s.owner, 'DELETE', url)).statusCode).toBe(404);
    expect((await call(ctx.app, invitee, 'GET', '/api/invitations')).json().received).toEqual([]);

    const second = await invite(ctx.app, s.owner, s.team.id, invitee.email);
    expect((await call(ctx.app, s.owner, 'DELETE', `/api/invitations/${second.id}`)).statusCode).toBe(204);
  });

  it('an answered invitation cannot be cancelled', async () => {
    const s = await teamScenario(ctx);
    const invitee = await createUser(ctx.app);
    const inv = await invite(ctx.app, s.owner, s.team.id, invitee.email);
    await call(ctx.app, invitee, 'POST', `/api/invitations/${inv.id}/respond`, { accept: false });
    const res = await call(ctx.app, s.owner, 'DELETE', `/api/invitations/${inv.id}`);
    expect(res.statusCode).toBe(409);
  });
});

describe('PATCH /api/teams/:id/members/:memberId', () => {
  it('owner and admin switch a member between member and admin', async () => {
    const s = await teamScenario(ctx);
    const { seen, stop } = recordEvents();
    const up = await call(ctx.app, s.owner, 'PATCH', `/api/teams/${s.team.id}/members/${s.memberMemberId}`, { role: 'admin' });
    stop();
    expect(up.statusCode).toBe(200);
    expect(up.json()).toMatchObject({ id: s.memberMemberId, userId: s.member.id, role: 'admin', user: { firstName: 'Mia' } });
    expect(seen).toContainEqual({
      type: 'team.member_updated',
      teamId: s.team.id,
      actorId: s.owner.id,
      userId: s.member.id,
      memberId: s.memberMemberId,
    });
    const down = await call(ctx.app, s.admin, 'PATCH', `/api/teams/${s.team.id}/members/${s.memberMemberId}`, { role: 'member' });
    expect(down.statusCode).toBe(200);
    expect(down.json().role).toBe('member');
  });

  it('nobody changes their own role; the owner cannot be demoted; a member cannot; a stranger gets 404', async () => {
    const s = await teamScenario(ctx);
    const base = `/api/teams/${s.team.id}/members`;
    const own = await call(ctx.app, s.admin, 'PATCH', `${base}/${s.adminMemberId}`, { role: 'member' });
    expect(own.statusCode).toBe(403);
    expect(own.json().error.message).toBe(MSG.cannotChangeOwnRole);
    const ownerSelf = await call(ctx.app, s.owner, 'PATCH', `${base}/${s.ownerMemberId}`, { role: 'admin' });
    expect(ownerSelf.statusCode).toBe(403);
    const demoteOwner = await call(ctx.app, s.admin, 'PATCH', `${base}/${s.ownerMemberId}`, { role: 'member' });
    expect(demoteOwner.statusCode).toBe(403);
    expect(demoteOwner.json().error.message).toBe(MSG.ownerUntouchable);
    const byMember = await call(ctx.app, s.member, 'PATCH', `${base}/${s.adminMemberId}`, { role: 'member' });
    expect(byMember.statusCode).toBe(403);
    expect(byMember.json().error.message).toBe(MSG.teamManageNoPermission);
    expect((await call(ctx.app, s.stranger, 'PATCH', `${base}/${s.memberMemberId}`, { role: 'admin' })).statusCode).toBe(404);
    expect((await call(ctx.app, s.owner, 'PATCH', `${base}/${s.memberMemberId}`, { role: 'owner' })).statusCode).toBe(400);

    const team = (await call(ctx.app, s.owner, 'GET', `/api/teams/${s.team.id}`)).json() as TeamDto;
    expect(team.members.map((m) => m.role)).toEqual(['owner', 'admin', 'member']);
  });

  it('a member of another team cannot be reached through this team (404)', async () => {
    const s = await teamScenario(ctx);
    const other = await teamScenario(ctx, 'Other');
    const res = await call(ctx.app, s.owner, 'PATCH', `/api/teams/${s.team.id}/members/${other.memberMemberId}`, { role: 'admin' });
    expect(res.statusCode).toBe(404);
    expect(res.json().error.message).toBe(MSG.memberNotFound);
  });
});

describe('DELETE /api/teams/:id/members/:memberId', () => {
  it('removes a member and that user’s invitations to the team, in one go', async () => {
    const s = await teamScenario(ctx);
    // A past, answered invitation of the member to this team.
    await ctx.database.db.insert(teamInvitations).values({
      teamId: s.team.id,
      teamName: 'x',
      email: s.member.email,
      role: 'member',
      status: 'accepted',
      invitedBy: s.owner.id,
      inviterName: 'x',
      inviterEmail: s.owner.email,
    });
    const { seen, stop } = recordEvents();
    const res = await call(ctx.app, s.admin, 'DELETE', `/api/teams/${s.team.id}/members/${s.memberMemberId}`);
    stop();
    expect(res.statusCode).toBe(204);
    expect(seen).toContainEqual({
      type: 'team.member_removed',
      teamId: s.team.id,
      actorId: s.admin.id,
      userId: s.member.id,
      memberId: s.memberMemberId,
    });
    const left = await ctx.database.db
      .select()
      .from(teamInvitations)
      .where(and(eq(teamInvitations.teamId, s.team.id), eq(teamInvitations.email, s.member.email)));
    expect(left).toEqual([]);
    expect((await call(ctx.app, s.member, 'GET', `/api/teams/${s.team.id}`)).statusCode).toBe(404);
    const again = await call(ctx.app, s.owner, 'DELETE', `/api/teams/${s.team.id}/members/${s.memberMemberId}`);
    expect(again.statusCode).toBe(404);
    expect(again.json().error).toEqual({ code: 'not_found', message: MSG.memberNotFound });
    // The removed person can be invited again.
    expect((await call(ctx.app, s.owner, 'POST', `/api/teams/${s.team.id}/invitations`, { email: s.member.email })).statusCode).toBe(201);
  });

  it('nobody removes themselves; the owner cannot be removed; a member cannot remove; stranger 404', async () => {
    const s = await teamScenario(ctx);
    const base = `/api/teams/${s.team.id}/members`;
    const self = await call(ctx.app, s.admin, 'DELETE', `${base}/${s.adminMemberId}`);
    expect(self.statusCode).toBe(403);
    expect(self.json().error.message).toBe(MSG.cannotRemoveSelf);
    expect((await call(ctx.app, s.owner, 'DELETE', `${base}/${s.ownerMemberId}`)).statusCode).toBe(403);
    const owner = await call(ctx.app, s.admin, 'DELETE', `${base}/${s.ownerMemberId}`);
    expect(owner.statusCode).toBe(403);
    expect(owner.json().error.message).toBe(MSG.ownerUntouchable);
    expect((await call(ctx.app, s.member, 'DELETE', `${base}/${s.adminMemberId}`)).statusCode).toBe(403);
    expect((await call(ctx.app, s.stranger, 'DELETE', `${base}/${s.memberMemberId}`)).statusCode).toBe(404);
    const team = (await call(ctx.app, s.owner, 'GET', `/api/teams/${s.team.id}`)).json() as TeamDto;
    expect(team.members).toHaveLength(3);
    // The owner removes the admin.
    expect((await call(ctx.app, s.owner, 'DELETE', `${base}/${s.adminMemberId}`)).statusCode).toBe(204);
  });
});
