import { WebsocketProvider } from 'y-websocket';
import type * as Y from 'yjs';
import { NOTE_SOCKET_CLOSE } from '../../../domain/schemas/note';
import { isError } from '../../lib/errors';
import { getSocketTicket } from './api/notes';
import { setNoteImageQuery } from './editor/image-links';

/**
 * The note's collaboration connection: a socket ticket (POST, bearer token through the api client), then y-websocket's
 * provider on `<ws origin>/api/notes/<noteId>/socket?ticket=…`. The ticket is refreshed every 30 s (it lives 60 s) so
 * that a reconnect always carries a fresh one; a close with 4401 fetches a new one and reconnects; 4403 (no longer a
 * member) and 4404 (the note was deleted) stop for good. Edits made while offline stay in the Y.Doc and reach the
 * others on reconnect (the sync protocol exchanges what each side lacks).
 */

export type ConnectionState = 'connecting' | 'connected' | 'offline' | 'reconnecting' | 'stopped';
/** Why the connection stopped for good. */
export type StopReason = 'forbidden' | 'gone';

export interface ConnectionSnapshot {
  state: ConnectionState;
  stopReason: StopReason | null;
  /** The document has been loaded from the server at least once. */
  synced: boolean;
}

export const TICKET_REFRESH_MS = 30_000;
const RETRY_MS = [500, 1_000, 2_000, 5_000];

export const wsOrigin = (location: Pick<Location, 'protocol' | 'host'>) =>
  `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}`;

/** What the socket's close code means for the client. */
export function closeAction(code: number): 'new-ticket' | StopReason | 'retry' {
  if (code === NOTE_SOCKET_CLOSE.unauthenticated) return 'new-ticket';
  if (code === NOTE_SOCKET_CLOSE.forbidden) return 'forbidden';
  if (code === NOTE_SOCKET_CLOSE.gone) return 'gone';
  return 'retry';
}

export class NoteConnection {
  readonly provider: WebsocketProvider;
  private snapshot: ConnectionSnapshot = { state: 'connecting', stopReason: null, synced: false };
  private readonly listeners = new Set<() => void>();
  private refreshTimer: ReturnType<typeof setInterval> | null = null;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private attempts = 0;
  private destroyed = false;

  constructor(
    private readonly noteId: string,
    doc: Y.Doc,
  ) {
    this.provider = new WebsocketProvider(`${wsOrigin(window.location)}/api/notes`, `${noteId}/socket`, doc, {
      connect: false,
      // Another tab of this browser is another client of the server, not a shortcut around its checks.
      disableBc: true,
      params: {},
      maxBackoffTime: 5_000,
    });
    this.provider.on('status', ({ status }) => {
      if (this.snapshot.state === 'stopped') return;
      if (status === 'connected') this.set({ state: 'connected' });
      else if (status === 'disconnected') this.set({ state: navigator.onLine ? 'reconnecting' : 'offline' });
    });
    this.provider.on('sync', (synced) => {
      if (synced) {
        this.attempts = 0;
        this.set({ synced: true });
      }
    });
    // y-websocket stops by itself on a 44xx close and tells us here.
    this.provider.on('closed', ({ code }) => {
      const action = closeAction(code);
      if (action === 'forbidden' || action === 'gone') this.stop(action);
      else this.retryLater();
    });
    window.addEventListener('offline', this.onOffline);
    window.addEventListener('online', this.onOnline);
    this.refreshTimer = setInterval(() => void this.refreshTicket(), TICKET_REFRESH_MS);
    void this.connect();
  }

  getSnapshot = (): ConnectionSnapshot => this.snapshot;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  destroy(): void {
    this.destroyed = true;
    window.removeEventListener('offline', this.onOffline);
    window.removeEventListener('online', this.onOnline);
    if (this.refreshTimer) clearInterval(this.refreshTimer);
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.provider.destroy();
    this.listeners.clear();
  }

  /** Destroyed, or stopped for good. */
  private isOver(): boolean {
    return this.destroyed || this.snapshot.state === 'stopped';
  }

  private set(change: Partial<ConnectionSnapshot>) {
    this.snapshot = { ...this.snapshot, ...change };
    for (const l of this.listeners) l();
  }

  private stop(reason: StopReason) {
    this.provider.disconnect();
    if (this.refreshTimer) clearInterval(this.refreshTimer);
    this.set({ state: 'stopped', stopReason: reason });
  }

  /** A fresh ticket into the provider's params (used by its next connection); false when there is none to be had. */
  private async refreshTicket(): Promise<boolean> {
    if (this.isOver()) return false;
    try {
      const { ticket, imageQuery } = await getSocketTicket(this.noteId);
      this.provider.params = { ticket };
      setNoteImageQuery(this.noteId, imageQuery);
      return true;
    } catch (error) {
      // Tickets go to members only: a 404 now means the note is gone or we are no longer in its team.
      if (isError(error, 'not_found')) this.stop('gone');
      else if (isError(error, 'permission_denied')) this.stop('forbidden');
      return false;
    }
  }

  private async connect(): Promise<void> {
    if (this.isOver()) return;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    if (!navigator.onLine) {
      this.set({ state: 'offline' });
      return;
    }
    const ok = await this.refreshTicket();
    if (this.isOver()) return;
    if (!ok) {
      this.retryLater();
      return;
    }
    this.provider.connect();
  }

  /** Another ticket and another try, after a growing pause (a server that keeps refusing is not hammered). */
  private retryLater() {
    if (this.isOver()) return;
    this.set({ state: navigator.onLine ? 'reconnecting' : 'offline' });
    const delay = RETRY_MS[Math.min(this.attempts++, RETRY_MS.length - 1)]!;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => void this.connect(), delay);
  }

  private readonly onOffline = () => {
    if (this.snapshot.state === 'stopped') return;
    // The browser knows the network is gone: stop the socket now rather than wait for it to time out, so the state
    // shown is true and the edits wait in the document.
    this.provider.disconnect();
    this.set({ state: 'offline' });
  };

  private readonly onOnline = () => {
    if (this.snapshot.state === 'stopped') return;
    this.set({ state: 'reconnecting' });
    void this.connect();
  };
}

/** Caret and presence colours: each keeps 4.5:1 with white text (the caret's name label). */
export const USER_COLORS = ['#b91c1c', '#1d4ed8', '#047857', '#7c3aed', '#be185d', '#c2410c', '#0e7490', '#4d7c0f'] as const;

/** A person's colour, the same in every browser (from their id). */
export function colorFor(userId: string): string {
  let h = 0;
  for (let i = 0; i < userId.length; i++) h = (h * 31 + userId.charCodeAt(i)) >>> 0;
  return USER_COLORS[h % USER_COLORS.length]!;
}
