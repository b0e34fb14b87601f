import { randomUUID } from 'node:crypto';
import * as decoding from 'lib0/decoding';
import * as encoding from 'lib0/encoding';
import type { WebSocket } from 'ws';
import * as awarenessProtocol from 'y-protocols/awareness';
import * as syncProtocol from 'y-protocols/sync';
import * as Y from 'yjs';
import { canContribute } from '../../../domain/permissions';
import { NOTE_SOCKET_CLOSE } from '../../../domain/schemas/note';
import type { Db } from '../../db/client';
import type { DomainEvent } from '../../lib/events';
import type { EventChannel, NoteChannelMessage } from '../realtime';
import type { NoteCompactor } from './notes.compaction';
import * as repo from './notes.repo';

/** y-websocket's message types. */
const MESSAGE_SYNC = 0;
const MESSAGE_AWARENESS = 1;
const MESSAGE_QUERY_AWARENESS = 3;

/**
 * An update whose base64 fits a NOTIFY (limit 8,000 bytes, with the JSON around it) goes inline; a larger one is
 * stored first and sent as its note_updates id.
 */
export const INLINE_UPDATE_MAX_BYTES = 5000;
/** Compaction after this many updates of one note on this instance… */
const COMPACT_EVERY_UPDATES = 100;
/** …or after this long without any. */
const COMPACT_IDLE_MS = 10_000;
/** Open sockets are checked against the database this often (events close them at once; this is the safety net). */
const RECHECK_MS = 30_000;
/** A failed write of updates is tried again after this long (they stay in memory meanwhile). */
const RETRY_MS = 1000;

/** Origins of changes to a room's document that are not a socket's. */
const REMOTE = Symbol('remote');
const LOADED = Symbol('loaded');

interface Logger {
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

interface Conn {
  socket: WebSocket;
  userId: string;
  sessionId: string;
  /** Awareness client ids this socket set (removed when it leaves). */
  awarenessIds: Set<number>;
  /**
   * A viewer's or a guest's socket (issue 41): it receives the document and shares its presence, and every change it
   * sends is dropped. Follows the person's role (a role change, the periodic re-check).
   */
  readOnly: boolean;
}

/** One note open on this instance: its document, awareness and sockets. */
class Room {
  readonly doc = new Y.Doc();
  readonly awareness = new awarenessProtocol.Awareness(this.doc);
  readonly conns = new Set<Conn>();
  ready: Promise<void> = Promise.resolve();
  closing: Promise<void> | null = null;
  /** Updates waiting to be stored. */
  pending: { update: Uint8Array; userId: string | null }[] = [];
  writing: Promise<void> | null = null;
  sinceCompaction = 0;
  idleTimer: NodeJS.Timeout | null = null;

  constructor(
    readonly noteId: string,
    readonly teamId: string,
  ) {
    this.awareness.setLocalState(null);
  }
}

export interface CollabOptions {
  db: Db;
  channel: EventChannel;
  compactor: NoteCompactor;
  log: Logger;
}

const send = (conn: Conn, message: Uint8Array) => {
  if (conn.socket.readyState === conn.socket.OPEN) conn.socket.send(message, { binary: true });
};

function syncStep1(doc: Y.Doc): Uint8Array {
  const encoder = encoding.createEncoder();
  encoding.writeVarUint(encoder, MESSAGE_SYNC);
  syncProtocol.writeSyncStep1(encoder, doc);
  return encoding.toUint8Array(encoder);
}

function updateMessage(update: Uint8Array): Uint8Array {
  const encoder = encoding.createEncoder();
  encoding.writeVarUint(encoder, MESSAGE_SYNC);
  syncProtocol.writeUpdate(encoder, update);
  return encoding.toUint8Array(encoder);
}

function awarenessMessage(update: Uint8Array): Uint8Array {
  const encoder = encoding.createEncoder();
  encoding.writeVarUint(encoder, MESSAGE_AWARENESS);
  encoding.writeVarUint8Array(encoder, update);
  return encoding.toUint8Array(encoder);
}

/**
 * The notes' collaboration on this instance (issue 25): an in-memory Y.Doc per open note, loaded from its compacted
 * state and the updates after it, unloaded (after storing everything) when its last socket leaves. Each update from a
 * socket is applied, sent to the note's other sockets here, appended to note_updates, and sent to the other instances
 * through the LISTEN/NOTIFY channel (inline when small, else by reference to its row). Awareness (cursors, names) goes
 * the same way, never stored.
 */
export class NotesCollab {
  /** This instance, in the channel's messages (each instance ignores its own). */
  readonly instanceId = randomUUID();
  private readonly rooms = new Map<string, Room>();
  private readonly unsubscribe: (() => void)[] = [];
  private recheckTimer: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(private readonly options: CollabOptions) {
    const { channel } = options;
    this.unsubscribe.push(
      channel.onNoteMessage((message) => this.receive(message)),
      channel.onDomainEvent((event) => this.onDomainEvent(event)),
      channel.onReconnect(() => this.reloadAll()),
    );
    this.recheckTimer = setInterval(() => {
      this.recheckAll().catch((err) => options.log.warn({ err }, 'notes: re-checking sockets failed'));
    }, RECHECK_MS);
    this.recheckTimer.unref();
  }

