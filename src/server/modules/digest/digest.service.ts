import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { enqueueMails, mayMailUnprompted } from '../mail';
import { digestMail } from './digest-mail';
import { type DigestTaskRow, listDigestZones, listDueDigestTasks, lockDigestQueue } from './digest.repo';
import { digestWindow } from './digest.schedule';

/** Tasks listed in one digest (the count of the rest follows them). */
const TASKS_PER_DIGEST = 50;

interface Logger {
  warn(obj: object, msg: string): void;
}

/**
 * The daily digest: every few minutes, queues a mail for each person whose 08:00 has come and who has open tasks
 * due that day or overdue, unless one was queued since their local midnight. The outbox is the record of what was
 * queued (no table of its own); an advisory lock makes the check and the queueing one step across instances.
 */
export class DigestScheduler {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<number> | null = null;

  constructor(
    private readonly db: Db,
    private readonly settings: Pick<Config, 'publicUrl' | 'emailVerification'>,
    private readonly log: Logger,
    private readonly intervalMs: number,
  ) {}

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.tick().catch(() => {}), this.intervalMs);
    this.timer.unref();
    void this.tick().catch(() => {});
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running?.catch(() => {});
  }

  /** Queues the digests due at `now` (tests pass their own moment); how many. One tick at a time per instance. */
  tick(now: Date = new Date()): Promise<number> {
    this.running ??= this.queueDue(now)
      .catch((err) => {
        this.log.warn({ err: err instanceof Error ? err.message : String(err) }, 'digest: queueing failed');
        throw err;
      })
      .finally(() => {
        this.running = null;
      });
    return this.running;
  }

  private async queueDue(now: Date): Promise<number> {
    const windows = (await listDigestZones(this.db)).flatMap((zone) => {
      const window = digestWindow(now, zone || null);
      return window ? [{ zone, ...window }] : [];
    });
    if (windows.length === 0) return 0;
    const tasksUrl = `${this.settings.publicUrl}/tasks`;
    return this.db.transaction(async (tx) => {
      await lockDigestQueue(tx);
      const rows = await listDueDigestTasks(tx, windows, {
        // The rule of mayMailUnprompted, applied in the query: an unproven address is left out unless it may be mailed.
        provenOnly: !mayMailUnprompted({ emailVerified: false }, this.settings.emailVerification),
        perUser: TASKS_PER_DIGEST,
      });
      const byUser = new Map<string, DigestTaskRow[]>();
      for (const row of rows) {
        const list = byUser.get(row.userId);
        if (list) list.push(row);
        else byUser.set(row.userId, [row]);
      }
      const mails = [...byUser.values()].map((list) => ({
        kind: 'digest' as const,
        to: list[0]!.email,
        createdAt: now,
        ...digestMail(list, tasksUrl),
      }));
      await enqueueMails(tx, mails);
      return mails.length;
    });
  }
}
