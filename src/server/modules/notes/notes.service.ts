import type { PersonActor } from '../../../domain/changes';
import * as Y from 'yjs';
import { canContribute, canDeleteNote } from '../../../domain/permissions';
import {
  type CreateNoteInput,
  NOTE_LIMITS,
  type NoteDto,
  type NoteListDto,
  type NoteListQuery,
  type NoteSocketTicketDto,
  type NoteVersionDetailDto,
  type NoteVersionDto,
  type NoteVersionListDto,
  type UpdateNoteInput,
} from '../../../domain/schemas/note';
import { prefixTsquery, searchWords } from '../../../domain/search-query';
import type { Db } from '../../db/client';
import { requireContributor } from '../../db/membership';
import { AppError } from '../../lib/errors';
import type { ChangeRecorder } from '../../lib/changes';
import { toUserSummary } from '../users';
import { docFrom, excerptOf, replaceContent } from './note-document';
import type { NoteTickets } from './note-tickets';
import type { NotesCollab } from './notes.collab';
import type { NoteCompactor } from './notes.compaction';
import * as repo from './notes.repo';

const notFound = () => new AppError('note_not_found');

/** 403 `read_only_role` for a viewer or a guest: they read notes and write none (issue 41). */
function requireNoteWriter(row: { callerRole: repo.NoteWithNames['callerRole'] }): void {
  if (!canContribute(row.callerRole)) throw new AppError('read_only_role');
}

const person = (p: repo.Person | null) => (p ? toUserSummary(p) : null);

function toDto(userId: string, row: repo.NoteWithNames): NoteDto {
  const { note } = row;
  return {
    id: note.id,
    teamId: note.teamId,
    teamName: row.teamName,
    projectId: note.projectId,
    projectName: note.projectId ? row.projectName : null,
    title: note.title,
    pinned: note.pinned,
    excerpt: excerptOf(note.plainText),
    author: person(row.author),
    lastEditedBy: person(row.editor),
    createdAt: note.createdAt.toISOString(),
    updatedAt: note.updatedAt.toISOString(),
    canDelete: canDeleteNote(row.callerRole, userId, note),
  };
}

function toVersionDto(row: repo.VersionSummary): NoteVersionDto {
  return {
    id: row.id,
    kind: row.kind,
    title: row.title,
    createdAt: new Date(row.createdAt).toISOString(),
    createdBy: person(row.createdBy),
  };
}

export interface NotesServiceDeps {
  db: Db;
  changes: ChangeRecorder;
  tickets: NoteTickets;
  collab: NotesCollab;
  compactor: NoteCompactor;
  /** Deletes a deleted note's images (after commit). */
  removeFiles: (noteId: string) => Promise<void>;
  /** The query (`exp=…&sig=…`) that opens the note's images for a while (NoteImages.query). */
  imageQuery: (noteId: string) => string;
}

/**
 * Notes (issue 25): a team's documents. Active members of the team read, create and edit them; the author and the
 * team's owner and admins delete them; anyone else gets 404. The text itself is edited over the socket (NotesCollab).
 */
export class NotesService {
  constructor(private readonly deps: NotesServiceDeps) {}

  async list(userId: string, query: NoteListQuery): Promise<NoteListDto> {
    const words = query.q ? searchWords(query.q) : [];
    const rows = await repo.listVisible(this.deps.db, userId, {
      teamId: query.teamId,
      projectId: query.projectId,
      tsquery: words.length > 0 ? prefixTsquery(words) : null,
      // Punctuation alone makes no words: then the title must contain it as typed.
      text: words.join(' ') || query.q || undefined,
      limit: NOTE_LIMITS.listMax,
    });
    return { notes: rows.map((row) => toDto(userId, row)) };
  }

  async get(userId: string, id: string): Promise<NoteDto> {
    return toDto(userId, await this.requireVisible(userId, id));
  }

  async create(actor: PersonActor, input: CreateNoteInput): Promise<NoteDto> {
    const { userId } = actor;
    const note = await this.deps.changes.run(this.deps.db, actor, async (tx, record) => {
      // A viewer or a guest writes no note (issue 41).
      await requireContributor(tx, input.teamId, userId);
      if (input.projectId && !(await repo.projectInTeam(tx, input.projectId, input.teamId))) {
        throw new AppError('project_not_found');
      }
      const created = await repo.createOne(tx, {
        teamId: input.teamId,
        projectId: input.projectId,
        title: input.title,
        authorId: userId,
      });
      await record({ kind: 'note.created', teamId: created.teamId, noteId: created.id });
      return created;
    });
    return this.get(userId, note.id);
  }

  async update(actor: PersonActor, id: string, input: UpdateNoteInput): Promise<NoteDto> {
    const { userId } = actor;
    await this.deps.changes.run(this.deps.db, actor, async (tx, record) => {
      const row = await repo.getVisibleById(tx, userId, id, true);
      if (!row) throw notFound();
      requireNoteWriter(row);
      if (input.projectId && !(await repo.projectInTeam(tx, input.projectId, row.note.teamId))) {
        throw new AppError('project_not_found');
      }
      await repo.updateOne(tx, id, {
        title: input.title,
        pinned: input.pinned,
        projectId: input.projectId,
        lastEditedById: input.title !== undefined ? userId : undefined,
      });
      await record({ kind: 'note.updated', teamId: row.note.teamId, noteId: id });
    });
    return this.get(userId, id);
  }