  /** Open notes and sockets on this instance (load script, tests). */
  get stats(): { rooms: number; sockets: number } {
    let sockets = 0;
    for (const room of this.rooms.values()) sockets += room.conns.size;
    return { rooms: this.rooms.size, sockets };
  }

  /** Whether the note is loaded here (it unloads once its last socket left and it was stored). */
  isOpen(noteId: string): boolean {
    return this.rooms.has(noteId);
  }

  /**
   * Serves one socket of a note whose access was checked. Messages that arrive while the note loads wait for it.
   * `buffered` are those that arrived during the checks.
   */
  async join(
    socket: WebSocket,
    noteId: string,
    teamId: string,
    access: { userId: string; sessionId: string; readOnly: boolean },
    buffered: Buffer[],
  ) {
    const { userId, sessionId, readOnly } = access;
    const conn: Conn = { socket, userId, sessionId, awarenessIds: new Set(), readOnly };
    const room = await this.openRoom(noteId, teamId);
    if (this.stopped) {
      socket.close(1001, 'server closing');
      return;
    }
    room.conns.add(conn);
    // The route's listener kept filling `buffered` while the room opened: the same array goes on as the queue.
    const queue = buffered;
    let ready = false;
    const handle = (data: Buffer) => {
      try {
        this.onMessage(room, conn, new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
      } catch (err) {
        this.options.log.warn({ err, noteId }, 'notes: a socket sent a message that could not be read');
        socket.close(1007, 'invalid message');
      }
    };
    socket.removeAllListeners('message');
    socket.on('message', (data: Buffer | ArrayBuffer | Buffer[]) => {
      const buffer = Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data);
      if (ready) handle(buffer);
      else queue.push(buffer);
    });
    socket.on('close', () => this.leave(room, conn));
    if (socket.readyState !== socket.OPEN) {
      this.leave(room, conn);
      return;
    }
    try {
      await room.ready;
    } catch {
      socket.close(1011, 'the note could not be loaded');
      return;
    }
    if (socket.readyState !== socket.OPEN) return;
    send(conn, syncStep1(room.doc));
    const states = room.awareness.getStates();
    if (states.size > 0) {
      send(conn, awarenessMessage(awarenessProtocol.encodeAwarenessUpdate(room.awareness, [...states.keys()])));
    }
    ready = true;
    for (const data of queue.splice(0)) handle(data);
  }

  /**
   * Applies a change the server made and stored itself (a restore) to the note's live document here, if it is open:
   * its sockets receive it. The other instances get it through `announce`.
   */
  applyStored(noteId: string, update: Uint8Array): void {
    const room = this.rooms.get(noteId);
    if (room && !room.closing) Y.applyUpdate(room.doc, update, REMOTE);
  }

  /** Stores what this instance holds of the note now (before a version is taken or a restore is computed). */
  async flush(noteId: string): Promise<void> {
    const room = this.rooms.get(noteId);
    if (room) await this.writePending(room);
  }

  /** Sends a change stored by the caller (a restore) to the other instances: inline when small, else by reference. */
  async announce(noteId: string, update: Uint8Array, ref: number): Promise<void> {
    await this.publishUpdate(noteId, update, update.length <= INLINE_UPDATE_MAX_BYTES ? null : ref);
  }

  /** Closes the sockets of the note (deleted: 4404). */
  closeNote(noteId: string, code: number): void {
    const room = this.rooms.get(noteId);
    if (room) for (const conn of [...room.conns]) conn.socket.close(code);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const off of this.unsubscribe) off();
    if (this.recheckTimer) clearInterval(this.recheckTimer);
    for (const room of this.rooms.values()) for (const conn of room.conns) conn.socket.close(1001, 'server closing');
    // Each room stores and compacts as its last socket leaves; wait for those, and for rooms with none left.
    await Promise.all(
      [...this.rooms.values()].map((room) => {
        room.closing ??= this.unload(room);
        return room.closing;
      }),
    ).catch((err) => this.options.log.error({ err }, 'notes: storing open notes on close failed'));
  }

