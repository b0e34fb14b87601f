import { z } from 'zod';

/** An operation's written name and one-line summary. */
export interface OperationText {
  /** The operationId: a verb and a noun, unique in the document (a generated client's method name). */
  id: string;
  summary: string;
}

/**
 * Every API route's operationId and summary, by `METHOD /path/{param}`. A route may also set `schema.summary` and
 * `schema.operationId` itself (those win). A route missing here still gets a derived id and summary (and works), but
 * tests/integration/openapi.test.ts names it so that it gets written down here.
 */
export const OPERATIONS: Record<string, OperationText> = {
  'GET /api/health': { id: 'getHealth', summary: 'Check that the server and its database answer' },
  'POST /api/auth/signup': { id: 'signUp', summary: 'Create an account' },
  'POST /api/auth/token': {
    id: 'createSession',
    summary: 'Sign in or refresh a session (password, refresh token or two-factor code)',
  },
  'POST /api/auth/logout': { id: 'signOut', summary: 'Sign out (revoke this session)' },
  'GET /api/auth/user': { id: 'getCurrentUser', summary: 'Get the signed-in user' },
  'GET /api/auth/providers': { id: 'listAuthProviders', summary: 'List the sign-in options this server offers' },
  'GET /api/auth/google/start': { id: 'startGoogleSignIn', summary: 'Start Google (OpenID Connect) sign-in' },
  'GET /api/auth/google/callback': { id: 'completeGoogleSignIn', summary: 'Google sign-in callback (redirects to the app)' },
  'POST /api/auth/google/exchange': { id: 'exchangeGoogleSignInCode', summary: 'Exchange a Google sign-in code for a session' },
  'POST /api/auth/google/error': { id: 'openSignInError', summary: 'Read the sealed text of a failed sign-in' },
  'POST /api/auth/confirm-email-change': {
    id: 'confirmEmailChange',
    summary: 'Confirm a new email address from its emailed link',
  },
  'POST /api/auth/forgot-password': { id: 'requestPasswordReset', summary: 'Email a password reset link' },
  'POST /api/auth/reset-password': { id: 'resetPassword', summary: 'Set a new password from a reset link' },
  'POST /api/auth/verify-email': { id: 'verifyEmail', summary: 'Verify an email address from its emailed link' },
  'GET /api/auth/link-status': {
    id: 'getLinkStatus',
    summary: 'Check whether an emailed link (reset, verification, email change) still works, without using it',
  },
  'POST /api/auth/resend-verification': { id: 'resendVerificationEmail', summary: 'Send the verification email again' },
  'GET /api/teams': { id: 'listTeams', summary: 'List your teams' },
  'POST /api/teams': { id: 'createTeam', summary: 'Create a team' },
  'GET /api/teams/{id}': { id: 'getTeam', summary: 'Get a team with its members' },
  'PATCH /api/teams/{id}': { id: 'updateTeam', summary: 'Rename a team or change its description' },
  'DELETE /api/teams/{id}': { id: 'deleteTeam', summary: 'Delete a team' },
  'POST /api/teams/{id}/leave': { id: 'leaveTeam', summary: 'Leave a team' },
  'POST /api/teams/{id}/transfer-ownership': { id: 'transferTeamOwnership', summary: 'Hand a team over to another member' },
  'PATCH /api/teams/{id}/members/{memberId}': { id: 'updateTeamMember', summary: "Change a member's role" },
  'DELETE /api/teams/{id}/members/{memberId}': { id: 'removeTeamMember', summary: 'Remove a member from a team' },
  'GET /api/teams/{id}/invitations': { id: 'listTeamInvitations', summary: "List a team's pending invitations" },
  'POST /api/teams/{id}/invitations': { id: 'inviteToTeam', summary: 'Invite someone to a team by email' },
  'GET /api/invitations': { id: 'listMyInvitations', summary: 'List the invitations addressed to you' },
  'DELETE /api/invitations/{id}': { id: 'cancelInvitation', summary: 'Cancel an invitation' },
  'POST /api/invitations/{id}/respond': { id: 'respondToInvitation', summary: 'Accept or decline an invitation' },
  'GET /api/tasks': { id: 'listTasks', summary: 'List tasks with filters, sorting and pages' },
  'POST /api/tasks': { id: 'createTask', summary: 'Create a task' },
  'GET /api/tasks/board': { id: 'getTaskBoard', summary: 'Get the kanban board: tasks by status column' },
  'GET /api/tasks/occurrences': {
    id: 'listTaskOccurrences',
    summary: "List the future dates of repeating tasks in a range (the calendar's, not created yet)",
  },
  'GET /api/tasks/{id}': { id: 'getTask', summary: 'Get a task' },
  'PATCH /api/tasks/{id}': { id: 'updateTask', summary: 'Update a task' },
  'DELETE /api/tasks/{id}': { id: 'deleteTask', summary: 'Delete a task' },
  'PATCH /api/tasks/{id}/status': { id: 'moveTask', summary: 'Move a task to another status column' },
  'GET /api/tasks/{id}/subtasks': { id: 'listSubtasks', summary: "List a task's sub-tasks in order" },
  'PUT /api/tasks/{id}/subtasks/order': { id: 'reorderSubtasks', summary: "Reorder a task's sub-tasks" },
  'GET /api/tasks/{id}/dependencies': {
    id: 'listTaskDependencies',
    summary: 'List the tasks blocking a task and the tasks it blocks (hidden refs for tasks you cannot see)',
  },
  'POST /api/tasks/{id}/dependencies': { id: 'addTaskDependency', summary: 'Make a task blocked by another task of its team' },
  'DELETE /api/tasks/{id}/dependencies/{otherId}': { id: 'removeTaskDependency', summary: 'Remove a blocker from a task' },
  'GET /api/tasks/{id}/time-entries': { id: 'listTaskTimeEntries', summary: "List a task's time entries, newest day first" },
  'POST /api/tasks/{id}/time-entries': { id: 'logTime', summary: 'Log time on a task (a day, minutes, a note)' },
  'GET /api/time-entries': {
    id: 'listTimeEntries',
    summary: "List time entries in a date range: yours, or a team member's (or every member's) for its owners and admins",
  },
  'PATCH /api/time-entries/{id}': { id: 'updateTimeEntry', summary: "Change a time entry's day, minutes or note" },
  'DELETE /api/time-entries/{id}': { id: 'deleteTimeEntry', summary: 'Delete a time entry' },
  'GET /api/me/timer': { id: 'getTimer', summary: 'Get your running timer' },
  'POST /api/me/timer': { id: 'startTimer', summary: 'Start a timer on a task (stopping and logging the one running)' },
  'DELETE /api/me/timer': { id: 'stopTimer', summary: 'Stop your timer and log its whole minutes' },
  'GET /api/tasks/{id}/checklist': { id: 'listChecklistItems', summary: "List a task's checklist" },
  'POST /api/tasks/{id}/checklist': { id: 'addChecklistItem', summary: 'Add a checklist item' },
  'PUT /api/tasks/{id}/checklist/order': { id: 'reorderChecklist', summary: "Reorder a task's checklist" },
  'PATCH /api/tasks/{id}/checklist/{itemId}': { id: 'updateChecklistItem', summary: 'Edit or tick a checklist item' },
  'DELETE /api/tasks/{id}/checklist/{itemId}': { id: 'deleteChecklistItem', summary: 'Delete a checklist item' },
  'GET /api/tasks/{id}/activity': { id: 'listTaskActivity', summary: "List a task's history" },
  'GET /api/tasks/{id}/comments': { id: 'listTaskComments', summary: "List a task's comments" },
  'POST /api/tasks/{id}/comments': { id: 'addTaskComment', summary: 'Comment on a task' },
  'PATCH /api/tasks/{id}/comments/{itemId}': { id: 'editTaskComment', summary: 'Edit a comment' },
  'DELETE /api/tasks/{id}/comments/{itemId}': { id: 'deleteTaskComment', summary: 'Delete a comment' },
  'GET /api/tasks/{id}/mentionable': { id: 'listMentionableUsers', summary: 'List the people who can be mentioned on a task' },
  'GET /api/tasks/{id}/watch': { id: 'getTaskWatch', summary: 'Whether you watch a task' },
  'PUT /api/tasks/{id}/watch': { id: 'setTaskWatch', summary: 'Watch or unwatch a task' },
  'GET /api/tasks/{id}/attachments': { id: 'listTaskAttachments', summary: "List a task's attachments" },
  'POST /api/tasks/{id}/attachments': { id: 'uploadTaskAttachment', summary: 'Attach a file to a task' },
  'DELETE /api/tasks/{id}/attachments/{itemId}': { id: 'deleteTaskAttachment', summary: 'Delete an attachment' },
  'GET /api/files/{id}': { id: 'downloadFile', summary: 'Download an attachment through its signed link' },
  'GET /api/projects': { id: 'listProjects', summary: 'List projects' },
  'POST /api/projects': { id: 'createProject', summary: 'Create a project' },
  'GET /api/projects/{id}': { id: 'getProject', summary: 'Get a project' },
  'PATCH /api/projects/{id}': { id: 'updateProject', summary: 'Update a project' },
  'DELETE /api/projects/{id}': { id: 'deleteProject', summary: 'Delete a project and its tasks' },
  'GET /api/projects/{id}/statuses': { id: 'listProjectStatuses', summary: "List a project's workflow: its statuses in order" },
  'POST /api/projects/{id}/statuses': { id: 'createProjectStatus', summary: "Add a status to a project's workflow" },
  'PUT /api/projects/{id}/statuses/order': { id: 'reorderProjectStatuses', summary: "Reorder a project's statuses" },
  'PATCH /api/statuses/{id}': {
    id: 'updateProjectStatus',
    summary: 'Rename a status or change its category, colour or WIP limit (its key stays)',
  },
  'DELETE /api/statuses/{id}': {
    id: 'deleteProjectStatus',
    summary: 'Delete a status, moving its tasks to another one (`moveTo`) when it has any',
  },
  'GET /api/dashboard': { id: 'getDashboard', summary: "Get the dashboard's figures" },
  'GET /api/analytics': { id: 'getAnalytics', summary: 'Get analytics for a team or project' },
  'GET /api/analytics/cumulative-flow': {
    id: 'getCumulativeFlow',
    summary: "Get a project's tasks per status for each day of a period",
  },
  'GET /api/analytics/time': {
    id: 'getTimeAnalytics',
    summary: 'Get the time logged per week by person and project, and estimate vs actual of completed tasks',
  },
  'GET /api/timeline': {
    id: 'getTimeline',
    summary: 'Get the timeline: dated tasks in a window, their dependencies, and the unscheduled tasks',
  },
  'GET /api/search': { id: 'search', summary: 'Search everything you may see' },
  'GET /api/notifications': { id: 'listNotifications', summary: 'List your notifications' },
  'PATCH /api/notifications/{id}/read': { id: 'markNotificationRead', summary: 'Mark a notification read' },
  'POST /api/notifications/read-all': { id: 'markAllNotificationsRead', summary: 'Mark every notification read' },
  'GET /api/events': { id: 'streamEvents', summary: 'Stream the changes you may see (server-sent events)' },
  'GET /api/admin/overview': { id: 'getAdminOverview', summary: "Get the admin panel's figures" },
  'GET /api/admin/users': { id: 'listUsers', summary: 'List every user (admin)' },
  'PATCH /api/admin/users/{id}': { id: 'updateUser', summary: 'Activate or deactivate a user (admin)' },
  'GET /api/admin/audit': { id: 'listAuditLog', summary: 'Read the whole audit log (admin)' },
  'GET /api/admin/audit.csv': { id: 'exportAuditLogCsv', summary: 'Export the whole audit log as CSV (admin)' },
  'GET /api/teams/{id}/audit': { id: 'listTeamAuditLog', summary: "Read a team's audit log" },
  'GET /api/teams/{id}/audit.csv': { id: 'exportTeamAuditLogCsv', summary: "Export a team's audit log as CSV" },
  'GET /api/me/sessions': { id: 'listSessions', summary: 'List your signed-in sessions' },
  'DELETE /api/me/sessions/{id}': { id: 'revokeSession', summary: 'Sign out one session' },
  'POST /api/me/sessions/revoke-others': { id: 'revokeOtherSessions', summary: 'Sign out every other session' },
  'GET /api/me/2fa': { id: 'getTwoFactorStatus', summary: 'Whether two-factor authentication is on' },
  'POST /api/me/2fa/setup': { id: 'setUpTwoFactor', summary: 'Start two-factor setup (a new secret and QR code)' },
  'POST /api/me/2fa/enable': { id: 'enableTwoFactor', summary: 'Turn two-factor authentication on with a first code' },
  'POST /api/me/2fa/recovery-codes': { id: 'regenerateRecoveryCodes', summary: 'Make new recovery codes' },
  'POST /api/me/2fa/disable': { id: 'disableTwoFactor', summary: 'Turn two-factor authentication off' },
  'GET /api/me/profile': { id: 'getProfile', summary: 'Get your profile' },
  'PATCH /api/me/profile': { id: 'updateProfile', summary: 'Update your name or time zone' },
  'POST /api/me/email': { id: 'requestEmailChange', summary: 'Change your email address (a link goes to the new one)' },
  'POST /api/me/password': { id: 'changePassword', summary: 'Change your password' },
  'POST /api/me/delete': { id: 'deleteAccount', summary: 'Delete your account' },
  'GET /api/me/notification-preferences': { id: 'getNotificationPreferences', summary: 'Get your notification choices' },
  'PUT /api/me/notification-preferences': { id: 'setNotificationPreferences', summary: 'Set your notification choices' },
  'POST /api/me/avatar': { id: 'uploadAvatar', summary: 'Upload your profile picture' },
  'DELETE /api/me/avatar': { id: 'deleteAvatar', summary: 'Remove your profile picture' },
  'GET /api/avatars/{userId}/{file}': { id: 'getAvatar', summary: 'Get a profile picture' },
  'GET /api/me/calendar-feed': { id: 'getCalendarFeed', summary: 'Whether you have a calendar feed link' },
  'POST /api/me/calendar-feed': { id: 'createCalendarFeed', summary: 'Make a new calendar feed link (the old one stops)' },
  'DELETE /api/me/calendar-feed': { id: 'deleteCalendarFeed', summary: 'Turn the calendar feed link off' },
  'GET /api/calendar/feeds/{token}/crewboard.ics': {
    id: 'getCalendarFeedIcs',
    summary: 'Get the iCalendar feed of a secret link',
  },
  'GET /api/views': { id: 'listSavedViews', summary: 'List your saved views' },
  'POST /api/views': { id: 'createSavedView', summary: 'Save a view' },
  'PATCH /api/views/{id}': { id: 'updateSavedView', summary: 'Rename or change a saved view' },
  'DELETE /api/views/{id}': { id: 'deleteSavedView', summary: 'Delete a saved view' },
  'GET /api/me/api-tokens': { id: 'listApiTokens', summary: 'List your API tokens' },
  'POST /api/me/api-tokens': { id: 'createApiToken', summary: 'Create an API token (its secret is in this answer only)' },
  'DELETE /api/me/api-tokens/{id}': { id: 'revokeApiToken', summary: 'Revoke an API token' },
  'GET /api/teams/{id}/webhooks': { id: 'listWebhooks', summary: "List a team's webhooks" },
  'POST /api/teams/{id}/webhooks': { id: 'createWebhook', summary: 'Add a webhook (its secret is in this answer only)' },
  'PATCH /api/teams/{id}/webhooks/{webhookId}': { id: 'updateWebhook', summary: "Change a webhook's URL, events or state" },
  'DELETE /api/teams/{id}/webhooks/{webhookId}': { id: 'deleteWebhook', summary: 'Delete a webhook' },
  'GET /api/teams/{id}/webhooks/{webhookId}/deliveries': { id: 'listWebhookDeliveries', summary: "List a webhook's deliveries" },
  'POST /api/teams/{id}/webhooks/{webhookId}/deliveries/{deliveryId}/redeliver': {
    id: 'redeliverWebhookDelivery',
    summary: 'Send a delivery again',
  },
  'POST /api/teams/{id}/webhooks/{webhookId}/test': { id: 'sendWebhookTestEvent', summary: 'Send a test event' },
  'GET /api/teams/{id}/export': { id: 'exportTeam', summary: 'Export a team as JSON' },
  'GET /api/teams/{id}/export.csv': { id: 'exportTeamTasksCsv', summary: "Export a team's tasks as CSV" },
  'POST /api/teams/{id}/import/trello': { id: 'importTrelloBoard', summary: 'Import a Trello board into a new project' },
  'POST /api/teams/{id}/import/csv': { id: 'importTasksCsv', summary: 'Import tasks from CSV' },
  'POST /api/teams/import': { id: 'importTeam', summary: 'Import a Crewboard export as a new team' },
  'GET /api/fields': { id: 'listMyCustomFields', summary: 'List the custom fields of every team you are in' },
  'GET /api/teams/{id}/fields': { id: 'listTeamCustomFields', summary: "List a team's custom fields in order" },
  'POST /api/teams/{id}/fields': { id: 'createCustomField', summary: 'Add a custom field to a team' },
  'PATCH /api/fields/{id}': {
    id: 'updateCustomField',
    summary: 'Change a custom field: rename, options, projects, card display, archive or position',
  },
  'DELETE /api/fields/{id}': { id: 'deleteCustomField', summary: 'Delete a custom field and its values' },
  'GET /api/fields/{id}/usage': {
    id: 'getCustomFieldUsage',
    summary: 'Count the tasks with a value for a custom field, and per option',
  },
  'GET /api/notes': { id: 'listNotes', summary: 'List notes' },
  'POST /api/notes': { id: 'createNote', summary: 'Create a note' },
  'GET /api/notes/{id}': { id: 'getNote', summary: 'Get a note' },
  'PATCH /api/notes/{id}': { id: 'updateNote', summary: 'Rename or move a note' },
  'DELETE /api/notes/{id}': { id: 'deleteNote', summary: 'Delete a note' },
  'POST /api/notes/{id}/socket-ticket': {
    id: 'createNoteSocketTicket',
    summary: "Get a ticket for a note's live editing socket",
  },
  'GET /api/notes/{id}/versions': { id: 'listNoteVersions', summary: "List a note's saved versions" },
  'POST /api/notes/{id}/versions': { id: 'saveNoteVersion', summary: 'Save a version of a note' },
  'GET /api/notes/{id}/versions/{versionId}': { id: 'getNoteVersion', summary: 'Get one version of a note' },
  'POST /api/notes/{id}/versions/{versionId}/restore': { id: 'restoreNoteVersion', summary: 'Restore a note to a saved version' },
  'POST /api/notes/{id}/images': { id: 'uploadNoteImage', summary: 'Upload an image into a note' },
  'GET /api/notes/{id}/images/{file}': { id: 'getNoteImage', summary: 'Get an image of a note through its signed URL' },
  'GET /api/projects/{id}/forms': { id: 'listProjectForms', summary: "List a project's request forms" },
  'POST /api/projects/{id}/forms': { id: 'createProjectForm', summary: 'Create a request form for a project' },
  'PATCH /api/forms/{id}': { id: 'updateForm', summary: 'Change a request form, or close it' },
  'DELETE /api/forms/{id}': { id: 'deleteForm', summary: 'Delete a request form' },
  'POST /api/forms/{id}/reset': {
    id: 'resetFormLink',
    summary: 'Make a new link for a request form (the old one stops at once)',
  },
  'GET /api/public-forms/{token}': { id: 'getPublicForm', summary: "Read a request form's definition (public)" },
  'POST /api/public-forms/{token}': { id: 'submitPublicForm', summary: 'Submit a request form (public): a new task' },
  'GET /api/requests/{token}': { id: 'getRequestStatus', summary: "Read a submitted request's status (public)" },
  'GET /api/projects/{id}/intake': { id: 'getProjectIntake', summary: "Get a project's intake address (tasks by email)" },
  'POST /api/projects/{id}/intake': { id: 'setProjectIntake', summary: "Turn a project's intake address on or off" },
  'POST /api/projects/{id}/intake/reset': {
    id: 'resetProjectIntake',
    summary: 'Make a new intake address (the old one stops at once)',
  },
  'GET /api/projects/{id}/share': { id: 'getProjectShare', summary: "Get a project's public board link and its options" },
  'PUT /api/projects/{id}/share': {
    id: 'setProjectShare',
    summary: "Turn a project's public board link on or off, set its options",
  },
  'POST /api/projects/{id}/share/reset': { id: 'resetProjectShare', summary: 'Make a new public board link (the old one stops)' },
  'GET /api/share/{token}': { id: 'getSharedBoard', summary: 'Read a shared board (public, read-only)' },
  'GET /api/share/{token}/events': {
    id: 'streamSharedBoard',
    summary: 'Event stream of a shared board: `changed` when it changed',
  },
};

