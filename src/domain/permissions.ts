/** Who may do what inside a team (spec §6, DESIGN.md "Authorization"). Pure rules, used by server and client. */
import type { SystemRole, TeamRole } from './constants';

export type MemberRole = TeamRole | null | undefined;

/** The roles that run a team (SQL takes its list from canManageMembers, e.g. server/db/invitations.ts). */
export const MANAGER_ROLES = ['owner', 'admin'] as const satisfies readonly TeamRole[];

const isManager = (role: MemberRole): boolean => MANAGER_ROLES.some((r) => r === role);

/** The roles that change a team's work (issue 41: a viewer only reads, a guest changes only tasks assigned to them). */
export const WRITER_ROLES = ['owner', 'admin', 'member'] as const satisfies readonly TeamRole[];

/** Create and change the team's work in general (projects, tasks, notes, fields, views, imports): members and up. */
export const canContribute = (role: MemberRole): boolean => WRITER_ROLES.some((r) => r === role);

/** Sees the whole team (every project and person): everyone but a guest, who sees only the projects they are added to. */
export const seesWholeTeam = (role: MemberRole): boolean => role != null && role !== 'guest';

/**
 * Change a task (its fields, status, checklist, time, files): members and up, and a guest on a task assigned to them.
 * A viewer changes nothing.
 */
export function canEditTask(role: MemberRole, userId: string, task: { assigneeId: string | null }): boolean {
  return canContribute(role) || (role === 'guest' && task.assigneeId === userId);
}

/**
 * Give a task an assignee, or take it away: whoever changes the team's work; a guest keeps a task assigned to
 * themselves (they may not hand it to someone else, nor leave it without an assignee).
 */
export function canAssignTask(role: MemberRole, userId: string, assigneeId: string | null): boolean {
  return canContribute(role) || (role === 'guest' && assigneeId === userId);
}

/**
 * Move a task to another project or under another parent, make it repeat, or complete its sub-tasks with it (each
 * creates, moves or changes other work): members and up (not a viewer, not a guest).
 */
export const canRestructureTask = (role: MemberRole): boolean => canContribute(role);

/** Comment on a task: whoever may change it, and a viewer when the team lets viewers comment (`viewersMayComment`). */
export function canCommentOnTask(
  role: MemberRole,
  userId: string,
  task: { assigneeId: string | null },
  team: { viewersMayComment: boolean },
): boolean {
  return canEditTask(role, userId, task) || (role === 'viewer' && team.viewersMayComment);
}

/** Add or remove a project's guests, and set the team's access rules (viewers' comments, single sign-on): owner and admins. */
export const canManageGuests = isManager;
export const canSetTeamAccess = isManager;

/** Edit or delete a project: the team's owner or admins. */
export const canEditProject = isManager;
/** Edit a team's name and description, or delete the team: only the owner. */
export const canEditTeam = (role: MemberRole): boolean => role === 'owner';
/** Choose how the team estimates tasks, in time or in story points (issue 39): owner and admins. */
export const canSetEstimateUnit = isManager;
/** Invite, cancel invitations, remove members, change roles: owner and admins. */
export const canManageMembers = isManager;
/** Add, change, pause or delete a team's webhooks and read their delivery log: owner and admins. */
export const canManageWebhooks = isManager;
/** Leave a team: anyone but its owner (whose membership is untouchable). */
export const canLeaveTeam = (role: MemberRole): boolean => role != null && role !== 'owner';

/** Hand the team to another member (who becomes its owner; the owner becomes an admin): only the owner. */
export const canTransferOwnership = (role: MemberRole): boolean => role === 'owner';

/** May `actor` (with role `actorRole`) make `target` the team's owner? The owner, to another member. */
export function canTransferOwnershipTo(actorRole: MemberRole, actorUserId: string, target: { userId: string }): boolean {
  return canTransferOwnership(actorRole) && target.userId !== actorUserId;
}

/**
 * May `actor` (with role `actorRole`) remove or change the role of `target`?
 * Nobody acts on themselves; the owner's membership is untouchable.
 */
export function canActOnMember(actorRole: MemberRole, actorUserId: string, target: { userId: string; role: TeamRole }): boolean {
  if (!canManageMembers(actorRole)) return false;
  if (target.userId === actorUserId) return false;
  if (target.role === 'owner') return false;
  return true;
}

/** Delete a task: its creator (while they may still contribute) or the team's owner/admins. */
export function canDeleteTask(role: MemberRole, userId: string, task: { creatorId: string }): boolean {
  return (task.creatorId === userId && canContribute(role)) || isManager(role);
}

/**
 * Move a task into another team's project: it leaves its team as if deleted there, so it takes the
 * right to delete it in the source team (`sourceRole`), and a role that adds work in the destination (not a viewer or
 * a guest there).
 * Moves between projects of one team are edits (any member).
 */
export function canMoveTaskToTeam(
  sourceRole: MemberRole,
  destinationRole: MemberRole,
  userId: string,
  task: { creatorId: string },
): boolean {
  return canContribute(destinationRole) && canDeleteTask(sourceRole, userId, task);
}

/** The `/api/admin/*` area: the system role `super_admin` only (set by the CLI). No role (signed out): no. */
export const canUseAdminArea = (role: SystemRole | null | undefined): boolean => role === 'super_admin';

/** Edit a comment: only its author (a departed author's comment stays as written). */
export function canEditComment(userId: string, comment: { authorId: string | null }): boolean {
  return comment.authorId === userId;
}

/** Delete a comment: its author, or the team's owner/admins (moderation). */
export function canDeleteComment(role: MemberRole, userId: string, comment: { authorId: string | null }): boolean {
  return role != null && (comment.authorId === userId || isManager(role));
}

/** Delete an attachment: its uploader, or the team's owner/admins. */
export function canDeleteAttachment(role: MemberRole, userId: string, file: { uploaderId: string | null }): boolean {
  return role != null && (file.uploaderId === userId || isManager(role));
}

/** Delete a note: its author, or the team's owner/admins. */
export function canDeleteNote(role: MemberRole, userId: string, note: { authorId: string | null }): boolean {
  return role != null && (note.authorId === userId || isManager(role));
}

/** Edit or delete a time entry (issue 39): its author, or the team's owner/admins. */
export function canEditTimeEntry(role: MemberRole, userId: string, entry: { userId: string }): boolean {
  return role != null && (entry.userId === userId || isManager(role));
}

/**
 * Rename, change or delete a saved view the caller sees: its owner, or for a view shared with a team, that team's
 * owners/admins (`role` is the caller's role in the view's team, null for a personal view).
 */
export function canEditView(role: MemberRole, userId: string, view: { ownerId: string; teamId: string | null }): boolean {
  // A view shared with a team is the team's work: its owner changes it while they may contribute there (issue 41).
  if (view.ownerId === userId) return view.teamId === null || canContribute(role);
  return view.teamId !== null && isManager(role);
}