  // -------------------------------------------------------------------------------------------------------------

  private async openRoom(noteId: string, teamId: string): Promise<Room> {
    for (;;) {
      const existing = this.rooms.get(noteId);
      if (!existing) break;
      if (!existing.closing) return existing;
      await existing.closing.catch(() => {});
    }
    const room = new Room(noteId, teamId);
    this.rooms.set(noteId, room);
    room.doc.on('update', (update: Uint8Array, origin: unknown) => this.onDocUpdate(room, update, origin));
    room.awareness.on(
      'update',
      ({ added, updated, removed }: { added: number[]; updated: number[]; removed: number[] }, origin: unknown) =>
        this.onAwarenessUpdate(room, [...added, ...updated, ...removed], added, removed, origin),
    );
    // Registered first, loaded second: updates from other instances that arrive meanwhile are applied too (Yjs
    // merges them in any order).
    room.ready = this.load(room);
    return room;
  }

  private async load(room: Room): Promise<void> {
    const stored = await this.options.db.transaction((tx) => repo.readDocument(tx, room.noteId), {
      isolationLevel: 'repeatable read',
    });
    Y.transact(
      room.doc,
      () => {
        if (stored.state) Y.applyUpdate(room.doc, stored.state, LOADED);
        for (const row of stored.updates) Y.applyUpdate(room.doc, row.update, LOADED);
      },
      LOADED,
    );
  }

  private onMessage(room: Room, conn: Conn, data: Uint8Array): void {
    const decoder = decoding.createDecoder(data);
    const type = decoding.readVarUint(decoder);
    switch (type) {
      case MESSAGE_SYNC: {
        // A read-only socket may ask for the document (step 1), never send it changes (step 2, update).
        if (conn.readOnly && decoding.peekVarUint(decoder) !== syncProtocol.messageYjsSyncStep1) break;
        const encoder = encoding.createEncoder();
        encoding.writeVarUint(encoder, MESSAGE_SYNC);
        syncProtocol.readSyncMessage(decoder, encoder, room.doc, conn);
        if (encoding.length(encoder) > 1) send(conn, encoding.toUint8Array(encoder));
        break;
      }
      case MESSAGE_AWARENESS:
        awarenessProtocol.applyAwarenessUpdate(room.awareness, decoding.readVarUint8Array(decoder), conn);
        break;
      case MESSAGE_QUERY_AWARENESS: {
        const clients = [...room.awareness.getStates().keys()];
        send(conn, awarenessMessage(awarenessProtocol.encodeAwarenessUpdate(room.awareness, clients)));
        break;
      }
      default:
        // Auth messages (2) and anything newer: nothing to do.
        break;
    }
  }

  private onDocUpdate(room: Room, update: Uint8Array, origin: unknown): void {
    if (origin === LOADED) return;
    const message = updateMessage(update);
    for (const conn of room.conns) if (conn !== origin) send(conn, message);
    if (origin === REMOTE) return;
    const userId = this.isConn(room, origin) ? origin.userId : null;
    room.pending.push({ update, userId });
    room.sinceCompaction++;
    if (update.length <= INLINE_UPDATE_MAX_BYTES) {
      // Small: to the other instances at once (stored meanwhile).
      void this.publishUpdate(room.noteId, update, null);
    }
    this.scheduleWrite(room);
  }

  private isConn(room: Room, origin: unknown): origin is Conn {
    return room.conns.has(origin as Conn);
  }

  private onAwarenessUpdate(room: Room, changed: number[], added: number[], removed: number[], origin: unknown): void {
    if (this.isConn(room, origin)) {
      for (const id of added) origin.awarenessIds.add(id);
      for (const id of removed) origin.awarenessIds.delete(id);
    }
    if (changed.length === 0) return;
    const update = awarenessProtocol.encodeAwarenessUpdate(room.awareness, changed);
    // To every socket, the sender's too: y-websocket's client counts any message as a sign of life.
    const message = awarenessMessage(update);
    for (const conn of room.conns) send(conn, message);
    if (origin === REMOTE) return;
    const data = Buffer.from(update).toString('base64');
    if (data.length > INLINE_UPDATE_MAX_BYTES * 1.4) return;
    this.options.channel
      .publishNote({ kind: 'note', from: this.instanceId, noteId: room.noteId, what: 'awareness', data })
      .catch((err) => this.options.log.warn({ err }, 'notes: NOTIFY of awareness failed'));
  }

