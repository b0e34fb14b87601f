import type { FastifyInstance } from 'fastify';
import type { InvitationDto, TeamDto } from '../../src/domain/schemas/team';
import { createUser, insertMember, type TestUser } from '../factories';
import type { DomainEvent } from '../../src/server/lib/events';
import type { TestContext } from '../helpers/app';

export interface TeamScenario {
  owner: TestUser;
  admin: TestUser;
  member: TestUser;
  stranger: TestUser;
  team: TeamDto;
  adminMemberId: string;
  memberMemberId: string;
  ownerMemberId: string;
}

export const call = (
  app: FastifyInstance,
  user: TestUser | null,
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  payload?: unknown,
) => app.inject({ method, url, payload: payload as never, headers: user ? user.auth : {} });

/** A team created through the API by `owner`, with an admin and a member added, plus a stranger. */
export async function teamScenario(ctx: TestContext, name = 'Alpha Crew'): Promise<TeamScenario> {
  const [owner, admin, member, stranger] = await Promise.all([
    createUser(ctx.app, { fullName: 'Olive Owner' }),
    createUser(ctx.app, { fullName: 'Adam Admin' }),
    createUser(ctx.app, { fullName: 'Mia Member' }),
    createUser(ctx.app, { fullName: 'Sam Stranger' }),
  ]);
  const res = await call(ctx.app, owner, 'POST', '/api/teams', { name, description: 'Builds things' });
  if (res.statusCode !== 201) throw new Error(`create team failed: ${res.statusCode} ${res.body}`);
  const created = res.json() as TeamDto;
  const a = await insertMember(ctx.database.db, created.id, admin, 'admin');
  const m = await insertMember(ctx.database.db, created.id, member, 'member');
  const team = (await call(ctx.app, owner, 'GET', `/api/teams/${created.id}`)).json() as TeamDto;
  return {
    owner,
    admin,
    member,
    stranger,
    team,
    adminMemberId: a.id,
    memberMemberId: m.id,
    ownerMemberId: created.members[0]!.id,
  };
}

export async function invite(
  app: FastifyInstance,
  by: TestUser,
  teamId: string,
  email: string,
  role: 'member' | 'admin' = 'member',
) {
  const res = await call(app, by, 'POST', `/api/teams/${teamId}/invitations`, { email, role });
  if (res.statusCode !== 201) throw new Error(`invite failed: ${res.statusCode} ${res.body}`);
  return res.json() as InvitationDto;
}

/** Collects this feature's domain events (other modules publish their own, e.g. notifications). */
export function recordTeamEvents(ctx: TestContext) {
  const seen: DomainEvent[] = [];
  const stop = ctx.app.deps.events.subscribe((e) => {
    if (e.type.startsWith('team.') || e.type.startsWith('invitation.')) seen.push(e);
  });
  return { seen, stop };
}
