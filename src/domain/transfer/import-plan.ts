/**
 * What one import creates (issue 34), as plain data: the readers (a Trello board, a CSV file, a Crewboard export) are
 * adapters that turn their file into an ImportPlan, and the server has ONE writer that writes a plan in one transaction.
 *
 * References inside a plan are local: a task names its project by the plan's own `ref`, a history entry names a project
 * the same way; people are the ids the adapter was given (the importer, the team's members), never taken from the file.
 */
import type { ProjectStatus, TaskActivityField, TaskPriority, TaskStatus } from '../constants';

/** Where the import goes: a new team (a Crewboard export), or a team that exists (Trello, CSV). */
export type ImportTarget = { kind: 'new_team'; name: string; description: string | null } | { kind: 'team'; teamId: string };

/** Where an import came from: part of its audit row and of its `import.completed` webhook. */
export type ImportSource = 'trello' | 'csv' | 'crewboard';

export interface PlanProject {
  /** The plan's own name for it ('p1'), what tasks, notes and history refer to. */
  ref: string;
  /** A project of the team that exists already (a CSV import into it): nothing is created for it. */
  existingId?: string;
  name: string;
  description: string | null;
  status: ProjectStatus;
  startDate: string | null;
  endDate: string | null;
  /** When it was created (the file's time), null: now. */
  createdAt: string | null;
}

export interface PlanComment {
  /** A user id (only ever the importer), null: nobody (the text names who wrote it). */
  authorId: string | null;
  body: string;
  /** User ids mentioned by `<@id>` tokens in the body. */
  mentions: string[];
  createdAt: string | null;
  editedAt: string | null;
}

/** A history value: a stored value as is, or a project of the plan by its ref. */
export type PlanValue = string | null | { projectRef: string };

export interface PlanHistoryEntry {
  actorId: string | null;
  field: TaskActivityField;
  oldValue: PlanValue;
  newValue: PlanValue;
  oldLabel: string | null;
  newLabel: string | null;
  createdAt: string;
}

export interface PlanTask {
  /** Its project's ref. */
  project: string;
  title: string;
  description: string | null;
  status: TaskStatus;
  priority: TaskPriority;
  /** A member of the target team, or null. */
  assigneeId: string | null;
  dueDate: string | null;
  tags: string[];
  /** null: now, in plan order, the first the newest (a board shows newest first). */
  createdAt: string | null;
  updatedAt: string | null;
  comments: PlanComment[];
  checklist: { title: string; done: boolean }[];
  history: PlanHistoryEntry[];
}

export interface PlanNote {
  project: string | null;
  title: string;
  authorId: string | null;
  pinned: boolean;
  plainText: string;
  /** The Yjs document, base64; null when never edited. */
  state: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface ImportCountsAll {
  projects: number;
  tasks: number;
  comments: number;
  checklistItems: number;
  history: number;
  notes: number;
}

export interface ImportPlan {
  source: ImportSource;
  target: ImportTarget;
  projects: PlanProject[];
  tasks: PlanTask[];
  notes: PlanNote[];
  warnings: string[];
}

/** A task as a file without history makes it (a Trello card, a CSV row): no times of its own, no history. */
export interface FileTask {
  title: string;
  description: string | null;
  status: TaskStatus;
  /** Left out: medium. */
  priority?: TaskPriority;
  assigneeId: string | null;
  dueDate: string | null;
  tags: string[];
  comments?: PlanComment[];
  checklist?: { title: string; done: boolean }[];
}

/**
 * The plan of an import that puts a file's tasks into one project ('p1') of team `teamId` (Trello, CSV): a new active
 * project, or one of the team's that exists (`existingId`). Everything it creates is created now.
 */
export function oneProjectPlan(
  source: ImportSource,
  teamId: string,
  project: Pick<PlanProject, 'existingId' | 'name' | 'description'>,
  tasks: FileTask[],
  warnings: string[],
): ImportPlan {
  return {
    source,
    target: { kind: 'team', teamId },
    projects: [{ ref: 'p1', ...project, status: 'active', startDate: null, endDate: null, createdAt: null }],
    tasks: tasks.map((t) => ({
      project: 'p1',
      title: t.title,
      description: t.description,
      status: t.status,
      priority: t.priority ?? 'medium',
      assigneeId: t.assigneeId,
      dueDate: t.dueDate,
      tags: t.tags,
      createdAt: null,
      updatedAt: null,
      comments: t.comments ?? [],
      checklist: t.checklist ?? [],
      history: [],
    })),
    notes: [],
    warnings,
  };
}

/** What a plan creates, counted (an existing project is not counted). */
export function planCounts(plan: Pick<ImportPlan, 'projects' | 'tasks' | 'notes'>): ImportCountsAll {
  return {
    projects: plan.projects.filter((p) => !p.existingId).length,
    tasks: plan.tasks.length,
    comments: plan.tasks.reduce((n, t) => n + t.comments.length, 0),
    checklistItems: plan.tasks.reduce((n, t) => n + t.checklist.length, 0),
    history: plan.tasks.reduce((n, t) => n + t.history.length, 0),
    notes: plan.notes.length,
  };
}

/** The problems that make a plan unwritable: a task, note or history entry naming a project the plan lacks. */
export function planProblems(plan: ImportPlan): string[] {
  const refs = new Set<string>();
  const problems: string[] = [];
  for (const p of plan.projects) {
    if (refs.has(p.ref)) problems.push(`Project key ${p.ref} is used twice`);
    refs.add(p.ref);
  }
  const check = (ref: string | null) => {
    if (ref !== null && !refs.has(ref)) problems.push(`No project has the key ${ref}`);
  };
  for (const t of plan.tasks) {
    check(t.project);
    for (const h of t.history) for (const v of [h.oldValue, h.newValue]) if (v && typeof v === 'object') check(v.projectRef);
  }
  for (const n of plan.notes) check(n.project);
  return [...new Set(problems)];
}
