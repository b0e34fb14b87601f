/**
 * The timeline read of issue 37 (decision 0025 "The timeline", and the contract between its server and its page):
 * `GET /api/timeline?teamId|projectId&from&to` answers the dated tasks overlapping the window, the dependencies among
 * them, their projects, and the open unscheduled tasks (newest 100 and their total), in one request.
 * Projects have no colour column, so a project here carries no `color`.
 */
import { z } from 'zod';
import { TASK_PRIORITIES } from '../constants';
import { isoDate, uuid } from './common';
import { statusCategory, statusKey } from './workflow';

export const TIMELINE_LIMITS = {
  /** `to` may be at most this many days after `from`. */
  windowMaxDays: 400,
  /** The unscheduled tasks answered (newest first); `unscheduledTotal` counts them all. */
  unscheduled: 100,
} as const;

const DAY_MS = 86_400_000;

/**
 * The window is required: both dates, `from` ≤ `to`, at most 400 days apart. One scope at most: a team, a project, or
 * (neither) every project the caller can see. A team or project the caller cannot see answers 404.
 */
export const timelineQuery = z
  .object({
    teamId: uuid.optional(),
    projectId: uuid.optional(),
    from: isoDate,
    to: isoDate,
  })
  .refine((q) => q.teamId === undefined || q.projectId === undefined, {
    message: 'Give teamId or projectId, not both',
    path: ['projectId'],
  })
  .refine((q) => q.from <= q.to, { message: 'from must not be after to', path: ['from'] })
  .refine((q) => (Date.parse(q.to) - Date.parse(q.from)) / DAY_MS <= TIMELINE_LIMITS.windowMaxDays, {
    message: `The window may span at most ${TIMELINE_LIMITS.windowMaxDays} days`,
    path: ['to'],
  });
export type TimelineQuery = z.infer<typeof timelineQuery>;

/** A bar (start and due), a diamond (one date), or an unscheduled row (neither). */
export const timelineTask = z.object({
  id: uuid,
  title: z.string(),
  projectId: uuid,
  /** The parent task (null: top level); a sub-task comes right after its parent, by its position among siblings. */
  parentId: uuid.nullable(),
  startDate: isoDate.nullable(),
  dueDate: isoDate.nullable(),
  /** The key of one of its project's statuses. */
  status: statusKey,
  statusCategory,
  priority: z.enum(TASK_PRIORITIES),
  assigneeId: uuid.nullable(),
  /** Sent back with `PATCH /api/tasks/:id` when the page changes the dates (optimistic concurrency). */
  version: z.number().int(),
});
export type TimelineTask = z.infer<typeof timelineTask>;

/** `taskId` is blocked by `blockedById`; only edges whose both ends are in `tasks`. */
export const timelineDependency = z.object({ taskId: uuid, blockedById: uuid });
export type TimelineDependency = z.infer<typeof timelineDependency>;

export const timelineProject = z.object({ id: uuid, name: z.string() });
export type TimelineProject = z.infer<typeof timelineProject>;

export const timelineAnswer = z.object({
  /**
   * Dated tasks overlapping [from, to] (`coalesce(start, due) <= to and coalesce(due, start) >= from`), ordered by
   * project name, then top-level tasks by `coalesce(start, due)`, id, each followed by its sub-tasks.
   */
  tasks: z.array(timelineTask),
  dependencies: z.array(timelineDependency),
  /** The projects of `tasks` and `unscheduled`, by name. */
  projects: z.array(timelineProject),
  /** Tasks with neither date and not closed (not completed or canceled), newest first, at most 100. */
  unscheduled: z.array(timelineTask),
  unscheduledTotal: z.number().int(),
});
export type TimelineAnswer = z.infer<typeof timelineAnswer>;
