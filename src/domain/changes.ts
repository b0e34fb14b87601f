/**
 * What happened: one typed record per change (issue 34). A service states its change once, through the server's
 * change recorder, in the transaction of the change; audit, webhooks, mail, the activity history and realtime are
 * subscribers. Which of them react to each kind is one table (src/server/subscribers/reactions.ts): a new kind without
 * its row there, or a subscriber without the handler its row names, fails the typecheck.
 */
import type { InvitationRole, SignInMethod, SystemRole, TeamRole, UserTokenPurpose } from './constants';
import type { CustomFieldDto } from './schemas/custom-field';
import type { TaskDto } from './schemas/task';
import type { FormDto } from './schemas/outside';
import type { CommentDto } from './schemas/task-detail';
import type { TimeEntryDto, TimerDto } from './schemas/time';
import type { StatusDto } from './schemas/workflow';
import type { ImportCountsAll, ImportSource } from './transfer/import-plan';

/**
 * Who made a change: a signed-in person, a person through one of their API tokens, the system itself, or someone not
 * signed in (a sign-up, a failed sign-in: `email` is the address given, never proven).
 */
export type ChangeActor =
  | { kind: 'user'; userId: string; email: string | null; ip: string | null }
  | { kind: 'token'; userId: string; email: string | null; ip: string | null; tokenId: string }
  | { kind: 'system'; via: 'cli' | 'cli_socket' | 'compaction' | 'schedule' }
  /** An identity provider through a SCIM token (issue 41): acts as the super admin who created the token. */
  | { kind: 'scim'; userId: string; email: string | null; ip: string | null; scimTokenId: string }
  | { kind: 'anonymous'; email: string | null; ip: string | null };

/** An actor that is a person (by session or by token). */
export type PersonActor = Extract<ChangeActor, { userId: string }>;

/** The person behind an actor, or null for the system. */
export const actorUserId = (actor: ChangeActor): string | null => ('userId' in actor ? actor.userId : null);

/** A signed-in person acting by session (tests, services that act on someone's behalf). */
export const userActor = (userId: string, email: string | null = null, ip: string | null = null): PersonActor => ({
  kind: 'user',
  userId,
  email,
  ip,
});

/** Someone not signed in, from `ip`, giving `email` (or none). */
export const anonymousActor = (email: string | null = null, ip: string | null = null): ChangeActor => ({
  kind: 'anonymous',
  email,
  ip,
});

/** How a sign-in proved who it is (the audit row's `details.method`, and `sessions.method`). */
export type { SignInMethod };

/** What revoking an account's standing credentials took (on the audit row of the change that caused it). */
export interface CredentialsRevoked {
  apiTokensRevoked: number;
  calendarFeedRevoked: boolean;
}

/** A member as the team-level changes name them. */
interface MemberRef {
  memberId: string;
  userId: string;
  email: string;
}

/** The part of a task's page that changed without the task row itself changing. */
export type TaskDetailPart = 'comments' | 'attachments' | 'checklist' | 'watchers' | 'subtasks' | 'dependencies';

type Of<K extends string, Fields> = { kind: K } & Fields;

/** A time entry's task, as its changes name it. */
export interface TimeTaskRef {
  id: string;
  projectId: string;
  title: string;
}

/** One end of a dependency, as the change names it (its title at the time: the history's label). */
export interface DependencySide {
  id: string;
  title: string;
  projectId: string;
  teamId: string;
}

