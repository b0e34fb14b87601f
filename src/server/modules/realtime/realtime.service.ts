import type { Db } from '../../db/client';
import type { DomainEvent } from '../../lib/events';
import * as repo from './realtime.repo';

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
 * streams of users who may see it at that moment: active members of the event's team (checked in
 * the database per event), the invitee of an invitation, the owner of a notification.
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
      if (recipients.has(s.userId)) s.sink.send(null, event);
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

  private async recipients(event: Exclude<DomainEvent, { type: 'session.revoked' }>): Promise<Set<string>> {
    const local = [...new Set([...this.streams.values()].map((s) => s.userId))];
    if (event.type === 'notification.created') return new Set(local.filter((id) => id === event.userId));

    const members = new Set(await repo.filterActiveMembers(this.db, event.teamId, local));
    const result = new Set(members);
    if (event.type.startsWith('invitation.') && 'email' in event) {
      for (const id of await repo.filterByEmail(this.db, event.email, local)) result.add(id);
    }
    if (event.type === 'team.member_removed' && 'userId' in event) result.add(event.userId);
    if (event.type === 'team.deleted') {
      for (const s of this.streams.values()) if (s.teamIds.has(event.teamId)) result.add(s.userId);
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
