import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  doublePrecision,
  boolean,
  check,
  customType,
  date,
  type AnyPgColumn,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import {
  API_TOKEN_SCOPES,
  type ApiTokenScope,
  AUDIT_ACTIONS,
  type AuditAction,
  NOTE_VERSION_KINDS,
  type NoteVersionKind,
  type WebhookEventType,
  INVITATION_ROLES,
  INVITATION_STATUSES,
  MAIL_KINDS,
  type MailKind,
  NOTIFICATION_PREFERENCE_KINDS,
  type NotificationPreferenceKind,
  USER_TOKEN_PURPOSES,
  type UserTokenPurpose,
  NOTIFICATION_TYPES,
  PROJECT_STATUSES,
  TASK_ACTIVITY_FIELDS,
  type TaskActivityField,
  SYSTEM_ROLES,
  TASK_PRIORITIES,
  TASK_STATUSES,
  TEAM_ROLES,
  type InvitationRole,
  type InvitationStatus,
  type NotificationType,
  type ProjectStatus,
  type SystemRole,
  type TaskPriority,
  type TaskStatus,
  type TeamRole,
} from '../../domain/constants';

/** Binary data (Yjs updates and snapshots), as Buffers in and out. */
const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

const id = () => uuid('id').primaryKey().defaultRandom();
const createdAt = () => timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();
const updatedAt = () => timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();

/**
 * `column in ('a', 'b', …)` from one of the domain's constant lists, so the check and the type
 * (`$type<…>()`) come from the same list. Literals, not parameters: a check constraint has none.
 */
const oneOf = (column: AnyPgColumn, values: readonly string[]) =>
  sql`${column} in (${sql.raw(values.map((v) => `'${v.replace(/'/g, "''")}'`).join(', '))})`;

/** The only membership status so far; a row with any other would not count as a member (db/visibility.ts). */
export const MEMBER_STATUSES = ['active'] as const;
export type MemberStatus = (typeof MEMBER_STATUSES)[number];

/** Profiles (spec §3 "users table"). Emails are stored lower-cased. */
export const users = pgTable(
  'users',
  {
    id: id(),
    email: text('email').notNull(),
    fullName: text('full_name').notNull(),
    avatarUrl: text('avatar_url'),
    role: text('role').$type<SystemRole>().notNull().default('team_member'),
    isActive: boolean('is_active').notNull().default(true),
    emailVerified: boolean('email_verified').notNull().default(false),
    /** IANA time zone (the daily digest goes out at 08:00 there); null: UTC. */
    timeZone: text('time_zone'),
    /** The TOTP secret (base32), sealed with the server's key; set while two-factor sign-in is being set up or on. */
    totpSecret: text('totp_secret'),
    /** When two-factor sign-in was turned on; null while off. */
    totpEnabledAt: timestamp('totp_enabled_at', { withTimezone: true, mode: 'date' }),
    digestEnabled: boolean('digest_enabled').notNull().default(true),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('users_email_key').on(t.email),
    check('users_role_check', oneOf(t.role, SYSTEM_ROLES)),
    check('users_email_lower_check', sql`${t.email} = lower(${t.email})`),
  ],
);

export type UserRow = typeof users.$inferSelect;

export const passwordCredentials = pgTable('password_credentials', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  passwordHash: text('password_hash').notNull(),
  updatedAt: updatedAt(),
});

/** External identities (OpenID Connect), keyed on issuer + subject. */
export const oauthIdentities = pgTable(
  'oauth_identities',
  {
    issuer: text('issuer').notNull(),
    subject: text('subject').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    email: text('email'),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.issuer, t.subject] }), index('oauth_identities_user_idx').on(t.userId)],
);

export const sessions = pgTable(
  'sessions',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    refreshedAt: timestamp('refreshed_at', { withTimezone: true, mode: 'date' }),
    revokedAt: timestamp('revoked_at', { withTimezone: true, mode: 'date' }),
    userAgent: text('user_agent'),
    /** The client's address when the session started (Settings → Security). */
    ip: text('ip'),
  },
  (t) => [index('sessions_user_idx').on(t.userId)],
);

