import { Transform, type TransformCallback } from 'node:stream';
import { fileTypeFromBuffer } from 'file-type';

/** What the type is read from: the first bytes (file-type reads a few KB at most; some formats a little more). */
const HEAD_BYTES = 64 * 1024;

/** Raster images a browser shows inline. Not SVG: it is a document that can run script. */
export const RASTER_IMAGE_TYPES: ReadonlySet<string> = new Set([
  'image/png',
  'image/apng',
  'image/jpeg',
  'image/gif',
  'image/webp',
]);

export const isRasterImage = (contentType: string): boolean => RASTER_IMAGE_TYPES.has(contentType);

export class FileTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`the file is over ${maxBytes} bytes`);
  }
}

/**
 * Passes an upload through unchanged while learning what it is: counts its bytes (failing the stream once they are
 * over `maxBytes`, so the store keeps nothing), keeps a copy of its head for the type, and follows whether the
 * whole of it is UTF-8 text without NULs. Nothing else of the file is kept.
 */
export class FileInspector extends Transform {
  size = 0;
  private readonly headChunks: Buffer[] = [];
  private headSize = 0;
  private text: TextDecoder | null = new TextDecoder('utf-8', { fatal: true });

  constructor(private readonly maxBytes: number) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.size += chunk.length;
    if (this.size > this.maxBytes) {
      done(new FileTooLargeError(this.maxBytes));
      return;
    }
    if (this.headSize < HEAD_BYTES) {
      const part = chunk.subarray(0, HEAD_BYTES - this.headSize);
      this.headChunks.push(Buffer.from(part));
      this.headSize += part.length;
    }
    if (this.text) {
      try {
        if (chunk.includes(0)) this.text = null;
        else this.text.decode(chunk, { stream: true });
      } catch {
        this.text = null;
      }
    }
    done(null, chunk);
  }

  override _flush(done: TransformCallback): void {
    try {
      this.text?.decode();
    } catch {
      // Ends inside a multi-byte character.
      this.text = null;
    }
    done();
  }

  /** The type from the bytes, once the stream has ended: a known format, else text/plain for UTF-8 text, else bytes. */
  async contentType(): Promise<string> {
    const head = Buffer.concat(this.headChunks);
    const found = await fileTypeFromBuffer(head).catch(() => undefined);
    if (found) return found.mime;
    return this.text && this.size > 0 ? 'text/plain' : 'application/octet-stream';
  }
}
