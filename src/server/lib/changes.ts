import type { Change, ChangeActor, ChangeKind, ChangeOf } from '../../domain/changes';
import type { Db, Tx } from '../db/client';

/** One subscriber's reaction to one kind of change. */
export type ChangeHandler<K extends ChangeKind, Context> = (change: ChangeOf<K>, actor: ChangeActor, context: Context) => unknown;

/**
 * A subscriber's decision for every kind of change: a handler, or `null` for "nothing to do". Exhaustive on purpose;
 * the subscribers build it from the one table of who reacts to what (subscribers/reactions.ts), so a new kind in
 * src/domain/changes.ts fails the typecheck until it has its row there.
 */
export type ChangeHandlers<Context> = { [K in ChangeKind]: ChangeHandler<K, Context> | null };

/**
 * A reaction to changes. `inTransaction` handlers write in the change's own transaction (audit rows, webhook and mail
 * outboxes, the activity history), so they exist exactly when the change does; `afterCommit` handlers run once it has
 * committed (realtime fan-out, whose listeners write notifications), and never for a change that rolled back.
 */
export type Subscriber =
  | { name: string; phase: 'inTransaction'; handlers: ChangeHandlers<Tx> }
  | { name: string; phase: 'afterCommit'; handlers: ChangeHandlers<void> };

/**
 * Records a change inside a transaction that ChangeRecorder.run opened; by the run's actor unless another is named (a
 * deferred change whose author is known only inside the transaction, such as a note's compacted edits).
 */
export type RecordChange = (change: Change, actor?: ChangeActor) => Promise<void>;

/** How many times a change's transaction runs when PostgreSQL picks it to break a deadlock. */
export const DEADLOCK_ATTEMPTS = 3;

/** PostgreSQL's deadlock_detected (40P01), as the driver throws it or as Drizzle wraps it (`cause`). */
export function isDeadlock(error: unknown): boolean {
  for (let e = error, depth = 0; e && typeof e === 'object' && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    if ((e as { code?: unknown }).code === '40P01') return true;
  }
  return false;
}

/**
 * The one path for every change (issue 34). A service opens its write with `run`, makes its change in the transaction
 * it is given, and states what happened with `record(change)`; the subscribers do the rest.
 */
export class ChangeRecorder {
  private readonly inTransaction: ChangeHandlers<Tx>[];
  private readonly afterCommit: ChangeHandlers<void>[];

  constructor(subscribers: readonly Subscriber[]) {
    this.inTransaction = subscribers.flatMap((s) => (s.phase === 'inTransaction' ? [s.handlers] : []));
    this.afterCommit = subscribers.flatMap((s) => (s.phase === 'afterCommit' ? [s.handlers] : []));
  }

  /**
   * Runs `work` in one transaction. Every change it records is written with it (or not at all, when it throws); once it
   * has committed, the after-commit reactions run, in the order the changes were recorded.
   */
  async run<T>(db: Db, actor: ChangeActor, work: (tx: Tx, record: RecordChange) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      const recorded: { change: Change; by: ChangeActor }[] = [];
      try {
        const result = await db.transaction((tx) =>
          work(tx, async (change, by = actor) => {
            await this.write(tx, by, change);
            recorded.push({ change, by });
          }),
        );
        for (const { change, by } of recorded) this.react(by, change);
        return result;
      } catch (error) {
        // PostgreSQL broke a deadlock by rolling this transaction back whole (a parent deleted while one of its
        // sub-tasks changes: the cascade locks parent then child, the counting trigger child then parent). Nothing of
        // it stayed and no reaction ran, so it runs again, as a person retrying would.
        if (attempt >= DEADLOCK_ATTEMPTS || !isDeadlock(error)) throw error;
      }
    }
  }

  private async write(tx: Tx, actor: ChangeActor, change: Change): Promise<void> {
    for (const handlers of this.inTransaction) {
      const handler = handlers[change.kind] as ChangeHandler<ChangeKind, Tx> | null;
      if (handler) await handler(change as never, actor, tx);
    }
  }

  /** After commit: a failing reaction is the subscriber's to log; it never undoes or fails the committed change. */
  private react(actor: ChangeActor, change: Change): void {
    for (const handlers of this.afterCommit) {
      const handler = handlers[change.kind] as ChangeHandler<ChangeKind, void> | null;
      if (!handler) continue;
      try {
        handler(change as never, actor, undefined);
      } catch {
        // The realtime bus already isolates its listeners; nothing here may fail the request.
      }
    }
  }
}
