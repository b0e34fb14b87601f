/** Projects, their statuses (workflows), their tasks, and the per-project task counters the triggers keep. */
import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  date,
  foreignKey,
  index,
  integer,
  jsonb,
  numeric,
  type AnyPgColumn,
  pgTable,
  real,
  primaryKey,
  text,
  unique,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { PROJECT_STATUSES, REPEAT_MODES, TASK_PRIORITIES } from '../../../domain/constants';
import type { RepeatDto } from '../../../domain/schemas/repeat';
import { STATUS_CATEGORIES, STATUS_LIMITS } from '../../../domain/workflow';
import { CUSTOM_FIELD_TYPES, type CustomFieldOption, type CustomFieldValues } from '../../../domain/custom-fields';
import { createdAt, id, oneOf, requiredRef, textOf, timestamptz, updatedAt } from './columns';
import { teams } from './teams';
import { users } from './users';

export const projects = pgTable(
  'projects',
  {
    id: id(),
    name: text('name').notNull(),
    description: text('description'),
    status: textOf('status', PROJECT_STATUSES).notNull().default('planning'),
    ownerId: requiredRef('owner_id', () => users.id, 'restrict'),
    teamId: requiredRef('team_id', () => teams.id, 'cascade'),
    startDate: date('start_date', { mode: 'string' }),
    endDate: date('end_date', { mode: 'string' }),
    version: integer('version').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('projects_team_idx').on(t.teamId, t.createdAt),
    index('projects_owner_idx').on(t.ownerId),
    check('projects_status_check', oneOf(t.status, PROJECT_STATUSES)),
    check('projects_dates_check', sql`${t.startDate} is null or ${t.endDate} is null or ${t.endDate} > ${t.startDate}`),
  ],
);

/**
 * The projects a guest of the team sees (issue 41, decision 0031): a guest reads only these, and a guest membership
 * without a row here sees no project. Rows of a person who is not (or no longer) a guest count for nothing.
 */
export const projectGuests = pgTable(
  'project_guests',
  {
    projectId: requiredRef('project_id', () => projects.id, 'cascade'),
    userId: requiredRef('user_id', () => users.id, 'cascade'),
    addedBy: uuid('added_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.userId] }), index('project_guests_user_idx').on(t.userId)],
);

/**
 * Each project's statuses, in order (decision 0024, migration 0011). Tasks hold a status's `key`, which never changes
 * (a rename changes the name only) and is never reused: a deleted status keeps its row (`deleted_at` set, no
 * position), so history and the cumulative flow still name it. The unique (project_id, position) constraint is
 * DEFERRABLE INITIALLY DEFERRED in the migration, which Drizzle cannot state, so that a reorder rewrites the positions
 * in one statement.
 */
export const projectStatuses = pgTable(
  'project_statuses',
  {
    id: id(),
    projectId: requiredRef('project_id', () => projects.id, 'cascade'),
    key: text('key').notNull(),
    name: text('name').notNull(),
    category: textOf('category', STATUS_CATEGORIES).notNull(),
    color: text('color').notNull(),
    position: integer('position'),
    wipLimit: integer('wip_limit'),
    deletedAt: timestamptz('deleted_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // Every row, deleted ones included: a key is never reused. The tasks' foreign key points here.
    unique('project_statuses_project_key_unique').on(t.projectId, t.key),
    unique('project_statuses_project_position_unique').on(t.projectId, t.position),
    // The backstop of the domain's name check (which gives the field's message): among live statuses only.
    uniqueIndex('project_statuses_project_name_idx')
      .on(t.projectId, sql`lower(${t.name})`)
      .where(sql`${t.deletedAt} is null`),
    check('project_statuses_category_check', oneOf(t.category, STATUS_CATEGORIES)),
    check('project_statuses_color_check', sql`${t.color} ~ '^#[0-9a-f]{6}$'`),
    check('project_statuses_wip_limit_check', sql`${t.wipLimit} between 1 and ${sql.raw(String(STATUS_LIMITS.wipLimitMax))}`),
    // A live status has a place in the order; a deleted one has none.
    check('project_statuses_position_check', sql`(${t.position} is null) = (${t.deletedAt} is not null)`),
  ],
);

/**
 * Each project's tasks per status key, kept by a trigger on tasks (migrations 0003, 0004, 0011) and read as sums
 * (db/task-counters.ts). A writer adds to the rows of its own slot (its database connection's process id modulo 8),
 * so concurrent writers to one project seldom wait on one another; one row per project would queue every writer
 * behind the one before it until its commit. A slot's count can be negative (a task counted in one slot and deleted
 * through another); the sums are exact. A project has at most one row per status and slot.
 */
export const projectStatusCounts = pgTable(
  'project_status_counts',
  {
    projectId: requiredRef('project_id', () => projects.id, 'cascade'),
    status: text('status').notNull(),
    slot: integer('slot').notNull(),
    n: integer('n').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.status, t.slot] })],
);