export type Change =
  // ---- teams ----
  | Of<'team.created', { teamId: string }>
  | Of<'team.updated', { teamId: string }>
  | Of<'team.deleted', { teamId: string; teamName: string }>
  | Of<'team.ownership_transferred', { teamId: string; newOwner: MemberRef & { from: TeamRole }; oldOwner: MemberRef }>
  | Of<'member.role_changed', { teamId: string; member: MemberRef; from: TeamRole; to: InvitationRole }>
  /** Removed by an owner or admin, or left (`left`). Recorded before the row goes (the webhook reads the member). */
  | Of<'member.removed', { teamId: string; member: MemberRef; role: TeamRole; left: boolean }>
  /** Joined by accepting an invitation. */
  | Of<
      'member.joined',
      { teamId: string; member: MemberRef; invitation: { id: string; email: string; role: InvitationRole; invitedBy: string } }
    >
  | Of<'invitation.sent', { teamId: string; invitationId: string; email: string; role: InvitationRole }>
  | Of<'invitation.cancelled', { teamId: string; invitationId: string; email: string; role: InvitationRole }>
  | Of<'invitation.declined', { teamId: string; invitationId: string; email: string }>
  /** The team's access rules set (issue 41): viewers' comments, single sign-on required. */
  | Of<'team.access_changed', { teamId: string; viewersMayComment: boolean; requiresSso: boolean }>
  // ---- projects ----
  | Of<'project.created', { teamId: string; projectId: string }>
  /** A guest of the team given a project (issue 41), or taken off it. */
  | Of<'project.guest_added', { teamId: string; projectId: string; guest: { userId: string; email: string } }>
  | Of<'project.guest_removed', { teamId: string; projectId: string; guest: { userId: string; email: string } }>
  /** `previousTeamId` differs from `teamId` when the project moved to another team. */
  | Of<'project.updated', { teamId: string; previousTeamId: string; projectId: string }>
  /** Recorded before the row goes (the webhook reads the project). */
  | Of<'project.deleted', { teamId: string; projectId: string; name: string }>
  // ---- a project's workflow (issue 36, decision 0024) ----
  | Of<'status.created', { teamId: string; projectId: string; status: StatusDto }>
  /** Renamed, recategorised, recoloured or given another WIP limit (its tasks recategorised with it). */
  | Of<'status.updated', { teamId: string; projectId: string; before: StatusDto; after: StatusDto }>
  /**
   * Taken out of the workflow (its row stays, keeping its key). Its tasks, if it had any, moved to `movedTo` in the same
   * transaction (`status` is as it was, with its last position).
   */
  | Of<
      'status.deleted',
      { teamId: string; projectId: string; status: StatusDto; movedTo: StatusDto | null; movedTaskIds: readonly string[] }
    >
  /** The workflow's order changed: the statuses whose position did, at their new one. */
  | Of<'status.reordered', { teamId: string; projectId: string; moved: readonly StatusDto[] }>
  // ---- a team's custom fields (issue 38, decision 0026) ----
  | Of<'field.created', { teamId: string; field: CustomFieldDto }>
  /**
   * Renamed, re-optioned, moved, archived… `clearedTasks`: how many tasks lost a value because an option they had was
   * removed (in the same transaction: one change, not a `task.updated` per task).
   */
  | Of<'field.updated', { teamId: string; before: CustomFieldDto; after: CustomFieldDto; clearedTasks: number }>
  /** Deleted with its values (`clearedTasks`: how many tasks had one); `field` as it was. */
  | Of<'field.deleted', { teamId: string; field: CustomFieldDto; clearedTasks: number }>
  // ---- tasks ----
  /** `teamHasWebhooks`: false when the service read that the team has no active webhook (saves the webhook statement). */
  /**
   * `submitted`: the task came from outside the team (issue 40): through a request form (`name` the form's) or by mail
   * to the project's intake address (`name` null); `email` the requester's when given. The history records it.
   */
  | Of<
      'task.created',
      {
        teamId: string;
        task: TaskDto;
        teamHasWebhooks?: boolean;
        submitted?: { via: 'form' | 'email'; name: string | null; email: string | null };
      }
    >
  /**
   * `keys`: the fields the edit named. `teamId` differs from `previousTeamId` when the task moved into a project of
   * another team.
   */
  | Of<'task.updated', { teamId: string; previousTeamId: string; before: TaskDto; after: TaskDto; keys: readonly string[] }>
  | Of<'task.deleted', { teamId: string; task: TaskDto }>
  | Of<
      'comment.created',
      {
        teamId: string;
        task: { id: string; projectId: string; title: string };
        comment: CommentDto;
        mentionedIds: string[];
        /** Who watches the task after the comment (the author and the newly mentioned included). */
        watcherIds: string[];
      }
    >
  /**
   * "`task` is blocked by `blocker`" added or removed (issue 37): the history of both tasks, webhooks, and the pages and
   * cards of both. Each side carries its own team: one added is always within a team, but a project moved to another team
   * since takes its side there.
   */
  | Of<'task.dependency_added', { teamId: string; task: DependencySide; blocker: DependencySide }>
  | Of<'task.dependency_removed', { teamId: string; task: DependencySide; blocker: DependencySide }>
  /** Comments edited or deleted, files, the checklist or the watchers changed: open task pages and cards refresh. */
  | Of<'task.detail_changed', { teamId: string; taskId: string; projectId: string; part: TaskDetailPart }>
  // ---- time tracking (issue 39, decision 0027) ----
  /** `task`: the entry's task as the history and realtime name it. */
  | Of<'time_entry.created', { teamId: string; task: TimeTaskRef; entry: TimeEntryDto }>
  | Of<'time_entry.updated', { teamId: string; task: TimeTaskRef; before: TimeEntryDto; after: TimeEntryDto }>
  | Of<'time_entry.deleted', { teamId: string; task: TimeTaskRef; entry: TimeEntryDto }>
  /** A person's timer started, stopped or moved to another task: their other devices follow (null: none runs). */
  | Of<'timer.changed', { userId: string; timer: TimerDto | null }>
  // ---- work from outside the team (issue 40, decision 0028) ----
  /** A project's public link turned on or off, reset (a new token), or its options changed ('updated'). */
  | Of<
      'share.changed',
      {
        teamId: string;
        projectId: string;
        projectName: string;
        action: 'enabled' | 'disabled' | 'reset' | 'updated';
        showPeople: boolean;
        showDescriptions: boolean;
      }
    >
  | Of<'form.created', { teamId: string; projectId: string; form: FormDto }>
  /** `reset`: the form's link was replaced (the old one stops at once). */
  | Of<'form.updated', { teamId: string; projectId: string; before: FormDto; after: FormDto; reset: boolean }>
  | Of<'form.deleted', { teamId: string; projectId: string; form: FormDto }>
  /**
   * A form's requester who gave an email is told it was received (issue 40): the confirmation mail, with the link to
   * follow the request (`statusUrl`, its token made in the same transaction). Only the mail reacts.
   */
  | Of<
      'request.received',
      {
        teamId: string;
        task: { id: string; title: string };
        projectName: string;
        formName: string;
        email: string;
        statusUrl: string;
      }
    >
  /** A project's intake address turned on or off, or reset (a new token). */
  | Of<'intake.changed', { teamId: string; projectId: string; projectName: string; action: 'enabled' | 'disabled' | 'reset' }>
  // ---- imports ----
  /**
   * One import, whatever it read (a Trello board, a CSV file, a Crewboard export): one change, never one per row. `project`
   * is where the tasks went (Trello, CSV); null for a new team (a Crewboard export).
   */
  | Of<
      'import.completed',
      {
        source: ImportSource;
        team: { id: string; name: string; created: boolean };
        project: { id: string; name: string; created: boolean } | null;
        counts: ImportCountsAll;
        warnings: number;
      }
    >
  // ---- a team's webhooks (their configuration; deliveries are the webhook subscriber's) ----
  | Of<'webhook.created', { teamId: string; webhookId: string; url: string; events: readonly string[] }>
  /** `changes`: each changed field, from and to. */
  | Of<
      'webhook.updated',
      { teamId: string; webhookId: string; url: string; changes: Record<string, { from: unknown; to: unknown }> }
    >
  | Of<'webhook.deleted', { teamId: string; webhookId: string; url: string; events: readonly string[] }>
  // ---- personal API tokens ----
  | Of<'api_token.created', { userId: string; tokenId: string; name: string; scope: string; expiresAt: string | null }>
  /** Revoked by hand, or with the account's other credentials (`reason`); its event streams close. */
  | Of<'api_token.revoked', { userId: string; tokenId: string; name: string; reason: string | null }>
  // ---- SCIM provisioning (issue 41): the tokens, and what an identity provider did (actor kind 'scim') ----
  | Of<'scim_token.created', { tokenId: string; name: string; prefix: string }>
  | Of<'scim_token.revoked', { tokenId: string; name: string }>
  /**
   * A person created or changed by SCIM (`fields`: the attributes that changed; `previousEmail` when userName changed).
   * Deactivation and reactivation are account.deactivated / account.activated.
   */
  | Of<
      'scim.user_provisioned',
      { userId: string; email: string; previousEmail: string | null; created: boolean; fields: readonly string[] }
    >
  /** A team created or changed as a SCIM group (`fields`: displayName, externalId). */
  | Of<'scim.group_provisioned', { teamId: string; teamName: string; created: boolean; fields: readonly string[] }>
  /** A SCIM group deleted: the team stays, unlinked, without the members SCIM gave it (`removedMembers`). */
  | Of<'scim.group_unlinked', { teamId: string; teamName: string; removedMembers: number }>
  /** A person made a member of a team by SCIM (removal is member.removed). */
  | Of<'scim.member_added', { teamId: string; member: MemberRef }>
  // ---- directory sign-in (issue 41): LDAP_GROUP_MAP at a sign-in; a role change or removal is member.role_changed/removed ----
  /** A person made a member of a mapped team because the directory has them in `group`. */
  | Of<'ldap.member_added', { teamId: string; member: MemberRef; role: InvitationRole; group: string }>
  /** The SAML identity provider set in the admin panel (issue 41); no audit row: the audit actions are fixed by migration 0021. */
  | Of<
      'sso.settings_updated',
      { enabled: boolean; idpInitiated: boolean; source: 'metadata_url' | 'metadata_xml' | 'fields' | 'none' }
    >
  // ---- accounts ----
  | Of<'account.two_factor_enabled', { userId: string; email: string }>
  | Of<'account.two_factor_disabled', { userId: string; email: string; proof: 'password' | 'code' }>
  /** A super admin deactivated or reactivated an account (deactivation ended every session with it). */
  | Of<'account.deactivated', { userId: string; email: string }>
  | Of<'account.activated', { userId: string; email: string }>
  /** The system role set by the CLI (`via` says which way it came). */
  | Of<'account.role_set', { userId: string; email: string; role: SystemRole; via: 'cli' | 'cli_socket' }>
  /** A sign-up, or a first Google sign-in (`via`). */
  | Of<'account.created', { userId: string; email: string; via: 'password' | 'oidc' | 'ldap' | 'saml' }>
  | Of<'account.signed_in', { userId: string; email: string; method: SignInMethod; sessionId: string }>
  /** By someone not signed in: `email` is the address tried, `userId` its account if it has one. */
  | Of<'account.sign_in_failed', { userId: string | null; email: string; method: SignInMethod; reason: string }>
  /** Sessions ended (null: every session of the account): their event streams close. */
  | Of<'account.sessions_revoked', { userId: string; sessionIds: readonly string[] | null }>
  /**
   * A one-time link made for the account (a new address to verify, a password to reset, an address to change to), to be
   * mailed to `to`; `token` goes into the link and is never stored.
   */
  | Of<'account.link_issued', { userId: string; purpose: UserTokenPurpose; to: string; fullName: string; token: string }>
  /** By the signed-in owner: other sessions signed out; API tokens and the calendar feed revoked when they asked. */
  | Of<'account.password_changed', { userId: string; email: string; otherSessionsSignedOut: number; revoked: CredentialsRevoked }>
  /** Through an emailed link: every session signed out, every API token and the calendar feed revoked. */
  | Of<'account.password_reset', { userId: string; email: string; revoked: CredentialsRevoked }>
  /** Through the link sent to the new address (the owner, named by the address they leave). */
  | Of<'account.email_changed', { userId: string; oldEmail: string; newEmail: string }>
  /** Deleted (anonymised) by its owner: the memberships it ended. */
  | Of<'account.deleted', { userId: string; memberships: readonly { teamId: string; memberId: string }[] }>
  // ---- notes ----
  | Of<'note.created', { teamId: string; noteId: string }>
  | Of<'note.updated', { teamId: string; noteId: string }>
  | Of<'note.deleted', { teamId: string; noteId: string }>
  /**
   * People newly mentioned in a note, found when its edits are compacted: each by whoever's edit first carried the
   * mention, with the in-app notification written for them (null: they muted it).
   */
  | Of<
      'note.mentioned',
      {
        teamId: string;
        note: { id: string; title: string };
        mentions: { userId: string; byName: string; byId: string | null; notificationId: string | null }[];
      }
    >;

export type ChangeKind = Change['kind'];
export type ChangeOf<K extends ChangeKind> = Extract<Change, { kind: K }>;

/** A change to one part of a task's page (open pages and cards refresh). */
export const detailChanged = (
  task: { id: string; teamId: string; projectId: string },
  part: TaskDetailPart,
): ChangeOf<'task.detail_changed'> => ({
  kind: 'task.detail_changed',
  teamId: task.teamId,
  taskId: task.id,
  projectId: task.projectId,
  part,
});