/** Refresh tokens, stored only as SHA-256 hashes; single use, rotated on every refresh. */
export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    sessionId: uuid('session_id')
      .notNull()
      .references(() => sessions.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    parentId: bigint('parent_id', { mode: 'number' }),
    usedAt: timestamp('used_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('refresh_tokens_hash_key').on(t.tokenHash), index('refresh_tokens_session_idx').on(t.sessionId)],
);

export const teams = pgTable(
  'teams',
  {
    id: id(),
    name: text('name').notNull(),
    description: text('description'),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    version: integer('version').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('teams_owner_idx').on(t.ownerId)],
);

export const teamMembers = pgTable(
  'team_members',
  {
    id: id(),
    teamId: uuid('team_id')
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text('role').$type<TeamRole>().notNull(),
    status: text('status').$type<MemberStatus>().notNull().default('active'),
    joinedAt: timestamp('joined_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('team_members_team_user_key').on(t.teamId, t.userId),
    index('team_members_user_idx').on(t.userId, t.status),
    check('team_members_role_check', oneOf(t.role, TEAM_ROLES)),
    check('team_members_status_check', oneOf(t.status, MEMBER_STATUSES)),
  ],
);

export const teamInvitations = pgTable(
  'team_invitations',
  {
    id: id(),
    teamId: uuid('team_id')
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
    teamName: text('team_name').notNull(),
    email: text('email').notNull(),
    role: text('role').$type<InvitationRole>().notNull().default('member'),
    status: text('status').$type<InvitationStatus>().notNull().default('pending'),
    invitedBy: uuid('invited_by')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    inviterName: text('inviter_name').notNull(),
    inviterEmail: text('inviter_email').notNull(),
    invitedAt: timestamp('invited_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    respondedAt: timestamp('responded_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    uniqueIndex('team_invitations_one_pending_key').on(t.teamId, t.email).where(sql`${t.status} = 'pending'`),
    index('team_invitations_email_idx').on(t.email),
    // The partial unique index above covers pending rows only; the foreign key needs them all.
    index('team_invitations_team_idx').on(t.teamId),
    index('team_invitations_invited_by_idx').on(t.invitedBy),
    // In TEAM_ROLES' order, as migration 0000 wrote the check (INVITATION_ROLES is in the form's order).
    check(
      'team_invitations_role_check',
      oneOf(
        t.role,
        TEAM_ROLES.filter((r) => (INVITATION_ROLES as readonly string[]).includes(r)),
      ),
    ),
    check('team_invitations_status_check', oneOf(t.status, INVITATION_STATUSES)),
    check('team_invitations_email_lower_check', sql`${t.email} = lower(${t.email})`),
  ],
);

export const projects = pgTable(
  'projects',
  {
    id: id(),
    name: text('name').notNull(),
    description: text('description'),
    status: text('status').$type<ProjectStatus>().notNull().default('planning'),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    teamId: uuid('team_id')
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
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
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
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
    status: text('status').$type<TaskStatus>().notNull().default('todo'),
    priority: text('priority').$type<TaskPriority>().notNull().default('medium'),
    assigneeId: uuid('assignee_id').references(() => users.id, { onDelete: 'set null' }),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    creatorId: uuid('creator_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
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

export const notifications = pgTable(
  'notifications',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    type: text('type').$type<NotificationType>().notNull(),
    title: text('title').notNull(),
    message: text('message').notNull(),
    isRead: boolean('is_read').notNull().default(false),
    data: jsonb('data').notNull().default({}),
    createdAt: createdAt(),
  },
  (t) => [
    index('notifications_user_idx').on(t.userId, t.createdAt),
    check('notifications_type_check', oneOf(t.type, NOTIFICATION_TYPES)),
  ],
);

/** Token buckets for rate limits, shared by every app instance on one database. */
export const rateLimitBuckets = pgTable('rate_limit_buckets', {
  key: text('key').primaryKey(),
  tokens: doublePrecision('tokens').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

/** One-time emailed links (verification, password reset, email change): stored only as SHA-256 hashes, single use, expiring. */
export const userTokens = pgTable(
  'user_tokens',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose').$type<UserTokenPurpose>().notNull(),
    tokenHash: text('token_hash').notNull(),
    /** The address the link was sent to (for an email change, the new address). */
    email: text('email').notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    uniqueIndex('user_tokens_hash_key').on(t.tokenHash),
    index('user_tokens_user_idx').on(t.userId, t.purpose),
    check('user_tokens_purpose_check', oneOf(t.purpose, USER_TOKEN_PURPOSES)),
  ],
);

/**
 * Mail waiting to go out (DESIGN.md "outboxes"): written in the transaction of the change that causes it, delivered by
 * a worker with retries and backoff; `for update skip locked` hands each row to one instance.
 */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    kind: text('kind').$type<MailKind>().notNull(),
    toEmail: text('to_email').notNull(),
    subject: text('subject').notNull(),
    textBody: text('text_body').notNull(),
    htmlBody: text('html_body').notNull(),
    createdAt: createdAt(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true, mode: 'date' }),
    /** Set when delivery was given up after the last retry. */
    failedAt: timestamp('failed_at', { withTimezone: true, mode: 'date' }),
    lastError: text('last_error'),
  },
  (t) => [
    index('mail_outbox_due_idx').on(t.nextAttemptAt).where(sql`sent_at is null and failed_at is null`),
    check('mail_outbox_kind_check', oneOf(t.kind, MAIL_KINDS)),
  ],
);

/** Two-factor recovery codes: ten per setup, each stored as a SHA-256 hash and usable once. */
export const recoveryCodes = pgTable(
  'recovery_codes',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    usedAt: timestamp('used_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
  },
  (t) => [index('recovery_codes_user_idx').on(t.userId)],
);

/** Per kind and channel, what a person wants to be told (a missing row: the default, on). */
export const notificationPreferences = pgTable(
  'notification_preferences',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<NotificationPreferenceKind>().notNull(),
    inApp: boolean('in_app').notNull().default(true),
    email: boolean('email').notNull().default(true),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.kind] }),
    check('notification_preferences_kind_check', oneOf(t.kind, NOTIFICATION_PREFERENCE_KINDS)),
  ],
);

