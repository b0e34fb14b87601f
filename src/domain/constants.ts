/** Business constants and limits of spec §9, and the enumerations of spec §3–§4. */

export const TASK_STATUSES = ['todo', 'in_progress', 'review', 'completed'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];
/** Whether a status key is one of the default four (any project may have others: decision 0024). */
export const isDefaultStatusKey = (key: string): key is TaskStatus => (TASK_STATUSES as readonly string[]).includes(key);

/** The due-date buckets of the task filters (spec §2 'Filter panel'). */
export const DUE_FILTERS = ['overdue', 'today', 'this_week', 'next_week'] as const;
export type DueFilter = (typeof DUE_FILTERS)[number];

export const DUE_FILTER_LABELS: Record<DueFilter, string> = {
  overdue: 'Overdue',
  today: 'Due Today',
  this_week: 'This Week',
  next_week: 'Next Week',
};

/** The list view's sortable columns. */
/** The start-date filter (URL `start`, API `start`): tasks without a start date, or with one. */
export const START_FILTERS = ['none', 'set'] as const;
export type StartFilter = (typeof START_FILTERS)[number];
export const START_FILTER_LABELS: Record<StartFilter, string> = { none: 'Not set', set: 'Set' };

/**
 * The sub-task filter (URL `subtasks`, API `subtasks`, saved views `subtasks`): 'hide' keeps only top-level tasks
 * (the board's 'Show sub-tasks' off); absent shows sub-tasks as tasks (the default).
 */
export const SUBTASK_FILTERS = ['hide'] as const;
export type SubtaskFilter = (typeof SUBTASK_FILTERS)[number];

export const TASK_SORTS = ['created', 'title', 'status', 'priority', 'assignee', 'due', 'start', 'project'] as const;
export type TaskSort = (typeof TASK_SORTS)[number];

export const TASK_STATUS_LABELS: Record<TaskStatus, string> = {
  todo: 'To Do',
  in_progress: 'In Progress',
  review: 'Review',
  completed: 'Completed',
};

export const TASK_PRIORITIES = ['low', 'medium', 'high', 'urgent'] as const;
export type TaskPriority = (typeof TASK_PRIORITIES)[number];

export const TASK_PRIORITY_LABELS: Record<TaskPriority, string> = {
  low: 'Low',
  medium: 'Medium',
  high: 'High',
  urgent: 'Urgent',
};

/** Priority badge colours (spec §9): urgent danger, high warning, medium primary, low or other secondary. */
export type BadgeTone = 'danger' | 'warning' | 'primary' | 'secondary' | 'success' | 'info';
export function priorityTone(priority: string): BadgeTone {
  switch (priority) {
    case 'urgent':
      return 'danger';
    case 'high':
      return 'warning';
    case 'medium':
      return 'primary';
    default:
      return 'secondary';
  }
}

export const PROJECT_STATUSES = ['planning', 'active', 'on_hold', 'completed', 'archived'] as const;
export type ProjectStatus = (typeof PROJECT_STATUSES)[number];

export const PROJECT_STATUS_LABELS: Record<ProjectStatus, string> = {
  planning: 'Planning',
  active: 'Active',
  on_hold: 'On Hold',
  completed: 'Completed',
  archived: 'Archived',
};

/** The project status filter tiles omit archived (spec §4). */
export const PROJECT_STATUS_TILES = ['active', 'planning', 'on_hold', 'completed'] as const;

/**
 * A team's roles (spec §6, and issue 41's viewer and guest, decision 0031): a viewer reads the whole team and writes
 * nothing (but comments when the team lets viewers comment); a guest sees only the projects they are added to
 * (`project_guests`) and changes only the tasks assigned to them.
 */
export const TEAM_ROLES = ['owner', 'admin', 'member', 'viewer', 'guest'] as const;
export type TeamRole = (typeof TEAM_ROLES)[number];

/** The roles an invitation, a role change or a directory mapping may give (in the form's order). */
export const INVITATION_ROLES = ['member', 'admin', 'viewer', 'guest'] as const;
export type InvitationRole = (typeof INVITATION_ROLES)[number];

export const TEAM_ROLE_LABELS: Record<TeamRole, string> = {
  owner: 'Owner',
  admin: 'Admin',
  member: 'Member',
  viewer: 'Viewer',
  guest: 'Guest',
};