  async remove(actor: PersonActor, id: string): Promise<void> {
    const { userId } = actor;
    await this.deps.changes.run(this.deps.db, actor, async (tx, record) => {
      const row = await repo.getVisibleById(tx, userId, id, true);
      if (!row) throw notFound();
      if (!canDeleteNote(row.callerRole, userId, row.note)) throw new AppError('note_delete_denied');
      await repo.deleteOne(tx, id);
      await record({ kind: 'note.deleted', teamId: row.note.teamId, noteId: id });
    });
    await this.deps.removeFiles(id);
  }

  /** A ticket for the note's socket: only for an active member, and only for a signed-in session (not an API token). */
  async ticket(userId: string, sessionId: string | null | undefined, id: string): Promise<NoteSocketTicketDto> {
    await this.requireVisible(userId, id);
    if (!sessionId) throw new AppError('token_not_allowed');
    const { ticket, expiresAt } = this.deps.tickets.issue(userId, sessionId, id);
    return { ticket, expiresAt: expiresAt.toISOString(), imageQuery: this.deps.imageQuery(id) };
  }

  // ------------------------------------------------------------------------------------------------------------
  // Versions

  async listVersions(userId: string, id: string): Promise<NoteVersionListDto> {
    await this.requireVisible(userId, id);
    const rows = await repo.listVersions(this.deps.db, id, NOTE_LIMITS.versionsMax);
    return { versions: rows.map(toVersionDto) };
  }

  async getVersion(userId: string, id: string, versionId: string): Promise<NoteVersionDetailDto> {
    await this.requireVisible(userId, id);
    const row = await repo.getVersion(this.deps.db, id, versionId);
    if (!row) throw new AppError('note_version_not_found');
    return { ...toVersionDto(row), state: row.state.toString('base64') };
  }

  /** A manual version of the document as it is now (what this instance holds is stored first). */
  async createVersion(userId: string, id: string): Promise<NoteVersionDto> {
    const row = await this.requireVisible(userId, id);
    requireNoteWriter(row);
    await this.deps.collab.flush(id);
    const versionId = await this.deps.db.transaction(async (tx) => {
      await repo.lockDocument(tx, id);
      const doc = await this.currentDoc(tx, id);
      const state = Y.encodeStateAsUpdate(doc);
      doc.destroy();
      const created = await repo.createVersion(tx, {
        noteId: id,
        kind: 'manual',
        state,
        title: row.note.title,
        createdById: userId,
      });
      await repo.pruneVersions(tx, id, NOTE_LIMITS.versionsMax);
      return created;
    });
    return this.versionDto(id, versionId);
  }

  /**
   * The live document becomes the version's content, as a change of its own (stored and sent like any client's, so
   * every open editor receives it), and the result is recorded as a `restore` version.
   */
  async restore(userId: string, id: string, versionId: string): Promise<NoteVersionDto> {
    const row = await this.requireVisible(userId, id);
    requireNoteWriter(row);
    const version = await repo.getVersion(this.deps.db, id, versionId);
    if (!version) throw new AppError('note_version_not_found');
    await this.deps.collab.flush(id);
    const { restoredId, update, ref } = await this.deps.db.transaction(async (tx) => {
      await repo.lockDocument(tx, id);
      const doc = await this.currentDoc(tx, id);
      const source = docFrom([version.state]);
      const update = replaceContent(doc, source, null);
      source.destroy();
      const [ref] = await repo.appendUpdates(tx, id, [{ update, userId }]);
      const restoredId = await repo.createVersion(tx, {
        noteId: id,
        kind: 'restore',
        state: Y.encodeStateAsUpdate(doc),
        title: row.note.title,
        createdById: userId,
      });
      doc.destroy();
      await repo.pruneVersions(tx, id, NOTE_LIMITS.versionsMax);
      return { restoredId, update, ref: ref! };
    });
    // Stored already: the sockets here get it through the live document, the other instances through the channel.
    this.deps.collab.applyStored(id, update);
    await this.deps.collab.announce(id, update, ref);
    await this.deps.compactor.compact(id).catch(() => {});
    return this.versionDto(id, restoredId);
  }

  private async versionDto(noteId: string, versionId: string): Promise<NoteVersionDto> {
    const row = await repo.getVersion(this.deps.db, noteId, versionId);
    if (!row) throw new AppError('note_version_not_found');
    return toVersionDto(row);
  }

  private async currentDoc(db: Parameters<typeof repo.readDocument>[0], id: string): Promise<Y.Doc> {
    const stored = await repo.readDocument(db, id);
    return docFrom([...(stored.state ? [stored.state] : []), ...stored.updates.map((u) => u.update)]);
  }

  /** The note if the caller may write to it (its images): 404 as requireVisible, 403 for a viewer or a guest. */
  async requireWritable(userId: string, id: string): Promise<repo.NoteWithNames> {
    const row = await this.requireVisible(userId, id);
    requireNoteWriter(row);
    return row;
  }

  /** The note if the caller is an active member of its team, else 404. */
  async requireVisible(userId: string, id: string): Promise<repo.NoteWithNames> {
    const row = await repo.getVisibleById(this.deps.db, userId, id);
    if (!row) throw notFound();
    return row;
  }
}

/**
 * Whether a note's socket may open, asked by the socket route once its ticket checks out: the note's team, the caller's
 * role there (null when not a member), whether the ticket's session still lives, and whether the socket only reads (a
 * viewer or a guest: issue 41); undefined when there is no note.
 */
export async function socketAccess(db: Db, noteId: string, userId: string, sessionId: string) {
  const row = await repo.socketAccess(db, noteId, userId, sessionId);
  return row && { ...row, readOnly: !canContribute(row.role) };
}
