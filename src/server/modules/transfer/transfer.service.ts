import { hideDependencyEntry } from '../../../domain/dependencies';
import { type PersonActor, userActor } from '../../../domain/changes';
import * as Y from 'yjs';
import { fileSlug } from '../../../domain/csv';
import { fieldAppliesTo, fieldValueText } from '../../../domain/custom-fields';
import {
  CSV_NEW_FIELD,
  type CrewboardExport,
  type CsvImportInput,
  type CsvMappingTarget,
  type CsvPreviewDto,
  crewboardExport,
  EXPORT_FORMAT,
  EXPORT_VERSION,
  type ImportResultDto,
  type TeamImportResultDto,
  TRANSFER_LIMITS,
  type TrelloImportInput,
  type TrelloPreviewDto,
} from '../../../domain/schemas/transfer';
import { zoneOrUtc } from '../../../domain/schemas/time-zone';
import { DEFAULT_STATUSES, mapStatusToProject } from '../../../domain/workflow';
import type { TeamRole } from '../../../domain/constants';
import {
  type CsvFieldContext,
  type CsvPlan,
  csvImportPlan,
  planCsvImport,
  suggestCsvMapping,
} from '../../../domain/transfer/csv-import';
import {
  IMPORT_FIELDS_DENIED,
  type ImportPlan,
  importMayAddFields,
  planCounts,
  planProblems,
  workflowProblems,
} from '../../../domain/transfer/import-plan';
import { tasksCsv } from '../../../domain/transfer/task-csv';
import { planTeamImport } from '../../../domain/transfer/team-import';
import { parseTrelloBoard, planTrelloImport, type TeamMemberRef, trelloImportPlan } from '../../../domain/transfer/trello';
import type { Db, Tx } from '../../db/client';
import { AppError } from '../../lib/errors';
import type { ChangeRecorder, RecordChange } from '../../lib/changes';
import { requireContributor, requireTeamMember, requireTeamRight } from '../../db/membership';
import { requireProjectMember } from '../../db/project-access';
import { seesWholeTeam } from '../../../domain/permissions';
import { liveStatuses } from '../workflows';
import { CsvReadError, readCsv } from './csv-read';
import * as repo from './transfer.repo';
import { writeImportPlan } from './transfer.writer';

const USER_MENTION = /<@([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})>/gi;

/** An import that cannot be read: 400 `import_invalid`, with what is wrong under `fields`. */
const invalid = (fields: Record<string, string>) => new AppError('import_invalid', { fields });

const day = (d: Date) => d.toISOString().slice(0, 10);

/** A file name part for downloads: 'crewboard-launch-crew-2024-05-01'. */
export function exportFileStem(teamName: string, now = new Date()): string {
  return ['crewboard', fileSlug(teamName) || 'team', day(now)].join('-');
}

/**
 * Export and import (issue 26). Exports read a team as any active member sees it. An import is an adapter (domain/
 * transfer: Trello, CSV, a Crewboard export) that makes an ImportPlan, written by the one writer (transfer.writer.ts) in
 * one transaction and recorded as one `import.completed` change (lib/changes.ts): one audit row, one webhook event and
 * one realtime event per import, no per-task events, notifications or mails.
 */
export class TransferService {
  constructor(
    private readonly db: Db,
    private readonly changes: ChangeRecorder,
  ) {}

  // ---------------------------------------------------------------- export

  async exportTeam(userId: string, teamId: string): Promise<{ file: CrewboardExport; fileName: string }> {
    // The whole team (every project, member and note): not a guest's to take (decision 0031); their CSV export is.
    await requireTeamRight(this.db, teamId, userId, seesWholeTeam, 'team_export_denied');
    return this.exportAny(teamId);
  }

  /** Any team's export, no caller (the CLI, run by whoever runs the server). */
  async exportAny(teamId: string): Promise<{ file: CrewboardExport; fileName: string }> {
    const file = await buildExport(this.db, teamId);
    return { file, fileName: `${exportFileStem(file.team.name)}.json` };
  }

  async exportTasksCsv(userId: string, teamId: string, projectId?: string): Promise<{ csv: string; fileName: string }> {
    await requireTeamMember(this.db, teamId, userId);
    return this.exportAnyTasksCsv(teamId, projectId, userId);
  }

