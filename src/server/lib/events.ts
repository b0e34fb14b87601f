import { EventEmitter } from 'node:events';

/**
 * Domain events published by services after a change commits. Listeners create notifications
 * and forward realtime updates to the users who may see them (issue 8 wires LISTEN/NOTIFY so
 * every app instance on one database receives them).
 */
export type DomainEvent =
  | { type: 'team.created' | 'team.updated' | 'team.deleted'; teamId: string; actorId: string }
  | { type: 'team.member_added' | 'team.member_updated' | 'team.member_removed'; teamId: string; actorId: string; userId: string; memberId: string }
  | {
      type: 'invitation.created' | 'invitation.cancelled' | 'invitation.accepted' | 'invitation.declined';
      teamId: string;
      actorId: string;
      invitationId: string;
      email: string;
    }
  | { type: 'project.created' | 'project.updated' | 'project.deleted'; teamId: string; actorId: string; projectId: string; progress?: number }
  | {
      type: 'task.created' | 'task.updated' | 'task.deleted';
      teamId: string;
      actorId: string;
      taskId: string;
      projectId: string;
      title: string;
      creatorId: string;
      /** Assignee before and after the change (equal when unchanged). */
      previousAssigneeId: string | null;
      assigneeId: string | null;
      previousStatus: string | null;
      status: string;
    }
  | {
      /** A notification was written for `userId`; forwarded to that user's streams only. */
      type: 'notification.created';
      teamId: string;
      actorId: string;
      userId: string;
      notificationId: string;
    }

  | {
      /** Sessions ended (sign-out, reuse of a spent refresh token, deactivation): their event streams close. */
      type: 'session.revoked';
      actorId: string;
      userId: string;
      /** null: every session of the user. */
      sessionId: string | null;
    };

export type DomainEventType = DomainEvent['type'];

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