/**
 * How a session began (its audit row, and `sessions.method`): a password, a password and a second factor, OpenID
 * Connect (Google), a directory (LDAP) or SAML. A team that requires single sign-on admits only `saml` sessions.
 */
export const SIGN_IN_METHODS = ['password', 'two_factor', 'oidc', 'ldap', 'saml'] as const;
export type SignInMethod = (typeof SIGN_IN_METHODS)[number];

export const INVITATION_STATUSES = ['pending', 'accepted', 'declined'] as const;
export type InvitationStatus = (typeof INVITATION_STATUSES)[number];

export const SYSTEM_ROLES = ['team_member', 'super_admin'] as const;
export type SystemRole = (typeof SYSTEM_ROLES)[number];

export const NOTIFICATION_TYPES = [
  'task_assigned',
  'task_completed',
  'project_updated',
  'team_invite',
  /** Someone @mentioned you in a comment. */
  'mentioned',
  /** A task you watch got a comment. */
  'task_comment',
  /** A task you watch changed status. */
  'task_status',
  /** A team's webhook kept failing for 24 hours and was marked failing (its owners and admins are told). */
  'webhook_failing',
] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

/** What a one-time emailed link proves or allows (accounts and email). */
export const USER_TOKEN_PURPOSES = ['verify_email', 'reset_password', 'change_email'] as const;
export type UserTokenPurpose = (typeof USER_TOKEN_PURPOSES)[number];

/**
 * EMAIL_VERIFICATION: `required` (the default with a mail transport) asks every account to prove its address by an
 * emailed link (a banner until then; invitations need it); `off` leaves addresses unproven.
 */
export const EMAIL_VERIFICATION_MODES = ['required', 'off'] as const;
export type EmailVerificationMode = (typeof EMAIL_VERIFICATION_MODES)[number];

/** Every kind of mail Crewboard sends. */
export const MAIL_KINDS = [
  'verify_email',
  'reset_password',
  'password_changed',
  'email_changed',
  'change_email',
  'invitation',
  'task_assigned',
  'mentioned',
  'task_comment',
  'task_status',
  'digest',
  'webhook_failing',
  // Issue 40: a request form's confirmation to its requester (with the status link).
  'request_received',
] as const;
export type MailKind = (typeof MAIL_KINDS)[number];

/** The kinds a person turns on or off per channel in Settings → Notifications: every kind of notification. */
export const NOTIFICATION_PREFERENCE_KINDS = NOTIFICATION_TYPES;
export type NotificationPreferenceKind = (typeof NOTIFICATION_PREFERENCE_KINDS)[number];

export const LIMITS = {
  loginPasswordMin: 6,
  signupPasswordMin: 8,
  passwordMax: 128,
  fullNameMin: 2,
  fullNameMax: 100,
  teamNameMin: 2,
  nameMax: 120,
  descriptionMax: 5000,
  emailMax: 254,
  tagMax: 40,
  tagsMax: 20,
  notificationDropdown: 5,
  cardTags: 3,
  teamCardAvatars: 4,
  dashboardList: 5,
  /** Cards per board column at first (a tall screen's worth and more: cost follows what is shown)… */
  boardFirstPage: 20,
  /** …and per 'Show more' (which also loads by itself as the end of the column scrolls into view). */
  boardMorePage: 50,
  toastMs: 4000,
  refetchAfterCreateMs: 1000,
  sidebarBreakpointPx: 1024,
  sidebarNavDelayMs: 150,
} as const;

export const AUTH_REFRESH = {
  tickMs: 30_000,
  thresholdTicks: 3,
  backoffBaseMs: 200,
  budgetMs: 30_000,
  retryableStatuses: [502, 503, 504],
} as const;

export const STORAGE_KEYS = {
  auth: 'auth-storage',
  theme: 'theme-storage',
  sidebar: 'sidebar-storage',
} as const;

export const THEMES = ['light', 'dark', 'system'] as const;
export type Theme = (typeof THEMES)[number];

/** Replace underscores with spaces, as the user menu shows roles (spec §2). */
export function humanizeRole(role: string): string {
  return role.replace(/_/g, ' ');
}

/** The hash parameter that carries the one-time code to the SPA after a provider sign-in. */
export const OIDC_CODE_PARAM = 'oidc_code';

/**
 * The fields of a task whose changes the activity history records (task_activity.field), one row per field
 * changed. 'status' rows are also the status history that cycle-time analytics reads.
 */