  /** The team's tasks as CSV; with `viewerId`, only the projects they see (a guest's: decision 0031). */
  async exportAnyTasksCsv(teamId: string, projectId?: string, viewerId?: string): Promise<{ csv: string; fileName: string }> {
    const team = await repo.getTeam(this.db, teamId);
    if (!team) throw new AppError('team_not_found');
    let stem = exportFileStem(team.name);
    if (projectId) {
      const project = await repo.getProjectInTeam(this.db, teamId, projectId);
      if (!project) throw new AppError('project_not_found');
      if (viewerId) await requireProjectMember(this.db, teamId, projectId, viewerId);
      stem = `${stem}-${fileSlug(project.name) || 'project'}`;
    }
    const [rows, allFields] = await Promise.all([
      repo.listTasks(this.db, teamId, projectId, viewerId),
      repo.listFields(this.db, teamId),
    ]);
    // A column per field of the team (issue 38), archived ones left out as everywhere else; people by their names.
    const fields = allFields.filter((f) => !f.archived);
    const people = new Set<string>();
    for (const { task } of rows) {
      for (const f of fields) {
        const v = task.fields[f.id];
        if (f.type === 'person' && typeof v === 'string') people.add(v);
      }
    }
    const nameOf = await repo.namesByIds(this.db, [...people]);
    const csv = tasksCsv(
      rows.map((r) => ({
        title: r.task.title,
        // As the list view shows it: the status's name in its project's workflow.
        status: r.statusName ?? r.task.status,
        priority: r.task.priority,
        assigneeName: r.assigneeName,
        startDate: r.task.startDate,
        dueDate: r.task.dueDate,
        projectName: r.projectName,
        tags: r.task.tags,
        createdAt: r.task.createdAt.toISOString(),
        description: r.task.description,
        fields: fields.map((f) => fieldValueText(f, r.task.fields[f.id], (id) => nameOf.get(id) ?? null)),
      })),
      fields.map((f) => f.name),
    );
    return { csv, fileName: `${stem}-tasks.csv` };
  }

  // ---------------------------------------------------------------- Trello

  async importTrello(
    userId: string,
    teamId: string,
    input: TrelloImportInput,
    actor: PersonActor = userActor(userId),
    timeZone: string | null = null,
  ): Promise<TrelloPreviewDto | ImportResultDto> {
    // A viewer or a guest imports nothing (issue 41), not even a preview.
    const previewRole = await requireContributor(this.db, teamId, userId);
    const parsed = parseTrelloBoard(input.board);
    if (!parsed.ok) throw invalid({ board: `Not a Trello board export: ${parsed.issues.join('; ')}` });
    const zone = zoneOrUtc(timeZone);
    // A plain member's import fills the team's fields that exist, never adds fields or options (issue 38).
    const plan = (role: TeamRole, members: TeamMemberRef[], teamFields: Awaited<ReturnType<typeof repo.listFields>>) =>
      planTrelloImport(parsed.board, input.mapping, {
        members,
        timeZone: zone,
        teamFields,
        canAddFields: importMayAddFields(role),
      });
    const projectName = input.projectName ?? (parsed.board.name.trim().slice(0, 120).trim() || 'Trello import');
    if (input.dryRun || !input.mapping) {
      const preview = plan(previewRole, await repo.listActiveMembers(this.db, teamId), await repo.listFields(this.db, teamId));
      return {
        dryRun: true,
        boardName: preview.boardName,
        projectName,
        lists: preview.lists,
        labels: preview.labels,
        statuses: (preview.statuses ?? DEFAULT_STATUSES).map(({ key, name, category }) => ({ key, name, category })),
        fields: preview.fields.map((f) => ({ name: f.name, type: f.type, existing: Boolean(f.existingId) })),
        counts: preview.counts,
        warnings: preview.warnings,
      };
    }
    const done = await this.changes.run(this.db, actor, async (tx, record) => {
      // The caller (and their role) is checked again inside the transaction that writes; assignees are members at that
      // moment.
      const role = await requireContributor(tx, teamId, userId);
      const trello = plan(role, await repo.listActiveMembers(tx, teamId), await repo.listFields(tx, teamId));
      if (trello.counts.tasks > TRANSFER_LIMITS.tasksMax) {
        throw invalid({
          board: `An import creates at most ${TRANSFER_LIMITS.tasksMax} tasks; this board has ${trello.counts.tasks}`,
        });
      }
      const workflow = trello.statuses ? workflowProblems(trello.statuses) : [];
      if (workflow.length) throw invalid({ mapping: workflow[0]! });
      const written = await this.write(tx, trelloImportPlan(trello, teamId, projectName, userId), userId, record);
      return { ...written, summary: { counts: trello.counts, warnings: trello.warnings } };
    });
    return { projectId: done.project.id, projectName, teamId, ...done.summary };
  }

