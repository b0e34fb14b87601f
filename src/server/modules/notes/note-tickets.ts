import { createHmac, timingSafeEqual } from 'node:crypto';

/** How long a socket ticket opens the socket (the client asks for a new one every 30 s). */
export const TICKET_LIFETIME_SECONDS = 60;

export interface NoteTicket {
  userId: string;
  sessionId: string;
  noteId: string;
  /** Unix seconds. */
  exp: number;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * Tickets that open a note's socket: `<payload>.<HMAC-SHA256>` in base64url, the payload naming the user, their session,
 * the note and the expiry. A browser's WebSocket cannot send an Authorization header, and the bearer token must never
 * go into a URL (logs, proxies): the ticket is short-lived and good for that one note only. The key is derived from
 * the app's secret for this use alone.
 */
export class NoteTickets {
  private readonly key: Buffer;

  constructor(
    secret: string,
    private readonly now: () => number = Date.now,
  ) {
    this.key = createHmac('sha256', secret).update('crewboard/note-socket-tickets/v1').digest();
  }

  issue(userId: string, sessionId: string, noteId: string): { ticket: string; expiresAt: Date } {
    const exp = Math.floor(this.now() / 1000) + TICKET_LIFETIME_SECONDS;
    const payload = Buffer.from(JSON.stringify([userId, sessionId, noteId, exp])).toString('base64url');
    return { ticket: `${payload}.${this.sign(payload)}`, expiresAt: new Date(exp * 1000) };
  }

  /** The ticket's claims when it is genuine, unexpired and for `noteId`; else null. */
  verify(ticket: string | undefined, noteId: string): NoteTicket | null {
    if (!ticket || ticket.length > 600) return null;
    const [payload, sig, ...rest] = ticket.split('.');
    if (!payload || !sig || rest.length > 0) return null;
    const given = Buffer.from(sig, 'base64url');
    const expected = Buffer.from(this.sign(payload), 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    let claims: unknown;
    try {
      claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    } catch {
      return null;
    }
    if (!Array.isArray(claims) || claims.length !== 4) return null;
    const [userId, sessionId, ticketNoteId, exp] = claims as unknown[];
    if (typeof userId !== 'string' || typeof sessionId !== 'string' || typeof ticketNoteId !== 'string') return null;
    if (typeof exp !== 'number' || exp * 1000 <= this.now()) return null;
    if (ticketNoteId !== noteId.toLowerCase() || !UUID.test(userId) || !UUID.test(sessionId)) return null;
    return { userId, sessionId, noteId: ticketNoteId, exp };
  }

  private sign(payload: string): string {
    return createHmac('sha256', this.key).update(payload).digest('base64url');
  }
}