export const tasks = pgTable(
  'tasks',
  {
    id: id(),
    title: text('title').notNull(),
    description: text('description'),
    // A key of the project's statuses (the composite foreign key below).
    status: text('status').notNull().default('todo'),
    // The category of that status, set by a trigger (migration 0011) on every insert and on every update of the
    // status or the project, whatever the statement says: `default null` only tells Drizzle that an insert need not
    // name it (PostgreSQL checks NOT NULL after the trigger has set it).
    statusCategory: textOf('status_category', STATUS_CATEGORIES).notNull().default(sql`null`),
    priority: textOf('priority', TASK_PRIORITIES).notNull().default('medium'),
    assigneeId: uuid('assignee_id').references(() => users.id, { onDelete: 'set null' }),
    projectId: requiredRef('project_id', () => projects.id, 'cascade'),
    creatorId: requiredRef('creator_id', () => users.id, 'cascade'),
    dueDate: date('due_date', { mode: 'string' }),
    tags: text('tags').array().notNull().default(sql`'{}'::text[]`),
    version: integer('version').notNull().default(0),
    // What the card counts of the task page, kept by triggers on the tables below (migration 0006), so that the
    // board reads them with the task's own row. Never written by the app.
    commentCount: integer('comment_count').notNull().default(0),
    attachmentCount: integer('attachment_count').notNull().default(0),
    checklistTotal: integer('checklist_total').notNull().default(0),
    checklistDone: integer('checklist_done').notNull().default(0),
    // Sub-tasks (decision 0025, migration 0013): the parent (null: a top-level task; same project, which a trigger
    // checks), the place among its siblings (null for a top-level task).
    parentId: uuid('parent_id'),
    subtaskPosition: integer('subtask_position'),
    // The sub-tasks' progress, kept by a trigger on tasks (migration 0013): done counts the completed category, total
    // leaves out the canceled ones. Never written by the app; a child's change leaves the parent's version alone.
    subtaskDone: integer('subtask_done').notNull().default(0),
    subtaskTotal: integer('subtask_total').notNull().default(0),
    startDate: date('start_date', { mode: 'string' }),
    // How many of the task's blockers (task_dependencies) are not in the completed category, kept by triggers on
    // task_dependencies and tasks (migration 0013). Never written by the app.
    openBlockerCount: integer('open_blocker_count').notNull().default(0),
    // Custom field values (issue 38, decision 0026): { fieldId: value }, only fields with a value, written by the app
    // after domain custom-fields.ts `validateFieldValue`. Read with the card's row; filtered and sorted through
    // task_field_values, which a trigger keeps from it (migration 0017).
    fields: jsonb('fields').$type<CustomFieldValues>().notNull().default(sql`'{}'::jsonb`),
    // Recurring tasks (issue 39, decision 0027): the series the task belongs to and its date in it (unique: each
    // occurrence is made once, whatever runs it), and, on the series' newest task only, the series itself as the
    // card and the page show it (kept by the app with task_series, in the same transaction).
    seriesId: uuid('series_id').references((): AnyPgColumn => taskSeries.id, { onDelete: 'set null' }),
    occurrenceDate: date('occurrence_date', { mode: 'string' }),
    repeat: jsonb('repeat').$type<RepeatDto>(),
    // Time tracking (issue 39): the estimate (minutes or points, as the team estimates), the minutes logged on the task
    // and on its sub-tasks at every level. The logged minutes are kept by triggers on time_entries and tasks (migration
    // 0019); never written by the app.
    estimateMinutes: integer('estimate_minutes'),
    estimatePoints: real('estimate_points'),
    loggedMinutes: integer('logged_minutes').notNull().default(0),
    subtaskLoggedMinutes: integer('subtask_logged_minutes').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('tasks_series_occurrence_idx').on(t.seriesId, t.occurrenceDate).where(sql`${t.seriesId} is not null`),
    index('tasks_project_status_idx').on(t.projectId, t.status, t.createdAt),
    // The board's first screen (newest first, id as tie-break) for one project and for all of them:
    // an index walked backwards that stops at the page size instead of sorting every visible task.
    // Ascending on purpose: drizzle's .desc() adds NULLS LAST, which `order by ... desc` cannot use.
    index('tasks_project_created_idx').on(t.projectId, t.createdAt, t.id),
    index('tasks_created_idx').on(t.createdAt, t.id),
    // The board's newest cards of one category across projects (All Projects with mixed workflows, decision 0024).
    index('tasks_status_category_idx').on(t.statusCategory, t.createdAt, t.id),
    // The dashboard's recent activity (latest updated first, 5 rows): without it, a sort of every task.
    index('tasks_updated_idx').on(t.updatedAt, t.id),
    index('tasks_assignee_idx').on(t.assigneeId),
    index('tasks_creator_idx').on(t.creatorId),
    index('tasks_due_idx').on(t.dueDate),
    // A parent's sub-tasks in order (and the cascade's lookup when a parent is deleted).
    // Partial: a top-level task (most of them) writes no entry.
    index('tasks_parent_idx')
      .on(t.parentId, t.subtaskPosition)
      .where(sql`${t.parentId} is not null`),
    // The timeline (decision 0025, migration 0016): a project's dated tasks that end on or after a day (the window's
    // first), and a project's open tasks with neither date, each a range of its own (partial: nothing else is in them).
    index('tasks_window_idx')
      .on(t.projectId, sql`(coalesce(${t.dueDate}, ${t.startDate}))`)
      .where(sql`coalesce(${t.dueDate}, ${t.startDate}) is not null`),
    index('tasks_unscheduled_idx')
      .on(t.projectId, t.createdAt, t.id)
      .where(sql`${t.startDate} is null and ${t.dueDate} is null and ${t.statusCategory} not in ('completed', 'canceled')`),
    foreignKey({ name: 'tasks_parent_id_tasks_id_fk', columns: [t.parentId], foreignColumns: [t.id] }).onDelete('cascade'),
    foreignKey({
      name: 'tasks_project_status_fk',
      columns: [t.projectId, t.status],
      foreignColumns: [projectStatuses.projectId, projectStatuses.key],
    }),
    check('tasks_status_category_check', oneOf(t.statusCategory, STATUS_CATEGORIES)),
    check('tasks_priority_check', oneOf(t.priority, TASK_PRIORITIES)),
    check('tasks_dates_check', sql`${t.startDate} is null or ${t.dueDate} is null or ${t.startDate} <= ${t.dueDate}`),
  ],
);

