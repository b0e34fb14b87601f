import { z } from 'zod';
import { NOTE_VERSION_KINDS } from '../constants';
import { isoDateTime, userSummary, uuid } from './common';

/** Notes (issue 25): a team's collaborative documents. The content is a Yjs doc edited over the note's WebSocket. */
export const NOTE_LIMITS = { titleMax: 200, listMax: 200, versionsMax: 100 } as const;

/** The Yjs XmlFragment that holds a note's rich text (Tiptap's Collaboration extension field). */
export const NOTE_FRAGMENT = 'default';

/**
 * The note socket's close codes: the client fetches a new ticket after 4401 and stops retrying after 4403 (no longer a
 * member) or 4404 (the note was deleted).
 */
export const NOTE_SOCKET_CLOSE = { unauthenticated: 4401, forbidden: 4403, gone: 4404 } as const;

const noteTitle = z
  .string({ error: 'Title is required' })
  .trim()
  .min(1, 'Title is required')
  .max(NOTE_LIMITS.titleMax, `Title must be at most ${NOTE_LIMITS.titleMax} characters`);

export const noteDto = z.object({
  id: uuid,
  teamId: uuid,
  teamName: z.string(),
  projectId: uuid.nullable(),
  projectName: z.string().nullable(),
  title: z.string(),
  pinned: z.boolean(),
  /** The start of the note's text (list previews). */
  excerpt: z.string(),
  author: userSummary.nullable(),
  lastEditedBy: userSummary.nullable(),
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
  /** The caller may delete it (its author, or the team's owner or an admin). */
  canDelete: z.boolean(),
});
export type NoteDto = z.infer<typeof noteDto>;

export const noteListQuery = z.object({
  teamId: uuid.optional(),
  projectId: uuid.optional(),
  q: z.string().trim().max(200).optional(),
});
export type NoteListQuery = z.infer<typeof noteListQuery>;

export const noteListDto = z.object({ notes: z.array(noteDto) });
export type NoteListDto = z.infer<typeof noteListDto>;

export const createNoteInput = z
  .object({
    teamId: uuid,
    projectId: uuid.nullable().default(null),
    title: noteTitle,
  })
  .strict();
export type CreateNoteInput = z.infer<typeof createNoteInput>;

export const updateNoteInput = z
  .object({
    title: noteTitle.optional(),
    pinned: z.boolean().optional(),
    projectId: uuid.nullable().optional(),
  })
  .strict();
export type UpdateNoteInput = z.infer<typeof updateNoteInput>;

/** A one-use, short-lived ticket that opens the note's socket (the bearer token never goes into a URL). */
export const noteSocketTicketDto = z.object({
  ticket: z.string(),
  expiresAt: isoDateTime,
  /** `exp=…&sig=…` to append to the note's image paths (`/api/notes/<id>/images/<file>`): they expire (issue 35). */
  imageQuery: z.string(),
});
export type NoteSocketTicketDto = z.infer<typeof noteSocketTicketDto>;

export const noteVersionDto = z.object({
  id: uuid,
  kind: z.enum(NOTE_VERSION_KINDS),
  title: z.string(),
  createdAt: isoDateTime,
  createdBy: userSummary.nullable(),
});
export type NoteVersionDto = z.infer<typeof noteVersionDto>;

export const noteVersionListDto = z.object({ versions: z.array(noteVersionDto) });
export type NoteVersionListDto = z.infer<typeof noteVersionListDto>;

/** One version with its content: the Yjs state as base64 (the client renders it read-only). */
export const noteVersionDetailDto = noteVersionDto.extend({ state: z.string() });
export type NoteVersionDetailDto = z.infer<typeof noteVersionDetailDto>;
