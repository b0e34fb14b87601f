import type { Db } from '../../db/client';
import type { ObjectStorage } from '../../lib/storage';
import * as repo from './attachments.repo';
import { avatarKeyParts, avatarUrl } from './avatars.service';

/** A stored object this young may be an upload whose row is being written: never swept. */
export const ORPHAN_MIN_AGE_MS = 3600_000;
const BATCH = 500;

export interface SweepResult {
  /** Objects deleted: no attachment or avatar names them. */
  deleted: number;
  /** Temporary files of uploads cut off (local store). */
  incomplete: number;
}

/**
 * Deletes the stored files nothing refers to any more, older than an hour: the files of tasks deleted with their
 * project or team (no event per task), of deleted accounts' avatars, and of any delete that failed half-way. Only
 * the prefixes this module writes (`tasks/`, `avatars/`) are looked at.
 */
export async function sweepOrphans(
  db: Db,
  storage: ObjectStorage,
  options: { now?: Date; stopped?: () => boolean } = {},
): Promise<SweepResult> {
  const cutoff = new Date((options.now ?? new Date()).getTime() - ORPHAN_MIN_AGE_MS);
  const stopped = options.stopped ?? (() => false);
  let deleted = 0;

  const sweep = async (prefix: string, referenced: (keys: string[]) => Promise<Set<string>>) => {
    let batch: string[] = [];
    const flush = async () => {
      const keep = await referenced(batch);
      for (const key of batch) {
        if (keep.has(key) || stopped()) continue;
        await storage.delete(key);
        deleted++;
      }
      batch = [];
    };
    for await (const object of storage.list(prefix)) {
      if (stopped()) return;
      if (object.lastModified >= cutoff) continue;
      batch.push(object.key);
      if (batch.length >= BATCH) await flush();
    }
    if (batch.length > 0) await flush();
  };

  await sweep('tasks/', (keys) => repo.attachmentKeysIn(db, keys));
  await sweep('avatars/', async (keys) => {
    const parts = keys.map(avatarKeyParts);
    const userIds = [...new Set(parts.flatMap((p) => (p ? [p.userId] : [])))];
    const urls = await repo.avatarUrlsOf(db, userIds);
    return new Set(keys.filter((_key, i) => parts[i] && urls.get(parts[i].userId) === avatarUrl(parts[i].userId, parts[i].file)));
  });
  const incomplete = stopped() ? 0 : await storage.cleanIncomplete(cutoff);
  return { deleted, incomplete };
}