  // ---------------------------------------------------------------- CSV

  async importCsv(
    userId: string,
    teamId: string,
    input: CsvImportInput,
    actor: PersonActor = userActor(userId),
  ): Promise<CsvPreviewDto | ImportResultDto> {
    // A viewer or a guest imports nothing (issue 41), not even a preview.
    const previewRole = await requireContributor(this.db, teamId, userId);
    let file: ReturnType<typeof readCsv>;
    try {
      file = readCsv(input.csv);
    } catch (error) {
      if (error instanceof CsvReadError) throw invalid({ csv: error.message });
      throw error;
    }
    const target = input.projectId ? await repo.getProjectInTeam(this.db, teamId, input.projectId) : undefined;
    if (input.projectId && !target) throw new AppError('project_not_found');
    const preFields = await csvFieldContext(this.db, teamId, target?.id ?? null);
    const mapping = input.mapping ?? suggestCsvMapping(file.headers, preFields.fields);

    // 'New field' columns: only the team's owner and admins add fields (issue 38); a plain member's are refused.
    const asksNewField = Object.values(mapping).includes(CSV_NEW_FIELD);

    if (input.dryRun || !input.mapping) {
      const members = await repo.listActiveMembers(this.db, teamId);
      const denied = asksNewField && !importMayAddFields(previewRole);
      const planned = await this.intoWorkflow(
        this.db,
        planCsvImport(file.headers, file.records, denied ? withoutNewFields(mapping) : mapping, members, preFields),
        target?.id,
      );
      const plan = denied ? { ...planned, errors: [{ line: 1, message: IMPORT_FIELDS_DENIED }, ...planned.errors] } : planned;
      return {
        dryRun: true,
        headers: file.headers,
        mapping,
        fields: preFields.fields.map(({ id, name, type }) => ({ id, name, type })),
        rows: plan.tasks
          .slice(0, TRANSFER_LIMITS.previewRows)
          .map(({ assigneeId: _id, assigneeName, fields: _values, fieldTexts, ...t }) => ({
            ...t,
            assignee: assigneeName,
            ...(Object.keys(fieldTexts).length ? { fields: fieldTexts } : {}),
          })),
        errors: plan.errors.slice(0, TRANSFER_LIMITS.messagesMax),
        counts: { tasks: plan.tasks.length, comments: 0, checklistItems: 0 },
        warnings: capped(plan.warnings),
      };
    }

    const done = await this.changes.run(this.db, actor, async (tx, record) => {
      const role = await requireContributor(tx, teamId, userId);
      if (asksNewField && !importMayAddFields(role)) throw invalid({ mapping: IMPORT_FIELDS_DENIED });
      // Assignees are looked up in the transaction that writes them, and the project's statuses too.
      const plan = await this.intoWorkflow(
        tx,
        planCsvImport(
          file.headers,
          file.records,
          mapping,
          await repo.listActiveMembers(tx, teamId),
          await csvFieldContext(tx, teamId, target?.id ?? null),
        ),
        target?.id,
      );
      if (plan.errors.length) {
        throw invalid(
          Object.fromEntries(plan.errors.slice(0, 20).map((e) => [`line ${e.line}`, `Line ${e.line}: ${e.message}`])),
        );
      }
      if (plan.tasks.length > TRANSFER_LIMITS.tasksMax) {
        throw invalid({ csv: `An import creates at most ${TRANSFER_LIMITS.tasksMax} tasks; this file has ${plan.tasks.length}` });
      }
      const into = target ? { existingId: target.id, name: target.name } : { newName: input.projectName ?? 'Imported tasks' };
      const written = await this.write(tx, csvImportPlan(plan, teamId, into), userId, record);
      return {
        ...written,
        summary: { counts: { tasks: plan.tasks.length, comments: 0, checklistItems: 0 }, warnings: plan.warnings },
      };
    });
    return {
      projectId: done.project.id,
      projectName: done.project.name,
      teamId,
      counts: done.summary.counts,
      warnings: capped(done.summary.warnings),
    };
  }

