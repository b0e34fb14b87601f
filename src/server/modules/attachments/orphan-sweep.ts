import type { Db } from '../../db/client';
import type { ObjectStorage } from '../../lib/storage';
import { type SweepOptions, sweepCutoff, sweepUnreferenced } from '../../lib/storage/sweep';
import * as repo from './attachments.repo';

export interface SweepResult {
  /** Objects deleted: no attachment names them. */
  deleted: number;
  /** Temporary files of uploads cut off (local store). */
  incomplete: number;
}

/**
 * Deletes the stored files nothing refers to any more, older than an hour: the files of tasks deleted with their
 * project or team (no event per task), and of any delete that failed half-way. Only the prefix this module writes
 * (`tasks/`) is looked at (avatars sweep their own, modules/avatars); then the store's own leftovers of uploads cut off.
 */
export async function sweepOrphans(db: Db, storage: ObjectStorage, options: SweepOptions = {}): Promise<SweepResult> {
  const deleted = await sweepUnreferenced(storage, 'tasks/', (keys) => repo.attachmentKeysIn(db, keys), options);
  const incomplete = options.stopped?.() ? 0 : await storage.cleanIncomplete(sweepCutoff(options));
  return { deleted, incomplete };
}