  private publishUpdate(noteId: string, update: Uint8Array, ref: number | null): Promise<void> {
    const message: NoteChannelMessage =
      ref === null
        ? { kind: 'note', from: this.instanceId, noteId, what: 'update', data: Buffer.from(update).toString('base64') }
        : { kind: 'note', from: this.instanceId, noteId, what: 'update', ref };
    return this.options.channel
      .publishNote(message)
      .catch((err) => this.options.log.warn({ err, noteId }, 'notes: NOTIFY of an update failed'));
  }

  private scheduleWrite(room: Room): void {
    if (room.idleTimer) clearTimeout(room.idleTimer);
    room.idleTimer = setTimeout(() => {
      room.idleTimer = null;
      this.compact(room);
    }, COMPACT_IDLE_MS);
    room.idleTimer.unref();
    if (!room.writing) {
      room.writing = new Promise<void>((resolve) => setImmediate(resolve)).then(() => this.writeLoop(room));
    }
  }

  /** Stores pending updates, batch after batch, in order; a failed batch is retried (kept in front). */
  private async writeLoop(room: Room): Promise<void> {
    try {
      while (room.pending.length > 0) {
        const batch = room.pending.splice(0);
        let ids: number[];
        try {
          ids = await repo.appendUpdates(this.options.db, room.noteId, batch);
        } catch (err) {
          room.pending.unshift(...batch);
          if (this.isGone(err)) {
            room.pending = [];
            return;
          }
          this.options.log.warn({ err, noteId: room.noteId }, 'notes: storing updates failed, retrying');
          await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
          continue;
        }
        batch.forEach((row, i) => {
          if (row.update.length > INLINE_UPDATE_MAX_BYTES) void this.publishUpdate(room.noteId, row.update, ids[i]!);
        });
        if (room.sinceCompaction >= COMPACT_EVERY_UPDATES) this.compact(room);
      }
    } finally {
      room.writing = null;
    }
  }

  /** The note was deleted under us (its rows cascade): nothing to store. */
  private isGone(err: unknown): boolean {
    let e: unknown = err;
    for (let i = 0; i < 4 && e && typeof e === 'object'; i++) {
      if ((e as { code?: unknown }).code === '23503') return true;
      e = (e as { cause?: unknown }).cause;
    }
    return false;
  }

  private async writePending(room: Room): Promise<void> {
    while (room.writing || room.pending.length > 0) {
      if (!room.writing) room.writing = this.writeLoop(room);
      await room.writing;
    }
  }

  private compact(room: Room): void {
    room.sinceCompaction = 0;
    void this.writePending(room)
      .then(() => this.options.compactor.compact(room.noteId))
      .catch((err) => this.options.log.warn({ err, noteId: room.noteId }, 'notes: compaction failed'));
  }

  private leave(room: Room, conn: Conn): void {
    if (!room.conns.delete(conn)) return;
    if (conn.awarenessIds.size > 0) awarenessProtocol.removeAwarenessStates(room.awareness, [...conn.awarenessIds], null);
    if (room.conns.size === 0 && !room.closing) room.closing = this.unload(room);
  }

  /** Stores and compacts the note, then forgets it. */
  private async unload(room: Room): Promise<void> {
    try {
      await room.ready.catch(() => {});
      if (room.idleTimer) clearTimeout(room.idleTimer);
      await this.writePending(room);
      await this.options.compactor.compact(room.noteId);
    } catch (err) {
      this.options.log.warn({ err, noteId: room.noteId }, 'notes: storing a note on unload failed');
    } finally {
      if (this.rooms.get(room.noteId) === room) this.rooms.delete(room.noteId);
      room.awareness.destroy();
      room.doc.destroy();
    }
  }

  private receive(message: NoteChannelMessage): void {
    if (message.from === this.instanceId) return;
    const room = this.rooms.get(message.noteId);
    if (!room || room.closing) return;
    try {
      if (message.what === 'awareness' && message.data) {
        awarenessProtocol.applyAwarenessUpdate(room.awareness, Buffer.from(message.data, 'base64'), REMOTE);
      } else if (message.what === 'update' && message.data) {
        Y.applyUpdate(room.doc, Buffer.from(message.data, 'base64'), REMOTE);
      } else if (message.what === 'update' && typeof message.ref === 'number') {
        void this.fetchUpdate(room, message.ref);
      }
    } catch (err) {
      this.options.log.warn({ err, noteId: message.noteId }, 'notes: a message from another instance could not be applied');
    }
  }

