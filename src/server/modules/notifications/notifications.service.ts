import { type EmailVerificationMode, TASK_STATUS_LABELS, type TaskStatus } from '../../../domain/constants';
import { NOTIFICATION_TEXT, type NotificationDto, type NotificationListDto } from '../../../domain/schemas/notification';
import type { Db, DbOrTx } from '../../db/client';
import { AppError } from '../../lib/errors';
import type { DomainEvent, EventBus } from '../../lib/events';
import type { UserRow } from '../../db/schema';
import { listWatcherIds } from '../task-comments';
import * as repo from './notifications.repo';
import * as preferences from './preferences.repo';
import type { NewNotification, NotificationRow } from './notifications.repo';

type TaskEvent = Extract<DomainEvent, { type: 'task.created' | 'task.updated' | 'task.deleted' }>;
type CommentEvent = Extract<DomainEvent, { type: 'task.comment_added' }>;
type ProjectEvent = Extract<DomainEvent, { type: `project.${string}` }>;
type InvitationEvent = Extract<DomainEvent, { type: `invitation.${string}` }>;

function toNotificationDto(row: NotificationRow): NotificationDto {
  return {
    id: row.id,
    userId: row.userId,
    type: row.type,
    title: row.title,
    message: row.message,
    isRead: row.isRead,
    data: (row.data ?? {}) as NotificationDto['data'],
    createdAt: row.createdAt.toISOString(),
  };
}

const unique = (ids: (string | null | undefined)[]) => [...new Set(ids.filter((id): id is string => !!id))];

export class NotificationsService {
  constructor(
    private readonly db: Db,
    private readonly events: EventBus,
    /** EMAIL_VERIFICATION: with `required`, an unverified address is not told of an invitation (issue 35, item 2). */
    private readonly emailVerification: EmailVerificationMode = 'off',
  ) {}

  async list(userId: string, limit: number, offset: number): Promise<NotificationListDto> {
    const { rows, counts } = await repo.listPageByUserId(this.db, userId, limit, offset);
    // An empty first page means none at all; past the end, the counts need a statement of their own.
    const all = counts ?? (offset === 0 ? { total: 0, unread: 0 } : await repo.countByUserId(this.db, userId));
    return { notifications: rows.map(toNotificationDto), ...all };
  }

  /** Someone else's notification answers 404, like one that does not exist. */
  async markRead(userId: string, id: string): Promise<void> {
    if (!(await repo.markOneRead(this.db, id, userId))) throw new AppError('notification_not_found');
  }

  async markAllRead(userId: string): Promise<void> {
    await repo.markAllRead(this.db, userId);
  }

  /**
   * Turns a committed domain event into notifications. Runs after the change committed, on the
   * instance that made it (so each notification is written once).
   */
  async handle(event: DomainEvent): Promise<void> {
    let rows: NewNotification[] = [];
    switch (event.type) {
      case 'task.created':
      case 'task.updated':
        rows = await this.forTask(event);
        break;
      case 'task.comment_added':
        rows = await this.forComment(event);
        break;
      // A task's and a comment's read their members' muted kinds with the members (one statement less a change).
      case 'project.updated':
        rows = await this.withoutMutedInApp(await this.forProject(event));
        break;
      case 'invitation.created':
        rows = await this.withoutMutedInApp(await this.forInvitation(event));
        break;
      default:
        return;
    }
    const created = await repo.createMany(this.db, rows);
    for (const n of created) {
      this.events.publish({
        type: 'notification.created',
        teamId: event.teamId,
        actorId: event.actorId,
        userId: n.userId,
        notificationId: n.id,
      });
    }
  }

  /**
   * Leaves out what each recipient turned off in Settings → Notifications (in-app, per kind); `found` is what
   * activeMembersWithActorName read for them, without it a statement of its own.
   */
  private async withoutMutedInApp(
    rows: NewNotification[],
    found?: readonly { userId: string; mutedKinds: readonly string[] }[],
  ): Promise<NewNotification[]> {
    if (rows.length === 0) return rows;
    const muted = found
      ? new Set(found.flatMap((r) => r.mutedKinds.map((kind) => `${r.userId}|${kind}`)))
      : await preferences.listInAppMuted(this.db, unique(rows.map((r) => r.userId)));
    return muted.size === 0 ? rows : rows.filter((r) => !muted.has(`${r.userId}|${r.type}`));
  }

  private async actorName(actorId: string): Promise<string> {
    return (await repo.getUserName(this.db, actorId)) ?? 'Someone';
  }

