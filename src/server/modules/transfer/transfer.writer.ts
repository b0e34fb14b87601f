import { randomUUID } from 'node:crypto';
import type { CustomFieldValue, CustomFieldValues } from '../../../domain/custom-fields';
import {
  type ImportPlan,
  importMayAddFields,
  type PlanField,
  type PlanFieldValues,
  type PlanValue,
} from '../../../domain/transfer/import-plan';
import type { Tx } from '../../db/client';
import { requireTeamRight } from '../../db/membership';
import * as teamsRepo from '../teams';
import * as repo from './transfer.repo';

/** What writing a plan made: the team it went into, and the plan's projects by ref. */
export interface WrittenImport {
  team: { id: string; name: string; created: boolean };
  projects: Map<string, { id: string; name: string; created: boolean }>;
}

/**
 * The one writer of imports (issue 34): everything `plan` says, in the caller's transaction `tx`, straight into the
 * tables (their triggers keep task counters, card counts and search). `importerId` owns what is created. The plan is
 * trusted: the adapters built it, and link people only to the importer and the team's members.
 */
export async function writeImportPlan(tx: Tx, plan: ImportPlan, importerId: string): Promise<WrittenImport> {
  let team: WrittenImport['team'];
  if (plan.target.kind === 'new_team') {
    const row = await teamsRepo.createOne(tx, {
      name: plan.target.name,
      description: plan.target.description,
      ownerId: importerId,
    });
    await teamsRepo.addMember(tx, { teamId: row.id, userId: importerId, role: 'owner' });
    team = { id: row.id, name: row.name, created: true };
  } else {
    const row = await repo.getTeam(tx, plan.target.teamId);
    team = { id: plan.target.teamId, name: row?.name ?? '', created: false };
  }

  const fresh = plan.projects.filter((p) => !p.existingId);
  const ids = await repo.insertProjects(
    tx,
    fresh.map((p, i) => ({
      name: p.name,
      description: p.description,
      status: p.status,
      ownerId: importerId,
      teamId: team.id,
      startDate: p.startDate,
      endDate: p.endDate,
      ...(p.createdAt ? { createdAt: repo.fileTime(p.createdAt, i) } : {}),
    })),
    fresh.map((p) => p.statuses),
  );
  const projects: WrittenImport['projects'] = new Map();
  for (const [i, p] of fresh.entries()) projects.set(p.ref, { id: ids[i]!, name: p.name, created: true });
  for (const p of plan.projects) {
    if (p.existingId) projects.set(p.ref, { id: p.existingId, name: p.name, created: false });
  }
  const projectId = (ref: string) => projects.get(ref)!.id;
  const fieldValues = await writeFields(tx, team.id, plan.fields ?? [], projectId, team.created ? null : importerId);

  const taskIds = await repo.insertTasks(
    tx,
    plan.tasks.map((t, i) => ({
      title: t.title,
      description: t.description,
      status: t.status,
      priority: t.priority,
      assigneeId: t.assigneeId,
      projectId: projectId(t.project),
      creatorId: importerId,
      startDate: t.startDate,
      dueDate: t.dueDate,
      tags: t.tags,
      ...(t.fields ? { fields: fieldValues(t.fields) } : {}),
      createdAt: t.createdAt ? repo.fileTime(t.createdAt, i) : repo.newestFirst(i),
      updatedAt: t.updatedAt ? new Date(t.updatedAt) : repo.newestFirst(i),
    })),
  );
  await repo.insertComments(
    tx,
    plan.tasks.flatMap((t, i) =>
      t.comments.map((c, j) => ({
        taskId: taskIds[i]!,
        authorId: c.authorId,
        body: c.body,
        mentions: c.mentions,
        createdAt: c.createdAt ? repo.fileTime(c.createdAt, j) : repo.newestFirst(-j),
        ...(c.createdAt ? { updatedAt: new Date(c.editedAt ?? c.createdAt) } : {}),
        editedAt: c.editedAt ? new Date(c.editedAt) : null,
      })),
    ),
  );
  await repo.insertChecklistItems(
    tx,
    plan.tasks.flatMap((t, i) =>
      t.checklist.map((item, j) => ({ taskId: taskIds[i]!, title: item.title, done: item.done, position: j + 1 })),
    ),
  );
  const value = (v: PlanValue) => (v !== null && typeof v === 'object' ? projectId(v.projectRef) : v);
  await repo.insertActivity(
    tx,
    plan.tasks.flatMap((t, i) =>
      t.history.map((h) => ({
        taskId: taskIds[i]!,
        actorId: h.actorId,
        field: h.field,
        oldValue: value(h.oldValue),
        newValue: value(h.newValue),
        oldLabel: h.oldLabel,
        newLabel: h.newLabel,
        oldCategory: h.oldCategory ?? null,
        newCategory: h.newCategory ?? null,
        createdAt: new Date(h.createdAt),
      })),
    ),
  );
  for (const [i, n] of plan.notes.entries()) {
    await repo.insertNote(
      tx,
      {
        teamId: team.id,
        projectId: n.project ? projectId(n.project) : null,
        title: n.title,
        authorId: n.authorId,
        pinned: n.pinned,
        plainText: n.plainText,
        createdAt: repo.fileTime(n.createdAt, i),
        updatedAt: new Date(n.updatedAt),
      },
      n.state === null ? null : Buffer.from(n.state, 'base64'),
    );
  }
  return { team, projects };
}

