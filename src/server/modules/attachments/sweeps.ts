import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client';
import { startPeriodic } from '../../lib/periodic';
import type { ObjectStorage } from '../../lib/storage';
import { sweepOrphans } from './orphan-sweep';

/** How often each instance sweeps (several instances sweeping one store is harmless: deletes are idempotent). */
const SWEEP_EVERY_MS = 3600_000;

/**
 * The orphan sweep, once when the app is ready (in the background: start-up does not wait for it) and hourly after;
 * stopped, and waited for, when the app closes.
 */
export function startOrphanSweeps(app: FastifyInstance, db: Db, storage: ObjectStorage): void {
  startPeriodic(app, {
    everyMs: SWEEP_EVERY_MS,
    run: async (stopped) => {
      const { deleted, incomplete } = await sweepOrphans(db, storage, { stopped });
      if (deleted || incomplete) app.log.info({ deleted, incomplete }, 'orphan sweep: deleted files nothing refers to');
    },
    failed: 'orphan sweep failed',
  });
}
