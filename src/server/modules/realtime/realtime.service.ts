import type { TeamRole } from '../../../domain/constants';
import { canManageMembers, seesWholeTeam } from '../../../domain/permissions';
import type { Db } from '../../db/client';
import type { DomainEvent } from '../../lib/events';
import * as repo from './realtime.repo';

type StreamedEvent = Exclude<DomainEvent, { type: 'session.revoked' }>;

/**
 * Who receives each event: only those who may read its fields through the API (DESIGN.md
 * "Authorization"). `members`: the team's active members (plus, for a removal or the team's
 * deletion, those it shuts out); `managers`: the team's owner and admins, the only members who
 * read its invitations, and the invitee; `recipient`: the one user the event is for.
 */
const EVENT_READERS = {
  'team.created': 'members',
  'team.updated': 'members',
  'team.deleted': 'members',
  'team.member_added': 'members',
  'team.member_updated': 'members',
  'team.member_removed': 'members',
  'invitation.created': 'managers',
  'invitation.cancelled': 'managers',
  'invitation.accepted': 'managers',
  'invitation.declined': 'managers',
  'project.created': 'members',
  'project.updated': 'members',
  'project.deleted': 'members',
  'task.created': 'members',
  'task.updated': 'members',
  'task.deleted': 'members',
  'task.comment_added': 'members',
  'task.detail_changed': 'members',
  'notification.created': 'recipient',
  'time_entry.changed': 'members',
  'timer.changed': 'recipient',
  'note.created': 'members',
  'note.updated': 'members',
  'note.deleted': 'members',
  'status.created': 'members',
  'status.updated': 'members',
  'status.deleted': 'members',
  'field.created': 'members',
  'field.updated': 'members',
  'field.deleted': 'members',
} as const satisfies Record<StreamedEvent['type'], 'members' | 'managers' | 'recipient'>;

/** A browser tab's open event stream. */
export interface StreamSink {
  /** Writes one SSE message (`event` null: the default 'message' event). */
  send(event: string | null, data: unknown): void;
  close(): void;
}

interface Stream {
  id: number;
  userId: string;
  sessionId: string;
  /** Teams the user belonged to when last seen, so a team's deletion still reaches its former members. */
  teamIds: Set<string>;
  sink: StreamSink;
}

interface Logger {
  error(obj: object, msg: string): void;
}

/** Streams per user on one instance (tabs); the oldest is closed beyond this. */
const MAX_STREAMS_PER_USER = 20;

/**
 * This instance's event streams. Every event arrives here from LISTEN/NOTIFY and goes only to the
 * streams of users who may read it through the API at that moment (EVENT_READERS): active members
 * of the event's team (checked in the database per event), only its owner and admins and the
 * invitee for an invitation, the owner of a notification.
 */
