import { and, asc, count, desc, eq, gt, inArray, lte, or, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { NoteVersionKind, TeamRole } from '../../../domain/constants';
import type { DbOrTx } from '../../db/client';
import { lockFor } from '../../db/locks';
import { noteDocuments, notes, noteUpdates, noteVersions, projects, sessions, teamMembers, teams, users } from '../../db/schema';
import { activeMembership, activeRole, visibleProjectIds, wholeTeamIds } from '../../db/visibility';

export type NoteRow = typeof notes.$inferSelect;
export interface Person {
  id: string;
  email: string;
  fullName: string;
  avatarUrl: string | null;
}
export type NoteVersionRow = typeof noteVersions.$inferSelect;

const author = alias(users, 'author');
const editor = alias(users, 'editor');

const noteColumns = (userId: string) => ({
  note: notes,
  teamName: teams.name,
  projectName: projects.name,
  author: { id: author.id, email: author.email, fullName: author.fullName, avatarUrl: author.avatarUrl },
  editor: { id: editor.id, email: editor.email, fullName: editor.fullName, avatarUrl: editor.avatarUrl },
  callerRole: activeRole(notes.teamId, userId),
});

/**
 * The notes `userId` sees (decision 0031): every note of a team where they are a member other than a guest; a guest
 * only the notes of the projects given to them (a team-wide note is not theirs to see).
 */
const visibleNote = (userId: string): SQL =>
  or(inArray(notes.teamId, wholeTeamIds(userId)), inArray(notes.projectId, visibleProjectIds(userId)))!;

const selectNotes = (db: DbOrTx, userId: string) =>
  db
    .select(noteColumns(userId))
    .from(notes)
    .innerJoin(teams, eq(teams.id, notes.teamId))
    .leftJoin(projects, eq(projects.id, notes.projectId))
    .leftJoin(author, eq(author.id, notes.authorId))
    .leftJoin(editor, eq(editor.id, notes.lastEditedById));

export type NoteWithNames = Awaited<ReturnType<ReturnType<typeof selectNotes>['execute']>>[number];

export interface NoteFilters {
  teamId?: string;
  projectId?: string;
  /** to_tsquery source (domain/search-query prefixTsquery) and the words, for a substring match of the title. */
  tsquery?: string | null;
  text?: string;
  limit: number;
}

/** The notes of the caller's teams: pinned first, then the last edited first. */
export async function listVisible(db: DbOrTx, userId: string, filters: NoteFilters): Promise<NoteWithNames[]> {
  const where: (SQL | undefined)[] = [visibleNote(userId)];
  if (filters.teamId) where.push(eq(notes.teamId, filters.teamId));
  if (filters.projectId) where.push(eq(notes.projectId, filters.projectId));
  if (filters.text) {
    const contains = sql`strpos(lower(${notes.title}), lower(${filters.text})) > 0`;
    where.push(
      filters.tsquery
        ? sql`(${sql.raw('notes.search_vector')} @@ to_tsquery('crewboard_search', ${filters.tsquery}) or ${contains})`
        : contains,
    );
  }
  return selectNotes(db, userId)
    .where(and(...where))
    .orderBy(desc(notes.pinned), desc(notes.updatedAt), asc(notes.id))
    .limit(filters.limit);
}

/** One note if `userId` is an active member of its team; with `lock`, its row is locked to the end of the transaction. */
export async function getVisibleById(db: DbOrTx, userId: string, id: string, lock = false): Promise<NoteWithNames | undefined> {
  const query = selectNotes(db, userId).where(and(eq(notes.id, id), visibleNote(userId)));
  const [row] = lock ? await query.for('update', { of: notes }) : await query;
  return row;
}

export async function getOneById(db: DbOrTx, id: string): Promise<NoteRow | undefined> {
  const [row] = await db.select().from(notes).where(eq(notes.id, id));
  return row;
}

/** Of these ids, the notes that exist. */
export async function existingIds(db: DbOrTx, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .select({ id: notes.id })
    .from(notes)
    .where(inArray(notes.id, [...ids]));
  return new Set(rows.map((r) => r.id));
}

export async function projectInTeam(db: DbOrTx, projectId: string, teamId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: projects.id })
    .from(projects)
    .where(and(eq(projects.id, projectId), eq(projects.teamId, teamId)));
  return !!row;
}

