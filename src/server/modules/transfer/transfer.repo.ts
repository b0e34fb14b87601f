import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { alias, type PgInsertValue } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../db/client';
import type { PlanStatus } from '../../../domain/transfer/import-plan';
import { insertDefaultStatuses, insertStatuses } from '../../db/project-statuses';
import {
  customFields,
  noteDocuments,
  notes,
  noteUpdates,
  projects,
  projectStatuses,
  taskActivity,
  taskChecklistItems,
  taskComments,
  tasks,
  teamMembers,
  teams,
  users,
} from '../../db/schema';
import { activeMembership, memberUser, seesProject } from '../../db/visibility';
import { taskProject } from '../../db/task-access';

/** Rows per insert statement: well under PostgreSQL's 65,535 parameters for the widest row here. */
const CHUNK = 500;

async function insertChunked<T>(rows: T[], insert: (chunk: T[]) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < rows.length; i += CHUNK) await insert(rows.slice(i, i + CHUNK));
}

// ---- export: everything of one team, in a stable order ----

export async function getTeam(db: DbOrTx, teamId: string) {
  const [row] = await db.select({ name: teams.name, description: teams.description }).from(teams).where(eq(teams.id, teamId));
  return row;
}

export async function listMembers(db: DbOrTx, teamId: string) {
  return db
    .select({ userId: users.id, email: users.email, fullName: users.fullName, role: teamMembers.role })
    .from(teamMembers)
    .innerJoin(users, memberUser)
    .where(activeMembership({ teamId }))
    .orderBy(sql`case ${teamMembers.role} when 'owner' then 0 when 'admin' then 1 else 2 end`, asc(users.email));
}

export async function listProjects(db: DbOrTx, teamId: string) {
  return db.select().from(projects).where(eq(projects.teamId, teamId)).orderBy(asc(projects.createdAt), asc(projects.id));
}

/** The live statuses of the team's projects (their workflows), each project's in order. */
export async function listStatuses(db: DbOrTx, teamId: string) {
  const rows = await db
    .select({ status: projectStatuses })
    .from(projectStatuses)
    .innerJoin(projects, eq(projects.id, projectStatuses.projectId))
    .where(and(eq(projects.teamId, teamId), isNull(projectStatuses.deletedAt)))
    .orderBy(asc(projectStatuses.projectId), asc(projectStatuses.position));
  return rows.map((r) => r.status);
}

const assignee = alias(users, 'assignee');
const creator = alias(users, 'creator');

/**
 * The team's tasks (of one project when given; of the projects `viewerId` sees, when given) with the people's emails and names, the project's name and the name of
 * the task's status.
 */
export async function listTasks(db: DbOrTx, teamId: string, projectId?: string, viewerId?: string) {
  return db
    .select({
      task: tasks,
      projectName: projects.name,
      statusName: projectStatuses.name,
      assigneeEmail: assignee.email,
      assigneeName: assignee.fullName,
      creatorEmail: creator.email,
    })
    .from(tasks)
    .innerJoin(projects, taskProject)
    .leftJoin(projectStatuses, and(eq(projectStatuses.projectId, tasks.projectId), eq(projectStatuses.key, tasks.status)))
    .leftJoin(assignee, eq(assignee.id, tasks.assigneeId))
    .leftJoin(creator, eq(creator.id, tasks.creatorId))
    .where(
      and(
        eq(projects.teamId, teamId),
        projectId ? eq(tasks.projectId, projectId) : undefined,
        // A caller's export holds only the projects they see (decision 0031: a guest's); the CLI's, every project.
        viewerId === undefined ? undefined : seesProject(projects.teamId, projects.id, viewerId),
      ),
    )
    .orderBy(asc(tasks.createdAt), asc(tasks.id));
}

const teamTaskIds = (db: DbOrTx, teamId: string) =>
  db.select({ id: tasks.id }).from(tasks).innerJoin(projects, taskProject).where(eq(projects.teamId, teamId));

