import { and, asc, count, eq, inArray, isNotNull, isNull, ne, sql } from 'drizzle-orm';
import type { TeamRole } from '../../../domain/constants';
import type { DbOrTx } from '../../db/client';
import { teamMembers, teams, type UserRow, users } from '../../db/schema';

export type TeamRow = typeof teams.$inferSelect;

// ---- users ----

/**
 * A person is a SCIM User until the identity provider DELETEs them (`scim_deleted_at` set): from then on no SCIM read
 * or write finds them (RFC 7644 §3.6: 404, left out of lists), though the deactivated account stays.
 */
const live = isNull(users.scimDeletedAt);

/** One page of people (by creation, then id: a stable order for startIndex paging), and how many match. */
export async function listUsers(
  db: DbOrTx,
  where: { email?: string },
  offset: number,
  limit: number,
): Promise<{ rows: UserRow[]; total: number }> {
  const filter = and(live, where.email === undefined ? undefined : eq(users.email, where.email.toLowerCase()));
  const [counted] = await db.select({ n: count() }).from(users).where(filter);
  const rows =
    limit === 0
      ? []
      : await db.select().from(users).where(filter).orderBy(asc(users.createdAt), asc(users.id)).offset(offset).limit(limit);
  return { rows, total: Number(counted?.n ?? 0) };
}

export async function getUserById(db: DbOrTx, id: string): Promise<UserRow | undefined> {
  const [row] = await db
    .select()
    .from(users)
    .where(and(eq(users.id, id), live));
  return row;
}

/** The row, locked to the end of the transaction (two changes of one person do not interleave). */
export async function lockUserById(db: DbOrTx, id: string): Promise<UserRow | undefined> {
  const [row] = await db
    .select()
    .from(users)
    .where(and(eq(users.id, id), live))
    .for('update');
  return row;
}

/** The account with this address, SCIM-deleted or not, locked (a create may bring a deleted one back). */
export async function lockUserByEmail(db: DbOrTx, email: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.email, email.toLowerCase())).for('update');
  return row;
}

/** Another person holding this externalId (a SCIM-deleted one holds none: its link went with the DELETE). */
export async function getUserIdByExternalId(db: DbOrTx, externalId: string, exceptId?: string): Promise<string | undefined> {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.scimExternalId, externalId), exceptId ? ne(users.id, exceptId) : undefined));
  return row?.id;
}

export async function getUserIdByEmail(db: DbOrTx, email: string, exceptId?: string): Promise<string | undefined> {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.email, email.toLowerCase()), exceptId ? ne(users.id, exceptId) : undefined));
  return row?.id;
}

/** A provisioned account: its address counts as verified (the identity provider vouches); it has no password. */
export async function createUser(
  db: DbOrTx,
  values: { email: string; fullName: string; scimExternalId: string | null; isActive: boolean },
): Promise<UserRow> {
  const [row] = await db
    .insert(users)
    .values({ ...values, email: values.email.toLowerCase(), emailVerified: true })
    .returning();
  return row!;
}

export async function updateUser(
  db: DbOrTx,
  id: string,
  values: Partial<{
    email: string;
    fullName: string;
    scimExternalId: string | null;
    isActive: boolean;
    emailVerified: boolean;
    scimDeletedAt: Date | null;
  }>,
): Promise<UserRow> {
  const [row] = await db
    .update(users)
    .set({ ...values, updatedAt: sql`now()` })
    .where(eq(users.id, id))
    .returning();
  return row!;
}

/** Which of these ids are SCIM Users (the rest, SCIM-deleted ones included, are unknown). */
export async function existingUserIds(db: DbOrTx, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(and(inArray(users.id, ids), live));
  return new Set(rows.map((r) => r.id));
}

// ---- groups (teams linked to SCIM: scim_external_id not null) ----

const linked = isNotNull(teams.scimExternalId);

export async function listGroups(
  db: DbOrTx,
  where: { name?: string },
  offset: number,
  limit: number,
): Promise<{ rows: TeamRow[]; total: number }> {
  // displayName is caseExact false (RFC 7643 §4.2): compared lower-cased.
  const filter = and(linked, where.name === undefined ? undefined : sql`lower(${teams.name}) = lower(${where.name})`);
  const [counted] = await db.select({ n: count() }).from(teams).where(filter);
  const rows =
    limit === 0
      ? []
      : await db.select().from(teams).where(filter).orderBy(asc(teams.createdAt), asc(teams.id)).offset(offset).limit(limit);
  return { rows, total: Number(counted?.n ?? 0) };
}

export async function getGroupById(db: DbOrTx, id: string): Promise<TeamRow | undefined> {
  const [row] = await db
    .select()
    .from(teams)
    .where(and(eq(teams.id, id), linked));
  return row;
}

export async function lockGroupById(db: DbOrTx, id: string): Promise<TeamRow | undefined> {
  const [row] = await db
    .select()
    .from(teams)
    .where(and(eq(teams.id, id), linked))
    .for('update');
  return row;
}

export async function updateGroup(db: DbOrTx, id: string, values: Partial<{ name: string; scimExternalId: string | null }>) {
  const [row] = await db
    .update(teams)
    .set({ ...values, updatedAt: sql`now()`, version: sql`${teams.version} + 1` })
    .where(eq(teams.id, id))
    .returning();
  return row!;
}

export interface GroupMember {
  memberId: string;
  userId: string;
  email: string;
  fullName: string;
  role: TeamRole;
}

/** The members of these teams (every role; not SCIM-deleted people, who are no SCIM resource), by team. */
export async function listMembers(db: DbOrTx, teamIds: string[]): Promise<Map<string, GroupMember[]>> {
  const byTeam = new Map<string, GroupMember[]>(teamIds.map((id) => [id, []]));
  if (teamIds.length === 0) return byTeam;
  const rows = await db
    .select({
      teamId: teamMembers.teamId,
      memberId: teamMembers.id,
      userId: users.id,
      email: users.email,
      fullName: users.fullName,
      role: teamMembers.role,
    })
    .from(teamMembers)
    .innerJoin(users, eq(users.id, teamMembers.userId))
    .where(and(inArray(teamMembers.teamId, teamIds), eq(teamMembers.status, 'active'), live))
    .orderBy(asc(teamMembers.joinedAt), asc(teamMembers.id));
  for (const { teamId, ...member } of rows) byTeam.get(teamId)?.push(member);
  return byTeam;
}
