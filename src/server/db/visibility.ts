import { and, eq, exists, inArray, type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import { alias, type AnyPgColumn, QueryBuilder } from 'drizzle-orm/pg-core';
import type { TeamRole } from '../../domain/constants';
import { projectGuests, projects, teamMembers, users } from './schema';

/**
 * The one rule of visibility (DESIGN.md "Authorization"): a user sees a team, and everything in it,
 * when they are an active member of it. Every repo composes these fragments instead of restating
 * the rule. `teamId` and `userId` are a column (correlated), a value or a placeholder (prepared).
 */

type Ref = AnyPgColumn | SQLWrapper | string;

const qb = new QueryBuilder();
/** team_members under a name of its own, for subqueries inside a query that may join team_members too. */
const tm = alias(teamMembers, 'tm');
type Members = typeof teamMembers | typeof tm;

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
  )!;
}

/** Ids of the teams `userId` sees (only those where their role is one of `roles`, if given): a subquery for `in`. */
export function visibleTeamIds(userId: Ref, roles?: readonly TeamRole[]) {
  return qb
    .select({ teamId: teamMembers.teamId })
    .from(teamMembers)
    .where(and(activeMembership({ userId }), roles ? inArray(teamMembers.role, [...roles]) : undefined));
}

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
function seesProjectAs(role: AnyPgColumn, projectId: Ref, userId: Ref): SQL {
  return sql`(${role} <> 'guest' or ${exists(
    qb
      .select({ one: sql`1` })
      .from(projectGuests)
      .where(and(eq(projectGuests.projectId, projectId), eq(projectGuests.userId, userId))),
  )})`;
}