  // ---------------------------------------------------------------- a Crewboard export, as a new team

  async importTeam(userId: string, body: unknown, actor: PersonActor = userActor(userId)): Promise<TeamImportResultDto> {
    const parsed = crewboardExport.safeParse(body);
    if (!parsed.success) {
      throw invalid(
        Object.fromEntries(
          parsed.error.issues
            .slice(0, 10)
            .map((i) => [i.path.join('.') || 'file', `${i.path.join('.') || 'file'}: ${i.message}`]),
        ),
      );
    }
    const file = parsed.data;
    // Checked before the transaction with a placeholder importer: the plan's shape does not depend on who imports.
    const problems = planProblems(planTeamImport(file, { id: '', email: '' }));
    if (problems.length) throw invalid({ projects: problems[0]! });
    file.notes.forEach((n, i) => {
      if (n.state !== null && !isYjsUpdate(Buffer.from(n.state, 'base64'))) {
        throw invalid({ [`notes.${i}.state`]: 'Not a note document' });
      }
    });

    const done = await this.changes.run(this.db, actor, async (tx, record) => {
      const email = (await repo.getUserEmail(tx, userId)) ?? '';
      const plan = planTeamImport(file, { id: userId, email });
      const written = await this.write(tx, plan, userId, record);
      return { ...written, summary: { counts: planCounts(plan), warnings: plan.warnings } };
    });
    return {
      teamId: done.team.id,
      teamName: done.team.name,
      counts: done.summary.counts,
      warnings: done.summary.warnings,
    };
  }

  /**
   * A CSV plan's tasks fitted to the workflow of the project they go into (a new project has the default four): a
   * status the project lacks becomes the one a task moving there would take (mapStatusToProject), with a warning.
   */
  private async intoWorkflow(db: Db | Tx, plan: CsvPlan, projectId: string | undefined): Promise<CsvPlan> {
    if (!projectId) return plan;
    const workflow = await liveStatuses(db, projectId);
    const keys = new Set(workflow.map((s) => s.key));
    const moved = new Map<string, { name: string; count: number }>();
    const tasks = plan.tasks.map((t) => {
      if (keys.has(t.status)) return t;
      const from = DEFAULT_STATUSES.find((d) => d.key === t.status);
      const to = from && mapStatusToProject(from, workflow);
      if (!from || !to) return t;
      const seen = moved.get(from.key) ?? { name: `${from.name} → ${to.name}`, count: 0 };
      moved.set(from.key, { ...seen, count: seen.count + 1 });
      return { ...t, status: to.key };
    });
    const warnings = [...moved.values()].map(
      ({ name, count }) => `${count} ${count === 1 ? 'task' : 'tasks'} in a status this project does not have: ${name}`,
    );
    return { ...plan, tasks, warnings: [...plan.warnings, ...warnings] };
  }

  /** Writes a plan and records the import as one change (one audit row, one webhook event, one realtime event). */
  private async write(tx: Tx, plan: ImportPlan, userId: string, record: RecordChange) {
    const written = await writeImportPlan(tx, plan, userId);
    const project = plan.target.kind === 'team' ? written.projects.get(plan.projects[0]!.ref)! : null;
    await record({
      kind: 'import.completed',
      source: plan.source,
      team: written.team,
      project,
      counts: planCounts(plan),
      warnings: plan.warnings.length,
    });
    return { team: written.team, project: project! };
  }
}

/**
 * The custom fields a CSV import into `projectId` (null: a new project) may fill: the team's not archived that apply
 * to it (a new project: those for every project), and every name the team's fields take.
 */
async function csvFieldContext(db: Db | Tx, teamId: string, projectId: string | null): Promise<CsvFieldContext> {
  const rows = await repo.listFields(db, teamId);
  return {
    fields: rows.filter((f) => (projectId ? fieldAppliesTo(f, projectId) : !f.archived && f.projectIds === null)),
    takenNames: rows.map((f) => f.name),
  };
}

/** A mapping with its 'New field' columns ignored (a plain member's preview: the error says why). */
const withoutNewFields = (mapping: Record<string, CsvMappingTarget>): Record<string, CsvMappingTarget> =>
  Object.fromEntries(Object.entries(mapping).map(([header, to]) => [header, to === CSV_NEW_FIELD ? 'ignore' : to]));

