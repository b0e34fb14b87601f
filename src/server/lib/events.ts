import { EventEmitter } from 'node:events';
import type { DomainEventType } from '../../domain/events';
import type { StatusCategory } from '../../domain/workflow';

/** One kind of event: its name must be in the domain's list (src/domain/events.ts), or this fails the typecheck. */
type Event<T extends DomainEventType, Fields> = { type: T; actorId: string } & Fields;

/**
 * Domain events published by services after a change commits. Listeners create notifications
 * and forward realtime updates to the users who may see them. Each instance also relays them through
 * PostgreSQL LISTEN/NOTIFY (modules/realtime/realtime.channel.ts, decision 0008), so every instance on
 * one database receives them.
 */
export type DomainEvent =
  | Event<'team.created' | 'team.updated' | 'team.deleted', { teamId: string }>
  | Event<
      'team.member_added' | 'team.member_updated' | 'team.member_removed',
      { teamId: string; userId: string; memberId: string }
    >
  | Event<
      'invitation.created' | 'invitation.cancelled' | 'invitation.accepted' | 'invitation.declined',
      { teamId: string; invitationId: string; email: string }
    >
  | Event<'project.created' | 'project.updated' | 'project.deleted', { teamId: string; projectId: string; progress?: number }>
  | Event<
      'task.created' | 'task.updated' | 'task.deleted',
      {
        teamId: string;
        taskId: string;
        projectId: string;
        title: string;
        creatorId: string;
        /** Assignee before and after the change (equal when unchanged). */
        previousAssigneeId: string | null;
        assigneeId: string | null;
        previousStatus: string | null;
        status: string;
        /** The categories of those statuses (what "completed" means, whatever the project calls it). */
        previousCategory: StatusCategory | null;
        category: StatusCategory;
      }
    >
  /** A comment was added to a task (notifications: the people it mentions, and the task's watchers). */
  | Event<
      'task.comment_added',
      { teamId: string; taskId: string; projectId: string; title: string; commentId: string; mentionedIds: string[] }
    >
  /** A task's comments (edited, deleted), attachments, checklist or watchers changed: open task pages and cards refresh. */
  | Event<
      'task.detail_changed',
      {
        teamId: string;
        taskId: string;
        projectId: string;
        part: 'comments' | 'attachments' | 'checklist' | 'watchers' | 'subtasks' | 'dependencies';
      }
    >
  /** A team's note was created, changed (title, pin, project, or its text when edits are compacted) or deleted. */
  | Event<'note.created' | 'note.updated' | 'note.deleted', { teamId: string; noteId: string }>
  /**
   * A project's workflow changed (issue 36): `statusIds` are the statuses added, changed (or moved in the order) or
   * deleted. Boards and lists of the project refresh (a delete may have moved its tasks).
   */
  | Event<'status.created' | 'status.updated' | 'status.deleted', { teamId: string; projectId: string; statusIds: string[] }>
  /**
   * A team's custom field was added, changed or deleted (issue 38): field lists, cards and lists refresh (removing an
   * option or deleting a field clears values from the team's tasks).
   */
  | Event<'field.created' | 'field.updated' | 'field.deleted', { teamId: string; fieldId: string }>
  /**
   * A time entry was logged, changed or deleted (issue 39): the task's page, its card and its ancestors' (whose totals
   * the triggers changed) refresh, and timesheets showing `userId`'s (the entry's author's) time.
   */
  | Event<'time_entry.changed', { teamId: string; taskId: string; projectId: string; userId: string }>
  /**
   * A person's timer started, stopped or moved (issue 39): forwarded to that person's streams only, so their other
   * devices follow. No team: a timer is the person's; the event carries nothing but that it changed.
   */
  | Event<'timer.changed', { userId: string }>
  /** A notification was written for `userId`; forwarded to that user's streams only. */
  | Event<'notification.created', { teamId: string; userId: string; notificationId: string }>
  /** Sessions ended (sign-out, reuse of a spent refresh token, deactivation): their event streams close. */
  | Event<
      'session.revoked',
      {
        userId: string;
        /** null: every session of the user. */
        sessionId: string | null;
      }
    >;

export class EventBus {
  private readonly emitter = new EventEmitter();

  constructor() {
    this.emitter.setMaxListeners(1000);
  }

  /** Publishes after commit. Listener failures are logged by the listener, never thrown to the caller. */
  publish(event: DomainEvent): void {
    this.emitter.emit('event', event);
  }

  subscribe(listener: (event: DomainEvent) => void): () => void {
    this.emitter.on('event', listener);
    return () => this.emitter.off('event', listener);
  }
}
