import { type Readable, Readable as ReadableStream } from 'node:stream';
import { fileTypeFromBuffer } from 'file-type';
import { AppError } from '../../lib/errors';
import type { ObjectStorage } from '../../lib/storage';
import { type IncomingFile, type StoredUpload, storeUpload } from './attachments.service';
import { isRasterImage } from './file-content';

/**
 * Images served inline from the file store (avatars, images in notes): stored only when the bytes are a raster
 * image, and checked again from the bytes when read (nothing else is stored beside the file).
 */

interface Logger {
  warn(object: unknown, message: string): void;
}

/** Deletes a stored file; a failure is logged, never thrown (the caller is already answering). */
export async function deleteStoredFile(storage: ObjectStorage, key: string, log: Logger): Promise<void> {
  await storage.delete(key).catch((error) => log.warn({ err: error, key }, 'could not delete a stored file'));
}

/** Stores an upload under `key` if its bytes are a raster image; anything else is deleted again and refused. */
export async function storeImage(
  storage: ObjectStorage,
  key: string,
  file: IncomingFile,
  maxBytes: number,
  log: Logger,
): Promise<StoredUpload> {
  const stored = await storeUpload(storage, key, file, maxBytes);
  if (!isRasterImage(stored.contentType)) {
    await deleteStoredFile(storage, stored.key, log);
    throw new AppError('validation_failed', { fields: { file: 'Choose a PNG, JPEG, GIF or WebP image' } });
  }
  return stored;
}

/** The stored image under `key`, its type read from its bytes; `not_found` when missing or not a raster image. */
export async function readStoredImage(
  storage: ObjectStorage,
  key: string,
): Promise<{ body: Readable; size: number; contentType: string }> {
  const object = await storage.get(key);
  if (!object) throw new AppError('not_found');
  const { head, body } = await peek(object.body);
  const found = await fileTypeFromBuffer(head).catch(() => undefined);
  if (!found || !isRasterImage(found.mime)) {
    body.destroy();
    throw new AppError('not_found');
  }
  return { body, size: object.size, contentType: found.mime };
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