/** Comments on a task. Mentions are `<@user-id>` tokens in the body, and their ids also in `mentions`. */
export const taskComments = pgTable(
  'task_comments',
  {
    id: id(),
    taskId: uuid('task_id')
      .notNull()
      .references(() => tasks.id, { onDelete: 'cascade' }),
    authorId: uuid('author_id').references(() => users.id, { onDelete: 'set null' }),
    body: text('body').notNull(),
    mentions: uuid('mentions').array().notNull().default(sql`'{}'::uuid[]`),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    /** Set when the author changed the body. */
    editedAt: timestamp('edited_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [index('task_comments_task_idx').on(t.taskId, t.createdAt)],
);

/** Files attached to a task; the bytes live in the file storage (local folder or S3) under `storageKey`. */
export const taskAttachments = pgTable(
  'task_attachments',
  {
    id: id(),
    taskId: uuid('task_id')
      .notNull()
      .references(() => tasks.id, { onDelete: 'cascade' }),
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
    taskId: uuid('task_id')
      .notNull()
      .references(() => tasks.id, { onDelete: 'cascade' }),
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
    taskId: uuid('task_id')
      .notNull()
      .references(() => tasks.id, { onDelete: 'cascade' }),
    actorId: uuid('actor_id').references(() => users.id, { onDelete: 'set null' }),
    field: text('field').$type<TaskActivityField>().notNull(),
    oldValue: text('old_value'),
    newValue: text('new_value'),
    oldLabel: text('old_label'),
    newLabel: text('new_label'),
    createdAt: createdAt(),
  },
  (t) => [
    index('task_activity_task_idx').on(t.taskId, t.createdAt),
    // Status history across tasks, by time (cycle-time analytics).
    index('task_activity_status_idx')
      .on(t.createdAt)
      .where(sql`field = 'status'`),
    check('task_activity_field_check', oneOf(t.field, TASK_ACTIVITY_FIELDS)),
  ],
);

/**
 * Who watches a task beyond those who do by default (its creator and assignee): commenters and mentioned people get a
 * row with watching = true; an explicit unwatch is a row with watching = false, which also overrides the default.
 */
export const taskWatchers = pgTable(
  'task_watchers',
  {
    taskId: uuid('task_id')
      .notNull()
      .references(() => tasks.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    watching: boolean('watching').notNull(),
  },
  (t) => [primaryKey({ columns: [t.taskId, t.userId] }), index('task_watchers_user_idx').on(t.userId)],
);

/**
 * The Tasks page's filters, search, sort and view, saved under a name. Personal (team_id null: its owner sees it) or
 * shared with a team (its active members see it; each applies the filters with their own visibility).
 */
export const savedViews = pgTable(
  'saved_views',
  {
    id: id(),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    teamId: uuid('team_id').references(() => teams.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** The Tasks page's URL state (SavedViewConfig in domain/schemas/saved-view.ts). */
    config: jsonb('config').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('saved_views_owner_idx').on(t.ownerId), index('saved_views_team_idx').on(t.teamId)],
);

/**
 * A person's calendar feed (iCalendar): the secret in its URL, stored only as a SHA-256 hash. One per user; 'Reset link'
 * replaces it, deleting the row revokes it.
 */
export const calendarFeeds = pgTable(
  'calendar_feeds',
  {
    userId: uuid('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    createdAt: createdAt(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [uniqueIndex('calendar_feeds_hash_key').on(t.tokenHash)],
);

/**
 * Personal API tokens (issue 26): `Authorization: Bearer cb_…` acts with the owner's rights within its scope. Only a
 * keyed hash (HMAC-SHA256 with the server's secret) is stored: fast to check on every request, useless if the table leaks
 * without the secret. `prefix` (the first characters) lets a person tell their tokens apart.
 */
export const apiTokens = pgTable(
  'api_tokens',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    tokenHash: text('token_hash').notNull(),
    prefix: text('prefix').notNull(),
    scope: text('scope').$type<ApiTokenScope>().notNull(),
    createdAt: createdAt(),
    /** null: never expires. */
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true, mode: 'date' }),
    revokedAt: timestamp('revoked_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    uniqueIndex('api_tokens_hash_key').on(t.tokenHash),
    index('api_tokens_user_idx').on(t.userId),
    check('api_tokens_scope_check', oneOf(t.scope, API_TOKEN_SCOPES)),
  ],
);

/**
 * A team's webhooks (issue 26): events POSTed to `url`, signed by the Standard Webhooks convention with `secret`
 * (`whsec_…`, sealed with the server's key at rest). `failingSince` is set when deliveries kept failing for 24 hours.
 */
export const webhooks = pgTable(
  'webhooks',
  {
    id: id(),
    teamId: uuid('team_id')
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    events: jsonb('events').$type<WebhookEventType[]>().notNull(),
    /** The signing secret, sealed (never returned after creation). */
    secret: text('secret').notNull(),
    description: text('description'),
    active: boolean('active').notNull().default(true),
    createdById: uuid('created_by_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    failingSince: timestamp('failing_since', { withTimezone: true, mode: 'date' }),
  },
  (t) => [index('webhooks_team_idx').on(t.teamId)],
);

/**
 * The webhook outbox and delivery log: one row per event per hook, written in the transaction of the change that causes
 * it; the worker claims due rows with `for update skip locked` (each delivery goes out once across instances) and retries
 * with exponential backoff for 24 hours. `body` is the exact JSON sent (and signed); `messageId` is `webhook-id`.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    webhookId: uuid('webhook_id')
      .notNull()
      .references(() => webhooks.id, { onDelete: 'cascade' }),
    messageId: text('message_id').notNull(),
    eventType: text('event_type').notNull(),
    body: text('body').notNull(),
    createdAt: createdAt(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    deliveredAt: timestamp('delivered_at', { withTimezone: true, mode: 'date' }),
    /** Set when retries ran out (24 hours after the first attempt). */
    failedAt: timestamp('failed_at', { withTimezone: true, mode: 'date' }),
    lastStatusCode: integer('last_status_code'),
    lastDurationMs: integer('last_duration_ms'),
    lastError: text('last_error'),
  },
  (t) => [
    index('webhook_deliveries_due_idx').on(t.nextAttemptAt).where(sql`delivered_at is null and failed_at is null`),
    index('webhook_deliveries_hook_idx').on(t.webhookId, t.createdAt),
  ],
);

/** Each attempt at a delivery (the delivery log's detail): when, how long, the answer's status or the error. */
export const webhookDeliveryAttempts = pgTable(
  'webhook_delivery_attempts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    deliveryId: bigint('delivery_id', { mode: 'number' })
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: 'cascade' }),
    attemptedAt: timestamp('attempted_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    statusCode: integer('status_code'),
    durationMs: integer('duration_ms').notNull(),
    error: text('error'),
  },
  (t) => [index('webhook_delivery_attempts_delivery_idx').on(t.deliveryId)],
);

/**
 * The audit log (issue 26): append-only (a trigger refuses updates, and deletes except the retention purge, which sets
 * `crewboard.audit_purge` for its transaction). No foreign keys: a row outlives the user, team or object it names, so
 * the names are copied (`actorEmail`, `targetLabel`).
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    createdAt: createdAt(),
    action: text('action').$type<AuditAction>().notNull(),
    /** null: no signed-in actor (a failed sign-in, the CLI). */
    actorId: uuid('actor_id'),
    actorEmail: text('actor_email'),
    ip: text('ip'),
    /** The team the action concerns (team owners and admins read their team's rows); null: account or system level. */
    teamId: uuid('team_id'),
    targetType: text('target_type'),
    targetId: text('target_id'),
    targetLabel: text('target_label'),
    details: jsonb('details').notNull().default({}),
  },
  (t) => [
    index('audit_log_created_idx').on(t.createdAt),
    index('audit_log_team_idx').on(t.teamId, t.createdAt),
    index('audit_log_actor_idx').on(t.actorId, t.createdAt),
    check('audit_log_action_check', oneOf(t.action, AUDIT_ACTIONS)),
  ],
);

