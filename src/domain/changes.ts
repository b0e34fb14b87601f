/**
 * What happened: one typed record per change (issue 34). A service states its change once, through the server's
 * change recorder, in the transaction of the change; audit, webhooks, mail, the activity history and realtime are
 * subscribers that each declare, for every kind below, what they do with it (or `null`: nothing). A new kind that some
 * subscriber has not decided about fails the typecheck (their handler tables are exhaustive records over ChangeKind).
 */
import type { InvitationRole, SystemRole, TeamRole } from './constants';
import type { TaskDto } from './schemas/task';
import type { CommentDto } from './schemas/task-detail';
import type { ImportCountsAll, ImportSource } from './transfer/import-plan';

/** Who made a change: a signed-in person, a person through one of their API tokens, or the system itself. */
export type ChangeActor =
  | { kind: 'user'; userId: string; email: string | null; ip: string | null }
  | { kind: 'token'; userId: string; email: string | null; ip: string | null; tokenId: string }
  | { kind: 'system'; via: 'cli' | 'cli_socket' | 'compaction' };

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

/** A member as the team-level changes name them. */
interface MemberRef {
  memberId: string;
  userId: string;
  email: string;
}

/** The part of a task's page that changed without the task row itself changing. */
export type TaskDetailPart = 'comments' | 'attachments' | 'checklist' | 'watchers';

type Of<K extends string, Fields> = { kind: K } & Fields;

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
  // ---- projects ----
  | Of<'project.created', { teamId: string; projectId: string }>
  /** `previousTeamId` differs from `teamId` when the project moved to another team. */
  | Of<'project.updated', { teamId: string; previousTeamId: string; projectId: string }>
  /** Recorded before the row goes (the webhook reads the project). */
  | Of<'project.deleted', { teamId: string; projectId: string; name: string }>
  // ---- tasks ----
  /** `teamHasWebhooks`: false when the service read that the team has no active webhook (saves the webhook statement). */
  | Of<'task.created', { teamId: string; task: TaskDto; teamHasWebhooks?: boolean }>
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
  /** Comments edited or deleted, files, the checklist or the watchers changed: open task pages and cards refresh. */
  | Of<'task.detail_changed', { teamId: string; taskId: string; projectId: string; part: TaskDetailPart }>
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
  // ---- accounts ----
  | Of<'account.two_factor_enabled', { userId: string; email: string }>
  | Of<'account.two_factor_disabled', { userId: string; email: string; proof: 'password' | 'code' }>
  /** A super admin deactivated or reactivated an account (deactivation ended every session with it). */
  | Of<'account.deactivated', { userId: string; email: string }>
  | Of<'account.activated', { userId: string; email: string }>
  /** The system role set by the CLI (`via` says which way it came). */
  | Of<'account.role_set', { userId: string; email: string; role: SystemRole; via: 'cli' | 'cli_socket' }>
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

/** Every kind, for tests that walk them all (kept equal to the union by the `satisfies` below). */
export const CHANGE_KINDS = [
  'team.created',
  'team.updated',
  'team.deleted',
  'team.ownership_transferred',
  'member.role_changed',
  'member.removed',
  'member.joined',
  'invitation.sent',
  'invitation.cancelled',
  'invitation.declined',
  'project.created',
  'project.updated',
  'project.deleted',
  'task.created',
  'task.updated',
  'task.deleted',
  'comment.created',
  'task.detail_changed',
  'import.completed',
  'webhook.created',
  'webhook.updated',
  'webhook.deleted',
  'api_token.created',
  'api_token.revoked',
  'account.two_factor_enabled',
  'account.two_factor_disabled',
  'account.deactivated',
  'account.activated',
  'account.role_set',
  'note.created',
  'note.updated',
  'note.deleted',
  'note.mentioned',
] as const satisfies readonly ChangeKind[];

type Missing = Exclude<ChangeKind, (typeof CHANGE_KINDS)[number]>;
/** Fails the typecheck when CHANGE_KINDS misses a kind of the union. */
export const changeKindsComplete: Missing extends never ? true : Missing = true;

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
