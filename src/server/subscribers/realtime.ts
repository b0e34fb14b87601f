import { actorUserId } from '../../domain/changes';
import type { ChangeHandlers, Subscriber } from '../lib/changes';
import type { DomainEvent, EventBus } from '../lib/events';

/**
 * After commit, the event bus (lib/events.ts): open event streams refresh, notifications are written by their
 * listener, and the LISTEN/NOTIFY relay carries the events to the other instances (decision 0008).
 */
export function realtimeSubscriber(events: EventBus): Subscriber {
  const publish = (...list: DomainEvent[]) => {
    for (const event of list) events.publish(event);
  };
  const handlers: ChangeHandlers<void> = {
    'team.created': (c, actor) => publish({ type: 'team.created', teamId: c.teamId, actorId: actorUserId(actor) ?? '' }),
    'team.updated': (c, actor) => publish({ type: 'team.updated', teamId: c.teamId, actorId: actorUserId(actor) ?? '' }),
    'team.deleted': (c, actor) => publish({ type: 'team.deleted', teamId: c.teamId, actorId: actorUserId(actor) ?? '' }),
    'team.ownership_transferred': (c, actor) => {
      const base = { teamId: c.teamId, actorId: actorUserId(actor) ?? '' };
      publish(
        { type: 'team.member_updated', ...base, userId: c.newOwner.userId, memberId: c.newOwner.memberId },
        { type: 'team.member_updated', ...base, userId: c.oldOwner.userId, memberId: c.oldOwner.memberId },
        { type: 'team.updated', ...base },
      );
    },
    'member.role_changed': (c, actor) =>
      publish({
        type: 'team.member_updated',
        teamId: c.teamId,
        actorId: actorUserId(actor) ?? '',
        userId: c.member.userId,
        memberId: c.member.memberId,
      }),
    'member.removed': (c, actor) =>
      publish({
        type: 'team.member_removed',
        teamId: c.teamId,
        actorId: actorUserId(actor) ?? '',
        userId: c.member.userId,
        memberId: c.member.memberId,
      }),
    'member.joined': (c, actor) => {
      const actorId = actorUserId(actor) ?? '';
      publish(
        { type: 'invitation.accepted', teamId: c.teamId, actorId, invitationId: c.invitation.id, email: c.invitation.email },
        { type: 'team.member_added', teamId: c.teamId, actorId, userId: c.member.userId, memberId: c.member.memberId },
      );
    },
    'invitation.sent': (c, actor) =>
      publish({
        type: 'invitation.created',
        teamId: c.teamId,
        actorId: actorUserId(actor) ?? '',
        invitationId: c.invitationId,
        email: c.email,
      }),
    'invitation.cancelled': (c, actor) =>
      publish({
        type: 'invitation.cancelled',
        teamId: c.teamId,
        actorId: actorUserId(actor) ?? '',
        invitationId: c.invitationId,
        email: c.email,
      }),
    'invitation.declined': (c, actor) =>
      publish({
        type: 'invitation.declined',
        teamId: c.teamId,
        actorId: actorUserId(actor) ?? '',
        invitationId: c.invitationId,
        email: c.email,
      }),
    'project.created': (c, actor) =>
      publish({
        type: 'project.created',
        teamId: c.teamId,
        actorId: actorUserId(actor) ?? '',
        projectId: c.projectId,
        progress: 0,
      }),
    'project.updated': (c, actor) => {
      const actorId = actorUserId(actor) ?? '';
      // Moved to another team: it is gone from the old team's views.
      if (c.previousTeamId !== c.teamId)
        publish({ type: 'project.deleted', teamId: c.previousTeamId, actorId, projectId: c.projectId });
      publish({ type: 'project.updated', teamId: c.teamId, actorId, projectId: c.projectId });
    },
    'project.deleted': (c, actor) =>
      publish({ type: 'project.deleted', teamId: c.teamId, actorId: actorUserId(actor) ?? '', projectId: c.projectId }),
    'task.created': (c, actor) =>
      publish({
        type: 'task.created',
        teamId: c.teamId,
        actorId: actorUserId(actor) ?? '',
        taskId: c.task.id,
        projectId: c.task.projectId,
        title: c.task.title,
        creatorId: c.task.creatorId,
        previousAssigneeId: null,
        assigneeId: c.task.assigneeId,
        previousStatus: null,
        status: c.task.status,
      }),
    'task.updated': (c, actor) => {
      // Moved into another team with a new assignee, the one before may not be a member there: its members are not
      // told who it was (no notification depends on it: the new assignee differs anyway).
      const movedAway = c.teamId !== c.previousTeamId && c.before.assigneeId !== c.after.assigneeId;
      publish({
        type: 'task.updated',
        teamId: c.teamId,
        actorId: actorUserId(actor) ?? '',
        taskId: c.after.id,
        projectId: c.after.projectId,
        title: c.after.title,
        creatorId: c.after.creatorId,
        previousAssigneeId: movedAway ? null : c.before.assigneeId,
        assigneeId: c.after.assigneeId,
        previousStatus: c.before.status,
        status: c.after.status,
      });
    },
    'task.deleted': (c, actor) =>
      publish({
        type: 'task.deleted',
        teamId: c.teamId,
        actorId: actorUserId(actor) ?? '',
        taskId: c.task.id,
        projectId: c.task.projectId,
        title: c.task.title,
        creatorId: c.task.creatorId,
        previousAssigneeId: c.task.assigneeId,
        assigneeId: c.task.assigneeId,
        previousStatus: c.task.status,
        status: c.task.status,
      }),
    'comment.created': (c, actor) =>
      publish({
        type: 'task.comment_added',
        teamId: c.teamId,
        actorId: actorUserId(actor) ?? '',
        taskId: c.task.id,
        projectId: c.task.projectId,
        title: c.task.title,
        commentId: c.comment.id,
        mentionedIds: c.mentionedIds,
      }),
    'task.detail_changed': (c, actor) =>
      publish({
        type: 'task.detail_changed',
        teamId: c.teamId,
        actorId: actorUserId(actor) ?? '',
        taskId: c.taskId,
        projectId: c.projectId,
        part: c.part,
      }),
    // Open boards refresh: the new team, or the project the tasks went into.
    'import.completed': (c, actor) => {
      const actorId = actorUserId(actor) ?? '';
      if (!c.project) publish({ type: 'team.created', teamId: c.team.id, actorId });
      else {
        const type = c.project.created ? 'project.created' : 'project.updated';
        publish({ type, teamId: c.team.id, actorId, projectId: c.project.id });
      }
    },
    'webhook.created': null,
    'webhook.updated': null,
    'webhook.deleted': null,
    'api_token.created': null,
    // Event streams opened with the token close at once (on every instance), as a revoked session's do.
    'api_token.revoked': (c, actor) =>
      publish({ type: 'session.revoked', actorId: actorUserId(actor) ?? c.userId, userId: c.userId, sessionId: c.tokenId }),
    'account.two_factor_enabled': null,
    'account.two_factor_disabled': null,
    // Its event streams close (every session ended with the deactivation).
    'account.deactivated': (c, actor) =>
      publish({ type: 'session.revoked', actorId: actorUserId(actor) ?? c.userId, userId: c.userId, sessionId: null }),
    'account.activated': null,
    'account.role_set': null,
    'note.created': (c, actor) =>
      publish({ type: 'note.created', teamId: c.teamId, actorId: actorUserId(actor) ?? '', noteId: c.noteId }),
    'note.updated': (c, actor) =>
      publish({ type: 'note.updated', teamId: c.teamId, actorId: actorUserId(actor) ?? '', noteId: c.noteId }),
    'note.deleted': (c, actor) =>
      publish({ type: 'note.deleted', teamId: c.teamId, actorId: actorUserId(actor) ?? '', noteId: c.noteId }),
    // The notifications written for the mentioned reach their streams.
    'note.mentioned': (c) => {
      for (const m of c.mentions) {
        if (!m.notificationId) continue;
        publish({
          type: 'notification.created',
          teamId: c.teamId,
          actorId: m.byId ?? '',
          userId: m.userId,
          notificationId: m.notificationId,
        });
      }
    },
  };
  return { name: 'realtime', phase: 'afterCommit', handlers };
}
