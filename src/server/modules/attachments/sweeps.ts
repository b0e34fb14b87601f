import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client';
import type { ObjectStorage } from '../../lib/storage';
import { sweepOrphans } from './orphan-sweep';

/** How often each instance sweeps (several instances sweeping one store is harmless: deletes are idempotent). */
const SWEEP_EVERY_MS = 3600_000;

/**
 * The orphan sweep, once when the app is ready (in the background: start-up does not wait for it) and hourly after;
 * stopped, and waited for, when the app closes.
 */
export function startOrphanSweeps(app: FastifyInstance, db: Db, storage: ObjectStorage): void {
  let closing = false;
  let running: Promise<void> | null = null;
  const run = () => {
    if (running || closing) return;
    running = sweepOrphans(db, storage, { stopped: () => closing })
      .then(({ deleted, incomplete }) => {
        if (deleted || incomplete) app.log.info({ deleted, incomplete }, 'orphan sweep: deleted files nothing refers to');
      })
      .catch((error) => app.log.warn({ err: error }, 'orphan sweep failed'))
      .finally(() => {
        running = null;
      });
  };
  const timer = setInterval(run, SWEEP_EVERY_MS);
  timer.unref();
  app.addHook('onReady', async () => run());
  app.addHook('onClose', async () => {
    closing = true;
    clearInterval(timer);
    await running;
  });
}