/**
 * Notes (issue 25): a team's collaborative documents, optionally tied to a project. The document itself is a Yjs doc
 * (note_documents + note_updates); `plainText` is its text, kept by the server when it compacts, for search (the
 * generated `search_vector` column, like the tasks', is not in this schema).
 */
export const notes = pgTable(
  'notes',
  {
    id: id(),
    teamId: uuid('team_id')
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
    projectId: uuid('project_id').references(() => projects.id, { onDelete: 'set null' }),
    title: text('title').notNull(),
    authorId: uuid('author_id').references(() => users.id, { onDelete: 'set null' }),
    pinned: boolean('pinned').notNull().default(false),
    plainText: text('plain_text').notNull().default(''),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    lastEditedById: uuid('last_edited_by_id').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [index('notes_team_idx').on(t.teamId, t.updatedAt), index('notes_project_idx').on(t.projectId)],
);

/** A note's compacted Yjs state: every update up to `compactedThrough` (a note_updates id) merged into one. */
export const noteDocuments = pgTable('note_documents', {
  noteId: uuid('note_id')
    .primaryKey()
    .references(() => notes.id, { onDelete: 'cascade' }),
  state: bytea('state').notNull(),
  compactedThrough: bigint('compacted_through', { mode: 'number' }).notNull().default(0),
  updatedAt: updatedAt(),
});

/**
 * Yjs updates appended as they arrive (then compacted into note_documents). The id orders them, and other instances
 * fetch an update by id when its NOTIFY carries only a reference (payloads are limited to 8,000 bytes).
 */
export const noteUpdates = pgTable(
  'note_updates',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    noteId: uuid('note_id')
      .notNull()
      .references(() => notes.id, { onDelete: 'cascade' }),
    update: bytea('update').notNull(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [index('note_updates_note_idx').on(t.noteId, t.id)],
);

/** Versions of a note: its full Yjs state at a moment, kept every few minutes of editing, on request, and on restore. */
export const noteVersions = pgTable(
  'note_versions',
  {
    id: id(),
    noteId: uuid('note_id')
      .notNull()
      .references(() => notes.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<NoteVersionKind>().notNull(),
    state: bytea('state').notNull(),
    title: text('title').notNull(),
    createdById: uuid('created_by_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    index('note_versions_note_idx').on(t.noteId, t.createdAt),
    check('note_versions_kind_check', oneOf(t.kind, NOTE_VERSION_KINDS)),
  ],
);
