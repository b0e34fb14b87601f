/**
 * What one import creates (issue 34), as plain data: the readers (a Trello board, a CSV file, a Crewboard export) are
 * adapters that turn their file into an ImportPlan, and the server has ONE writer that writes a plan in one transaction.
 *
 * References inside a plan are local: a task names its project by the plan's own `ref`, a history entry names a project
 * the same way; people are the ids the adapter was given (the importer, the team's members), never taken from the file.
 */
import type { ProjectStatus, TaskActivityField, TaskPriority, TeamRole } from '../constants';
import type { CustomFieldType, CustomFieldValue } from '../custom-fields';
import { MANAGER_ROLES } from '../permissions';
import { WORKFLOW_ERRORS } from '../workflow-errors';
import {
  DEFAULT_STATUSES,
  isNotStarted,
  STATUS_LIMITS,
  type StatusCategory,
  validateStatusColor,
  validateStatusName,
  validateWipLimit,
} from '../workflow';

/** Where the import goes: a new team (a Crewboard export), or a team that exists (Trello, CSV). */
export type ImportTarget = { kind: 'new_team'; name: string; description: string | null } | { kind: 'team'; teamId: string };

/** Where an import came from: part of its audit row and of its `import.completed` webhook. */
export type ImportSource = 'trello' | 'csv' | 'crewboard';

/** A status of a new project's workflow (decision 0024), in workflow order within its project. */
export interface PlanStatus {
  key: string;
  name: string;
  category: StatusCategory;
  color: string;
  wipLimit: number | null;
}

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
  /** A new project's workflow, in order; null or left out: the default four (an existing project keeps its own). */
  statuses?: PlanStatus[] | null;
}

/**
 * A custom field the import gives values to (issue 38): one of the team's that exists (`existingId`: a CSV column
 * mapped to it, a Trello field of the same name and type), or a new one. Options are named by the plan's own refs; an
 * existing field's options carry their ids (`id`), an option without one is new (added to an existing field's list).
 */
export interface PlanField {
  /** The plan's own name for it ('f1'), what task values refer to. */
  ref: string;
  existingId?: string;
  name: string;
  type: CustomFieldType;
  options: { ref: string; id?: string; name: string; color: string }[];
  /** Project refs of the plan; null: every project of the team. Ignored for an existing field. */
  projectRefs: string[] | null;
  showOnCard: boolean;
  archived: boolean;
  unit: string | null;
  decimals: number | null;
}

/**
 * Who may add custom fields by an import (issue 38): as in the fields module, only the team's owner and admins. A plain
 * member's import fills the team's fields that exist (and their options), never adds a field or an option.
 */
export const importMayAddFields = (role: TeamRole): boolean => MANAGER_ROLES.some((r) => r === role);

/** A plain member's CSV mapping that asks for a 'New field' (an error on the preview, a 400 on import). */
export const IMPORT_FIELDS_DENIED = 'Only team owners and admins can add custom fields';

/** A plain member's Trello import: the board's fields and options the team lacks are left out, with this warning. */
export const IMPORT_FIELDS_SKIPPED = 'Custom fields were not imported: only team owners and admins can add them';

/**
 * A task's values by field ref, in the stored form of domain custom-fields.ts except that select and multi-select
 * values name options by their refs (the writer puts the option ids in), and people are ids the adapter was given.
 */
export type PlanFieldValues = Record<string, CustomFieldValue>;

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
  /** A status entry's categories at the time; null or left out: the database reads them from the project's statuses. */
  oldCategory?: StatusCategory | null;
  newCategory?: StatusCategory | null;
  createdAt: string;
}

export interface PlanTask {
  /** Its project's ref. */
  project: string;
  title: string;
  description: string | null;
  /** The key of a status of its project's workflow. */
  status: string;
  priority: TaskPriority;
  /** A member of the target team, or null. */
  assigneeId: string | null;
  /** On or before dueDate (each planner drops or refuses a start after it). */
  startDate: string | null;
  dueDate: string | null;
  tags: string[];
  /** null: now, in plan order, the first the newest (a board shows newest first). */
  createdAt: string | null;
  updatedAt: string | null;
  comments: PlanComment[];
  checklist: { title: string; done: boolean }[];
  history: PlanHistoryEntry[];
  /** Custom field values by field ref (left out: none). */
  fields?: PlanFieldValues;
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
  /** Custom fields the tasks' values name (left out: none). */
  fields?: PlanField[];
}

/** A task as a file without history makes it (a Trello card, a CSV row): no times of its own, no history. */
export interface FileTask {
  title: string;
  description: string | null;
  /** A status key of the project the tasks go into. */
  status: string;
  /** Left out: medium. */
  priority?: TaskPriority;
  assigneeId: string | null;
  /** Left out: none. */
  startDate?: string | null;
  dueDate: string | null;
  tags: string[];
  comments?: PlanComment[];
  checklist?: { title: string; done: boolean }[];
  fields?: PlanFieldValues;
}