/**
 * The plan's custom fields (issue 38): new ones inserted after the team's (new options get ids), options added to
 * existing ones; returns how a task's values by field and option refs become the stored `{ fieldId: value }`.
 * `importerId` (null: the team is the import's own): when the plan adds fields or options to a team that exists, its
 * role there is read here, in the transaction that writes, and must be owner or admin (403
 * `custom_field_manage_denied`; the adapters leave those out for a plain member, so this only guards the rule).
 */
async function writeFields(
  tx: Tx,
  teamId: string,
  fields: readonly PlanField[],
  projectId: (ref: string) => string,
  importerId: string | null,
): Promise<(values: PlanFieldValues) => CustomFieldValues> {
  const byRef = new Map<string, { id: string; type: PlanField['type']; options: Map<string, string> }>();
  if (fields.length === 0) return () => ({});
  const adds = fields.some((f) => !f.existingId || f.options.some((o) => !o.id));
  if (adds && importerId) await requireTeamRight(tx, teamId, importerId, importMayAddFields, 'custom_field_manage_denied');
  const existing = await repo.listFields(tx, teamId);
  let position = existing.reduce((n, f) => Math.max(n, f.position + 1), 0);
  const fresh: PlanField[] = [];
  for (const f of fields) {
    const options = new Map(f.options.map((o) => [o.ref, o.id ?? randomUUID()]));
    if (f.existingId) {
      const row = existing.find((e) => e.id === f.existingId);
      const added = f.options.filter((o) => !o.id).map((o) => ({ id: options.get(o.ref)!, name: o.name, color: o.color }));
      if (row && added.length) await repo.setFieldOptions(tx, row.id, [...row.options, ...added]);
      byRef.set(f.ref, { id: f.existingId, type: f.type, options });
    } else {
      fresh.push(f);
      byRef.set(f.ref, { id: '', type: f.type, options });
    }
  }
  const ids = await repo.insertFields(
    tx,
    fresh.map((f) => ({
      teamId,
      name: f.name,
      type: f.type,
      options: f.options.map((o) => ({ id: byRef.get(f.ref)!.options.get(o.ref)!, name: o.name, color: o.color })),
      projectIds: f.projectRefs ? f.projectRefs.map(projectId) : null,
      showOnCard: f.showOnCard,
      archived: f.archived,
      unit: f.type === 'number' ? f.unit : null,
      decimals: f.type === 'number' ? f.decimals : null,
      position: position++,
    })),
  );
  fresh.forEach((f, i) => {
    byRef.get(f.ref)!.id = ids[i]!;
  });
  return (values) => {
    const stored: CustomFieldValues = {};
    for (const [ref, value] of Object.entries(values)) {
      const field = byRef.get(ref);
      if (!field) continue;
      const option = (v: string) => field.options.get(v);
      let out: CustomFieldValue | undefined = value;
      if (field.type === 'select') out = typeof value === 'string' ? option(value) : undefined;
      else if (field.type === 'multi_select') {
        const ids = (Array.isArray(value) ? value : []).map(option).filter((id): id is string => !!id);
        out = ids.length ? ids : undefined;
      }
      if (out !== undefined) stored[field.id] = out;
    }
    return stored;
  };
}
