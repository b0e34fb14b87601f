import type { FastifyInstance } from 'fastify';
import { startPeriodic } from '../periodic';
import type { ObjectStorage } from './storage';

/** A stored object this young may be an upload whose row is being written: never swept. */
export const ORPHAN_MIN_AGE_MS = 3600_000;
const BATCH = 500;
/** How often each instance sweeps (several instances sweeping one store is harmless: deletes are idempotent). */
const SWEEP_EVERY_MS = 3600_000;

export interface SweepOptions {
  /** The time to sweep as of (tests move it on); objects stored before `now` less ORPHAN_MIN_AGE_MS may go. */
  now?: Date;
  /** Turns true when the app closes: the sweep ends early. */
  stopped?: () => boolean;
}

/** The instant before which a stored object is old enough to be swept. */
export const sweepCutoff = (options: SweepOptions): Date => new Date((options.now ?? new Date()).getTime() - ORPHAN_MIN_AGE_MS);

/**
 * Deletes the objects under `prefix`, older than ORPHAN_MIN_AGE_MS, that nothing refers to any more: `referenced`
 * answers which of a batch of keys a row still names (the module that writes the prefix knows). Answers how many went.
 */
export async function sweepUnreferenced(
  storage: ObjectStorage,
  prefix: string,
  referenced: (keys: string[]) => Promise<Set<string>>,
  options: SweepOptions = {},
): Promise<number> {
  const cutoff = sweepCutoff(options);
  const stopped = options.stopped ?? (() => false);
  let deleted = 0;
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
    if (stopped()) return deleted;
    if (object.lastModified >= cutoff) continue;
    batch.push(object.key);
    if (batch.length >= BATCH) await flush();
  }
  if (batch.length > 0) await flush();
  return deleted;
}

/**
 * A module's sweep of the file store, once when the app is ready (in the background: start-up does not wait for it)
 * and hourly after; stopped, and waited for, when the app closes. What it deleted is logged, when it deleted anything.
 */
export function startStorageSweeps(
  app: FastifyInstance,
  what: string,
  sweep: (stopped: () => boolean) => Promise<{ deleted: number; incomplete?: number }>,
): void {
  startPeriodic(app, {
    everyMs: SWEEP_EVERY_MS,
    run: async (stopped) => {
      const counts = await sweep(stopped);
      if (counts.deleted || counts.incomplete) app.log.info(counts, `${what}: deleted files nothing refers to`);
    },
    failed: `${what} failed`,
  });
}
