import * as Y from 'yjs';
import { TASK_DETAIL_LIMITS, type TaskStatus } from '../../../domain/constants';
import { fileSlug } from '../../../domain/csv';
import {
  type CrewboardExport,
  type CsvImportInput,
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
import { planCsvImport, suggestCsvMapping } from '../../../domain/transfer/csv-import';
import { tasksCsv } from '../../../domain/transfer/task-csv';
import { parseTrelloBoard, planTrelloImport, trelloCommentBody } from '../../../domain/transfer/trello';
import type { Db, Tx } from '../../db/client';
import { AppError } from '../../lib/errors';
import type { EventBus } from '../../lib/events';
import * as projectsRepo from '../projects/projects.repo';
import { requireTeamMember } from '../teams/membership';
import * as teamsRepo from '../teams/teams.repo';
import { CsvReadError, readCsv } from './csv-read';
import * as repo from './transfer.repo';

const USER_MENTION = /<@([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})>/gi;
const EMAIL_MENTION = /<@mailto:([^>\s]{1,254})>/g;

/** An import that cannot be read: 400 `import_invalid`, with what is wrong under `fields`. */
const invalid = (fields: Record<string, string>) => new AppError('import_invalid', { fields });

const day = (d: Date) => d.toISOString().slice(0, 10);

/** A file name part for downloads: 'crewboard-launch-crew-2024-05-01'. */
export function exportFileStem(teamName: string, now = new Date()): string {
  return ['crewboard', fileSlug(teamName) || 'team', day(now)].join('-');
}

/**
 * Export and import (issue 26). Exports read a team as any active member sees it; imports write everything of one
 * import in one transaction, straight into the tables (the triggers keep task counters, card counts and search), and
 * publish one event for the new project or team: no per-task events, notifications, mails or webhooks.
 */
export class TransferService {
  constructor(
    private readonly db: Db,
    private readonly events: EventBus,
  ) {}

  // ---------------------------------------------------------------- export

  async exportTeam(userId: string, teamId: string): Promise<{ file: CrewboardExport; fileName: string }> {
    await requireTeamMember(this.db, teamId, userId);
    return this.exportAny(teamId);
  }

  /** Any team's export, no caller (the CLI, run by whoever runs the server). */
  async exportAny(teamId: string): Promise<{ file: CrewboardExport; fileName: string }> {
    const file = await buildExport(this.db, teamId);
    return { file, fileName: `${exportFileStem(file.team.name)}.json` };
  }

  async exportTasksCsv(userId: string, teamId: string, projectId?: string): Promise<{ csv: string; fileName: string }> {
    await requireTeamMember(this.db, teamId, userId);
    return this.exportAnyTasksCsv(teamId, projectId);
  }

  async exportAnyTasksCsv(teamId: string, projectId?: string): Promise<{ csv: string; fileName: string }> {
    const team = await repo.getTeam(this.db, teamId);
    if (!team) throw new AppError('team_not_found');
    let stem = exportFileStem(team.name);
    if (projectId) {
      const project = await repo.getProjectInTeam(this.db, teamId, projectId);
      if (!project) throw new AppError('project_not_found');
      stem = `${stem}-${fileSlug(project.name) || 'project'}`;
    }
    const rows = await repo.listTasks(this.db, teamId, projectId);
    const csv = tasksCsv(
      rows.map((r) => ({
        title: r.task.title,
        status: r.task.status,
        priority: r.task.priority,
        assigneeName: r.assigneeName,
        dueDate: r.task.dueDate,
        projectName: r.projectName,
        tags: r.task.tags,
        createdAt: r.task.createdAt.toISOString(),
        description: r.task.description,
      })),
    );
    return { csv, fileName: `${stem}-tasks.csv` };
  }

  // ---------------------------------------------------------------- Trello

  async importTrello(userId: string, teamId: string, input: TrelloImportInput): Promise<TrelloPreviewDto | ImportResultDto> {
    await requireTeamMember(this.db, teamId, userId);
    const parsed = parseTrelloBoard(input.board);
    if (!parsed.ok) throw invalid({ board: `Not a Trello board export: ${parsed.issues.join('; ')}` });
    const plan = planTrelloImport(parsed.board, input.mapping);
    const projectName = input.projectName ?? (parsed.board.name.trim().slice(0, 120).trim() || 'Trello import');
    if (input.dryRun || !input.mapping) {
      return {
        dryRun: true,
        boardName: plan.boardName,
        projectName,
        lists: plan.lists,
        labels: plan.labels,
        counts: plan.counts,
        warnings: plan.warnings,
      };
    }
    if (plan.counts.tasks > TRANSFER_LIMITS.tasksMax) {
      throw invalid({
        board: `An import creates at most ${TRANSFER_LIMITS.tasksMax} tasks; this board has ${plan.counts.tasks}`,
      });
    }
    const projectId = await this.db.transaction(async (tx) => {
      // The caller is checked again inside the transaction that writes.
      await requireTeamMember(tx, teamId, userId);
      const project = await projectsRepo.createOne(tx, {
        name: projectName,
        description: `Imported from the Trello board "${plan.boardName.slice(0, 200)}"`,
        status: 'active',
        ownerId: userId,
        teamId,
        startDate: null,
        endDate: null,
      });
      const ids = await repo.insertTasks(
        tx,
        plan.tasks.map((t, i) => ({
          title: t.title,
          description: t.description,
          status: t.status,
          priority: 'medium' as const,
          projectId: project.id,
          creatorId: userId,
          dueDate: t.dueDate,
          tags: t.tags,
          createdAt: repo.newestFirst(i),
          updatedAt: repo.newestFirst(i),
        })),
      );
      await repo.insertComments(
        tx,
        plan.tasks.flatMap((t, i) =>
          t.comments.map((body, j) => ({ taskId: ids[i]!, authorId: userId, body, createdAt: repo.newestFirst(-j) })),
        ),
      );
      await repo.insertChecklistItems(
        tx,
        plan.tasks.flatMap((t, i) =>
          t.checklist.map((item, j) => ({ taskId: ids[i]!, title: item.title, done: item.done, position: j + 1 })),
        ),
      );
      return project.id;
    });
    this.events.publish({ type: 'project.created', teamId, actorId: userId, projectId });
    return { projectId, projectName, teamId, counts: plan.counts, warnings: plan.warnings };
  }

  // ---------------------------------------------------------------- CSV

  async importCsv(userId: string, teamId: string, input: CsvImportInput): Promise<CsvPreviewDto | ImportResultDto> {
    await requireTeamMember(this.db, teamId, userId);
    let file: ReturnType<typeof readCsv>;
    try {
      file = readCsv(input.csv);
    } catch (error) {
      if (error instanceof CsvReadError) throw invalid({ csv: error.message });
      throw error;
    }
    const mapping = input.mapping ?? suggestCsvMapping(file.headers);
    const target = input.projectId ? await repo.getProjectInTeam(this.db, teamId, input.projectId) : undefined;
    if (input.projectId && !target) throw new AppError('project_not_found');

    if (input.dryRun || !input.mapping) {
      const members = await repo.listActiveMembers(this.db, teamId);
      const plan = planCsvImport(file.headers, file.records, mapping, members);
      return {
        dryRun: true,
        headers: file.headers,
        mapping,
        rows: plan.tasks.slice(0, TRANSFER_LIMITS.previewRows).map(({ assigneeId: _id, assigneeName, ...t }) => ({
          ...t,
          assignee: assigneeName,
        })),
        errors: plan.errors.slice(0, TRANSFER_LIMITS.messagesMax),
        counts: { tasks: plan.tasks.length, comments: 0, checklistItems: 0 },
        warnings: capped(plan.warnings),
      };
    }

    const result = await this.db.transaction(async (tx) => {
      await requireTeamMember(tx, teamId, userId);
      // Assignees are looked up in the transaction that writes them.
      const plan = planCsvImport(file.headers, file.records, mapping, await repo.listActiveMembers(tx, teamId));
      if (plan.errors.length) {
        throw invalid(
          Object.fromEntries(plan.errors.slice(0, 20).map((e) => [`line ${e.line}`, `Line ${e.line}: ${e.message}`])),
        );
      }
      if (plan.tasks.length > TRANSFER_LIMITS.tasksMax) {
        throw invalid({ csv: `An import creates at most ${TRANSFER_LIMITS.tasksMax} tasks; this file has ${plan.tasks.length}` });
      }
      const project =
        target ??
        (await projectsRepo.createOne(tx, {
          name: input.projectName ?? 'Imported tasks',
          description: null,
          status: 'active',
          ownerId: userId,
          teamId,
          startDate: null,
          endDate: null,
        }));
      await repo.insertTasks(
        tx,
        plan.tasks.map((t, i) => ({
          title: t.title,
          description: t.description,
          status: t.status,
          priority: t.priority,
          assigneeId: t.assigneeId,
          projectId: project.id,
          creatorId: userId,
          dueDate: t.dueDate,
          tags: t.tags,
          createdAt: repo.newestFirst(i),
          updatedAt: repo.newestFirst(i),
        })),
      );
      return { projectId: project.id, projectName: project.name, tasks: plan.tasks.length, warnings: plan.warnings };
    });
    this.events.publish({
      type: target ? 'project.updated' : 'project.created',
      teamId,
      actorId: userId,
      projectId: result.projectId,
    });
    return {
      projectId: result.projectId,
      projectName: result.projectName,
      teamId,
      counts: { tasks: result.tasks, comments: 0, checklistItems: 0 },
      warnings: capped(result.warnings),
    };
  }

  // ---------------------------------------------------------------- a Crewboard export, as a new team

  async importTeam(userId: string, body: unknown): Promise<TeamImportResultDto> {
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
    const projectKeys = new Set<string>();
    for (const p of file.projects) {
      if (projectKeys.has(p.key)) throw invalid({ projects: `Project key ${p.key} is used twice` });
      projectKeys.add(p.key);
    }
    const unknownKey = [...file.tasks.map((t) => t.project), ...file.notes.flatMap((n) => n.project ?? [])].find(
      (k) => !projectKeys.has(k),
    );
    if (unknownKey) throw invalid({ projects: `No project has the key ${unknownKey}` });
    const states = file.notes.map((n) => (n.state === null ? null : Buffer.from(n.state, 'base64')));
    states.forEach((state, i) => {
      if (state && !isYjsUpdate(state)) throw invalid({ [`notes.${i}.state`]: 'Not a note document' });
    });

    const result = await this.db.transaction(async (tx) => {
      const people = await knownPeople(tx, userId, file);
      const me = people.self;
      const person = (email: string | null) => (email ? (people.byEmail.get(email.toLowerCase()) ?? null) : null);

      const team = await teamsRepo.createOne(tx, {
        name: file.team.name.trim(),
        description: file.team.description,
        ownerId: userId,
      });
      await teamsRepo.addMember(tx, { teamId: team.id, userId, role: 'owner' });
      const projectIds = await repo.insertProjects(
        tx,
        file.projects.map((p, i) => ({
          name: p.name,
          description: p.description,
          status: p.status,
          ownerId: userId,
          teamId: team.id,
          startDate: p.startDate,
          endDate: p.endDate && p.startDate && p.endDate <= p.startDate ? null : p.endDate,
          createdAt: repo.fileTime(p.createdAt, i),
        })),
      );
      const projectIdOf = new Map(file.projects.map((p, i) => [p.key, projectIds[i]!]));
      const taskIds = await repo.insertTasks(
        tx,
        file.tasks.map((t, i) => ({
          title: t.title,
          description: t.description,
          status: t.status,
          priority: t.priority,
          // Only the team's members can be assigned, and the new team has one: the importer.
          assigneeId: t.assignee && t.assignee.toLowerCase() === me.email ? userId : null,
          projectId: projectIdOf.get(t.project)!,
          creatorId: person(t.creator) ?? userId,
          dueDate: t.dueDate,
          tags: t.tags,
          createdAt: repo.fileTime(t.createdAt, i),
          updatedAt: new Date(t.updatedAt),
        })),
      );
      const mentionsIn = (body: string) => {
        const ids: string[] = [];
        const text = body.replace(EMAIL_MENTION, (_m, email: string) => {
          const id = person(email);
          if (!id) return `@${email}`;
          if (!ids.includes(id)) ids.push(id);
          return `<@${id}>`;
        });
        return { text, ids };
      };
      await repo.insertComments(
        tx,
        file.tasks.flatMap((t, i) =>
          t.comments.map((c, j) => {
            const authorId = person(c.author);
            const { text, ids } = mentionsIn(c.body);
            const named = c.authorName ?? c.author;
            // Somebody the importer cannot link to: named in the text, as a Trello import names its authors.
            const body =
              authorId || !named
                ? text
                : trelloCommentBody(named, c.createdAt.slice(0, 10), text).slice(0, TASK_DETAIL_LIMITS.commentMax);
            return {
              taskId: taskIds[i]!,
              authorId,
              body,
              mentions: ids,
              createdAt: repo.fileTime(c.createdAt, j),
              updatedAt: new Date(c.editedAt ?? c.createdAt),
              editedAt: c.editedAt ? new Date(c.editedAt) : null,
            };
          }),
        ),
      );
      await repo.insertChecklistItems(
        tx,
        file.tasks.flatMap((t, i) =>
          t.checklist.map((item, j) => ({ taskId: taskIds[i]!, title: item.title, done: item.done, position: j + 1 })),
        ),
      );
      const value = (field: string, v: string | null) => {
        if (v === null) return null;
        if (field === 'assignee') return person(v);
        if (field === 'project') return projectIdOf.get(v) ?? null;
        return v;
      };
      const history = file.tasks.flatMap((t, i) =>
        t.history.map((h) => ({
          taskId: taskIds[i]!,
          actorId: person(h.actor),
          field: h.field,
          oldValue: value(h.field, h.oldValue),
          newValue: value(h.field, h.newValue),
          oldLabel: h.oldLabel,
          newLabel: h.newLabel,
          createdAt: new Date(h.createdAt),
        })),
      );
      await repo.insertActivity(tx, history);
      for (const [i, n] of file.notes.entries()) {
        await repo.insertNote(
          tx,
          {
            teamId: team.id,
            projectId: n.project ? projectIdOf.get(n.project)! : null,
            title: n.title,
            authorId: person(n.author),
            pinned: n.pinned,
            plainText: n.plainText,
            createdAt: repo.fileTime(n.createdAt, i),
            updatedAt: new Date(n.updatedAt),
          },
          states[i]!,
        );
      }
      return { team, history: history.length, selfEmail: me.email };
    });
    this.events.publish({ type: 'team.created', teamId: result.team.id, actorId: userId });
    const others = file.members.filter((m) => m.email.toLowerCase() !== result.selfEmail).length;
    return {
      teamId: result.team.id,
      teamName: result.team.name,
      counts: {
        projects: file.projects.length,
        tasks: file.tasks.length,
        comments: file.tasks.reduce((n, t) => n + t.comments.length, 0),
        checklistItems: file.tasks.reduce((n, t) => n + t.checklist.length, 0),
        history: result.history,
        notes: file.notes.length,
      },
      warnings: others
        ? [
            `${others} member${others === 1 ? ' is' : 's are'} not added to the new team: invite them. Their tasks are left unassigned.`,
          ]
        : [],
    };
  }
}

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

/** Every email the file names, and which of them the importer may link to (themselves, people sharing a team). */
async function knownPeople(tx: Tx, userId: string, file: CrewboardExport) {
  const emails = new Set<string>();
  const add = (e: string | null) => e && emails.add(e.toLowerCase());
  for (const m of file.members) add(m.email);
  for (const t of file.tasks) {
    add(t.assignee);
    add(t.creator);
    for (const c of t.comments) {
      add(c.author);
      for (const m of c.body.matchAll(EMAIL_MENTION)) add(m[1]!);
    }
    for (const h of t.history) {
      add(h.actor);
      if (h.field === 'assignee') [h.oldValue, h.newValue].forEach(add);
    }
  }
  for (const n of file.notes) add(n.author);
  const rows = await repo.knownPeopleByEmail(tx, userId, [...emails]);
  // The importer's own address, known whether or not the file names it.
  const self = await repo.getUserEmail(tx, userId);
  return { self: { email: self ?? '' }, byEmail: new Map(rows.map((r) => [r.email, r.id])) };
}

/** The whole team as the export file describes it. */
async function buildExport(db: Db, teamId: string): Promise<CrewboardExport> {
  const team = await repo.getTeam(db, teamId);
  if (!team) throw new AppError('team_not_found');
  const [members, projects, taskRows, comments, checklist, activity, noteRows] = await Promise.all([
    repo.listMembers(db, teamId),
    repo.listProjects(db, teamId),
    repo.listTasks(db, teamId),
    repo.listComments(db, teamId),
    repo.listChecklistItems(db, teamId),
    repo.listActivity(db, teamId),
    repo.listNotes(db, teamId),
  ]);
  const keyOf = new Map(projects.map((p, i) => [p.id, `p${i + 1}`]));

  // People named by id inside texts and history values: by email in the file.
  const ids = new Set<string>();
  for (const c of comments) for (const id of c.comment.mentions) ids.add(id);
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
  const commentsOf = group(comments, (c) => c.comment.taskId);
  const checklistOf = group(checklist, (c) => c.taskId);
  const historyOf = group(activity, (a) => a.activity.taskId);

  const historyValue = (field: string, v: string | null) => {
    if (v === null) return null;
    if (field === 'assignee') return emailOf.get(v) ?? null;
    if (field === 'project') return keyOf.get(v) ?? null;
    return v;
  };

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
    })),
    tasks: taskRows.map(({ task, assigneeEmail, creatorEmail }) => ({
      project: keyOf.get(task.projectId)!,
      title: task.title,
      description: task.description,
      status: task.status as TaskStatus,
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
      history: (historyOf.get(task.id) ?? []).map(({ activity: a, actorEmail }) => ({
        actor: actorEmail,
        field: a.field,
        oldValue: historyValue(a.field, a.oldValue),
        newValue: historyValue(a.field, a.newValue),
        oldLabel: a.oldLabel,
        newLabel: a.newLabel,
        createdAt: a.createdAt.toISOString(),
      })),
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
  };
}
