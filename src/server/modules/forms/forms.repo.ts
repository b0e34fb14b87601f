import { and, asc, count, eq } from 'drizzle-orm';
import type { FormFieldDto } from '../../../domain/schemas/outside';
import type { DbOrTx } from '../../db/client';
import { forms, projectStatuses, projects, requestLinks, tasks, teams } from '../../db/schema';

export type FormRow = typeof forms.$inferSelect;

/** A project as the forms routes need it: its team (and that team's owner), its name. `lock`: held from deletion. */
export async function getProject(db: DbOrTx, projectId: string, lock = false) {
  const query = db
    .select({ id: projects.id, name: projects.name, teamId: projects.teamId })
    .from(projects)
    .where(eq(projects.id, projectId));
  const [row] = await (lock ? query.for('no key update') : query);
  return row ?? null;
}

export async function listByProject(db: DbOrTx, projectId: string): Promise<FormRow[]> {
  return db.select().from(forms).where(eq(forms.projectId, projectId)).orderBy(asc(forms.createdAt), asc(forms.id));
}

export async function countByProject(db: DbOrTx, projectId: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(forms).where(eq(forms.projectId, projectId));
  return Number(row?.n ?? 0);
}

export async function getById(db: DbOrTx, id: string, lock = false): Promise<FormRow | null> {
  const query = db.select().from(forms).where(eq(forms.id, id));
  const [row] = await (lock ? query.for('update') : query);
  return row ?? null;
}

/** A form by its link's hash, with what a submission needs: its project's name and team, that team's owner. */
export async function getByTokenHash(db: DbOrTx, tokenHash: string) {
  const [row] = await db
    .select({ form: forms, projectName: projects.name, teamId: projects.teamId, teamOwnerId: teams.ownerId })
    .from(forms)
    .innerJoin(projects, eq(projects.id, forms.projectId))
    .innerJoin(teams, eq(teams.id, projects.teamId))
    .where(eq(forms.tokenHash, tokenHash));
  return row ?? null;
}

export interface NewForm {
  projectId: string;
  name: string;
  intro: string | null;
  fields: FormFieldDto[];
  status: string;
  assigneeId: string | null;
  open: boolean;
  tokenHash: string;
  tokenSealed: string;
  createdById: string;
}

export async function insertOne(db: DbOrTx, values: NewForm): Promise<FormRow> {
  const [row] = await db.insert(forms).values(values).returning();
  return row!;
}

export type FormChanges = Partial<
  Pick<FormRow, 'name' | 'intro' | 'fields' | 'status' | 'assigneeId' | 'open' | 'tokenHash' | 'tokenSealed'>
>;

export async function updateOne(db: DbOrTx, id: string, changes: FormChanges): Promise<FormRow> {
  const [row] = await db
    .update(forms)
    .set({ ...changes, updatedAt: new Date() })
    .where(eq(forms.id, id))
    .returning();
  return row!;
}

export async function deleteOne(db: DbOrTx, id: string): Promise<void> {
  await db.delete(forms).where(eq(forms.id, id));
}

export async function insertRequestLink(db: DbOrTx, values: { tokenHash: string; taskId: string; email: string }) {
  await db.insert(requestLinks).values(values);
}

/** A request's status by its link's hash: the task's title and times, its project's name, its status (live or not). */
export async function getRequestByTokenHash(db: DbOrTx, tokenHash: string) {
  const [row] = await db
    .select({
      title: tasks.title,
      projectName: projects.name,
      statusName: projectStatuses.name,
      statusCategory: projectStatuses.category,
      createdAt: tasks.createdAt,
      updatedAt: tasks.updatedAt,
    })
    .from(requestLinks)
    .innerJoin(tasks, eq(tasks.id, requestLinks.taskId))
    .innerJoin(projects, eq(projects.id, tasks.projectId))
    .innerJoin(projectStatuses, and(eq(projectStatuses.projectId, tasks.projectId), eq(projectStatuses.key, tasks.status)))
    .where(eq(requestLinks.tokenHash, tokenHash));
  return row ?? null;
}
