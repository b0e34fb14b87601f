import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, open, readdir, rename, rm, rmdir, stat, unlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { type Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { checkKey, checkPrefix, type ObjectStorage, type StoredObject } from './storage';

/** Where uploads are written before they are renamed under their key (same file system: the rename is atomic). */
const TEMP_DIR = '.incoming';

const isMissing = (error: unknown) => (error as NodeJS.ErrnoException)?.code === 'ENOENT';

/**
 * The files in a folder (`${DATA_DIR}/files` by default): one file per key, at the key's path. Each upload is
 * written to a temporary file and renamed when complete, so a key never names half a file.
 */
export class LocalStorage implements ObjectStorage {
  readonly kind = 'local';

  constructor(readonly root: string) {}

  private pathOf(key: string): string {
    return join(this.root, checkKey(key));
  }

  async put(key: string, body: Readable): Promise<{ size: number }> {
    const target = this.pathOf(key);
    const temp = join(this.root, TEMP_DIR, randomUUID());
    await mkdir(dirname(temp), { recursive: true, mode: 0o700 });
    let size = 0;
    const count = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        size += chunk.length;
        done(null, chunk);
      },
    });
    const file = createWriteStream(temp, { flags: 'wx', mode: 0o600 });
    try {
      await pipeline(body, count, file);
      // Durable before it is named: a crash after the rename never leaves a named file with missing bytes.
      const handle = await open(temp, 'r');
      await handle.sync().finally(() => handle.close());
      await this.moveInto(temp, target);
    } catch (error) {
      // A body that fails at once (too large, aborted) can end the pipeline while the file is still being opened:
      // wait for it to close, or the unlink runs before the file exists and leaves it behind.
      if (!file.closed) await once(file, 'close').catch(() => {});
      await unlink(temp).catch(() => {});
      throw error;
    }
    return { size };
  }

  /** Renames into place; a concurrent delete may remove the (then empty) folder in between: made again once. */
  private async moveInto(temp: string, target: string): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      await mkdir(dirname(target), { recursive: true, mode: 0o700 });
      try {
        await rename(temp, target);
        return;
      } catch (error) {
        if (!isMissing(error) || attempt > 0) throw error;
      }
    }
  }

  async get(key: string): Promise<{ body: Readable; size: number } | null> {
    const path = this.pathOf(key);
    try {
      const info = await stat(path);
      if (!info.isFile()) return null;
      return { body: createReadStream(path), size: info.size };
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    const path = this.pathOf(key);
    await rm(path, { force: true });
    // The key's folder (`tasks/<id>/`) goes with its last file; a folder still in use is not empty and stays.
    await rmdir(dirname(path)).catch(() => {});
  }

  async deletePrefix(prefix: string): Promise<number> {
    checkPrefix(prefix);
    let n = 0;
    for await (const { key } of this.list(prefix)) {
      await rm(this.pathOf(key), { force: true });
      n++;
    }
    if (prefix.endsWith('/')) await rm(join(this.root, prefix), { recursive: true, force: true });
    return n;
  }

  async *list(prefix: string): AsyncIterable<StoredObject> {
    checkPrefix(prefix);
    // Start from the deepest folder the prefix names whole.
    const cut = prefix.lastIndexOf('/');
    const base = cut >= 0 ? prefix.slice(0, cut) : '';
    yield* this.walk(base, prefix);
  }

  private async *walk(folder: string, prefix: string): AsyncIterable<StoredObject> {
    let entries: import('node:fs').Dirent[];
    try {
      entries = await readdir(join(this.root, folder), { withFileTypes: true });
    } catch (error) {
      if (isMissing(error) || (error as NodeJS.ErrnoException).code === 'ENOTDIR') return;
      throw error;
    }
    for (const entry of entries) {
      if (entry.name.startsWith('.')) continue;
      const key = folder ? `${folder}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if (prefix.startsWith(`${key}/`) || key.startsWith(prefix)) yield* this.walk(key, prefix);
      } else if (entry.isFile() && key.startsWith(prefix)) {
        const info = await stat(join(this.root, key)).catch(() => null);
        if (info) yield { key, lastModified: info.mtime };
      }
    }
  }

  async cleanIncomplete(olderThan: Date): Promise<number> {
    const folder = join(this.root, TEMP_DIR);
    let names: string[];
    try {
      names = await readdir(folder);
    } catch (error) {
      if (isMissing(error)) return 0;
      throw error;
    }
    let n = 0;
    for (const name of names) {
      const info = await stat(join(folder, name)).catch(() => null);
      if (info && info.mtime < olderThan) {
        await rm(join(folder, name), { force: true });
        n++;
      }
    }
    return n;
  }
}