/**
 * A team's custom fields (issue 38, decision 0026). Options (select, multi-select) live in the row as JSON, in order:
 * a task's value names an option by id. `project_ids` null: every project of the team.
 */
export const customFields = pgTable(
  'custom_fields',
  {
    id: id(),
    teamId: requiredRef('team_id', () => teams.id, 'cascade'),
    name: text('name').notNull(),
    type: textOf('type', CUSTOM_FIELD_TYPES).notNull(),
    options: jsonb('options').$type<CustomFieldOption[]>().notNull().default(sql`'[]'::jsonb`),
    projectIds: uuid('project_ids').array(),
    showOnCard: boolean('show_on_card').notNull().default(false),
    archived: boolean('archived').notNull().default(false),
    unit: text('unit'),
    decimals: integer('decimals'),
    position: integer('position').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('custom_fields_team_name_idx').on(t.teamId, sql`lower(${t.name})`),
    index('custom_fields_team_idx').on(t.teamId, t.position),
    check('custom_fields_type_check', oneOf(t.type, CUSTOM_FIELD_TYPES)),
  ],
);

/**
 * The custom field values of `tasks.fields`, one row per value (per option of a multi-select), typed, for filters and
 * sorts by index (decision 0026). Kept by triggers on tasks (migration 0017) from the JSON and the field's type; never
 * written by the app. A deleted field's rows go with it (the service also takes its key out of the tasks' JSON).
 */
