import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { MSG } from '../../src/domain/messages';
import type { NotificationListDto } from '../../src/domain/schemas/notification';
import type { InvitationDto, MyInvitationsDto, TeamDto } from '../../src/domain/schemas/team';
import { buildApp } from '../../src/server/app';
import { loadConfig } from '../../src/server/config';
import { teamInvitations, teamMembers } from '../../src/server/db/schema';
import { createUser, type TestUser, uniqueEmail } from '../factories';
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
    expect(dup.json().error).toEqual({ code: 'conflict', reason: 'invitation_exists', message: MSG.invitationExists });
    for (const m of [s.member, s.owner, s.admin]) {
      const res = await call(ctx.app, s.owner, 'POST', url, { email: m.email.toUpperCase(), role: 'member' });
      expect(res.statusCode).toBe(409);
      expect(res.json().error).toEqual({ code: 'conflict', reason: 'already_member', message: MSG.alreadyMember });
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
    expect(
      (await call(ctx.app, s.owner, 'POST', `/api/teams/${s.team.id}/invitations`, { email: invitee.email })).statusCode,
    ).toBe(201);
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
    const res = await call(ctx.app, s.owner, 'PATCH', `/api/teams/${s.team.id}/members/${other.memberMemberId}`, {
      role: 'admin',
    });
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
    expect(again.json().error).toEqual({ code: 'not_found', reason: 'member_not_found', message: MSG.memberNotFound });
    // The removed person can be invited again.
    expect(
      (await call(ctx.app, s.owner, 'POST', `/api/teams/${s.team.id}/invitations`, { email: s.member.email })).statusCode,
    ).toBe(201);
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

describe('invitations that are no longer live (finding 8)', () => {
  /** Moves an invitation's sending time back, in the database (no sleeping). */
  const age = (invitationId: string, interval: string) =>
    ctx.database.db
      .update(teamInvitations)
      .set({ invitedAt: sql`now() - ${interval}::interval` })
      .where(eq(teamInvitations.id, invitationId));
  const received = async (user: TestUser) =>
    ((await call(ctx.app, user, 'GET', '/api/invitations')).json() as MyInvitationsDto).received;
  const expired = { code: 'conflict', reason: 'invitation_expired', message: 'This invitation has expired.' };

  it('finding 8: an invitation older than 7 days cannot be accepted', async () => {
    const s = await teamScenario(ctx, 'Expiry Crew');
    const [late, onTime] = await Promise.all([createUser(ctx.app), createUser(ctx.app)]);
    const old = await invite(ctx.app, s.owner, s.team.id, late.email);
    const recent = await invite(ctx.app, s.owner, s.team.id, onTime.email);
    await age(old.id, '7 days 1 minute');
    await age(recent.id, '6 days 23 hours');

    // Neither accepted nor declined, and no membership comes of it.
    for (const accept of [true, false]) {
      const res = await call(ctx.app, late, 'POST', `/api/invitations/${old.id}/respond`, { accept });
      expect(res.statusCode).toBe(409);
      expect(res.json().error).toEqual(expired);
    }
    expect((await call(ctx.app, late, 'GET', `/api/teams/${s.team.id}`)).statusCode).toBe(404);
    // Listed nowhere as pending: not to the invitee, not to the inviter, not in the team's list.
    expect(await received(late)).toEqual([]);
    expect(((await call(ctx.app, s.owner, 'GET', '/api/invitations')).json() as MyInvitationsDto).sent.map((i) => i.id)).toEqual([
      recent.id,
    ]);
    const teamList = (await call(ctx.app, s.admin, 'GET', `/api/teams/${s.team.id}/invitations`)).json() as InvitationDto[];
    expect(teamList.map((i) => i.id)).toEqual([recent.id]);

    // Just under 7 days is still good.
    expect((await received(onTime)).map((i) => i.id)).toEqual([recent.id]);
    expect((await call(ctx.app, onTime, 'POST', `/api/invitations/${recent.id}/respond`, { accept: true })).statusCode).toBe(200);
  });

  it('finding 8: an expired invitation does not block a new one to the same address, which replaces it', async () => {
    const s = await teamScenario(ctx, 'Reinvite Crew');
    const invitee = await createUser(ctx.app);
    const old = await invite(ctx.app, s.owner, s.team.id, invitee.email);
    const url = `/api/teams/${s.team.id}/invitations`;
    expect((await call(ctx.app, s.admin, 'POST', url, { email: invitee.email })).statusCode).toBe(409);
    await age(old.id, '8 days');

    const res = await call(ctx.app, s.admin, 'POST', url, { email: invitee.email, role: 'admin' });
    expect(res.statusCode).toBe(201);
    const fresh = res.json() as InvitationDto;
    const rows = await ctx.database.db
      .select({ id: teamInvitations.id })
      .from(teamInvitations)
      .where(and(eq(teamInvitations.teamId, s.team.id), eq(teamInvitations.email, invitee.email)));
    expect(rows).toEqual([{ id: fresh.id }]);
    expect((await call(ctx.app, invitee, 'POST', `/api/invitations/${fresh.id}/respond`, { accept: true })).json()).toMatchObject(
      {
        status: 'accepted',
        role: 'admin',
      },
    );
  });

  it('finding 8: of two concurrent invitations replacing an expired one, exactly one is stored (201 + 409)', async () => {
    const s = await teamScenario(ctx, 'Replace Race Crew');
    const email = uniqueEmail('replace');
    const old = await invite(ctx.app, s.owner, s.team.id, email);
    await age(old.id, '8 days');
    const url = `/api/teams/${s.team.id}/invitations`;
    const results = await Promise.all([
      call(ctx.app, s.owner, 'POST', url, { email, role: 'member' }),
      call(ctx.app, s.admin, 'POST', url, { email, role: 'member' }),
    ]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409]);
    const winner = results.find((r) => r.statusCode === 201)!.json() as InvitationDto;
    const rows = await ctx.database.db
      .select({ id: teamInvitations.id })
      .from(teamInvitations)
      .where(and(eq(teamInvitations.teamId, s.team.id), eq(teamInvitations.email, email)));
    expect(rows).toEqual([{ id: winner.id }]);
  });

  it('finding 8: INVITATION_TTL_DAYS sets the lifetime (default 7)', async () => {
    expect(loadConfig({ AUTH_SECRET: 'x'.repeat(40) }).invitationTtlDays).toBe(7);
    expect(loadConfig({ AUTH_SECRET: 'x'.repeat(40), INVITATION_TTL_DAYS: '1' }).invitationTtlDays).toBe(1);
    // A second app on the same database (same secret), with invitations good for one day.
    const shortLived = await buildApp({ config: { ...ctx.config, invitationTtlDays: 1 }, database: ctx.database });
    try {
      const s = await teamScenario(ctx, 'Short Crew');
      const invitee = await createUser(ctx.app);
      const inv = await invite(ctx.app, s.owner, s.team.id, invitee.email);
      await age(inv.id, '1 day 1 minute');
      expect((await received(invitee)).map((i) => i.id)).toEqual([inv.id]);
      expect(((await call(shortLived, invitee, 'GET', '/api/invitations')).json() as MyInvitationsDto).received).toEqual([]);
      const res = await call(shortLived, invitee, 'POST', `/api/invitations/${inv.id}/respond`, { accept: true });
      expect(res.json().error).toEqual(expired);
    } finally {
      await shortLived.close();
    }
  });

  it('finding 8: an invitation whose inviter lost the right to invite is no longer valid', async () => {
    const s = await teamScenario(ctx, 'Demotion Crew');
    const [first, second] = await Promise.all([createUser(ctx.app), createUser(ctx.app)]);
    const byAdmin = await invite(ctx.app, s.admin, s.team.id, first.email);
    const byOwner = await invite(ctx.app, s.owner, s.team.id, second.email);

    // The admin becomes a plain member: what they sent is dead; what the owner sent stands.
    const demote = await call(ctx.app, s.owner, 'PATCH', `/api/teams/${s.team.id}/members/${s.adminMemberId}`, {
      role: 'member',
    });
    expect(demote.statusCode).toBe(200);
    expect(await received(first)).toEqual([]);
    expect((await received(second)).map((i) => i.id)).toEqual([byOwner.id]);
    const res = await call(ctx.app, first, 'POST', `/api/invitations/${byAdmin.id}/respond`, { accept: true });
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toEqual(expired);
    expect((await call(ctx.app, first, 'GET', `/api/teams/${s.team.id}`)).statusCode).toBe(404);
    const teamList = (await call(ctx.app, s.owner, 'GET', `/api/teams/${s.team.id}/invitations`)).json() as InvitationDto[];
    expect(teamList.map((i) => i.id)).toEqual([byOwner.id]);
    // The address can be invited again, by someone who may.
    expect((await call(ctx.app, s.owner, 'POST', `/api/teams/${s.team.id}/invitations`, { email: first.email })).statusCode).toBe(
      201,
    );

    // An inviter who is no longer in the team at all: the same.
    const third = await createUser(ctx.app);
    const other = await teamScenario(ctx, 'Removal Crew');
    const fromLeaver = await invite(ctx.app, other.admin, other.team.id, third.email);
    expect(
      (await call(ctx.app, other.owner, 'DELETE', `/api/teams/${other.team.id}/members/${other.adminMemberId}`)).statusCode,
    ).toBe(204);
    expect(await received(third)).toEqual([]);
    const late = await call(ctx.app, third, 'POST', `/api/invitations/${fromLeaver.id}/respond`, { accept: false });
    expect(late.json().error).toEqual(expired);
  });

  it('finding 8: a dead invitation brings no notification at sign-up; a live one does', async () => {
    const s = await teamScenario(ctx, 'Signup Crew');
    const email = uniqueEmail('newcomer');
    const values = {
      teamId: s.team.id,
      teamName: s.team.name,
      email,
      invitedBy: s.owner.id,
      inviterName: 'Olive Owner',
      inviterEmail: s.owner.email,
    };
    // Written straight to the database: no invitation event, so only the sign-up hook notifies.
    await ctx.database.db.insert(teamInvitations).values({ ...values, invitedAt: sql`now() - interval '8 days'` });
    const other = await teamScenario(ctx, 'Live Crew');
    await ctx.database.db
      .insert(teamInvitations)
      .values({ ...values, teamId: other.team.id, teamName: other.team.name, invitedBy: other.owner.id });

    const newcomer = await createUser(ctx.app, { email });
    const list = (await call(ctx.app, newcomer, 'GET', '/api/notifications')).json() as NotificationListDto;
    expect(list.notifications.map((n) => n.data)).toEqual([expect.objectContaining({ teamId: other.team.id })]);
  });
});
