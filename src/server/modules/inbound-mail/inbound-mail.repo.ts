import { and, eq, lt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { inboundMessages, mailReplyTokens, projectIntake, projects, teamMembers, teams, users } from '../../db/schema';
import { activeMembership } from '../../db/visibility';

export type IntakeRow = typeof projectIntake.$inferSelect;

/** The project (its team and name), locked for the rest of the transaction when `lock`. */
export async function getProject(db: DbOrTx, projectId: string, lock = false) {
  const query = db
    .select({ id: projects.id, teamId: projects.teamId, name: projects.name })
    .from(projects)
    .where(eq(projects.id, projectId));
  // `no key update`: a task's insert into the project (its foreign key) does not wait on it.
  const [row] = lock ? await query.for('no key update') : await query;
  return row;
}

export async function getIntake(db: DbOrTx, projectId: string): Promise<IntakeRow | undefined> {
  const [row] = await db.select().from(projectIntake).where(eq(projectIntake.projectId, projectId));
  return row;
}

/** Turns the address on, or gives it a new token (the old one stops: its hash is gone). */
export async function upsertIntake(
  db: DbOrTx,
  values: { projectId: string; tokenHash: string; tokenSealed: string; enabledById: string },
): Promise<void> {
  await db
    .insert(projectIntake)
    .values(values)
    .onConflictDoUpdate({
      target: projectIntake.projectId,
      set: { tokenHash: values.tokenHash, tokenSealed: values.tokenSealed },
    });
}

export async function deleteIntake(db: DbOrTx, projectId: string): Promise<boolean> {
  const gone = await db
    .delete(projectIntake)
    .where(eq(projectIntake.projectId, projectId))
    .returning({ id: projectIntake.projectId });
  return gone.length > 0;
}

/** The project an intake token (by its hash) belongs to, with who turned it on. */
export async function findIntakeByHash(db: DbOrTx, tokenHash: string) {
  const [row] = await db
    .select({
      projectId: projects.id,
      teamId: projects.teamId,
      projectName: projects.name,
      enabledById: projectIntake.enabledById,
    })
    .from(projectIntake)
    .innerJoin(projects, eq(projects.id, projectIntake.projectId))
    .where(eq(projectIntake.tokenHash, tokenHash));
  return row;
}

/** The task and the person a reply token (by its hash) was given for. */
export async function findReplyByHash(db: DbOrTx, tokenHash: string) {
  const [row] = await db
    .select({ taskId: mailReplyTokens.taskId, userId: mailReplyTokens.userId, email: users.email, isActive: users.isActive })
    .from(mailReplyTokens)
    .innerJoin(users, eq(users.id, mailReplyTokens.userId))
    .where(eq(mailReplyTokens.tokenHash, tokenHash));
  return row;
}

export async function insertReplyToken(db: DbOrTx, values: { tokenHash: string; taskId: string; userId: string }) {
  await db.insert(mailReplyTokens).values(values);
}

/** An active member of the team whose proven address is `email` (stored lower-cased), or undefined. */
export async function findVerifiedMember(db: DbOrTx, teamId: string, email: string) {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .innerJoin(teamMembers, activeMembership({ teamId, userId: users.id }))
    .where(and(eq(users.email, email.toLowerCase()), eq(users.emailVerified, true), eq(users.isActive, true)));
  return row;
}

/** `userId` when still an active member of the team, else the team's owner. */
export async function memberOrOwner(db: DbOrTx, teamId: string, userId: string | null): Promise<string> {
  if (userId) {
    const [member] = await db.select({ id: teamMembers.userId }).from(teamMembers).where(activeMembership({ teamId, userId }));
    if (member) return member.id;
  }
  const [team] = await db.select({ ownerId: teams.ownerId }).from(teams).where(eq(teams.id, teamId));
  if (!team) throw new Error(`team ${teamId} not found`);
  return team.ownerId;
}

export async function messageSeen(db: DbOrTx, messageHash: string): Promise<boolean> {
  const [row] = await db.select({ one: sql`1` }).from(inboundMessages).where(eq(inboundMessages.messageHash, messageHash));
  return row !== undefined;
}

/**
 * Claims a message (its hash) for what it makes: false when it was received before (a second delivery). In the
 * transaction of the task or comment, so that the two exist together or not at all.
 */
export async function claimMessage(
  db: DbOrTx,
  values: { messageHash: string; outcome: 'task' | 'comment' | 'dropped'; reason?: string | null; taskId?: string | null },
): Promise<boolean> {
  const rows = await db
    .insert(inboundMessages)
    .values(values)
    .onConflictDoNothing({ target: inboundMessages.messageHash })
    .returning({ hash: inboundMessages.messageHash });
  return rows.length > 0;
}

export async function setMessageTask(db: DbOrTx, messageHash: string, taskId: string): Promise<void> {
  await db.update(inboundMessages).set({ taskId }).where(eq(inboundMessages.messageHash, messageHash));
}

/** Reply addresses older than `replyDays` and received-mail rows older than `messageDays` go. */
export async function prune(db: DbOrTx, replyDays: number, messageDays: number): Promise<void> {
  await db.delete(mailReplyTokens).where(lt(mailReplyTokens.createdAt, sql`now() - ${replyDays} * interval '1 day'`));
  await db.delete(inboundMessages).where(lt(inboundMessages.receivedAt, sql`now() - ${messageDays} * interval '1 day'`));
}