export const taskFieldValues = pgTable(
  'task_field_values',
  {
    taskId: requiredRef('task_id', () => tasks.id, 'cascade'),
    fieldId: requiredRef('field_id', () => customFields.id, 'cascade'),
    /** text, url */
    vText: text('v_text'),
    vNum: numeric('v_num'),
    vDate: date('v_date', { mode: 'string' }),
    /** select, multi-select (one row per option) */
    vOption: uuid('v_option'),
    /** person */
    vUser: uuid('v_user'),
    /** checkbox (only true is stored) */
    vBool: boolean('v_bool'),
  },
  (t) => [
    index('task_field_values_task_idx').on(t.taskId, t.fieldId),
    index('task_field_values_num_idx').on(t.fieldId, t.vNum, t.taskId).where(sql`${t.vNum} is not null`),
    index('task_field_values_date_idx').on(t.fieldId, t.vDate, t.taskId).where(sql`${t.vDate} is not null`),
    // Option ids are unique across fields: the option alone finds its tasks, and its statistics are the option's own.
    index('task_field_values_option_idx')
      .on(t.vOption, t.taskId)
      .where(sql`${t.vOption} is not null`),
    index('task_field_values_user_idx').on(t.vUser, t.fieldId).where(sql`${t.vUser} is not null`),
    index('task_field_values_field_idx').on(t.fieldId),
  ],
);

/**
 * A repeating task's series (issue 39, decision 0027): the rule (RRULE, canonical), how the next task comes ('When
 * completed', 'On schedule'), the time zone its dates are read in, the date its rule starts from (the first task's due
 * date, or its creation day), the next date not yet made (`next_at`: 00:00 that day in the zone; both null once the rule
 * ends), the newest task (the template the next copies; null once deleted), how many tasks it made (the first
 * included: COUNT), and `ended_at` once stopped. The schedule's job reads the due 'On schedule' series by `next_at`.
 */
export const taskSeries = pgTable(
  'task_series',
  {
    id: id(),
    teamId: requiredRef('team_id', () => teams.id, 'cascade'),
    projectId: requiredRef('project_id', () => projects.id, 'cascade'),
    creatorId: requiredRef('creator_id', () => users.id, 'cascade'),
    rule: text('rule').notNull(),
    mode: textOf('mode', REPEAT_MODES).notNull(),
    timezone: text('timezone').notNull(),
    anchorDate: date('anchor_date', { mode: 'string' }).notNull(),
    nextDate: date('next_date', { mode: 'string' }),
    nextAt: timestamptz('next_at'),
    currentTaskId: uuid('current_task_id').references((): AnyPgColumn => tasks.id, { onDelete: 'set null' }),
    createdCount: integer('created_count').notNull().default(1),
    endedAt: timestamptz('ended_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('task_series_due_idx')
      .on(t.nextAt)
      .where(sql`${t.mode} = 'on_schedule' and ${t.endedAt} is null and ${t.nextAt} is not null`),
    index('task_series_current_idx').on(t.currentTaskId),
    index('task_series_project_idx').on(t.projectId),
    check('task_series_mode_check', oneOf(t.mode, REPEAT_MODES)),
  ],
);

/** Time logged on a task (issue 39): a person, a day, whole minutes, a note. */
export const timeEntries = pgTable(
  'time_entries',
  {
    id: id(),
    taskId: requiredRef('task_id', () => tasks.id, 'cascade'),
    userId: requiredRef('user_id', () => users.id, 'cascade'),
    date: date('date', { mode: 'string' }).notNull(),
    minutes: integer('minutes').notNull(),
    note: text('note'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('time_entries_user_date_idx').on(t.userId, t.date),
    index('time_entries_task_idx').on(t.taskId, t.date),
    check('time_entries_minutes_check', sql`${t.minutes} between 1 and 1440`),
  ],
);

/** A person's running timer (issue 39): one a person, on every device. */
export const timers = pgTable('timers', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  taskId: requiredRef('task_id', () => tasks.id, 'cascade'),
  startedAt: timestamptz('started_at').notNull().defaultNow(),
});
