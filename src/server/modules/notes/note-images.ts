import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { type Readable, Readable as ReadableStream } from 'node:stream';
import { fileTypeFromBuffer } from 'file-type';
import type { Db } from '../../db/client';
import { AppError } from '../../lib/errors';
import type { ObjectStorage } from '../../lib/storage';
import { type ReceiveFile, storeUpload } from '../attachments/attachments.service';
import { isRasterImage } from '../attachments/file-content';
import * as repo from './notes.repo';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const imageKey = (noteId: string, file: string) => `notes/${noteId}/${file}`;
const notAnImage = () => new AppError('validation_failed', { fields: { file: 'Choose a PNG, JPEG, GIF or WebP image' } });

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
    const stored = await storeUpload(this.storage, imageKey(noteId, id), file, this.maxBytes);
    if (!isRasterImage(stored.contentType)) {
      await this.delete(stored.key);
      throw notAnImage();
    }
    // The note may have been deleted meanwhile: its files went with it, so this one goes too.
    if (!(await repo.getOneById(this.db, noteId))) {
      await this.delete(stored.key);
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
    const object = await this.storage.get(imageKey(noteId, file));
    if (!object) throw new AppError('not_found');
    const { head, body } = await peek(object.body);
    const found = await fileTypeFromBuffer(head).catch(() => undefined);
    if (!found || !isRasterImage(found.mime)) {
      body.destroy();
      throw new AppError('not_found');
    }
    return { body, size: object.size, contentType: found.mime };
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

  private async delete(key: string): Promise<void> {
    await this.storage.delete(key).catch((error) => this.log.warn({ err: error, key }, 'could not delete a stored file'));
  }
}

/** The stream's first chunk, and a stream of all of it (that chunk included). */
async function peek(source: Readable): Promise<{ head: Buffer; body: Readable }> {
  const iterator = source[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const first = await iterator.next();
  const head = first.done ? Buffer.alloc(0) : Buffer.from(first.value);
  async function* all() {
    try {
      if (!first.done) yield first.value;
      for (;;) {
        const next = await iterator.next();
        if (next.done) return;
        yield next.value;
      }
    } finally {
      await iterator.return?.();
    }
  }
  return { head, body: ReadableStream.from(all(), { objectMode: false }) };
}
