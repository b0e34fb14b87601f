/** Projects, their tasks, and the per-project task counters the triggers keep. */
import { sql } from 'drizzle-orm';
import { check, date, index, integer, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { PROJECT_STATUSES, TASK_PRIORITIES, TASK_STATUSES } from '../../../domain/constants';
import { createdAt, id, oneOf, requiredRef, textOf, updatedAt } from './columns';
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
 * Each project's tasks per status, kept by triggers on tasks (migrations 0003, 0004) and read as the
 * sum of the project's rows. A writer adds to the row of its own slot (its database connection's
 * process id modulo 8), so concurrent writers to one project seldom wait on one another; one row
 * per project would queue every writer behind the one before it until its commit. A slot's counts
 * can be negative (a task counted in one slot and deleted through another); their sums are exact.
 */
export const projectTaskCounts = pgTable(
  'project_task_counts',
  {
    projectId: requiredRef('project_id', () => projects.id, 'cascade'),
    slot: integer('slot').notNull(),
    todoCount: integer('todo_count').notNull().default(0),
    inProgressCount: integer('in_progress_count').notNull().default(0),
    reviewCount: integer('review_count').notNull().default(0),
    doneCount: integer('done_count').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.slot] })],
);

export const tasks = pgTable(
  'tasks',
  {
    id: id(),
    title: text('title').notNull(),
    description: text('description'),
    status: textOf('status', TASK_STATUSES).notNull().default('todo'),
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
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('tasks_project_status_idx').on(t.projectId, t.status, t.createdAt),
    // The board's first screen (newest first, id as tie-break) for one project and for all of them:
    // an index walked backwards that stops at the page size instead of sorting every visible task.
    // Ascending on purpose: drizzle's .desc() adds NULLS LAST, which `order by ... desc` cannot use.
    index('tasks_project_created_idx').on(t.projectId, t.createdAt, t.id),
    index('tasks_created_idx').on(t.createdAt, t.id),
    // The dashboard's recent activity (latest updated first, 5 rows): without it, a sort of every task.
    index('tasks_updated_idx').on(t.updatedAt, t.id),
    index('tasks_assignee_idx').on(t.assigneeId),
    index('tasks_creator_idx').on(t.creatorId),
    index('tasks_due_idx').on(t.dueDate),
    check('tasks_status_check', oneOf(t.status, TASK_STATUSES)),
    check('tasks_priority_check', oneOf(t.priority, TASK_PRIORITIES)),
  ],
);
