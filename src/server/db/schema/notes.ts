/** Collaborative notes and their Yjs documents, updates and versions. */
import { bigint, bigserial, boolean, check, index, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { NOTE_VERSION_KINDS } from '../../../domain/constants';
import { bytea, createdAt, id, oneOf, requiredRef, textOf, updatedAt } from './columns';
import { projects } from './projects';
import { teams } from './teams';
import { users } from './users';

/**
 * Notes (issue 25): a team's collaborative documents, optionally tied to a project. The document itself is a Yjs doc
 * (note_documents + note_updates); `plainText` is its text, kept by the server when it compacts, for search (the
 * generated `search_vector` column, like the tasks', is not in this schema).
 */
export const notes = pgTable(
  'notes',
  {
    id: id(),
    teamId: requiredRef('team_id', () => teams.id, 'cascade'),
    projectId: uuid('project_id').references(() => projects.id, { onDelete: 'set null' }),
    title: text('title').notNull(),
    authorId: uuid('author_id').references(() => users.id, { onDelete: 'set null' }),
    pinned: boolean('pinned').notNull().default(false),
    plainText: text('plain_text').notNull().default(''),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    lastEditedById: uuid('last_edited_by_id').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [index('notes_team_idx').on(t.teamId, t.updatedAt), index('notes_project_idx').on(t.projectId)],
);

/** A note's compacted Yjs state: every update up to `compactedThrough` (a note_updates id) merged into one. */
export const noteDocuments = pgTable('note_documents', {
  noteId: uuid('note_id')
    .primaryKey()
    .references(() => notes.id, { onDelete: 'cascade' }),
  state: bytea('state').notNull(),
  compactedThrough: bigint('compacted_through', { mode: 'number' }).notNull().default(0),
  updatedAt: updatedAt(),
});

/**
 * Yjs updates appended as they arrive (then compacted into note_documents). The id orders them, and other instances
 * fetch an update by id when its NOTIFY carries only a reference (payloads are limited to 8,000 bytes).
 */
export const noteUpdates = pgTable(
  'note_updates',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    noteId: requiredRef('note_id', () => notes.id, 'cascade'),
    update: bytea('update').notNull(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [index('note_updates_note_idx').on(t.noteId, t.id)],
);

/** Versions of a note: its full Yjs state at a moment, kept every few minutes of editing, on request, and on restore. */
export const noteVersions = pgTable(
  'note_versions',
  {
    id: id(),
    noteId: requiredRef('note_id', () => notes.id, 'cascade'),
    kind: textOf('kind', NOTE_VERSION_KINDS).notNull(),
    state: bytea('state').notNull(),
    title: text('title').notNull(),
    createdById: uuid('created_by_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    index('note_versions_note_idx').on(t.noteId, t.createdAt),
    check('note_versions_kind_check', oneOf(t.kind, NOTE_VERSION_KINDS)),
  ],
);
