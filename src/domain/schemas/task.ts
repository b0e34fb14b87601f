import { z } from 'zod';
import { DUE_FILTERS, LIMITS, START_FILTERS, SUBTASK_FILTERS, TASK_PRIORITIES, TASK_SORTS, type TaskStatus } from '../constants';
import { statusCategory, statusDto, statusKey } from './workflow';
import { MSG } from '../messages';
import { isoDate, isoDateTime, optionalText, uuid, versionField } from './common';
import { fieldFiltersQuery, fieldSort, taskFieldValues, taskFieldValuesInput } from './custom-field';
import { repeatDto, repeatInput } from './repeat';
import { estimateMinutesInput, estimatePointsInput } from './time';

// Plain lists, kept in constants so that pages which only need them do not load zod.
export { DUE_FILTER_LABELS, DUE_FILTERS, type DueFilter, TASK_SORTS, type TaskSort } from '../constants';

const tags = z.array(z.string().trim().min(1).max(LIMITS.tagMax)).max(LIMITS.tagsMax).default([]);

const taskFields = {
  title: z.string({ error: MSG.taskTitleRequired }).trim().min(1, MSG.taskTitleRequired).max(200),
  description: optionalText(LIMITS.descriptionMax),
  /** A key of the project's statuses (the service checks it against the project: 400 status_key_unknown). */
  status: statusKey.default('todo'),
  priority: z.enum(TASK_PRIORITIES).default('medium'),
  projectId: uuid.or(z.literal('').transform(() => undefined)).pipe(uuid.optional()),
  assigneeId: uuid.nullish().transform((v) => v ?? null),
  dueDate: isoDate.nullish().transform((v) => v ?? null),
  tags,
  /**
   * The parent task (issue 37): one the caller can see, in the same project (null: a top-level task). The service
   * applies domain hierarchy.ts `checkParent`: no cycle, at most SUBTASK_LIMITS.maxDepth tasks deep.
   */
  parentId: uuid.nullish().transform((v) => v ?? null),
  /** On or before the due date when both are given (domain dates.ts `validateStartDate`). */
  startDate: isoDate.nullish().transform((v) => v ?? null),
  /** Custom field values (issue 38): a partial map by field id, each checked against its field by the service. */
  fields: taskFieldValuesInput.optional(),
  /** Recurring tasks (issue 39, decision 0027): the task starts a series (null: it does not repeat). */
  repeat: repeatInput.nullish(),
  /** Time tracking (issue 39): the estimate in minutes (a team estimating in time) or points (in story points). */
  estimateMinutes: estimateMinutesInput.optional(),
  estimatePoints: estimatePointsInput.optional(),
};

export const createTaskInput = z.object({ ...taskFields, projectId: z.uuid({ error: MSG.projectRequired }) }).strict();
export type CreateTaskInput = z.infer<typeof createTaskInput>;

export const updateTaskInput = z
  .object({
    title: taskFields.title.optional(),
    /** Moving a task to another project the caller can see (its assignee must belong there too). */
    projectId: uuid.optional(),
    // Optional outside the transform: a missing description leaves it as is, null or '' clears it.
    description: taskFields.description.optional(),
    status: statusKey.optional(),
    priority: z.enum(TASK_PRIORITIES).optional(),
    assigneeId: uuid.nullish(),
    dueDate: isoDate.nullish(),
    tags: z.array(z.string().trim().min(1).max(LIMITS.tagMax)).max(LIMITS.tagsMax).optional(),
    /** Another parent (null: top level); missing leaves it. A sub-task moved to another project leaves its parent. */
    parentId: uuid.nullish(),
    startDate: isoDate.nullish(),
    /** Custom field values (issue 38): the fields named are set (null clears one), the others are left as they are. */
    fields: taskFieldValuesInput.optional(),
    /** Repeats with this rule (a new series, or the task's own series changed), or null: 'Stop repeating'. */
    repeat: repeatInput.nullable().optional(),
    estimateMinutes: estimateMinutesInput.optional(),
    estimatePoints: estimatePointsInput.optional(),
    /** With a `status` of the completed category: the open sub-tasks, at every level, are completed in the same change. */
    completeSubtasks: z.boolean().optional().meta({
      description:
        "With `status` in the completed category: every open sub-task of the task (at every level; not completed, not canceled) moves to the first completed status of its project's workflow, in the same change (a `task.updated` for each). Ignored with any other status or without one. The answer's `subtaskCounts` show the sub-tasks' new states.",
    }),
    version: versionField,
  })
  .strict();
export type UpdateTaskInput = z.infer<typeof updateTaskInput>;

export const moveTaskInput = z.object({ status: statusKey }).strict();
export type MoveTaskInput = z.infer<typeof moveTaskInput>;

/** Sortable columns of the list view. */

