import type { FastifyInstance } from 'fastify';
import WebSocket from 'ws';
import { WebsocketProvider } from 'y-websocket';
import * as Y from 'yjs';
import { NOTE_FRAGMENT } from '../../src/domain/schemas/note';
import type { TestUser } from '../factories';

/** Real WebSocket clients of a note's socket (issue 25), as the browser's y-websocket provider talks to it. */

export async function ticketFor(app: FastifyInstance, user: TestUser, noteId: string): Promise<string> {
  const res = await app.inject({ method: 'POST', url: `/api/notes/${noteId}/socket-ticket`, headers: user.auth });
  if (res.statusCode !== 200) throw new Error(`ticket: ${res.statusCode} ${res.body}`);
  return (res.json() as { ticket: string }).ticket;
}

export const wsOrigin = (baseUrl: string) => baseUrl.replace(/^http/, 'ws');

/** A raw socket: resolves its close code. */
export function rawSocket(baseUrl: string, noteId: string, ticket: string | null) {
  const query = ticket === null ? '' : `?ticket=${encodeURIComponent(ticket)}`;
  const socket = new WebSocket(`${wsOrigin(baseUrl)}/api/notes/${noteId}/socket${query}`);
  const messages: Buffer[] = [];
  socket.on('message', (data: Buffer) => messages.push(data));
  const closed = new Promise<{ code: number; at: number }>((resolve) => {
    socket.on('close', (code) => resolve({ code, at: Date.now() }));
    socket.on('error', () => {});
  });
  const opened = new Promise<void>((resolve) => socket.on('open', () => resolve()));
  return { socket, messages, closed, opened };
}

export interface NoteClient {
  doc: Y.Doc;
  provider: WebsocketProvider;
  /** Close codes seen, in order. */
  closes: number[];
  synced: Promise<void>;
  text(): string;
  /** Appends text at the end of the first paragraph (created when missing). */
  type(text: string): void;
  destroy(): void;
}

/** A y-websocket provider (ws in Node, no BroadcastChannel) on a Y.Doc of its own, as the editor uses it. */
export function noteClient(baseUrl: string, noteId: string, ticket: string, doc = new Y.Doc()): NoteClient {
  const provider = new WebsocketProvider(`${wsOrigin(baseUrl)}/api/notes`, `${noteId}/socket`, doc, {
    WebSocketPolyfill: WebSocket as unknown as typeof globalThis.WebSocket,
    params: { ticket },
    disableBc: true,
    maxBackoffTime: 500,
  });
  const closes: number[] = [];
  provider.on('connection-close', (event) => {
    if (event) closes.push(event.code);
    // Refused for good: stop retrying, as the editor does.
    if (event && (event.code === 4403 || event.code === 4404 || event.code === 4401)) provider.disconnect();
  });
  const synced = new Promise<void>((resolve) => {
    if (provider.synced) resolve();
    provider.on('sync', (state: boolean) => {
      if (state) resolve();
    });
  });
  const fragment = doc.getXmlFragment(NOTE_FRAGMENT);
  return {
    doc,
    provider,
    closes,
    synced,
    text: () => fragmentText(doc),
    type(text: string) {
      doc.transact(() => {
        let paragraph = fragment.get(0) as Y.XmlElement | undefined;
        if (!paragraph) {
          paragraph = new Y.XmlElement('paragraph');
          fragment.insert(0, [paragraph]);
        }
        let run = paragraph.get(0) as Y.XmlText | undefined;
        if (!run) {
          run = new Y.XmlText();
          paragraph.insert(0, [run]);
        }
        run.insert(run.length, text);
      });
    },
    destroy() {
      provider.destroy();
      doc.destroy();
    },
  };
}

/** Every paragraph's text, one per line. */
export function fragmentText(doc: Y.Doc): string {
  return doc
    .getXmlFragment(NOTE_FRAGMENT)
    .toArray()
    .map((block) =>
      block instanceof Y.XmlElement
        ? block
            .toArray()
            .map((run) => (run instanceof Y.XmlText ? run.toString() : ''))
            .join('')
        : '',
    )
    .join('\n');
}

/** Polls `check` until it holds (or fails after `timeoutMs`). */
export async function until(check: () => boolean, timeoutMs = 5000, what = 'condition'): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
