import type { Readable } from 'node:stream';

/**
 * One interface for the files of the app (attachments, avatars), with two back ends: a folder under DATA_DIR
 * (local.ts) and any S3-compatible object store (s3.ts), chosen by config.storage. Bodies are streams both ways:
 * a file never sits whole in memory.
 */
export interface ObjectStorage {
  readonly kind: 'local' | 's3';
  /**
   * Stores the stream's bytes under `key`. Nothing is visible under the key until the whole stream was stored;
   * when the stream fails (or is destroyed with an error), nothing is left behind and the error is thrown.
   */
  put(key: string, body: Readable, options?: { contentType?: string }): Promise<{ size: number }>;
  /** The object's bytes, or null when there is no such object. */
  get(key: string): Promise<{ body: Readable; size: number } | null>;
  /** Deletes one object (nothing happens when it is not there). */
  delete(key: string): Promise<void>;
  /** Deletes every object whose key starts with `prefix` (e.g. `tasks/<id>/`); answers how many. */
  deletePrefix(prefix: string): Promise<number>;
  /** Every object whose key starts with `prefix`, in no particular order. */
  list(prefix: string): AsyncIterable<StoredObject>;
  /** Removes what interrupted uploads left behind before `olderThan` (the local back end's temporary files). */
  cleanIncomplete(olderThan: Date): Promise<number>;
  /** Releases connections (the app calls it when it closes). */
  close?(): void;
}

export interface StoredObject {
  key: string;
  lastModified: Date;
}

export class StorageKeyError extends Error {}

/** A key's segments: letters, digits, `-`, `_` and `.`, never starting with a dot (no `..`, no hidden files). */
const SEGMENT = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,199}$/;

/**
 * Keys are made by the app (`tasks/<taskId>/<uuid>`), never from a user's file name; this refuses anything else
 * (`..`, absolute paths, backslashes, empty segments), so a key can never leave the store's folder.
 */
export function checkKey(key: string): string {
  if (key.length > 512 || !key.split('/').every((segment) => SEGMENT.test(segment))) {
    throw new StorageKeyError(`invalid storage key: ${JSON.stringify(key.slice(0, 100))}`);
  }
  return key;
}

/** A prefix is a key's beginning: whole segments, optionally ending with `/`; the empty prefix is every key. */
export function checkPrefix(prefix: string): string {
  if (prefix === '') return prefix;
  checkKey(prefix.endsWith('/') ? prefix.slice(0, -1) : prefix);
  return prefix;
}
