/**
 * Work from outside the team (issue 40, decision 0028): a project's public board link, its request forms, the
 * requesters' status links, its intake address, the reply addresses of notification mails, and the mails received.
 * Every token is stored twice: its SHA-256 (`token_hash`, what a request is looked up by) and, where the team must be
 * able to show it again, sealed with the server's key (`token_sealed`); never in the clear.
 */
import { boolean, index, jsonb, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type { FormFieldDto } from '../../../domain/schemas/outside';
import { createdAt, id, requiredRef, timestamptz, updatedAt } from './columns';
import { projects, tasks } from './projects';
import { users } from './users';

/** A project's public link (`/share/<token>`): the row stays when turned off (its options kept), its token gone. */
export const projectShares = pgTable(
  'project_shares',
  {
    projectId: uuid('project_id')
      .primaryKey()
      .references(() => projects.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash'),
    tokenSealed: text('token_sealed'),
    showPeople: boolean('show_people').notNull().default(false),
    showDescriptions: boolean('show_descriptions').notNull().default(false),
    updatedById: uuid('updated_by_id').references(() => users.id, { onDelete: 'set null' }),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('project_shares_token_key').on(t.tokenHash)],
);

/**
 * A project's request form (`/forms/<token>`). A submission's task is created by `createdById` (the team's owner when
 * that person is gone), in `status`, assigned to `assigneeId` when still a member.
 */
export const forms = pgTable(
  'forms',
  {
    id: id(),
    projectId: requiredRef('project_id', () => projects.id, 'cascade'),
    name: text('name').notNull(),
    intro: text('intro'),
    fields: jsonb('fields').$type<FormFieldDto[]>().notNull(),
    status: text('status').notNull(),
    assigneeId: uuid('assignee_id').references(() => users.id, { onDelete: 'set null' }),
    open: boolean('open').notNull().default(true),
    tokenHash: text('token_hash').notNull(),
    tokenSealed: text('token_sealed').notNull(),
    createdById: uuid('created_by_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('forms_token_key').on(t.tokenHash), index('forms_project_idx').on(t.projectId)],
);

/** A requester's read-only status link (`/requests/<token>`, from the confirmation mail): shown once, kept hashed. */
export const requestLinks = pgTable(
  'request_links',
  {
    tokenHash: text('token_hash').primaryKey(),
    taskId: requiredRef('task_id', () => tasks.id, 'cascade'),
    email: text('email').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('request_links_task_idx').on(t.taskId)],
);

/** A project's intake address (`<project-slug>+<token>@<INBOUND_MAIL_DOMAIN>`): a row while it is on. */
export const projectIntake = pgTable(
  'project_intake',
  {
    projectId: uuid('project_id')
      .primaryKey()
      .references(() => projects.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    tokenSealed: text('token_sealed').notNull(),
    enabledById: uuid('enabled_by_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('project_intake_token_key').on(t.tokenHash)],
);

/**
 * The reply address of a notification mail about a task to a person (`reply+<token>@<INBOUND_MAIL_DOMAIN>`): a reply
 * from that person's address becomes their comment. Kept MAIL_REPLY_KEEP_DAYS.
 */
export const mailReplyTokens = pgTable(
  'mail_reply_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    taskId: requiredRef('task_id', () => tasks.id, 'cascade'),
    userId: requiredRef('user_id', () => users.id, 'cascade'),
    createdAt: createdAt(),
  },
  (t) => [index('mail_reply_tokens_created_idx').on(t.createdAt)],
);

/**
 * Every mail received, by the SHA-256 of its Message-ID (or of its whole text when it has none): inserted in the
 * transaction of what it made, so a mail delivered twice (SMTP and IMAP, a retry) makes one task or comment.
 */
export const inboundMessages = pgTable(
  'inbound_messages',
  {
    messageHash: text('message_hash').primaryKey(),
    /** 'task', 'comment' or 'dropped' (refused: why in `reason`). */
    outcome: text('outcome').notNull(),
    reason: text('reason'),
    taskId: uuid('task_id').references(() => tasks.id, { onDelete: 'set null' }),
    receivedAt: timestamptz('received_at').notNull().defaultNow(),
  },
  (t) => [index('inbound_messages_received_idx').on(t.receivedAt)],
);
