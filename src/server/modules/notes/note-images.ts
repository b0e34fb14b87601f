import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import type { Db } from '../../db/client';
import { AppError } from '../../lib/errors';
import type { ObjectStorage } from '../../lib/storage';
import { deleteStoredFile, readStoredImage, type ReceiveFile, storeImage } from '../attachments';
import * as repo from './notes.repo';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const imageKey = (noteId: string, file: string) => `notes/${noteId}/${file}`;

/** A link works for at least this long, and ends on the hour after: the same lifetime as an attachment's link. */
const MIN_LIFETIME_SECONDS = 2 * 3600;
const ROUND_SECONDS = 3600;

/**
 * Images in notes (issue 25), in the file store under `notes/<noteId>/<uuid>`. The shared document keeps a stable
 * reference to each, the path `/api/notes/<noteId>/images/<file>`; an `<img>` (no bearer token) reaches it with
 * `?exp=<unix seconds>&sig=<HMAC>`, a signature of the note and the expiry under a key of its own derived from the app's
 * secret. It expires like an attachment's link (issue 35, item 4): the editor gets a fresh one with each socket
 * ticket (members only) and signs every image path of the note with it when it renders the document.
 */
export class NoteImages {
  private readonly key: Buffer;

  constructor(
    private readonly db: Db,
    private readonly storage: ObjectStorage,
    secret: string,
    private readonly maxBytes: number,
    private readonly log: { warn(object: unknown, message: string): void },
    private readonly now: () => number = Date.now,
  ) {
    // v2: the never-expiring links of v1 are no longer honoured.
    this.key = createHmac('sha256', secret).update('crewboard/note-images/v2').digest();
  }

  private signature(noteId: string, exp: number): Buffer {
    return createHmac('sha256', this.key).update(`${noteId}\n${exp}`).digest();
  }

  /** `exp=…&sig=…`: opens every image of the note until it expires (given only to its members). */
  query(noteId: string): string {
    const nowSeconds = Math.floor(this.now() / 1000);
    const exp = Math.ceil((nowSeconds + MIN_LIFETIME_SECONDS) / ROUND_SECONDS) * ROUND_SECONDS;
    return `exp=${exp}&sig=${this.signature(noteId, exp).toString('base64url')}`;
  }

  url(noteId: string, file: string): string {
    return `/api/notes/${noteId}/images/${file}?${this.query(noteId)}`;
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

  /** The bytes behind a genuine, unexpired URL of an existing note's image, and the link's expiry (unix seconds). */
  async read(noteId: string, file: string, exp: string | undefined, sig: string | undefined) {
    if (!UUID.test(noteId) || !UUID.test(file)) throw new AppError('not_found');
    if (!exp || !sig || !/^\d{1,12}$/.test(exp) || !/^[A-Za-z0-9_-]{43}$/.test(sig)) throw new AppError('not_found');
    const expiry = Number(exp);
    if (expiry * 1000 <= this.now()) throw new AppError('not_found');
    const given = Buffer.from(sig, 'base64url');
    const expected = this.signature(noteId, expiry);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw new AppError('not_found');
    if (!(await repo.getOneById(this.db, noteId))) throw new AppError('not_found');
    return { ...(await readStoredImage(this.storage, imageKey(noteId, file))), expiry };
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
