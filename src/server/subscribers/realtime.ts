import { type ChangeActor, type DependencySide, type TimeTaskRef, actorUserId } from '../../domain/changes';
import type { DomainEventType } from '../../domain/events';
import type { TaskDto } from '../../domain/schemas/task';
import type { StatusCategory } from '../../domain/workflow';
import type { Subscriber } from '../lib/changes';
import type { DomainEvent, EventBus } from '../lib/events';
import { afterCommit } from './reactions';

/** The fields every team-level event carries: the team, and who changed it ('' for the system). */
const of = (c: { teamId: string }, actor: ChangeActor) => ({ teamId: c.teamId, actorId: actorUserId(actor) ?? '' });

/** What an event of type `T` carries besides its type, team and actor. */
type FieldsOf<T extends DomainEventType, E = DomainEvent> = E extends { type: infer U }
  ? T extends U
    ? Omit<E, 'type' | 'teamId' | 'actorId'>
    : never
  : never;

/**
 * After commit, the event bus (lib/events.ts): open event streams refresh, notifications are written by their
 * listener, and the LISTEN/NOTIFY relay carries the events to the other instances (decision 0008).
 */
export function realtimeSubscriber(events: EventBus): Subscriber {
  const publish = (...list: DomainEvent[]) => {
    for (const event of list) events.publish(event);
  };
  /** A team-level event of the change's team by its actor: `type` and the fields that event adds. */
  const team =
    <T extends DomainEventType, C>(type: T, fields: (c: C) => FieldsOf<T>) =>
    (c: C & { teamId: string }, actor: ChangeActor) =>
      publish({ type, ...of(c, actor), ...fields(c) } as DomainEvent);
  const member = (c: { member: { userId: string; memberId: string } }) => ({
    userId: c.member.userId,
    memberId: c.member.memberId,
  });
  const invitation = (c: { invitationId: string; email: string }) => ({ invitationId: c.invitationId, email: c.email });
  const note = (c: { noteId: string }) => ({ noteId: c.noteId });
  /** A task event: the task as it is now, and its assignee and status before (null: it is new). */
  const task = (
    type: 'task.created' | 'task.updated' | 'task.deleted',
    teamId: string,
    actor: ChangeActor,
    now: TaskDto,
    before: { assigneeId: string | null; status: string | null; statusCategory: StatusCategory | null },
  ) =>
    publish({
      type,
      // The schedule's tasks (a system actor, decision 0027) are their series' creator's: notifications name them.
      teamId,
      actorId: actorUserId(actor) ?? now.creatorId,
      taskId: now.id,
      projectId: now.projectId,
      title: now.title,
      creatorId: now.creatorId,
      previousAssigneeId: before.assigneeId,
      assigneeId: now.assigneeId,
      previousStatus: before.status,
      status: now.status,
      previousCategory: before.statusCategory,
      category: now.statusCategory,
    });
  /** Sessions of `userId` ended (null: every one; an API token's id stands for its session): their streams close. */
  const sessionsEnded = (actor: ChangeActor, userId: string, sessionIds: readonly (string | null)[]) => {
    for (const sessionId of sessionIds) {
      publish({ type: 'session.revoked', actorId: actorUserId(actor) ?? userId, userId, sessionId });
    }
  };

  /** A time entry's task: its page, its card, its ancestors' totals and the timesheets of `authorId` refresh. */
  const timeEntryChanged = (c: { teamId: string; task: TimeTaskRef }, actor: ChangeActor, authorId: string) =>
    publish({ type: 'time_entry.changed', ...of(c, actor), taskId: c.task.id, projectId: c.task.projectId, userId: authorId });

  const dependencyChanged = (c: { task: DependencySide; blocker: DependencySide }, actor: ChangeActor) => {
    for (const side of [c.task, c.blocker]) {
      publish({
        type: 'task.detail_changed',
        ...of(side, actor),
        taskId: side.id,
        projectId: side.projectId,
        part: 'dependencies',
      });
    }
  };

  return afterCommit('realtime', {
    'team.created': team('team.created', () => ({})),
    'team.updated': team('team.updated', () => ({})),
    'team.deleted': team('team.deleted', () => ({})),
    'team.ownership_transferred': (c, actor) => {
      const base = of(c, actor);
      publish(
        { type: 'team.member_updated', ...base, userId: c.newOwner.userId, memberId: c.newOwner.memberId },
        { type: 'team.member_updated', ...base, userId: c.oldOwner.userId, memberId: c.oldOwner.memberId },
        { type: 'team.updated', ...base },
      );
    },
    'member.role_changed': team('team.member_updated', member),
    'member.removed': team('team.member_removed', member),
    // SCIM (issue 41): a group's team created, renamed or unlinked; a member it added.
    'scim.group_provisioned': team('team.updated', () => ({})),
    'scim.group_unlinked': team('team.updated', () => ({})),
    'scim.member_added': team('team.member_added', member),
    'member.joined': (c, actor) => {
      const base = of(c, actor);
      publish(
        { type: 'invitation.accepted', ...base, invitationId: c.invitation.id, email: c.invitation.email },
        { type: 'team.member_added', ...base, ...member(c) },
      );
    },
    'ldap.member_added': team('team.member_added', member),
    'invitation.sent': team('invitation.created', invitation),
    'invitation.cancelled': team('invitation.cancelled', invitation),
    'invitation.declined': team('invitation.declined', invitation),
    'project.created': team('project.created', (c) => ({ projectId: c.projectId, progress: 0 })),
    'project.updated': (c, actor) => {
      // Moved to another team: it is gone from the old team's views.
      if (c.previousTeamId !== c.teamId) {
        publish({ type: 'project.deleted', ...of({ teamId: c.previousTeamId }, actor), projectId: c.projectId });
      }
      publish({ type: 'project.updated', ...of(c, actor), projectId: c.projectId });
    },
    'project.deleted': team('project.deleted', (c) => ({ projectId: c.projectId })),
    // Issue 41: the team's access rules, a project's guests (the guest's lists refresh with the project's).
    'team.access_changed': team('team.updated', () => ({})),
    'project.guest_added': team('project.updated', (c) => ({ projectId: c.projectId })),
    'project.guest_removed': team('project.updated', (c) => ({ projectId: c.projectId })),
    // A project's workflow: its boards refresh (a delete may have moved tasks: one event, not one per task).
    'status.created': team('status.created', (c) => ({ projectId: c.projectId, statusIds: [c.status.id] })),
    'status.updated': team('status.updated', (c) => ({ projectId: c.projectId, statusIds: [c.after.id] })),
    'status.deleted': team('status.deleted', (c) => ({ projectId: c.projectId, statusIds: [c.status.id] })),
    'status.reordered': team('status.updated', (c) => ({ projectId: c.projectId, statusIds: c.moved.map((s) => s.id) })),
    // A team's custom fields: its field lists, cards and lists refresh.
    'field.created': team('field.created', (c) => ({ fieldId: c.field.id })),
    'field.updated': team('field.updated', (c) => ({ fieldId: c.after.id })),
    'field.deleted': team('field.deleted', (c) => ({ fieldId: c.field.id })),
    // Work from outside the team: the project's settings page refreshes (the shared page listens to task events).
    'share.changed': team('project.updated', (c) => ({ projectId: c.projectId })),
    'form.created': team('project.updated', (c) => ({ projectId: c.projectId })),
    'form.updated': team('project.updated', (c) => ({ projectId: c.projectId })),
    'form.deleted': team('project.updated', (c) => ({ projectId: c.projectId })),
    'intake.changed': team('project.updated', (c) => ({ projectId: c.projectId })),
    'task.created': (c, actor) =>
      task('task.created', c.teamId, actor, c.task, { assigneeId: null, status: null, statusCategory: null }),
    // Moved into another team with a new assignee, the one before may not be a member there: its members are not told
    // who it was (no notification depends on it: the new assignee differs anyway).
    'task.updated': (c, actor) => {
      const movedAway = c.teamId !== c.previousTeamId && c.before.assigneeId !== c.after.assigneeId;
      task('task.updated', c.teamId, actor, c.after, {
        assigneeId: movedAway ? null : c.before.assigneeId,
        status: c.before.status,
        statusCategory: c.before.statusCategory,
      });
      // Moved to another project: the one it left changed too (its shared board, which follows its own project only).
      if (c.before.projectId !== c.after.projectId) {
        publish({ type: 'project.updated', ...of({ teamId: c.previousTeamId }, actor), projectId: c.before.projectId });
      }
    },
    'task.deleted': (c, actor) => task('task.deleted', c.teamId, actor, c.task, c.task),
    'comment.created': team('task.comment_added', (c) => ({
      taskId: c.task.id,
      projectId: c.task.projectId,
      title: c.task.title,
      commentId: c.comment.id,
      mentionedIds: c.mentionedIds,
    })),
    'task.detail_changed': team('task.detail_changed', (c) => ({ taskId: c.taskId, projectId: c.projectId, part: c.part })),
    // A dependency: both tasks' pages and cards refresh, each for the members of its own team (its `blockedCount`,
    // its lists); neither event names the other task.
    'task.dependency_added': (c, actor) => dependencyChanged(c, actor),
    'task.dependency_removed': (c, actor) => dependencyChanged(c, actor),
    'time_entry.created': (c, actor) => timeEntryChanged(c, actor, c.entry.userId),
    'time_entry.updated': (c, actor) => timeEntryChanged(c, actor, c.after.userId),
    'time_entry.deleted': (c, actor) => timeEntryChanged(c, actor, c.entry.userId),
    // The person's own streams (their other devices); the timer itself is read again (GET /api/me/timer).
    'timer.changed': (c, actor) => publish({ type: 'timer.changed', actorId: actorUserId(actor) ?? c.userId, userId: c.userId }),
    // Open boards refresh: the new team, or the project the tasks went into.
    'import.completed': (c, actor) => {
      const base = of({ teamId: c.team.id }, actor);
      if (!c.project) publish({ type: 'team.created', ...base });
      else publish({ type: c.project.created ? 'project.created' : 'project.updated', ...base, projectId: c.project.id });
    },
    // Event streams opened with the token close at once (on every instance), as a revoked session's do.
    'api_token.revoked': (c, actor) => sessionsEnded(actor, c.userId, [c.tokenId]),
    // Its event streams close (every session ended with the deactivation).
    'account.deactivated': (c, actor) => sessionsEnded(actor, c.userId, [null]),
    'account.sessions_revoked': (c, actor) => sessionsEnded(actor, c.userId, c.sessionIds ?? [null]),
    // Its memberships ended with it (its sessions: account.sessions_revoked, recorded with it).
    'account.deleted': (c, actor) => {
      const actorId = actorUserId(actor) ?? c.userId;
      for (const m of c.memberships) {
        publish({ type: 'team.member_removed', actorId, teamId: m.teamId, userId: c.userId, memberId: m.memberId });
      }
    },
    'note.created': team('note.created', note),
    'note.updated': team('note.updated', note),
    'note.deleted': team('note.deleted', note),
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
  });
}