export const listTasksQuery = z.object({
  projectId: uuid.optional(),
  /** Only this team's tasks (the calendar's and My work's team filter). */
  teamId: uuid.optional(),
  /** Only tasks this user created (My work's 'Created by me'). */
  creatorId: uuid.optional(),
  /** Due on or after / on or before these dates (the calendar's visible range). */
  dueFrom: isoDate.optional(),
  dueTo: isoDate.optional(),
  /**
   * Tasks with a due date whose days (start to due, or the due day alone) overlap spanFrom..spanTo: due ≥ spanFrom and
   * (start or due) ≤ spanTo — the calendar's visible range, where a task with both dates spans its days.
   */
  spanFrom: isoDate.optional(),
  spanTo: isoDate.optional(),
  /** 'true': only tasks not completed (My work). */
  open: z.enum(['true', 'false']).optional(),
  /** A status key (of the project in scope: another project's tasks do not have it). */
  status: statusKey.optional(),
  /** Only tasks whose status is in this category, across projects and workflows. */
  category: statusCategory.optional(),
  priority: z.enum(TASK_PRIORITIES).optional(),
  /** A user id, or 'unassigned'. */
  assigneeId: uuid.or(z.literal('unassigned')).optional(),
  due: z.enum(DUE_FILTERS).optional(),
  /** 'none': no start date; 'set': a start date (domain constants.ts START_FILTERS). */
  start: z.enum(START_FILTERS).optional(),
  /** Starting on or after / on or before these dates (a task without a start date is left out). */
  startFrom: isoDate.optional(),
  startTo: isoDate.optional(),
  /** 'hide': only top-level tasks (no sub-tasks), in the cards, the counts and every page (issue 37 'Show sub-tasks'). */
  subtasks: z.enum(SUBTASK_FILTERS).optional(),
  /** The caller's local date, for the due-date buckets. */
  today: isoDate.optional(),
  q: z.string().max(200).optional(),
  /** Custom field filters (issue 38), each `<fieldId>:<op>:<value>` (domain custom-fields.ts `parseFieldFilter`). */
  cf: fieldFiltersQuery.optional(),
  /** Newest first unless told otherwise; `field:<fieldId>` sorts by a custom field (no value last). */
  sort: z.enum(TASK_SORTS).or(fieldSort).optional(),
  dir: z.enum(['asc', 'desc']).optional(),
  limit: z.coerce.number().int().min(1).max(500).optional(),
  offset: z.coerce.number().int().min(0).max(1_000_000).optional(),
});
export type ListTasksQuery = z.infer<typeof listTasksQuery>;

/** Only what the board draws of the assignee. */
export const taskAssignee = z.object({ id: uuid, fullName: z.string(), firstName: z.string() });
export type TaskAssignee = z.infer<typeof taskAssignee>;

/**
 * A task as the list answer carries it (issue 42): without the names of its assignee and project, which the list
 * answer names once each (`people`, `projects`).
 */
export const taskListItemDto = z.object({
  id: uuid,
  title: z.string(),
  description: z.string().nullable(),
  /** The key of one of its project's statuses. */
  status: statusKey,
  /** That status's category (what every rule of meaning reads: progress, open, overdue, completed). */
  statusCategory,
  priority: z.enum(TASK_PRIORITIES),
  assigneeId: uuid.nullable(),
  projectId: uuid,
  creatorId: uuid,
  dueDate: isoDate.nullable(),
  tags: z.array(z.string()),
  commentCount: z.number().int(),
  attachmentCount: z.number().int(),
  /** Checklist items in all and ticked (the card shows 'done/total' when there are any). */
  checklistTotal: z.number().int(),
  checklistDone: z.number().int(),
  /** The parent task (null: top level). */
  parentId: uuid.nullable(),
  /**
   * The sub-tasks' progress, 'done/total' on the card (domain hierarchy.ts `subtaskProgress`): done counts the completed
   * category, total leaves out canceled ones. Both 0 for a task without sub-tasks.
   */
  subtaskCounts: z.object({ done: z.number().int(), total: z.number().int() }),
  startDate: isoDate.nullable(),
  /** Blockers not in the completed category ('This task is blocked by N open tasks'). */
  blockedCount: z.number().int(),
  fields: taskFieldValues,
  /** The series this task carries, when it is the newest task of a repeating series (decision 0027); else null. */
  repeat: repeatDto.nullable(),
  /** The series the task belongs to (null: never repeated), carried or not. */
  seriesId: uuid.nullable(),
  estimateMinutes: z.number().int().nullable(),
  estimatePoints: z.number().nullable(),
  /** Minutes logged on the task itself, and on its sub-tasks at every level (the roll-up: kept by triggers). */
  loggedMinutes: z.number().int(),
  subtaskLoggedMinutes: z.number().int(),
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
  version: z.number().int(),
});
export type TaskListItemDto = z.infer<typeof taskListItemDto>;

