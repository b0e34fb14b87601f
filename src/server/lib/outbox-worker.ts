import { setTimeout as delay } from 'node:timers/promises';

interface Logger {
  warn(obj: object, msg: string): void;
}

export interface OutboxLoopOptions {
  /** The log's prefix: `<name>: outbox pass failed`. */
  name: string;
  log: Logger;
  /** How often the outbox is looked at for due work. */
  pollIntervalMs: number;
  /** Rows one pass claims at most: a full batch means more may be due, so another pass follows at once. */
  batchSize: number;
  /** On stop, how long the work under way may still finish before it is abandoned (the abort signal fires). */
  stopGraceMs: number;
  /** One batch: claims due rows, handles them, and returns how many were claimed. */
  pass: () => Promise<number>;
  /** Deletes old finished rows; run after a drain, at most once per pruneEveryMs (default an hour). */
  prune: () => Promise<void>;
  pruneEveryMs?: number;
  /** An error's text for the log (default: its message). */
  errorText?: (err: unknown) => string;
}

/**
 * The polling loop shared by the outbox workers (mail, webhooks; DESIGN.md "Work that must not be lost: outboxes",
 * decision 0012): a timer nudges a drain, a drain runs passes until one claims less than a full batch (and once more
 * when nudged meanwhile), then prunes; passes never overlap. Stopping lets the pass under way finish within
 * stopGraceMs, then fires `signal` so the worker abandons what it still sends and hands the claims back.
 */
export class OutboxLoop {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = false;
  private readonly abort = new AbortController();
  private lastPrune = 0;

  constructor(private readonly options: OutboxLoopOptions) {}

  /** Fires when a stop's grace is over: work under way should give up and release its claims. */
  get signal(): AbortSignal {
    return this.abort.signal;
  }

  /** True once stop() was called: no further claims should be made. */
  get stopping(): boolean {
    return this.stopped;
  }

  start(): void {
    if (this.timer || this.stopped) return;
    this.timer = setInterval(() => this.nudge(), this.options.pollIntervalMs);
    this.timer.unref();
    this.nudge();
  }

  /** Look for due work now (a drain under way runs once more when it ends). */
  nudge(): void {
    void this.drain();
  }

  /** Handles everything due; resolves when nothing due is left (or the worker stops). */
  drain(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      try {
        do {
          this.again = false;
          let full = true;
          while (full && !this.stopped) full = (await this.options.pass()) === this.options.batchSize;
        } while (this.again && !this.stopped);
        await this.prune();
      } catch (err) {
        // The database is away: the next tick tries again.
        const text = this.options.errorText?.(err) ?? (err instanceof Error ? err.message : String(err));
        this.options.log.warn({ err: text }, `${this.options.name}: outbox pass failed`);
      } finally {
        this.running = null;
      }
    })();
    return this.running;
  }

  /** Stops the timer, lets the drain under way finish (within stopGraceMs), then aborts it and waits for it. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    const running = this.running;
    if (!running) return;
    const graceOver = new AbortController();
    await Promise.race([running, delay(this.options.stopGraceMs, undefined, { signal: graceOver.signal }).catch(() => {})]);
    graceOver.abort();
    this.abort.abort(new Error('the server is stopping'));
    await running;
  }

  private async prune(): Promise<void> {
    if (Date.now() - this.lastPrune < (this.options.pruneEveryMs ?? 3_600_000)) return;
    this.lastPrune = Date.now();
    await this.options.prune();
  }
}

/**
 * A worker of one outbox (mail, webhooks) on an OutboxLoop: the subclass says what one pass does and what is pruned;
 * starting, nudging, draining and stopping are the loop's.
 */
export abstract class OutboxWorkerBase {
  protected readonly loop: OutboxLoop;

  constructor(
    name: string,
    log: Logger,
    timing: Pick<OutboxLoopOptions, 'pollIntervalMs' | 'batchSize' | 'stopGraceMs'>,
    errorText?: (err: unknown) => string,
  ) {
    const { pollIntervalMs, batchSize, stopGraceMs } = timing;
    this.loop = new OutboxLoop({
      name,
      log,
      pollIntervalMs,
      batchSize,
      stopGraceMs,
      errorText,
      pass: () => this.pass(),
      prune: () => this.prune(),
    });
  }

  /** One batch: claims due rows, handles them, and returns how many were claimed. */
  protected abstract pass(): Promise<number>;

  /** Deletes old finished rows. */
  protected abstract prune(): Promise<void>;

  start(): void {
    this.loop.start();
  }

  /** Look for due work now (a pass under way runs once more when it ends). */
  nudge(): void {
    this.loop.nudge();
  }

  /** Delivers everything due; resolves when the outbox holds nothing due (or the worker stops). */
  drain(): Promise<void> {
    return this.loop.drain();
  }

  /** Lets a delivery under way finish (within stopGraceMs), abandons it after, and hands unsent claims back. */
  stop(): Promise<void> {
    return this.loop.stop();
  }
}
