import { z } from 'zod';
import { statusCategory, statusKey } from './workflow';
import { isoDate, isoDateTime, uuid } from './common';

/**
 * The Analytics page (issue 24): GET /api/analytics. Every figure is an SQL aggregation over the caller's teams
 * (their active memberships), in the caller's time zone (their profile's, UTC when unset); weeks start on Monday.
 */
export const ANALYTICS_PERIODS = [4, 12, 26] as const;
export const ANALYTICS_LIMITS = { customRangeMaxDays: 366, ageingRows: 20, burnupProjects: 10 } as const;

/** The period of a query: the last N weeks, or a custom range (both dates). */
const periodFields = {
  /** Last N weeks, this one included (default 12)… */
  weeks: z.coerce
    .number()
    .int()
    .refine((n) => (ANALYTICS_PERIODS as readonly number[]).includes(n), 'weeks must be 4, 12 or 26')
    .optional(),
  /** …or a custom range of calendar dates, both given, `from` ≤ `to`, at most 366 days. */
  from: isoDate.optional(),
  to: isoDate.optional(),
};

/** The period's own checks, on any query that has its fields. */
const checkedPeriod = <T extends z.ZodType<{ from?: string; to?: string }>>(schema: T) =>
  schema
    .refine((q) => (q.from === undefined) === (q.to === undefined), { message: 'from and to go together', path: ['to'] })
    .refine((q) => !q.from || !q.to || q.from <= q.to, { message: 'from must not be after to', path: ['from'] })
    .refine(
      (q) => !q.from || !q.to || (Date.parse(q.to) - Date.parse(q.from)) / 86_400_000 <= ANALYTICS_LIMITS.customRangeMaxDays,
      { message: `The range may span at most ${ANALYTICS_LIMITS.customRangeMaxDays} days`, path: ['to'] },
    );

export const analyticsQuery = checkedPeriod(
  z.object({
    /** One team (the caller must be an active member); all the caller's teams when absent. */
    teamId: uuid.optional(),
    projectId: uuid.optional(),
    /**
     * Issue 38: a Select custom field of the scope's team(s): the answer's `split` then gives throughput and cycle time
     * per option of the field (and 'No value'). A field not of the caller's teams: 404; of another team than the
     * scope's, or not a Select field: 400.
     */
    splitBy: uuid
      .optional()
      .describe(
        "A Select custom field of the scope's team(s): the answer's `split` gives throughput and cycle time per option of the field, then 'No value'. A field not of the caller's teams: 404; of another team than the scope's, or not a Select field: 400.",
      ),
    ...periodFields,
  }),
);
export type AnalyticsQuery = z.infer<typeof analyticsQuery>;

const week = isoDate; // the Monday that starts the week, in the caller's time zone
const byPriority = z.object({
  low: z.number().int(),
  medium: z.number().int(),
  high: z.number().int(),
  urgent: z.number().int(),
});

export const analyticsDto = z.object({
  scope: z.object({
    teamIds: z.array(uuid),
    projectId: uuid.nullable(),
    from: isoDate,
    to: isoDate,
    timeZone: z.string(),
    /** The Mondays of the period's weeks, oldest first: every weekly series has one point per week, zeros included. */
    weeks: z.array(week),
  }),
  /** Tasks whose entry into the completed category fell in the week (and that are still in it). */
  throughput: z.array(z.object({ week, completed: z.number().int() })),
  /**
   * Hours from a task's first entry into a started status to its entry into the completed category, per week of
   * completion (domain workflow.ts `cycleTime`).
   */
  cycleTime: z.object({
    weeks: z.array(
      z.object({ week, count: z.number().int(), medianHours: z.number().nullable(), p85Hours: z.number().nullable() }),
    ),
    /** Every completion of the period in buckets ('< 1 day', '1–2 days', …). */
    distribution: z.array(
      z.object({ label: z.string(), minHours: z.number(), maxHours: z.number().nullable(), count: z.number().int() }),
    ),
  }),
  /**
   * Per project (the largest first, at most 10): its scope (tasks existing, less those in the canceled category, as
   * progress counts them) and completed tasks (in the completed category) at each week's end.
   */
  burnup: z.array(
    z.object({
      projectId: uuid,
      projectName: z.string(),
      points: z.array(z.object({ week, scope: z.number().int(), completed: z.number().int() })),
    }),
  ),
  /**
   * Open tasks now (every status outside the completed and canceled categories), by the board's rule (domain
   * workflow.ts `boardColumns`): one project, by its statuses in workflow order; several that all keep the default
   * workflow, by its open statuses (To Do, In Progress, Review); several whose workflows differ, by the open
   * categories in use, in category order. `kind` says which; `key` is the status's key or the category.
   */
  wip: z.array(
    z.object({
      kind: z.enum(['status', 'category']),
      key: z.string(),
      name: z.string(),
      color: z.string(),
      count: z.number().int(),
    }),
  ),
  /** The open tasks longest in their current status, oldest first. */
  ageing: z.array(
    z.object({
      taskId: uuid,
      title: z.string(),
      /** The key of the task's status. */
      status: statusKey,
      /** That status's name in its project's workflow (a deleted status keeps its last name). */
      statusName: z.string(),
      projectId: uuid,
      projectName: z.string(),
      since: isoDateTime,
      days: z.number().int(),
    }),
  ),
  /** Open tasks per assignee, by priority; the unassigned as assigneeId null. Most loaded first. */
  workload: z.array(byPriority.extend({ assigneeId: uuid.nullable(), name: z.string().nullable(), total: z.number().int() })),
  /** Open tasks past their due date at each week's end. */
  overdue: z.array(z.object({ week, count: z.number().int() })),
  /**
   * Only with `splitBy` (issue 38): throughput and cycle time per option of that Select field, by the option the
   * completed task has now. `series` are the field's options in order, then 'No value' (`optionId` null: the tasks
   * without one); every week's `counts` and `series` follow that order, and each week's counts add up to its throughput.
   */
  split: z
    .object({
      fieldId: uuid,
      fieldName: z.string(),
      series: z.array(z.object({ optionId: uuid.nullable(), name: z.string(), color: z.string() })),
      throughput: z.array(z.object({ week, counts: z.array(z.number().int()) })),
      cycleTime: z.array(
        z.object({
          week,
          series: z.array(
            z.object({ count: z.number().int(), medianHours: z.number().nullable(), p85Hours: z.number().nullable() }),
          ),
        }),
      ),
    })
    .optional()
    .describe(
      "Only with `splitBy`: throughput and cycle time per option of that Select field (by the option each completed task has now). `series` are the field's options in order, then 'No value' (optionId null); each week's `counts` and `series` follow that order, and a week's counts add up to its throughput.",
    ),
});
export type AnalyticsDto = z.infer<typeof analyticsDto>;