export const TASK_ACTIVITY_FIELDS = [
  'title',
  'description',
  'status',
  'priority',
  'assignee',
  'due_date',
  'project',
  'tags',
  // Issue 37 (migration 0014): the start date, and the parent task (its title at the time as the label).
  'start_date',
  'parent',
  // Issue 37 (migration 0015): a dependency added or removed, on both tasks; the value is the other task's id (new: added,
  // old: removed), the label its title at the time.
  'blocked_by',
  'blocking',
  // Issue 38 (migration 0017): a custom field's value; the row's field_id and field_name say which field (its name at
  // the time), the labels say the values as a person reads them (domain custom-fields.ts `fieldValueText`).
  'custom_field',
  // Issue 39 (migration 0019): the estimate (values '90m', '5pt' or both, '90m 5pt'; labels '1h 30m', '5 points'), and a
  // time entry logged (new), changed (both) or deleted (old): the values its minutes, the labels its day (ISO).
  'estimate',
  'time_entry',
  // Issue 40 (migration 0020): a task that came from outside the team: the label says how ('Submitted via <form name>'
  // or 'Submitted by email'), the value is the requester's email (null when none was given). Members only: never public.
  'submitted',
] as const;
export type TaskActivityField = (typeof TASK_ACTIVITY_FIELDS)[number];

/** Limits of the task page (comments, checklist, attachments). */
export const TASK_DETAIL_LIMITS = {
  commentMax: 10_000,
  checklistItemMax: 500,
  checklistItemsMax: 200,
  fileNameMax: 255,
  attachmentsPerTaskMax: 100,
} as const;

/**
 * Sub-tasks (issue 37, decision 0025). A chain of sub-tasks holds at most `maxDepth` tasks counting the top one (the
 * board shows one level; the API allows this many). `orderMax` bounds the ids one reorder of a parent's sub-tasks names.
 */
export const SUBTASK_LIMITS = {
  maxDepth: 5,
  orderMax: 1000,
} as const;

/** What a personal API token may do: `read` (GET and HEAD only) or `write` (everything its owner may do). */
export const API_TOKEN_SCOPES = ['read', 'write'] as const;
export type ApiTokenScope = (typeof API_TOKEN_SCOPES)[number];

/** A personal API token's lifetime in days when created; null: it never expires. */
export const API_TOKEN_EXPIRY_DAYS = [30, 90, 365, null] as const;

/** Personal API tokens start with this, so a token is recognisable (and secret scanners can find leaked ones). */
export const API_TOKEN_PREFIX = 'cb_';

