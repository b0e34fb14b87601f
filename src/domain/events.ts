/**
 * The names of the events the server publishes after a change commits, and that the realtime
 * stream forwards to browsers. The server's event payloads and the client's cache invalidation
 * both key on this list, so a new event name must be handled in both (exhaustive records).
 */
export const DOMAIN_EVENT_TYPES = [
  'team.created',
  'team.updated',
  'team.deleted',
  'team.member_added',
  'team.member_updated',
  'team.member_removed',
  'invitation.created',
  'invitation.cancelled',
  'invitation.accepted',
  'invitation.declined',
  'project.created',
  'project.updated',
  'project.deleted',
  'task.created',
  'task.updated',
  'task.deleted',
  'task.comment_added',
  'task.detail_changed',
  'notification.created',
  'session.revoked',
  'note.created',
  'note.updated',
  'note.deleted',
  'status.created',
  'status.updated',
  'status.deleted',
  'field.created',
  'field.updated',
  'field.deleted',
  'time_entry.changed',
  'timer.changed',
] as const;

export type DomainEventType = (typeof DOMAIN_EVENT_TYPES)[number];

export const isDomainEventType = (value: string): value is DomainEventType =>
  (DOMAIN_EVENT_TYPES as readonly string[]).includes(value);