  private async fetchUpdate(room: Room, ref: number): Promise<void> {
    try {
      const row = await repo.getUpdate(this.options.db, ref);
      if (row && row.noteId === room.noteId) Y.applyUpdate(room.doc, row.update, REMOTE);
      // Compacted meanwhile: it is in the stored state now.
      else if (!row) await this.reload(room);
    } catch (err) {
      this.options.log.warn({ err, noteId: room.noteId }, 'notes: reading an update by reference failed');
    }
  }

  /** Applies the stored document again (idempotent): after the channel reconnected, updates may have been missed. */
  private async reload(room: Room): Promise<void> {
    const stored = await this.options.db.transaction((tx) => repo.readDocument(tx, room.noteId), {
      isolationLevel: 'repeatable read',
    });
    Y.transact(
      room.doc,
      () => {
        if (stored.state) Y.applyUpdate(room.doc, stored.state);
        for (const row of stored.updates) Y.applyUpdate(room.doc, row.update);
      },
      REMOTE,
    );
  }

  private reloadAll(): void {
    for (const room of this.rooms.values()) {
      if (room.closing) continue;
      this.reload(room).catch((err) => this.options.log.warn({ err, noteId: room.noteId }, 'notes: reload failed'));
    }
  }

  private onDomainEvent(event: DomainEvent): void {
    switch (event.type) {
      case 'team.member_updated':
        // A role change: a member made a viewer or a guest stops writing at once (and the other way round).
        for (const room of this.rooms.values()) {
          if (room.teamId !== event.teamId) continue;
          for (const conn of room.conns) if (conn.userId === event.userId) void this.refreshRole(room, conn);
        }
        break;
      case 'team.member_removed':
        this.closeWhere(
          (room, conn) => room.teamId === event.teamId && conn.userId === event.userId,
          NOTE_SOCKET_CLOSE.forbidden,
        );
        break;
      case 'team.deleted':
        this.closeWhere((room) => room.teamId === event.teamId, NOTE_SOCKET_CLOSE.gone);
        break;
      case 'note.deleted':
        this.closeNote(event.noteId, NOTE_SOCKET_CLOSE.gone);
        break;
      case 'session.revoked':
        this.closeWhere(
          (_room, conn) => conn.userId === event.userId && (event.sessionId === null || conn.sessionId === event.sessionId),
          NOTE_SOCKET_CLOSE.unauthenticated,
        );
        break;
      default:
        break;
    }
  }

  /** Handles an event published on this instance (it also comes back through the channel: closing twice is harmless). */
  onLocalEvent(event: DomainEvent): void {
    this.onDomainEvent(event);
  }

  private closeWhere(match: (room: Room, conn: Conn) => boolean, code: number): void {
    for (const room of this.rooms.values()) {
      for (const conn of [...room.conns]) if (match(room, conn)) conn.socket.close(code);
    }
  }

  /** The socket's write right read again (its role may have changed); a failure leaves it as it was. */
  private async refreshRole(room: Room, conn: Conn): Promise<void> {
    try {
      const access = await repo.socketAccess(this.options.db, room.noteId, conn.userId, conn.sessionId);
      if (access?.role) conn.readOnly = !canContribute(access.role);
    } catch (err) {
      this.options.log.warn({ err, noteId: room.noteId }, 'notes: re-reading a role failed');
    }
  }

  /** Every open socket against the database: membership, the note, the session. */
  private async recheckAll(): Promise<void> {
    for (const room of [...this.rooms.values()]) {
      const checked = new Map<string, number | null>();
      for (const conn of [...room.conns]) {
        const key = `${conn.userId}|${conn.sessionId}`;
        if (!checked.has(key)) {
          const access = await repo.socketAccess(this.options.db, room.noteId, conn.userId, conn.sessionId);
          if (access?.role) {
            const readOnly = !canContribute(access.role);
            for (const other of room.conns) if (other.userId === conn.userId) other.readOnly = readOnly;
          }
          checked.set(
            key,
            !access
              ? NOTE_SOCKET_CLOSE.gone
              : !access.role
                ? NOTE_SOCKET_CLOSE.forbidden
                : !access.sessionLive
                  ? NOTE_SOCKET_CLOSE.unauthenticated
                  : null,
          );
        }
        const code = checked.get(key);
        if (code) conn.socket.close(code);
      }
    }
  }
}
