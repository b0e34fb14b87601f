import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import type { Db } from '../../db/client';
import { AppError } from '../../lib/errors';
import type { ObjectStorage } from '../../lib/storage';
import type { ReceiveFile } from '../attachments/attachments.service';
import { deleteStoredFile, readStoredImage, storeImage } from '../attachments/stored-image';
import * as repo from './notes.repo';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const imageKey = (noteId: string, file: string) => `notes/${noteId}/${file}`;

/**
 * Images in notes (issue 25), in the file store under `notes/<noteId>/<uuid>`. Their URL goes into the shared
 * document, so it must keep working in `<img>` (no bearer token) for as long as the note exists: it is a stable
 * capability, `/api/notes/<noteId>/images/<file>?sig=<HMAC>`, signed with a key of its own derived from the app's
 * secret and given only to members who upload (and, through the document, to the note's readers).
 */
export class NoteImages {
  private readonly key: Buffer;

  constructor(
    private readonly db: Db,
    private readonly storage: ObjectStorage,
    secret: string,
    private readonly maxBytes: number,
    private readonly log: { warn(object: unknown, message: string): void },
  ) {
    this.key = createHmac('sha256', secret).update('crewboard/note-images/v1').digest();
  }

  private signature(noteId: string, file: string): Buffer {
    return createHmac('sha256', this.key).update(`${noteId}/${file}`).digest();
  }

  url(noteId: string, file: string): string {
    return `/api/notes/${noteId}/images/${file}?sig=${this.signature(noteId, file).toString('base64url')}`;
  }

  /** Stores an uploaded image of a note the caller may edit (checked by the caller); its URL. */
  async upload(noteId: string, receive: ReceiveFile): Promise<{ url: string }> {
    const file = await receive(this.maxBytes);
    const id = randomUUID();
    const stored = await storeImage(this.storage, imageKey(noteId, id), file, this.maxBytes, this.log);
    // The note may have been deleted meanwhile: its files went with it, so this one goes too.
    if (!(await repo.getOneById(this.db, noteId))) {
      await deleteStoredFile(this.storage, stored.key, this.log);
      throw new AppError('note_not_found');
    }
    return { url: this.url(noteId, id) };
  }

  /** The bytes behind a genuine URL of an existing note's image. */
  async read(noteId: string, file: string, sig: string | undefined) {
    if (!UUID.test(noteId) || !UUID.test(file) || !sig || !/^[A-Za-z0-9_-]{43}$/.test(sig)) throw new AppError('not_found');
    const given = Buffer.from(sig, 'base64url');
    const expected = this.signature(noteId, file);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw new AppError('not_found');
    if (!(await repo.getOneById(this.db, noteId))) throw new AppError('not_found');
    return readStoredImage(this.storage, imageKey(noteId, file));
  }

  /** A deleted note's images. */
  async removeAll(noteId: string): Promise<void> {
    await this.storage
      .deletePrefix(`notes/${noteId}/`)
      .catch((error) => this.log.warn({ err: error, noteId }, "could not delete a deleted note's images"));
  }

  /**
   * Deletes the images of notes that no longer exist, stored before `olderThan` (a note deleted with its team or
   * project goes by cascade, without an event; an upload racing a deletion). Answers how many notes' folders went.
   */
  async sweepDeleted(olderThan: Date, stopped: () => boolean = () => false): Promise<number> {
    const noteIds = new Set<string>();
    for await (const object of this.storage.list('notes/')) {
      if (stopped()) return 0;
      const noteId = object.key.split('/')[1];
      if (noteId && UUID.test(noteId) && object.lastModified < olderThan) noteIds.add(noteId);
    }
    const ids = [...noteIds];
    let removed = 0;
    for (let i = 0; i < ids.length && !stopped(); i += 500) {
      const batch = ids.slice(i, i + 500);
      const existing = await repo.existingIds(this.db, batch);
      for (const id of batch) {
        if (existing.has(id) || stopped()) continue;
        await this.storage.deletePrefix(`notes/${id}/`);
        removed++;
      }
    }
    return removed;
  }
}
