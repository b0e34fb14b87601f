import pg from 'pg';
import type { Database } from '../../db/client';
import type { DomainEvent } from '../../lib/events';

const EVENTS_CHANNEL = 'crewboard_events';
/** PostgreSQL's NOTIFY payload limit is 8000 bytes. */
const MAX_PAYLOAD = 7900;

interface Logger {
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/**
 * A message of the notes' collaboration (modules/notes) on the same channel: not a domain event (no `type`), told
 * apart by `kind`, and handed to the notes' listener only.
 */
export interface NoteChannelMessage {
  kind: 'note';
  /** The sending instance (each ignores its own). */
  from: string;
  noteId: string;
  /** 'update': a Yjs update, inline (`data`, base64) or by reference (`ref`, a note_updates id); 'awareness': inline. */
  what: 'update' | 'awareness';
  data?: string;
  ref?: number;
}

export interface EventChannelHandlers {
  onEvent(event: DomainEvent): void;
  /** The listening connection was re-established: events may have been missed meanwhile. */
  onResync(): void;
}

function encodeEvent(event: DomainEvent): string {
  let payload = JSON.stringify(event);
  if (payload.length > MAX_PAYLOAD && 'title' in event) payload = JSON.stringify({ ...event, title: event.title.slice(0, 200) });
  return payload;
}

function decodeMessage(payload: string): DomainEvent | NoteChannelMessage | null {
  try {
    const value = JSON.parse(payload) as DomainEvent | NoteChannelMessage;
    if (value && 'kind' in value && value.kind === 'note') return value;
    return value && 'type' in value && typeof value.type === 'string' ? value : null;
  } catch {
    return null;
  }
}

/**
 * Domain events over PostgreSQL LISTEN/NOTIFY, so every app instance on one database sees every
 * event. PGlite (one process) listens on its single connection; PostgreSQL gets a dedicated client
 * that LISTENs and reconnects with backoff.
 */
export class EventChannel {
  private stopped = false;
  private unlistenPglite: (() => Promise<void>) | null = null;
  private client: pg.Client | null = null;
  private retryTimer: NodeJS.Timeout | null = null;
  private attempt = 0;
  private startedOnce = false;
  /** Events published during this turn of the event loop, sent together at its end. */
  private pending: string[] = [];
  private flushing: Promise<void> | null = null;
  /** Listeners of the notes' messages, and of every domain event received (from any instance, this one's too). */
  private readonly noteListeners = new Set<(message: NoteChannelMessage) => void>();
  private readonly eventListeners = new Set<(event: DomainEvent) => void>();
  private readonly resyncListeners = new Set<() => void>();

  constructor(
    private readonly database: Database,
    private readonly handlers: EventChannelHandlers,
    private readonly log: Logger,
  ) {}

  async start(): Promise<void> {
    if (this.database.pglite) {
      this.unlistenPglite = await this.database.pglite.listen(EVENTS_CHANNEL, (payload) => this.receive(payload));
      return;
    }
    await this.connect();
  }

  /**
   * Sends the event to every instance. Events published in the same turn of the event loop (several
   * requests' changes under load) go out in one statement, in order; the promise settles when it has.
   */
  publish(event: DomainEvent): Promise<void> {
    this.pending.push(encodeEvent(event));
    this.flushing ??= new Promise<void>((resolve) => setImmediate(resolve)).then(() => this.flush());
    return this.flushing;
  }

  /** Sends a notes message to every instance, in order with the events (payloads must stay under MAX_PAYLOAD). */
  publishNote(message: NoteChannelMessage): Promise<void> {
    this.pending.push(JSON.stringify(message));
    this.flushing ??= new Promise<void>((resolve) => setImmediate(resolve)).then(() => this.flush());
    return this.flushing;
  }

  onNoteMessage(listener: (message: NoteChannelMessage) => void): () => void {
    this.noteListeners.add(listener);
    return () => this.noteListeners.delete(listener);
  }

  /** Every domain event as it arrives through the channel, whichever instance published it. */
  onDomainEvent(listener: (event: DomainEvent) => void): () => void {
    this.eventListeners.add(listener);
    return () => this.eventListeners.delete(listener);
  }

  /** The LISTEN connection was re-established: messages may have been missed meanwhile. */
  onReconnect(listener: () => void): () => void {
    this.resyncListeners.add(listener);
    return () => this.resyncListeners.delete(listener);
  }

  private async flush(): Promise<void> {
    const payloads = this.pending;
    this.pending = [];
    this.flushing = null;
    const text = 'select pg_notify($1, p) from unnest($2::text[]) with ordinality as n(p, i) order by i';
    if (this.database.pglite) await this.database.pglite.query(text, [EVENTS_CHANNEL, payloads]);
    else if (this.database.pool) await this.database.pool.query(text, [EVENTS_CHANNEL, payloads]);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    await this.unlistenPglite?.().catch(() => {});
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => {});
  }

  private receive(payload: string) {
    const message = decodeMessage(payload);
    if (!message) return;
    if ('kind' in message) {
      for (const listener of this.noteListeners) listener(message);
      return;
    }
    this.handlers.onEvent(message);
    for (const listener of this.eventListeners) listener(message);
  }

  private async connect(): Promise<void> {
    const connectionString = (this.database.pool as unknown as { options: { connectionString?: string } }).options
      .connectionString;
    const client = new pg.Client({ connectionString });
    client.on('notification', (msg) => {
      if (msg.channel === EVENTS_CHANNEL && msg.payload) this.receive(msg.payload);
    });
    const lost = (err?: Error) => {
      if (this.client !== client) return;
      this.client = null;
      client.end().catch(() => {});
      if (!this.stopped) {
        this.log.warn({ err }, 'realtime: LISTEN connection lost, reconnecting');
        this.scheduleReconnect();
      }
    };
    client.on('error', lost);
    client.on('end', () => lost());
    try {
      await client.connect();
      await client.query(`listen ${EVENTS_CHANNEL}`);
    } catch (err) {
      client.removeAllListeners();
      client.on('error', () => {});
      await client.end().catch(() => {});
      if (this.stopped) return;
      this.log.warn({ err }, 'realtime: LISTEN connect failed, retrying');
      this.scheduleReconnect();
      return;
    }
    if (this.stopped) {
      await client.end().catch(() => {});
      return;
    }
    this.client = client;
    const wasReconnect = this.startedOnce || this.attempt > 0;
    this.startedOnce = true;
    this.attempt = 0;
    if (wasReconnect) {
      this.handlers.onResync();
      for (const listener of this.resyncListeners) listener();
    }
  }

  private scheduleReconnect() {
    if (this.retryTimer || this.stopped) return;
    const delay = Math.min(10_000, 250 * 2 ** this.attempt++) * (0.75 + Math.random() * 0.5);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      this.connect().catch((err) => {
        this.log.error({ err }, 'realtime: reconnect failed');
        this.scheduleReconnect();
      });
    }, delay);
    this.retryTimer.unref();
  }
}