/** Descriptions of the document's tags (a tag not here gets a plain one). */
export const TAGS: Record<string, string> = {
  system: 'Health of the server.',
  auth: 'Sign-up, sign-in, sessions, emailed links and Google (OpenID Connect) sign-in.',
  teams: 'Teams, their members and roles, and their invitations.',
  invitations: 'Invitations addressed to you.',
  tasks: 'Tasks, the board, checklists, comments, history and watching.',
  projects: 'Projects of a team.',
  workflows:
    "A project's workflow: its ordered statuses, each with a stable `key` (what a task's `status` holds), a category, a colour and an optional WIP limit.",
  fields:
    "A team's custom fields: their definitions (type, options, projects, card display), defined by its owner and admins. A task's values are its `fields`.",
  dashboard: "The dashboard's figures.",
  analytics: 'Analytics of a team or project over time.',
  search: 'Search over everything the caller may see.',
  time: 'Time tracking: time entries on tasks, and your running timer (one a person).',
  timeline: 'The timeline: dated tasks overlapping a window, the dependencies among them, and the unscheduled tasks.',
  notifications: 'Your notifications.',
  realtime: 'The event stream of changes (server-sent events).',
  admin: 'The admin panel (super admins).',
  audit: 'The append-only audit log of security-relevant actions.',
  security: 'Your sessions and two-factor authentication.',
  me: 'Your account: profile, email, password, picture, notification choices.',
  calendar: 'The calendar feed (iCalendar) of your due dates.',
  views: 'Saved views of the task list.',
  attachments: 'Files attached to tasks.',
  'api-tokens': 'Personal API tokens (`Authorization: Bearer cb_…`).',
  webhooks:
    'Webhooks of a team: signed (Standard Webhooks), retried, with a delivery log. Each event’s body is a named schema (`WebhookEvent…` under components), listed as the callbacks of `createWebhook`.',
  transfer: 'Export and import: JSON and CSV exports, Trello and CSV imports.',
  forms:
    "A project's request forms: managed by its team's owner and admins; a form's definition, its submissions and a request's status link are public to anyone with the token (`noindex`, rate-limited).",
  intake:
    "A project's intake address (`<project-slug>+<token>@<INBOUND_MAIL_DOMAIN>`): mail to it becomes a task. Managed by the team's owner and admins.",
  notes:
    'Collaborative notes, their versions and images. Live editing runs over a WebSocket, `GET /api/notes/{id}/socket?ticket=…` ' +
    '(a ticket from createNoteSocketTicket), which OpenAPI 3.0 cannot describe.',
  sharing:
    "A project's public board link: managed by its team's owner and admins; the board and its event stream are public to anyone with the token (`noindex`, rate-limited).",
};

const bytes = (description: string, type: string) => ({
  200: { description, content: { [type]: { schema: z.string().meta({ format: 'binary' }) } } },
});

/**
 * Answers no route schema can describe (bytes, event streams), for the document only. Downloads named by their
 * file type (`….csv`, `….ics`) are described by the transform without an entry here.
 */
export const DOCUMENT_ONLY_RESPONSES: Record<string, Record<string, unknown>> = {
  'GET /api/files/{id}': bytes('The file, with its own content type.', 'application/octet-stream'),
  'GET /api/avatars/{userId}/{file}': bytes('The picture (PNG, JPEG, GIF or WebP).', 'image/*'),
  'GET /api/notes/{id}/images/{file}': bytes('The image (PNG, JPEG, GIF or WebP).', 'image/*'),
  'GET /api/events': {
    200: {
      description: 'A stream of `event:`/`data:` lines, one per change the caller may see, until the client closes it.',
      content: { 'text/event-stream': { schema: z.string() } },
    },
  },
  'GET /api/share/{token}/events': {
    200: {
      description:
        'A stream that says `event: changed` (data `changed`, nothing more) when the shared board changed; it ends when the link is turned off or reset.',
      content: { 'text/event-stream': { schema: z.string() } },
    },
  },
};