/**
 * The plan of an import that puts a file's tasks into one project ('p1') of team `teamId` (Trello, CSV): a new active
 * project, or one of the team's that exists (`existingId`). Everything it creates is created now.
 */
export function oneProjectPlan(
  source: ImportSource,
  teamId: string,
  project: Pick<PlanProject, 'existingId' | 'name' | 'description' | 'statuses'>,
  tasks: FileTask[],
  warnings: string[],
  fields: PlanField[] = [],
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
      startDate: t.startDate ?? null,
      dueDate: t.dueDate,
      tags: t.tags,
      createdAt: null,
      updatedAt: null,
      comments: t.comments ?? [],
      checklist: t.checklist ?? [],
      history: [],
      ...(t.fields && Object.keys(t.fields).length ? { fields: t.fields } : {}),
    })),
    notes: [],
    warnings,
    ...(fields.length ? { fields } : {}),
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

/**
 * What is wrong with a new project's workflow as a file gives it (the rules of domain/workflow.ts for a workflow made
 * in the app): every name valid and unique, colours, WIP limits, keys unique, at most 50, a status where work starts
 * and a completed one.
 */
export function workflowProblems(statuses: readonly PlanStatus[]): string[] {
  const problems: string[] = [];
  if (statuses.length > STATUS_LIMITS.perProjectMax) problems.push(WORKFLOW_ERRORS.too_many_statuses.message);
  const keys = new Set<string>();
  const named: { id: string; name: string }[] = [];
  for (const [i, s] of statuses.entries()) {
    const reasons = [validateStatusName(s.name, named), validateStatusColor(s.color), validateWipLimit(s.wipLimit)].flatMap(
      (r) => (r.ok ? [] : [r.reason]),
    );
    for (const reason of reasons) problems.push(`Status "${s.name.slice(0, 60)}": ${WORKFLOW_ERRORS[reason].message}`);
    if (keys.has(s.key)) problems.push(`Status key ${s.key} is used twice`);
    keys.add(s.key);
    named.push({ id: String(i), name: s.name });
  }
  if (!statuses.some((s) => isNotStarted(s.category))) problems.push(WORKFLOW_ERRORS.workflow_needs_open_status.message);
  if (!statuses.some((s) => s.category === 'completed')) {
    problems.push(WORKFLOW_ERRORS.workflow_needs_completed_status.message);
  }
  return problems;
}

const DEFAULT_KEYS: ReadonlySet<string> = new Set(DEFAULT_STATUSES.map((s) => s.key));

/**
 * The problems that make a plan unwritable: a task, note or history entry naming a project the plan lacks; a new
 * project's workflow that breaks the workflow rules; a task in a status its project does not have (a new project
 * without a workflow of its own has the default four; a project that exists is the adapter's to check).
 */
export function planProblems(plan: ImportPlan): string[] {
  const refs = new Set<string>();
  const keysOf = new Map<string, ReadonlySet<string> | null>();
  const problems: string[] = [];
  for (const p of plan.projects) {
    if (refs.has(p.ref)) problems.push(`Project key ${p.ref} is used twice`);
    refs.add(p.ref);
    if (p.statuses) problems.push(...workflowProblems(p.statuses).map((m) => `Project ${p.ref}: ${m}`));
    keysOf.set(p.ref, p.existingId ? null : p.statuses ? new Set(p.statuses.map((s) => s.key)) : DEFAULT_KEYS);
  }
  const check = (ref: string | null) => {
    if (ref !== null && !refs.has(ref)) problems.push(`No project has the key ${ref}`);
  };
  for (const t of plan.tasks) {
    check(t.project);
    const keys = keysOf.get(t.project);
    if (keys && !keys.has(t.status)) {
      problems.push(`Task "${t.title.slice(0, 60)}": project ${t.project} has no status ${t.status}`);
    }
    for (const h of t.history) for (const v of [h.oldValue, h.newValue]) if (v && typeof v === 'object') check(v.projectRef);
  }
  for (const n of plan.notes) check(n.project);
  const fieldRefs = new Map<string, PlanField>();
  const fieldNames = new Set<string>();
  for (const f of plan.fields ?? []) {
    if (fieldRefs.has(f.ref)) problems.push(`Field key ${f.ref} is used twice`);
    const name = f.name.trim().toLowerCase();
    if (fieldNames.has(name)) problems.push(`Two fields are named "${f.name.slice(0, 40)}"`);
    fieldNames.add(name);
    const options = new Set<string>();
    for (const o of f.options) {
      if (options.has(o.name.toLowerCase())) problems.push(`Field "${f.name.slice(0, 40)}" has two options named "${o.name}"`);
      options.add(o.name.toLowerCase());
    }
    fieldRefs.set(f.ref, f);
    for (const ref of f.projectRefs ?? []) check(ref);
  }
  for (const t of plan.tasks) {
    for (const ref of Object.keys(t.fields ?? {})) {
      if (!fieldRefs.has(ref)) problems.push(`No field has the key ${ref}`);
    }
  }
  return [...new Set(problems)];
}
