import { describe, expect, it } from 'vitest';
import { NoteTickets, TICKET_LIFETIME_SECONDS } from './note-tickets';

const user = '0b7e4c52-6d52-4a53-8f8a-3c1d2e4f5a60';
const session = '1c8f5d63-7e63-4b64-9a9b-4d2e3f5a6b71';
const note = '2d9a6e74-8f74-4c75-8bac-5e3f4a6b7c82';
const other = '3eab7f85-9a85-4d86-9cbd-6f4a5b7c8d93';

describe('NoteTickets', () => {
  it('verifies its own tickets for their note within their minute, several times', () => {
    let now = 1_700_000_000_000;
    const tickets = new NoteTickets('s'.repeat(64), () => now);
    const { ticket, expiresAt } = tickets.issue(user, session, note);
    expect(expiresAt.getTime()).toBe(now + TICKET_LIFETIME_SECONDS * 1000);
    expect(tickets.verify(ticket, note)).toMatchObject({ userId: user, sessionId: session, noteId: note });
    expect(tickets.verify(ticket, note.toUpperCase())).not.toBeNull();
    now += (TICKET_LIFETIME_SECONDS - 1) * 1000;
    expect(tickets.verify(ticket, note)).not.toBeNull();
    now += 1000;
    expect(tickets.verify(ticket, note)).toBeNull();
  });

  it('refuses another note, another key, a changed payload or signature, and garbage', () => {
    const tickets = new NoteTickets('s'.repeat(64));
    const { ticket } = tickets.issue(user, session, note);
    expect(tickets.verify(ticket, other)).toBeNull();
    expect(new NoteTickets('t'.repeat(64)).verify(ticket, note)).toBeNull();
    const [payload, sig] = ticket.split('.') as [string, string];
    const swapped = Buffer.from(JSON.stringify([other, session, note, 9e9])).toString('base64url');
    expect(tickets.verify(`${swapped}.${sig}`, note)).toBeNull();
    expect(tickets.verify(`${payload}.${sig.slice(0, -2)}AA`, note)).toBeNull();
    for (const bad of [undefined, '', '.', 'a.b.c', `${payload}.`, 'x'.repeat(5000)])
      expect(tickets.verify(bad, note)).toBeNull();
  });
});