export async function createOne(
  db: DbOrTx,
  values: { teamId: string; projectId: string | null; title: string; authorId: string },
): Promise<NoteRow> {
  const [row] = await db
    .insert(notes)
    .values({ ...values, lastEditedById: values.authorId })
    .returning();
  return row!;
}

export async function updateOne(
  db: DbOrTx,
  id: string,
  values: { title?: string; pinned?: boolean; projectId?: string | null; lastEditedById?: string },
): Promise<void> {
  await db
    .update(notes)
    .set({ ...values, updatedAt: sql`now()` })
    .where(eq(notes.id, id));
}

export async function deleteOne(db: DbOrTx, id: string): Promise<boolean> {
  const rows = await db.delete(notes).where(eq(notes.id, id)).returning({ id: notes.id });
  return rows.length > 0;
}

// ---------------------------------------------------------------------------------------------------------------
// The socket's checks

/** The note's team and whether it exists; the user's active role there; whether the session is live. */
export async function socketAccess(db: DbOrTx, noteId: string, userId: string, sessionId: string) {
  const [row] = await db
    .select({
      teamId: notes.teamId,
      role: sql<TeamRole | null>`case when ${visibleNote(userId)} then ${activeRole(notes.teamId, userId)} end`,
      sessionLive: sql<boolean>`exists (select 1 from ${sessions} s join ${users} u on u.id = s.user_id
        where s.id = ${sessionId} and s.user_id = ${userId} and s.revoked_at is null and u.is_active)`,
    })
    .from(notes)
    .where(eq(notes.id, noteId));
  return row;
}

/** Of `userIds`, those who are active members of the team (with an active account). */
export async function activeMemberIds(db: DbOrTx, teamId: string, userIds: readonly string[]): Promise<Set<string>> {
  if (userIds.length === 0) return new Set();
  const rows = await db
    .select({ userId: teamMembers.userId })
    .from(teamMembers)
    .innerJoin(users, eq(users.id, teamMembers.userId))
    .where(and(activeMembership({ teamId }), inArray(teamMembers.userId, [...userIds]), eq(users.isActive, true)));
  return new Set(rows.map((r) => r.userId));
}

export async function userNames(db: DbOrTx, userIds: readonly string[]): Promise<Map<string, string>> {
  if (userIds.length === 0) return new Map();
  const rows = await db
    .select({ id: users.id, fullName: users.fullName })
    .from(users)
    .where(inArray(users.id, [...userIds]));
  return new Map(rows.map((r) => [r.id, r.fullName]));
}

// ---------------------------------------------------------------------------------------------------------------
// The document: a compacted state and the updates after it

export interface StoredDocument {
  state: Buffer | null;
  compactedThrough: number;
  updates: { id: number; update: Buffer; userId: string | null }[];
}

/** The compacted state and the updates after it. Call it in one snapshot (a repeatable-read transaction). */
export async function readDocument(db: DbOrTx, noteId: string, lock = false): Promise<StoredDocument> {
  const query = db
    .select({ state: noteDocuments.state, compactedThrough: noteDocuments.compactedThrough })
    .from(noteDocuments)
    .where(eq(noteDocuments.noteId, noteId));
  const [doc] = lock ? await query.for('update') : await query;
  const compactedThrough = doc?.compactedThrough ?? 0;
  const updates = await db
    .select({ id: noteUpdates.id, update: noteUpdates.update, userId: noteUpdates.userId })
    .from(noteUpdates)
    .where(and(eq(noteUpdates.noteId, noteId), gt(noteUpdates.id, compactedThrough)))
    .orderBy(asc(noteUpdates.id));
  return { state: doc?.state ?? null, compactedThrough, updates };
}

/** Appends updates (in order); their ids, in the same order. */
export async function appendUpdates(
  db: DbOrTx,
  noteId: string,
  rows: readonly { update: Uint8Array; userId: string | null }[],
): Promise<number[]> {
  if (rows.length === 0) return [];
  const inserted = await db
    .insert(noteUpdates)
    .values(rows.map((r) => ({ noteId, update: Buffer.from(r.update), userId: r.userId })))
    .returning({ id: noteUpdates.id });
  return inserted.map((r) => r.id).sort((a, b) => a - b);
}

