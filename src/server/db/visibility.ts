import { and, eq, exists, inArray, type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import { alias, type AnyPgColumn, QueryBuilder } from 'drizzle-orm/pg-core';
import { TEAM_ROLES, type TeamRole } from '../../domain/constants';
import { seesWholeTeam } from '../../domain/permissions';
import { projectGuests, projects, tasks, teamMembers, teams, users } from './schema';
import { ssoLockCondition } from './sso-lock';

/**
 * The one rule of visibility (DESIGN.md "Authorization"): a user sees a team, and everything in it,
 * when they are an active member of it. Every repo composes these fragments instead of restating
 * the rule. `teamId` and `userId` are a column (correlated), a value or a placeholder (prepared).
 */

type Ref = AnyPgColumn | SQLWrapper | string;

const qb = new QueryBuilder();
/** team_members under a name of its own, for subqueries inside a query that may join team_members too. */
const tm = alias(teamMembers, 'tm');
type Members = typeof teamMembers | typeof tm | typeof pm;

/** A membership's person: join `users` on it from team_members. */
export const memberUser = eq(users.id, teamMembers.userId);

/** The membership row (of `m`, team_members by default) counts. A literal, not a parameter: the planner sees it. */
export const isActiveRow = (m: Members = teamMembers): SQL => sql`${m.status} = 'active'`;

/** Active membership rows, of one team and/or one user: a where clause, or the condition of a join on team_members. */
export function activeMembership(of: { teamId?: Ref; userId?: Ref }, m: Members = teamMembers): SQL {
  return and(
    of.teamId === undefined ? undefined : eq(m.teamId, of.teamId),
    of.userId === undefined ? undefined : eq(m.userId, of.userId),
    isActiveRow(m),
    // A caller whose session is not SAML does not count as a member of a team that requires SSO (db/sso-lock.ts).
    ssoLockCondition(m.teamId, of.userId),
  )!;
}

/** Ids of the teams `userId` sees (only those where their role is one of `roles`, if given): a subquery for `in`. */
export function visibleTeamIds(userId: Ref, roles?: readonly TeamRole[]) {
  return qb
    .select({ teamId: teamMembers.teamId })
    .from(teamMembers)
    .where(and(activeMembership({ userId }), roles ? inArray(teamMembers.role, [...roles]) : undefined));
}

/** The roles that see all of a team (domain `seesWholeTeam`: every role but guest). */
export const WHOLE_TEAM_ROLES: readonly TeamRole[] = TEAM_ROLES.filter(seesWholeTeam);

/**
 * Ids of the teams `userId` sees all of (decision 0031: where they are an active member other than a guest): what a
 * read of a team's things that belong to no project (its notes, its whole-team charts) filters by.
 */
export const wholeTeamIds = (userId: Ref) => visibleTeamIds(userId, WHOLE_TEAM_ROLES);

/** True when `userId` is an active member of team `teamId` (an exists subquery). */
export const isActiveMember = (teamId: Ref, userId: Ref): SQL =>
  exists(qb.select({ one: sql`1` }).from(tm).where(activeMembership({ teamId, userId }, tm)));

/** `userId`'s role in team `teamId`, or null when they are not an active member (a scalar subquery). */
export const activeRole = (teamId: Ref, userId: Ref): SQL<TeamRole | null> =>
  sql<TeamRole | null>`${qb.select({ role: tm.role }).from(tm).where(activeMembership({ teamId, userId }, tm))}`;

/** How many active members team `teamId` has (a scalar subquery). */
export const activeMemberCount = (teamId: Ref): SQL<number> =>
  sql<number>`${qb.select({ n: sql`count(*)` }).from(tm).where(activeMembership({ teamId }, tm))}::int`;

/**
 * Ids of the projects `userId` sees (decision 0031): every project of a team where they are an active member other than
 * a guest, and, where they are a guest, only the projects `project_guests` gives them. A subquery for `in`: every read
 * of projects and tasks that a guest may reach filters by it (or by `seesProject`).
 */
export function visibleProjectIds(userId: Ref) {
  return qb
    .select({ projectId: projects.id })
    .from(projects)
    .innerJoin(teamMembers, and(eq(teamMembers.teamId, projects.teamId), activeMembership({ userId })))
    .where(seesProjectAs(teamMembers.role, projects.id, userId));
}

/** True when `userId` sees project `projectId` of team `teamId` (an exists subquery; the project's team is given). */
export const seesProject = (teamId: Ref, projectId: Ref, userId: Ref): SQL =>
  exists(
    qb
      .select({ one: sql`1` })
      .from(tm)
      .where(and(activeMembership({ teamId, userId }, tm), seesProjectAs(tm.role, projectId, userId))),
  );

/** A member with role `role` sees project `projectId`: not a guest, or a guest the project was given to. */
export function seesProjectAs(role: AnyPgColumn, projectId: Ref, userId: Ref): SQL {
  return sql`(${role} <> 'guest' or ${exists(
    qb
      .select({ one: sql`1` })
      .from(projectGuests)
      .where(and(eq(projectGuests.projectId, projectId), eq(projectGuests.userId, userId))),
  )})`;
}

/**
 * `userId`'s role in team `teamId` when they see project `projectId` of it, else null (a scalar subquery): what a read
 * or a write of one project's task checks, so a guest's project they were not given is as a stranger's (404).
 */
export const projectRole = (teamId: Ref, projectId: Ref, userId: Ref): SQL<TeamRole | null> =>
  sql<TeamRole | null>`${qb
    .select({ role: tm.role })
    .from(tm)
    .where(and(activeMembership({ teamId, userId }, tm), seesProjectAs(tm.role, projectId, userId)))}`;

const gp = alias(projects, 'gp');
const gt = alias(tasks, 'gt');

/**
 * True when `userId` sees person `personId` of team `teamId` (decision 0031): every member other than a guest sees all
 * the team's people; a guest sees the team's owner, themselves, and the creators and assignees of tasks in the team's
 * projects given to them. `personRole` is the person's role in the team (a column of the membership row in scope, when
 * there is one). Non-guests pay one lookup of their own membership row.
 */
export function seesPerson(teamId: Ref, personId: Ref, userId: Ref, personRole?: Ref): SQL {
  const callerIsGuest = exists(
    qb
      .select({ one: sql`1` })
      .from(tm)
      .where(and(activeMembership({ teamId, userId }, tm), sql`${tm.role} = 'guest'`)),
  );
  const inTheirProjects = exists(
    qb
      .select({ one: sql`1` })
      .from(projectGuests)
      .innerJoin(gp, and(eq(gp.id, projectGuests.projectId), eq(gp.teamId, teamId)))
      .innerJoin(gt, eq(gt.projectId, projectGuests.projectId))
      .where(and(eq(projectGuests.userId, userId), sql`(${gt.creatorId} = ${personId} or ${gt.assigneeId} = ${personId})`)),
  );
  const owner =
    personRole === undefined
      ? sql`${personId} = (${qb.select({ ownerId: teams.ownerId }).from(teams).where(eq(teams.id, teamId))})`
      : sql`${personRole} = 'owner'`;
  return sql`(not ${callerIsGuest} or ${personId} = ${userId} or ${owner} or ${inTheirProjects})`;
}

const pm = alias(teamMembers, 'pm');

/**
 * How many of team `teamId`'s active members `userId` sees (a scalar subquery): for a caller whose membership row (in
 * scope) is a guest's, in place of activeMemberCount; `case` keeps everyone else on activeMemberCount's one count.
 */
export const visibleMemberCount = (teamId: Ref, userId: Ref, callerRole: AnyPgColumn): SQL<number> =>
  sql<number>`case when ${callerRole} = 'guest' then ${qb
    .select({ n: sql`count(*)` })
    .from(pm)
    .where(
      and(activeMembership({ teamId }, pm), seesPerson(teamId, pm.userId, userId, pm.role)),
    )}::int else ${activeMemberCount(teamId)} end`;
