import type { FastifyInstance } from 'fastify';

export interface PeriodicJob {
  /** How often each instance runs it (every instance does: the job must be harmless when run twice). */
  everyMs: number;
  /** One run; `stopped()` turns true when the app closes, for a long run to end early. */
  run: (stopped: () => boolean) => Promise<void>;
  /** Logged (as a warning, with the error) when a run fails; the next one tries again. */
  failed: string;
}

/**
 * A background job of the app (a retention purge, a sweep of the file store): once when the app is ready (in the
 * background: start-up does not wait for it), then every `everyMs`, never two runs at once; stopped, and waited
 * for, when the app closes (before the database is).
 */
export function startPeriodic(app: FastifyInstance, job: PeriodicJob): void {
  let closing = false;
  let running: Promise<void> | null = null;
  const run = () => {
    if (running || closing) return;
    running = job
      .run(() => closing)
      .catch((error) => app.log.warn({ err: error }, job.failed))
      .finally(() => {
        running = null;
      });
  };
  const timer = setInterval(run, job.everyMs);
  timer.unref();
  app.addHook('onReady', async () => run());
  app.addHook('onClose', async () => {
    closing = true;
    clearInterval(timer);
    await running;
  });
}