export class RealtimeService {
  private readonly streams = new Map<number, Stream>();
  private nextId = 1;
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Db,
    private readonly log: Logger,
  ) {}

  get size(): number {
    return this.streams.size;
  }

  async open(userId: string, sessionId: string, sink: StreamSink): Promise<() => void> {
    const teamIds = new Set(await repo.listTeamIdsByUserId(this.db, userId));
    const stream: Stream = { id: this.nextId++, userId, sessionId, teamIds, sink };
    const mine = [...this.streams.values()].filter((s) => s.userId === userId);
    for (const old of mine.slice(0, Math.max(0, mine.length - MAX_STREAMS_PER_USER + 1))) {
      this.streams.delete(old.id);
      old.sink.close();
    }
    this.streams.set(stream.id, stream);
    return () => this.streams.delete(stream.id);
  }

  /** Delivers events one after another, in the order they arrived. */
  dispatch(event: DomainEvent): void {
    this.queue = this.queue
      .then(() => this.deliver(event))
      .catch((err) => this.log.error({ err, event: event.type }, 'realtime: delivering an event failed'));
  }

  /** Events may have been missed (LISTEN reconnected): every client refreshes everything. */
  resync(): void {
    for (const s of this.streams.values()) s.sink.send('resync', {});
  }

  closeAll(): void {
    for (const s of this.streams.values()) s.sink.close();
    this.streams.clear();
  }

  private async deliver(event: DomainEvent): Promise<void> {
    if (this.streams.size === 0) return;
    if (event.type === 'session.revoked') {
      this.closeSessions(event.userId, event.sessionId);
      return;
    }
    const recipients = await this.recipients(event);
    if (recipients.size === 0) return;
    for (const s of this.streams.values()) {
      const view = recipients.get(s.userId);
      if (view) s.sink.send(null, view);
    }
  }

  /** Ends the streams of a revoked session (or, with `sessionId` null, of every session of the user). */
  private closeSessions(userId: string, sessionId: string | null): void {
    for (const s of [...this.streams.values()]) {
      if (s.userId === userId && (sessionId === null || s.sessionId === sessionId)) {
        this.streams.delete(s.id);
        s.sink.close();
      }
    }
  }

  /**
   * Of the team's members, those who may read the event (decision 0031): everyone but a guest; a guest, an event of a
   * project given to them (a task's, a status's, a time entry's, the project's own), a change of their own membership,
   * and the team's own events, never an event of another project nor of people they do not see.
   */
  private async readersOf<R extends { userId: string; role: TeamRole }>(event: StreamedEvent & { teamId: string }, roles: R[]) {
    const guests = roles.filter((r) => !seesWholeTeam(r.role)).map((r) => r.userId);
    if (guests.length === 0) return roles;
    let allowed: Set<string>;
    if ('projectId' in event) allowed = await repo.listProjectGuestIds(this.db, event.projectId, guests);
    else if (event.type.startsWith('team.member_') && 'userId' in event) allowed = new Set([event.userId]);
    else if (event.type.startsWith('note.')) allowed = new Set();
    else allowed = new Set(guests);
    return roles.filter((r) => seesWholeTeam(r.role) || allowed.has(r.userId));
  }

  /** The users of this instance's streams who may see the event, each with what they get of it. */
  private async recipients(event: StreamedEvent): Promise<Map<string, object>> {
    const local = [...new Set([...this.streams.values()].map((s) => s.userId))];
    const readers = EVENT_READERS[event.type];
    // A person's own event, of no team (their timer): their streams only.
    if (!('teamId' in event)) return new Map(local.includes(event.userId) ? [[event.userId, event]] : []);
    if (readers === 'recipient' && 'userId' in event) return new Map(local.includes(event.userId) ? [[event.userId, event]] : []);

    const roles = await this.readersOf(event, await repo.listActiveRoles(this.db, event.teamId, local));
    const members = new Set(roles.map((r) => r.userId));
    const result = new Map<string, object>();
    if (readers === 'managers' && 'email' in event) {
      // An invitation goes out as its readers see it (GET /api/teams/:id/invitations, GET
      // /api/invitations), without who acted: the actor of a decline is an invitee nobody else reads.
      const { actorId: _, ...invitation } = event;
      for (const { userId, role } of roles) if (canManageMembers(role)) result.set(userId, invitation);
      for (const id of await repo.filterByEmail(this.db, event.email, local)) result.set(id, invitation);
    } else {
      for (const userId of members) result.set(userId, event);
    }
    if (event.type === 'team.member_removed') result.set(event.userId, event);
    if (event.type === 'team.deleted') {
      for (const s of this.streams.values()) if (s.teamIds.has(event.teamId)) result.set(s.userId, event);
    }

    // Keep each stream's view of its user's teams current.
    const leaving = event.type === 'team.deleted' || event.type === 'team.member_removed';
    for (const s of this.streams.values()) {
      if (members.has(s.userId) && !leaving) s.teamIds.add(event.teamId);
      else if (event.type === 'team.deleted' || (event.type === 'team.member_removed' && event.userId === s.userId)) {
        s.teamIds.delete(event.teamId);
      }
    }
    return result;
  }
}