export async function listComments(db: DbOrTx, teamId: string) {
  return db
    .select({ comment: taskComments, authorEmail: users.email, authorName: users.fullName })
    .from(taskComments)
    .leftJoin(users, eq(users.id, taskComments.authorId))
    .where(inArray(taskComments.taskId, teamTaskIds(db, teamId)))
    .orderBy(asc(taskComments.createdAt), asc(taskComments.id));
}

export async function listChecklistItems(db: DbOrTx, teamId: string) {
  return db
    .select()
    .from(taskChecklistItems)
    .where(inArray(taskChecklistItems.taskId, teamTaskIds(db, teamId)))
    .orderBy(asc(taskChecklistItems.position), asc(taskChecklistItems.createdAt), asc(taskChecklistItems.id));
}

export async function listActivity(db: DbOrTx, teamId: string) {
  return db
    .select({ activity: taskActivity, actorEmail: users.email })
    .from(taskActivity)
    .leftJoin(users, eq(users.id, taskActivity.actorId))
    .where(inArray(taskActivity.taskId, teamTaskIds(db, teamId)))
    .orderBy(asc(taskActivity.createdAt), asc(taskActivity.id));
}

/** The team's notes with their author's email and compacted document (if any). */
export async function listNotes(db: DbOrTx, teamId: string) {
  return db
    .select({
      note: notes,
      authorEmail: users.email,
      state: noteDocuments.state,
      compactedThrough: noteDocuments.compactedThrough,
    })
    .from(notes)
    .leftJoin(users, eq(users.id, notes.authorId))
    .leftJoin(noteDocuments, eq(noteDocuments.noteId, notes.id))
    .where(eq(notes.teamId, teamId))
    .orderBy(asc(notes.createdAt), asc(notes.id));
}

/** The updates of these notes not yet compacted into their documents, in order. */
export async function listPendingNoteUpdates(db: DbOrTx, noteIds: string[]) {
  if (noteIds.length === 0) return [];
  return db
    .select({ noteId: noteUpdates.noteId, update: noteUpdates.update })
    .from(noteUpdates)
    .where(
      and(
        inArray(noteUpdates.noteId, noteIds),
        // Per note, past its own compaction point.
        sql`${noteUpdates.id} > coalesce((select d.compacted_through from note_documents d where d.note_id = ${noteUpdates.noteId}), 0)`,
      ),
    )
    .orderBy(asc(noteUpdates.noteId), asc(noteUpdates.id));
}

/** Emails of the users with these ids (history values name people by id). */
export async function emailsByIds(db: DbOrTx, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db.select({ id: users.id, email: users.email }).from(users).where(inArray(users.id, ids));
  return new Map(rows.map((r) => [r.id, r.email]));
}

/** Names of the users with these ids (person field values name people by id). */
export async function namesByIds(db: DbOrTx, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db.select({ id: users.id, name: users.fullName }).from(users).where(inArray(users.id, ids));
  return new Map(rows.map((r) => [r.id, r.name]));
}

// ---- import ----

export async function getUserEmail(db: DbOrTx, userId: string): Promise<string | undefined> {
  const [row] = await db.select({ email: users.email }).from(users).where(eq(users.id, userId));
  return row?.email;
}

/** The team's active members (the CSV import's possible assignees). */
export async function listActiveMembers(db: DbOrTx, teamId: string) {
  return db
    .select({ id: users.id, email: users.email, fullName: users.fullName })
    .from(teamMembers)
    .innerJoin(users, memberUser)
    .where(activeMembership({ teamId }));
}

/** The project, when it belongs to the team. */
export async function getProjectInTeam(db: DbOrTx, teamId: string, projectId: string) {
  const [row] = await db
    .select({ id: projects.id, name: projects.name })
    .from(projects)
    .where(and(eq(projects.id, projectId), eq(projects.teamId, teamId)));
  return row;
}

/** The team's custom fields (issue 38), in their order: what an import maps to, what an export writes. */
export async function listFields(db: DbOrTx, teamId: string) {
  return db
    .select()
    .from(customFields)
    .where(eq(customFields.teamId, teamId))
    .orderBy(asc(customFields.position), asc(customFields.createdAt), asc(customFields.id));
}