/**
 * A task with the names it shows: the board's cards, a task's own answer, a change's. The names come last, so that the
 * server adds them to a list item as it is (no copy) and the client joins them the same way.
 */
export const taskDto = taskListItemDto.extend({ assignee: taskAssignee.nullable(), projectName: z.string() });
export type TaskDto = z.infer<typeof taskDto>;

/**
 * The single task read (`GET /api/tasks/:id`, the task page): the task with the ids of its dependencies the caller may
 * see, `blockedBy` (the tasks blocking it) and `blocking` (the tasks it blocks), oldest first. Ids the caller may not see
 * are left out (`GET /api/tasks/:id/dependencies` lists them as hidden refs). Board, list and other answers carry the
 * task without them (`blockedCount` counts the open blockers there).
 */
export const taskReadDto = taskDto
  .extend({
    blockedBy: z
      .array(uuid)
      .describe('The tasks blocking this one that you can see (oldest first); GET /api/tasks/{id}/dependencies lists all.'),
    blocking: z
      .array(uuid)
      .describe('The tasks this one blocks that you can see (oldest first); GET /api/tasks/{id}/dependencies lists all.'),
  })
  .describe(
    'A task as its page reads it: with `blockedBy` and `blocking`, the ids of its dependencies you can see. Board, list and other answers carry the task without them (`blockedCount`: its open blockers).',
  );
export type TaskReadDto = z.infer<typeof taskReadDto>;

/** `GET /api/tasks/:id/subtasks` and the answer of `PUT /api/tasks/:id/subtasks/order`: the sub-tasks in order. */
export const subtaskListDto = z.object({ tasks: z.array(taskDto) });
export type SubtaskListDto = z.infer<typeof subtaskListDto>;

const count = z.number().int();

export const taskListProject = z.object({ id: uuid, name: z.string() });

/**
 * `GET /api/tasks` (issue 42): a page of tasks, each referencing its assignee (`assigneeId`) and project (`projectId`),
 * with every assignee and project of the page once in `people` and `projects` — not repeated on every task. The client
 * joins them back (`expandTaskList`).
 */
export const taskListDto = z.object({
  tasks: z.array(taskListItemDto),
  people: z
    .array(taskAssignee)
    .describe("Every assignee of the page's tasks once, in no particular order; a task's `assigneeId` is one of them."),
  projects: z
    .array(taskListProject)
    .describe("Every project of the page's tasks once, in no particular order; a task's `projectId` is one of them."),
  /**
   * Exact counts per status key for the current filters, whatever the page size: the default four always (0 when
   * none), and any other key that has tasks.
   */
  counts: z
    .object({ todo: count, in_progress: count, review: count, completed: count } satisfies Record<TaskStatus, typeof count>)
    .catchall(count),
  total: z.number().int(),
});
export type TaskListDto = z.infer<typeof taskListDto>;

/** The board's first screen: the newest `limit` tasks of each column (taskBoardDto), with the list's filters. */
export const taskBoardQuery = listTasksQuery.omit({ sort: true, dir: true, offset: true }).extend({
  limit: z.coerce.number().int().min(1).max(100).default(LIMITS.boardFirstPage),
});
export type TaskBoardQuery = z.infer<typeof taskBoardQuery>;

export const boardColumnKind = z.enum(['status', 'category']);
export type BoardColumnKind = z.infer<typeof boardColumnKind>;

export const taskBoardDto = z.object({
  /**
   * 'status': one column per status key, in workflow order — one project's statuses, or the default four when every
   * visible project (All Projects) uses exactly the default workflow (today's board). 'category': All Projects whose
   * workflows differ: one column per category in use (STATUS_CATEGORIES order, only categories some shown project has).
   */
  columnKind: boardColumnKind,
  /** Column ids (status keys or categories) in display order; every id has an entry in columns and counts. */
  order: z.array(z.string()),
  /** Newest first, at most `limit` per column, by column id. With a status/category filter only that column has tasks. */
  columns: z.record(z.string(), z.array(taskDto)),
  /** Exact count per column id for the filters (0 when none). */
  counts: z.record(z.string(), z.number().int()),
  total: z.number().int(),
  /**
   * The statuses of every project whose tasks the board can show (one project's, or every visible project's), for the
   * column heads and WIP limits, each card's status name and colour, and a drag's target status
   * (mapStatusToProject({ category }, statuses) for a category column).
   */
  workflows: z.array(z.object({ projectId: z.uuid(), statuses: z.array(statusDto) })),
});
export type TaskBoardDto = z.infer<typeof taskBoardDto>;

/** Tags are entered comma-separated, trimmed, empty ones dropped (spec §5). */
export function parseTags(input: string): string[] {
  return input
    .split(',')
    .map((t) => t.trim())
    .filter((t) => t.length > 0);
}