/** The events a team's webhook may subscribe to (issue 26; the names are part of the public interface). */
export const WEBHOOK_EVENT_TYPES = [
  'task.created',
  'task.updated',
  'task.moved',
  'task.deleted',
  'comment.created',
  'project.created',
  'project.updated',
  'project.deleted',
  'member.joined',
  'member.left',
  /** One per import (Trello, CSV, a Crewboard export), with what it created: never one per imported row. */
  'import.completed',
  /** A project's workflow (issue 36): a status added, changed (a new order too: one per moved status) or deleted. */
  'status.created',
  'status.updated',
  'status.deleted',
  /** Dependencies (issue 37): "a task is blocked by another" added or removed. */
  'task.dependency_added',
  'task.dependency_removed',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** The audit actions a team's log can hold (rows with its teamId): what the team page's action filter offers. */
export const TEAM_AUDIT_ACTIONS = [
  'team.role_changed',
  'team.member_added',
  'team.member_removed',
  'team.deleted',
  'invitation.sent',
  'invitation.accepted',
  'invitation.cancelled',
  'project.deleted',
  'team.imported',
  'project.imported',
  'webhook.created',
  'webhook.updated',
  'webhook.deleted',
  'custom_field.created',
  'custom_field.updated',
  'custom_field.deleted',
  // Issue 40 (decision 0028): a project's public link, its request forms and its intake address.
  'project.share_enabled',
  'project.share_disabled',
  'project.share_reset',
  'form.created',
  'form.updated',
  'form.deleted',
  'project.intake_enabled',
  'project.intake_disabled',
  'project.intake_reset',
  // Issue 41 (decision 0031): a team's access rules, a project's guests, a team made, renamed or unlinked by SCIM.
  'team.access_changed',
  'project.guest_added',
  'project.guest_removed',
  'team.scim_provisioned',
  'team.scim_unlinked',
] as const;

/** Security-relevant actions the audit log records (append-only; issue 26). */
export const AUDIT_ACTIONS = [
  'auth.sign_in',
  'auth.sign_in_failed',
  'auth.password_changed',
  'auth.password_reset',
  'auth.email_changed',
  'auth.two_factor_enabled',
  'auth.two_factor_disabled',
  'api_token.created',
  'api_token.revoked',
  ...TEAM_AUDIT_ACTIONS,
  'admin.user_deactivated',
  'admin.user_activated',
  'admin.role_set',
  // Issue 41: the SAML identity provider saved in the admin panel; an account created or renamed by SCIM.
  'admin.sso_updated',
  'admin.user_provisioned',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** Why a version of a note was kept: every few minutes of editing, on request, or as the result of a restore. */
export const NOTE_VERSION_KINDS = ['auto', 'manual', 'restore'] as const;
export type NoteVersionKind = (typeof NOTE_VERSION_KINDS)[number];

/** Custom fields (issue 38, domain custom-fields.ts). */
export const CUSTOM_FIELD_LIMITS = {
  nameMax: 40,
  /** Fields a team may have, archived ones included. */
  perTeamMax: 50,
  optionsMax: 100,
  optionNameMax: 40,
  textMax: 1000,
  urlMax: 2000,
  unitMax: 12,
  decimalsMax: 6,
  /** Field filters in one query (`cf`). */
  filtersMax: 10,
} as const;

/** Recurring tasks (issue 39, decision 0027): how a series makes its next task. */
export const REPEAT_MODES = ['on_completion', 'on_schedule'] as const;
export type RepeatMode = (typeof REPEAT_MODES)[number];
export const REPEAT_MODE_LABELS: Record<RepeatMode, string> = {
  on_completion: 'When completed',
  on_schedule: 'On schedule',
};

export const REPEAT_LIMITS = {
  ruleMax: 200,
  intervalMax: 365,
  countMax: 1000,
  /** Occurrences one catch-up run creates for one series at most (a daily series down for years does not flood). */
  catchUpMax: 60,
  /** `GET /api/tasks/occurrences`: the widest window (days) and the most dates one answer lists. */
  occurrencesWindowDays: 400,
  occurrencesMax: 500,
} as const;

/** How a team estimates tasks (team settings): hours and minutes, or story points. */
export const ESTIMATE_UNITS = ['time', 'points'] as const;
export type EstimateUnit = (typeof ESTIMATE_UNITS)[number];
export const ESTIMATE_UNIT_LABELS: Record<EstimateUnit, string> = { time: 'Hours and minutes', points: 'Story points' };

/** Time tracking (issue 39). */
export const TIME_LIMITS = {
  /** One entry: at least a minute, at most a day. */
  entryMinutesMax: 24 * 60,
  noteMax: 500,
  estimateMinutesMax: 10_000 * 60,
  estimatePointsMax: 1000,
  /** The widest range `GET /api/time-entries` reads at once (days). */
  rangeDaysMax: 366,
} as const;

/**
 * Work from outside the team (issue 40, decision 0028): public board links, request forms, tasks by email. A token of a
 * public link (`/share/<token>`, `/forms/<token>`, `/requests/<token>`, an intake address) has `tokenBytes` random bytes
 * (base64url; 192 bits, above the 128).
 */
export const OUTSIDE_LIMITS = {
  tokenBytes: 24,
  formsPerProject: 20,
  formNameMax: 100,
  formIntroMax: 2_000,
  fieldLabelMax: 100,
  fieldHelpMax: 300,
  /** A form's fields: the five fixed ones and custom fields. */
  formFieldsMax: 20,
  /** A submission's JSON body (the route's bodyLimit). */
  submissionBytes: 64 * 1024,
  /** A received mail as a whole (SMTP SIZE, IMAP fetch); each attachment also keeps MAX_UPLOAD_MB. */
  inboundMessageBytes: 30 * 1024 * 1024,
  /** Attachments taken from one mail (more are dropped, and the history says so). */
  inboundAttachmentsMax: 20,
} as const;

/** The keys a form field may have besides a custom field's id (`fields[].key`). */
export const FORM_FIELD_KEYS = ['title', 'description', 'email', 'priority', 'dueDate'] as const;
export type FormFieldKey = (typeof FORM_FIELD_KEYS)[number];