export async function getUpdate(db: DbOrTx, id: number): Promise<{ noteId: string; update: Buffer } | undefined> {
  const [row] = await db
    .select({ noteId: noteUpdates.noteId, update: noteUpdates.update })
    .from(noteUpdates)
    .where(eq(noteUpdates.id, id));
  return row;
}

/** Serialises compactions (and restores) of one note across instances, to the end of the transaction. */
export async function lockDocument(db: DbOrTx, noteId: string): Promise<void> {
  await lockFor(db, 'notes', noteId);
}

export async function saveCompacted(db: DbOrTx, noteId: string, state: Uint8Array, through: number): Promise<void> {
  const value = Buffer.from(state);
  await db
    .insert(noteDocuments)
    .values({ noteId, state: value, compactedThrough: through })
    .onConflictDoUpdate({
      target: noteDocuments.noteId,
      set: { state: value, compactedThrough: through, updatedAt: sql`now()` },
    });
  await db.delete(noteUpdates).where(and(eq(noteUpdates.noteId, noteId), lte(noteUpdates.id, through)));
}

export async function saveText(db: DbOrTx, noteId: string, plainText: string, lastEditedById: string | null): Promise<void> {
  await db
    .update(notes)
    .set({
      plainText,
      updatedAt: sql`now()`,
      ...(lastEditedById ? { lastEditedById: sql`(select id from ${users} where id = ${lastEditedById})` } : {}),
    })
    .where(eq(notes.id, noteId));
}

// ---------------------------------------------------------------------------------------------------------------
// Versions

const versionColumns = {
  id: noteVersions.id,
  noteId: noteVersions.noteId,
  kind: noteVersions.kind,
  title: noteVersions.title,
  createdAt: noteVersions.createdAt,
  createdBy: { id: author.id, email: author.email, fullName: author.fullName, avatarUrl: author.avatarUrl },
};

export type VersionSummary = {
  id: string;
  noteId: string;
  kind: NoteVersionKind;
  title: string;
  createdAt: Date;
  createdBy: Person | null;
};

export async function listVersions(db: DbOrTx, noteId: string, limit: number): Promise<VersionSummary[]> {
  return db
    .select(versionColumns)
    .from(noteVersions)
    .leftJoin(author, eq(author.id, noteVersions.createdById))
    .where(eq(noteVersions.noteId, noteId))
    .orderBy(desc(noteVersions.createdAt), desc(noteVersions.id))
    .limit(limit);
}

export async function getVersion(
  db: DbOrTx,
  noteId: string,
  versionId: string,
): Promise<(VersionSummary & { state: Buffer }) | undefined> {
  const [row] = await db
    .select({ ...versionColumns, state: noteVersions.state })
    .from(noteVersions)
    .leftJoin(author, eq(author.id, noteVersions.createdById))
    .where(and(eq(noteVersions.noteId, noteId), eq(noteVersions.id, versionId)));
  return row;
}

export async function createVersion(
  db: DbOrTx,
  values: { noteId: string; kind: NoteVersionKind; state: Uint8Array; title: string; createdById: string | null },
): Promise<string> {
  const [row] = await db
    .insert(noteVersions)
    .values({ ...values, state: Buffer.from(values.state) })
    .returning({ id: noteVersions.id });
  return row!.id;
}

/** When the newest version was taken (null: none yet). */
export async function latestVersionAt(db: DbOrTx, noteId: string): Promise<Date | null> {
  const [row] = await db
    .select({ at: sql<Date | string | null>`max(${noteVersions.createdAt})` })
    .from(noteVersions)
    .where(eq(noteVersions.noteId, noteId));
  return row?.at ? new Date(row.at) : null;
}

/** Keeps at most `max` versions: the oldest automatic ones go first (then, if need be, the oldest of any kind). */
export async function pruneVersions(db: DbOrTx, noteId: string, max: number): Promise<void> {
  const [row] = await db.select({ n: count() }).from(noteVersions).where(eq(noteVersions.noteId, noteId));
  const excess = Number(row?.n ?? 0) - max;
  if (excess <= 0) return;
  await db.execute(sql`
    delete from ${noteVersions} where id in (
      select id from ${noteVersions} where note_id = ${noteId}
      order by (kind = 'auto') desc, created_at asc, id asc
      limit ${excess}
    )`);
}