export type NewField = PgInsertValue<typeof customFields>;

/** Inserts the fields and returns their ids in the same order. */
export async function insertFields(db: DbOrTx, rows: NewField[]): Promise<string[]> {
  if (rows.length === 0) return [];
  return (await db.insert(customFields).values(rows).returning({ id: customFields.id })).map((r) => r.id);
}

/** An existing field's options, replaced (an import adds options to it). */
export async function setFieldOptions(db: DbOrTx, fieldId: string, options: { id: string; name: string; color: string }[]) {
  await db.update(customFields).set({ options, updatedAt: sql`now()` }).where(eq(customFields.id, fieldId));
}

export type NewProject = PgInsertValue<typeof projects>;
export type NewTask = PgInsertValue<typeof tasks>;
export type NewComment = PgInsertValue<typeof taskComments>;
export type NewChecklistItem = PgInsertValue<typeof taskChecklistItems>;
export type NewActivity = PgInsertValue<typeof taskActivity>;
export type NewNote = PgInsertValue<typeof notes>;

/**
 * Inserts the projects, each with its workflow: `workflows[i]`, in order, for `rows[i]`, or the default four where it
 * is null (a CSV import's new project, an export from before decision 0024).
 */
export async function insertProjects(
  db: DbOrTx,
  rows: NewProject[],
  workflows: readonly (readonly PlanStatus[] | null | undefined)[] = [],
): Promise<string[]> {
  const ids: string[] = [];
  await insertChunked(rows, async (chunk) => {
    const made = (await db.insert(projects).values(chunk).returning({ id: projects.id })).map((r) => r.id);
    const own = made.map((projectId, i) => ({ projectId, statuses: workflows[ids.length + i] }));
    await insertDefaultStatuses(
      db,
      own.filter((p) => !p.statuses).map((p) => p.projectId),
    );
    await insertStatuses(
      db,
      own.flatMap(({ projectId, statuses }) => (statuses ?? []).map((s, position) => ({ projectId, ...s, position }))),
    );
    ids.push(...made);
  });
  return ids;
}

/** Inserts the tasks (their triggers keep the projects' counters) and returns their ids in the same order. */
export async function insertTasks(db: DbOrTx, rows: NewTask[]): Promise<string[]> {
  const ids: string[] = [];
  await insertChunked(rows, async (chunk) => {
    ids.push(...(await db.insert(tasks).values(chunk).returning({ id: tasks.id })).map((r) => r.id));
  });
  return ids;
}

export async function insertComments(db: DbOrTx, rows: NewComment[]): Promise<void> {
  await insertChunked(rows, (chunk) => db.insert(taskComments).values(chunk));
}

export async function insertChecklistItems(db: DbOrTx, rows: NewChecklistItem[]): Promise<void> {
  await insertChunked(rows, (chunk) => db.insert(taskChecklistItems).values(chunk));
}

export async function insertActivity(db: DbOrTx, rows: NewActivity[]): Promise<void> {
  await insertChunked(rows, (chunk) => db.insert(taskActivity).values(chunk));
}

export async function insertNote(db: DbOrTx, row: NewNote, state: Buffer | null): Promise<void> {
  const [note] = await db.insert(notes).values(row).returning({ id: notes.id });
  if (state) await db.insert(noteDocuments).values({ noteId: note!.id, state, compactedThrough: 0 });
}

/**
 * A time from a file, `index` microseconds on: a file's times have milliseconds only, and rows of one millisecond
 * would otherwise come back in the order of their new (random) ids instead of the file's.
 */
export const fileTime = (iso: string, index: number) => sql`${iso}::timestamptz + ${index}::int * interval '1 microsecond'`;

/** Rows of `created_at` one microsecond apart, the first the newest (a board shows newest first). */
export const newestFirst = (index: number) => sql`now() - ${index}::int * interval '1 microsecond'`;
