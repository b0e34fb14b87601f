/** What the task page shows beyond the task's own row: comments, attachments, checklist, activity, watchers. */
import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  check,
  doublePrecision,
  index,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { TASK_ACTIVITY_FIELDS } from '../../../domain/constants';
import { STATUS_CATEGORIES } from '../../../domain/workflow';
import { createdAt, id, oneOf, requiredRef, textOf, timestamptz, updatedAt } from './columns';
import { tasks } from './projects';
import { users } from './users';

/** Comments on a task. Mentions are `<@user-id>` tokens in the body, and their ids also in `mentions`. */
export const taskComments = pgTable(
  'task_comments',
  {
    id: id(),
    taskId: requiredRef('task_id', () => tasks.id, 'cascade'),
    authorId: uuid('author_id').references(() => users.id, { onDelete: 'set null' }),
    body: text('body').notNull(),
    mentions: uuid('mentions').array().notNull().default(sql`'{}'::uuid[]`),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    /** Set when the author changed the body. */
    editedAt: timestamptz('edited_at'),
  },
  (t) => [index('task_comments_task_idx').on(t.taskId, t.createdAt)],
);

/** Files attached to a task; the bytes live in the file storage (local folder or S3) under `storageKey`. */
export const taskAttachments = pgTable(
  'task_attachments',
  {
    id: id(),
    taskId: requiredRef('task_id', () => tasks.id, 'cascade'),
    uploaderId: uuid('uploader_id').references(() => users.id, { onDelete: 'set null' }),
    fileName: text('file_name').notNull(),
    /** Taken from the bytes, not from the name or the browser's claim. */
    contentType: text('content_type').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    storageKey: text('storage_key').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('task_attachments_task_idx').on(t.taskId, t.createdAt), uniqueIndex('task_attachments_key').on(t.storageKey)],
);

/** A task's checklist, in `position` order (fractional, so a move rewrites one row). */
export const taskChecklistItems = pgTable(
  'task_checklist_items',
  {
    id: id(),
    taskId: requiredRef('task_id', () => tasks.id, 'cascade'),
    title: text('title').notNull(),
    done: boolean('done').notNull().default(false),
    position: doublePrecision('position').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('task_checklist_task_idx').on(t.taskId, t.position)],
);

/**
 * Every change to a task's fields: one row per field changed, written in the transaction of the change. Values are
 * the stored ones (a status key, a user id, a date); labels are what a person read at the time (a name).
 */
export const taskActivity = pgTable(
  'task_activity',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    taskId: requiredRef('task_id', () => tasks.id, 'cascade'),
    actorId: uuid('actor_id').references(() => users.id, { onDelete: 'set null' }),
    field: textOf('field', TASK_ACTIVITY_FIELDS).notNull(),
    oldValue: text('old_value'),
    newValue: text('new_value'),
    oldLabel: text('old_label'),
    newLabel: text('new_label'),
    /**
     * Status rows only (migration 0012): the categories the old and new status had at the time, so the history keeps
     * its meaning through a recategorisation, a deleted status or a move from another project. Written by the app
     * when it knows them; otherwise a trigger fills them from the task's project's statuses.
     */
    oldCategory: textOf('old_category', STATUS_CATEGORIES),
    newCategory: textOf('new_category', STATUS_CATEGORIES),
    /** 'custom_field' rows only (migration 0017): the field (no reference: a deleted field's history stays) and its name then. */
    fieldId: uuid('field_id'),
    fieldName: text('field_name'),
    createdAt: createdAt(),
  },
  (t) => [
    index('task_activity_task_idx').on(t.taskId, t.createdAt),
    // Status history across tasks, by time (cycle-time analytics).
    index('task_activity_status_idx')
      .on(t.createdAt)
      .where(sql`field = 'status'`),
    check('task_activity_field_check', oneOf(t.field, TASK_ACTIVITY_FIELDS)),
    check('task_activity_old_category_check', oneOf(t.oldCategory, STATUS_CATEGORIES)),
    check('task_activity_new_category_check', oneOf(t.newCategory, STATUS_CATEGORIES)),
  ],
);

/**
 * Who watches a task beyond those who do by default (its creator and assignee): commenters and mentioned people get a
 * row with watching = true; an explicit unwatch is a row with watching = false, which also overrides the default.
 */
export const taskWatchers = pgTable(
  'task_watchers',
  {
    taskId: requiredRef('task_id', () => tasks.id, 'cascade'),
    userId: requiredRef('user_id', () => users.id, 'cascade'),
    watching: boolean('watching').notNull(),
  },
  (t) => [primaryKey({ columns: [t.taskId, t.userId] }), index('task_watchers_user_idx').on(t.userId)],
);

/**
 * "Task A is blocked by task B" (decision 0025, migration 0013): `taskId` is blocked by `blockedById`. Both tasks are
 * in projects of one team (the service checks it), never the same task, and the graph has no cycle (the service
 * checks it under a per-team lock). The blocked task's `open_blocker_count` is kept by triggers on this table and on
 * tasks.
 */
export const taskDependencies = pgTable(
  'task_dependencies',
  {
    taskId: requiredRef('task_id', () => tasks.id, 'cascade'),
    blockedById: requiredRef('blocked_by_id', () => tasks.id, 'cascade'),
    createdAt: createdAt(),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [
    primaryKey({ columns: [t.taskId, t.blockedById] }),
    // What a task blocks: the fan-out when a blocker's category changes, and the task page's 'Blocking'.
    index('task_dependencies_blocked_by_idx').on(t.blockedById),
    check('task_dependencies_not_self_check', sql`${t.taskId} <> ${t.blockedById}`),
  ],
);