  /**
   * Assigned: the new assignee. Completed: the creator and the assignee. A status change: every other watcher of the
   * task (task-comments.repo listWatcherIds), with the status's label. Never the actor.
   */
  private async forTask(event: TaskEvent): Promise<NewNotification[]> {
    const assigned = event.assigneeId && event.assigneeId !== event.previousAssigneeId ? [event.assigneeId] : [];
    const completed =
      event.category === 'completed' && event.previousCategory !== 'completed' ? [event.creatorId, event.assigneeId] : [];
    const statusChanged = event.type === 'task.updated' && event.previousStatus !== null && event.previousStatus !== event.status;
    // Those told the task was completed are not told again that its status changed.
    const watchers = statusChanged ? (await listWatcherIds(this.db, event.taskId)).filter((id) => !completed.includes(id)) : [];
    const candidates = unique([...assigned, ...completed, ...watchers]).filter((id) => id !== event.actorId);
    if (candidates.length === 0) return [];
    // Never anyone outside the team, e.g. a creator who has since left it.
    const found = await repo.activeMembersWithActorName(this.db, event.teamId, event.projectId, candidates, event.actorId);
    if (found.length === 0) return [];
    const members = new Set(found.map((r) => r.userId));
    const actor = found[0]!.actorName ?? 'Someone';
    const base = { taskId: event.taskId, projectId: event.projectId, teamId: event.teamId };
    const rows: NewNotification[] = [];
    for (const userId of unique(assigned)) {
      if (userId === event.actorId || !members.has(userId)) continue;
      const text = NOTIFICATION_TEXT.task_assigned;
      rows.push({ userId, type: 'task_assigned', title: text.title, message: text.message(actor, event.title), data: base });
    }
    for (const userId of unique(completed)) {
      if (userId === event.actorId || !members.has(userId)) continue;
      const text = NOTIFICATION_TEXT.task_completed;
      rows.push({
        userId,
        type: 'task_completed',
        title: text.title,
        message: text.message(actor, event.title),
        data: { ...base, completedBy: event.actorId },
      });
    }
    const status = TASK_STATUS_LABELS[event.status as TaskStatus] ?? event.status;
    for (const userId of unique(watchers)) {
      if (userId === event.actorId || !members.has(userId)) continue;
      const text = NOTIFICATION_TEXT.task_status;
      rows.push({
        userId,
        type: 'task_status',
        title: text.title,
        message: text.message(actor, event.title, status),
        data: base,
      });
    }
    return this.withoutMutedInApp(rows, found);
  }

  /** The people a comment mentions ('mentioned'), and every other watcher of the task ('task_comment'); never its author. */
  private async forComment(event: CommentEvent): Promise<NewNotification[]> {
    const mentioned = unique(event.mentionedIds).filter((id) => id !== event.actorId);
    const watchers = (await listWatcherIds(this.db, event.taskId)).filter(
      (id) => id !== event.actorId && !mentioned.includes(id),
    );
    const candidates = [...mentioned, ...watchers];
    if (candidates.length === 0) return [];
    const found = await repo.activeMembersWithActorName(this.db, event.teamId, event.projectId, candidates, event.actorId);
    if (found.length === 0) return [];
    const members = new Set(found.map((r) => r.userId));
    const actor = found[0]!.actorName ?? 'Someone';
    const data = { taskId: event.taskId, projectId: event.projectId, teamId: event.teamId, commentId: event.commentId };
    const row = (userId: string, type: 'mentioned' | 'task_comment'): NewNotification => ({
      userId,
      type,
      title: NOTIFICATION_TEXT[type].title,
      message: NOTIFICATION_TEXT[type].message(actor, event.title),
      data,
    });
    return this.withoutMutedInApp(
      [
        ...mentioned.filter((id) => members.has(id)).map((id) => row(id, 'mentioned')),
        ...watchers.filter((id) => members.has(id)).map((id) => row(id, 'task_comment')),
      ],
      found,
    );
  }

  private async forProject(event: ProjectEvent): Promise<NewNotification[]> {
    const project = await repo.getProjectInTeam(this.db, event.projectId, event.teamId);
    if (!project) return [];
    const recipients = (await repo.listActiveMemberIds(this.db, event.teamId, event.projectId)).filter(
      (id) => id !== event.actorId,
    );
    if (recipients.length === 0) return [];
    const actor = await this.actorName(event.actorId);
    const progress = event.progress ?? project.progress;
    const text = NOTIFICATION_TEXT.project_updated;
    return recipients.map((userId) => ({
      userId,
      type: 'project_updated' as const,
      title: text.title,
      message: text.message(actor, project.name, progress),
      data: { projectId: project.id, teamId: event.teamId, progress },
    }));
  }

  private async forInvitation(event: InvitationEvent): Promise<NewNotification[]> {
    const invitation = await repo.getPendingInvitation(this.db, event.invitationId, event.teamId);
    if (!invitation) return [];
    const invitee = await repo.getActiveUserByEmail(this.db, invitation.email);
    // No account yet: the notification is written when they sign up (notifyPendingInvitations).
    if (!invitee || invitee.id === event.actorId) return [];
    // An unproven address reads no invitation (as accepting needs proof): its mail's link is the way in.
    if (mayNotBeToldOfInvitations(this.emailVerification, invitee)) return [];
    return [inviteNotification(invitee.id, invitation)];
  }
}

function inviteNotification(
  userId: string,
  invitation: { id: string; teamId: string; teamName: string; inviterName: string },
): NewNotification {
  const text = NOTIFICATION_TEXT.team_invite;
  return {
    userId,
    type: 'team_invite',
    title: text.title,
    message: text.message(invitation.inviterName, invitation.teamName),
    data: { teamId: invitation.teamId, invitationId: invitation.id },
  };
}

/** EMAIL_VERIFICATION=required and the address unverified: no invitation is shown to it (issue 35, item 2). */
const mayNotBeToldOfInvitations = (mode: EmailVerificationMode, user: { emailVerified?: boolean }) =>
  mode === 'required' && !user.emailVerified;

/**
 * Sign-up hook (inside the sign-up transaction): invitations sent before the account existed, still live. With
 * EMAIL_VERIFICATION=required only for a verified address (else when it is verified: EmailVerificationService.verify).
 */
export async function notifyPendingInvitations(
  tx: DbOrTx,
  user: Pick<UserRow, 'id' | 'email'> & { emailVerified?: boolean },
  invitationTtlDays: number,
  emailVerification: EmailVerificationMode = 'off',
): Promise<void> {
  if (mayNotBeToldOfInvitations(emailVerification, user)) return;
  const invitations = await repo.listLiveInvitationsByEmail(tx, user.email, invitationTtlDays);
  await repo.createMany(
    tx,
    invitations.map((inv) => inviteNotification(user.id, inv)),
  );
}