const capped = (warnings: string[]) =>
  warnings.length > TRANSFER_LIMITS.messagesMax
    ? [...warnings.slice(0, TRANSFER_LIMITS.messagesMax), `…and ${warnings.length - TRANSFER_LIMITS.messagesMax} more`]
    : warnings;

/** True when the bytes decode as a Yjs update (a note's document). */
function isYjsUpdate(bytes: Buffer): boolean {
  try {
    Y.applyUpdate(new Y.Doc(), bytes);
    return true;
  } catch {
    return false;
  }
}

/** The whole team as the export file describes it. */
async function buildExport(db: Db, teamId: string): Promise<CrewboardExport> {
  const team = await repo.getTeam(db, teamId);
  if (!team) throw new AppError('team_not_found');
  const [members, projects, statuses, taskRows, comments, checklist, activity, noteRows, fieldRows] = await Promise.all([
    repo.listMembers(db, teamId),
    repo.listProjects(db, teamId),
    repo.listStatuses(db, teamId),
    repo.listTasks(db, teamId),
    repo.listComments(db, teamId),
    repo.listChecklistItems(db, teamId),
    repo.listActivity(db, teamId),
    repo.listNotes(db, teamId),
    repo.listFields(db, teamId),
  ]);
  const keyOf = new Map(projects.map((p, i) => [p.id, `p${i + 1}`]));
  // Custom fields (issue 38) by the file's keys, their options too ('o1'… across the file).
  const fieldKeyOf = new Map(fieldRows.map((f, i) => [f.id, `f${i + 1}`]));
  const optionKeyOf = new Map<string, string>();
  for (const f of fieldRows) for (const o of f.options) optionKeyOf.set(o.id, `o${optionKeyOf.size + 1}`);

  // People named by id inside texts and history values: by email in the file.
  const ids = new Set<string>();
  for (const c of comments) for (const id of c.comment.mentions) ids.add(id);
  const fieldById = new Map(fieldRows.map((f) => [f.id, f]));
  for (const { task } of taskRows) {
    for (const [id, v] of Object.entries(task.fields)) if (fieldById.get(id)?.type === 'person') ids.add(String(v));
  }
  for (const a of activity) {
    if (a.activity.field !== 'assignee') continue;
    if (a.activity.oldValue) ids.add(a.activity.oldValue);
    if (a.activity.newValue) ids.add(a.activity.newValue);
  }
  const emailOf = await repo.emailsByIds(
    db,
    [...ids].filter((id) => /^[0-9a-f-]{36}$/i.test(id)),
  );

  const group = <T>(rows: T[], taskId: (row: T) => string) => {
    const map = new Map<string, T[]>();
    for (const row of rows) map.set(taskId(row), [...(map.get(taskId(row)) ?? []), row]);
    return map;
  };
  const statusesOf = group(statuses, (s) => s.projectId);
  const commentsOf = group(comments, (c) => c.comment.taskId);
  const checklistOf = group(checklist, (c) => c.taskId);
  const historyOf = group(activity, (a) => a.activity.taskId);

  /** A task's values with the file's keys: options by key, people by email (a person without one is left out). */
  const exportValues = (values: Record<string, unknown>) => {
    const out: Record<string, string | number | boolean | string[]> = {};
    for (const [id, v] of Object.entries(values)) {
      const field = fieldById.get(id);
      if (!field) continue;
      const key = fieldKeyOf.get(id)!;
      if (field.type === 'select') {
        const o = optionKeyOf.get(String(v));
        if (o) out[key] = o;
      } else if (field.type === 'multi_select') {
        const keys = (Array.isArray(v) ? v : []).flatMap((o) => optionKeyOf.get(String(o)) ?? []);
        if (keys.length) out[key] = keys;
      } else if (field.type === 'person') {
        const email = emailOf.get(String(v));
        if (email) out[key] = email;
      } else if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') out[key] = v;
    }
    return out;
  };

  const historyValue = (field: string, v: string | null) => {
    if (v === null) return null;
    if (field === 'assignee') return emailOf.get(v) ?? null;
    if (field === 'project') return keyOf.get(v) ?? null;
    return v;
  };

  // A dependency's other task that is not the team's (left across teams by a project's move) leaves the file without
  // its id and title, as the history shows it to a member of this team only (decision 0025).
  const exported = new Set(taskRows.map((t) => t.task.id));

  const pending = await repo.listPendingNoteUpdates(
    db,
    noteRows.map((n) => n.note.id),
  );
  const updatesOf = group(pending, (u) => u.noteId);

  return {
    format: EXPORT_FORMAT,
    version: EXPORT_VERSION,
    exportedAt: new Date().toISOString(),
    team: { name: team.name, description: team.description },
    members: members.map((m) => ({ email: m.email, fullName: m.fullName, role: m.role })),
    projects: projects.map((p) => ({
      key: keyOf.get(p.id)!,
      name: p.name,
      description: p.description,
      status: p.status,
      startDate: p.startDate,
      endDate: p.endDate,
      createdAt: p.createdAt.toISOString(),
      statuses: (statusesOf.get(p.id) ?? []).map((s) => ({
        key: s.key,
        name: s.name,
        category: s.category,
        color: s.color,
        position: s.position!,
        wipLimit: s.wipLimit,
      })),
    })),
    tasks: taskRows.map(({ task, assigneeEmail, creatorEmail }) => ({
      project: keyOf.get(task.projectId)!,
      title: task.title,
      description: task.description,
      status: task.status,
      priority: task.priority,
      assignee: assigneeEmail,
      creator: creatorEmail,
      dueDate: task.dueDate,
      tags: task.tags,
      createdAt: task.createdAt.toISOString(),
      updatedAt: task.updatedAt.toISOString(),
      comments: (commentsOf.get(task.id) ?? []).map(({ comment, authorEmail, authorName }) => ({
        author: authorEmail,
        authorName,
        body: comment.body.replace(USER_MENTION, (token, id: string) => {
          const email = emailOf.get(id.toLowerCase());
          return email ? `<@mailto:${email}>` : token;
        }),
        createdAt: comment.createdAt.toISOString(),
        editedAt: comment.editedAt?.toISOString() ?? null,
      })),
      checklist: (checklistOf.get(task.id) ?? []).map((item) => ({ title: item.title, done: item.done })),
      history: (historyOf.get(task.id) ?? []).map(({ activity, actorEmail }) => {
        const a = hideDependencyEntry(activity, (id) => !exported.has(id));
        return {
          actor: actorEmail,
          field: a.field,
          oldValue: historyValue(a.field, a.oldValue),
          newValue: historyValue(a.field, a.newValue),
          oldLabel: a.oldLabel,
          newLabel: a.newLabel,
          createdAt: a.createdAt.toISOString(),
          ...(a.field === 'status' ? { oldCategory: a.oldCategory, newCategory: a.newCategory } : {}),
        };
      }),
      startDate: task.startDate,
      ...(fieldRows.length ? { fields: exportValues(task.fields) } : {}),
    })),
    notes: noteRows.map(({ note, authorEmail, state }) => {
      const updates = (updatesOf.get(note.id) ?? []).map((u) => new Uint8Array(u.update));
      // Only merged when there is something to merge: the stored state goes out byte for byte otherwise.
      const merged = updates.length ? Y.mergeUpdates(state ? [new Uint8Array(state), ...updates] : updates) : state;
      return {
        title: note.title,
        project: note.projectId ? (keyOf.get(note.projectId) ?? null) : null,
        pinned: note.pinned,
        author: authorEmail,
        plainText: note.plainText,
        state: merged ? Buffer.from(merged).toString('base64') : null,
        createdAt: note.createdAt.toISOString(),
        updatedAt: note.updatedAt.toISOString(),
      };
    }),
    ...(fieldRows.length
      ? {
          fields: fieldRows.map((f) => ({
            key: fieldKeyOf.get(f.id)!,
            name: f.name,
            type: f.type,
            options: f.options.map((o) => ({ key: optionKeyOf.get(o.id)!, name: o.name, color: o.color })),
            // A project no longer the team's (moved away) is left out of the list.
            projects: f.projectIds ? f.projectIds.flatMap((id) => keyOf.get(id) ?? []) : null,
            showOnCard: f.showOnCard,
            archived: f.archived,
            unit: f.unit,
            decimals: f.decimals,
          })),
        }
      : {}),
  };
}