/**
 * GET /api/analytics/cumulative-flow (issue 36): one project's tasks per status for each day of the period (the
 * analytics page's period, in the caller's time zone). A project the caller cannot see is a 404.
 */
export const cumulativeFlowQuery = checkedPeriod(z.object({ projectId: uuid, ...periodFields }));
export type CumulativeFlowQuery = z.infer<typeof cumulativeFlowQuery>;

export const cumulativeFlowDto = z.object({
  scope: z.object({ projectId: uuid, from: isoDate, to: isoDate, timeZone: z.string() }),
  /**
   * The project's statuses in workflow order (bottom of the stack first), then its deleted statuses that had tasks in
   * the period (`deleted`, by category, then name).
   */
  statuses: z.array(
    z.object({ key: statusKey, name: z.string(), category: statusCategory, color: z.string(), deleted: z.boolean() }),
  ),
  /**
   * Each day of the period, oldest first, up to today: the tasks in each status (in the order of `statuses`) at the
   * day's end (now, for today): those whose span in that status covers it.
   */
  days: z.array(z.object({ day: isoDate, counts: z.array(z.number().int()) })),
});
export type CumulativeFlowDto = z.infer<typeof cumulativeFlowDto>;

/**
 * GET /api/analytics/time (issue 39): time logged per week, split by person and by project, and estimate vs actual for
 * the tasks completed in the period, over the same scope and period as GET /api/analytics (404 for a team or project
 * not of the caller's teams). An entry counts in the week of its date (a calendar date: no time zone applies).
 */
export const timeAnalyticsQuery = checkedPeriod(
  z.object({ teamId: uuid.optional(), projectId: uuid.optional(), ...periodFields }),
);
export type TimeAnalyticsQuery = z.infer<typeof timeAnalyticsQuery>;

/** The estimate-vs-actual table's rows at most (the summary counts every task). */
export const TIME_ANALYTICS_LIMITS = { estimateRows: 50 } as const;

/**
 * One split of the time logged: `series` (a person or a project; `id` null: the 'Other members' of teams where the
 * caller is neither owner nor admin, whose time counts without their names), and per week the minutes of each series
 * in that order.
 */
const timeSplit = z.object({
  series: z.array(z.object({ id: uuid.nullable(), name: z.string() })),
  weeks: z.array(z.object({ week, minutes: z.array(z.number().int()) })),
});
export type TimeSplit = z.infer<typeof timeSplit>;

export const timeAnalyticsDto = z.object({
  scope: analyticsDto.shape.scope,
  logged: z.object({ totalMinutes: z.number().int(), byPerson: timeSplit, byProject: timeSplit }),
  /**
   * The tasks completed in the period (as throughput counts them) with an estimate in minutes and time logged (their
   * own and their sub-tasks'): `ratio` is actual ÷ estimate (1.5: half again as long). The summary covers all of them;
   * `tasks` the latest completed first, at most TIME_ANALYTICS_LIMITS.estimateRows.
   */
  estimates: z.object({
    count: z.number().int(),
    medianRatio: z.number().nullable(),
    /** How many took longer than estimated. */
    overCount: z.number().int(),
    estimateMinutes: z.number().int(),
    actualMinutes: z.number().int(),
    tasks: z.array(
      z.object({
        taskId: uuid,
        title: z.string(),
        projectId: uuid,
        projectName: z.string(),
        completedAt: isoDateTime,
        estimateMinutes: z.number().int(),
        actualMinutes: z.number().int(),
        ratio: z.number(),
      }),
    ),
  }),
});
export type TimeAnalyticsDto = z.infer<typeof timeAnalyticsDto>;
