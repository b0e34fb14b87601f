import { describe, expect, it } from 'vitest';
import type { Change, ChangeKind } from '../../domain/changes';
import type { Db, Tx } from '../db/client';
import { type ChangeHandlers, ChangeRecorder, DEADLOCK_ATTEMPTS, isDeadlock } from './changes';

const deadlock = () => Object.assign(new Error('deadlock detected'), { code: '40P01' });

/** A Db whose transactions run `work` with a stand-in Tx, failing the first `failures` of them as `fail` says. */
function fakeDb(failures: number, fail: () => unknown = deadlock) {
  let runs = 0;
  const db = {
    transaction: async <T>(work: (tx: Tx) => Promise<T>) => {
      runs++;
      const result = await work({} as Tx);
      if (runs <= failures) throw fail();
      return result;
    },
  } as unknown as Db;
  return { db, runs: () => runs };
}

/** Every kind null but the one named, whose calls are collected. */
function collecting<C>(kind: ChangeKind, seen: Change[]): ChangeHandlers<C> {
  return new Proxy({} as ChangeHandlers<C>, {
    get: (_, key) => (key === kind ? (change: Change) => void seen.push(change) : null),
  });
}

const change = { kind: 'task.deleted' } as unknown as Change;
const actor = { type: 'system', name: 'test' } as never;

describe('ChangeRecorder.run and deadlocks', () => {
  it('runs a transaction PostgreSQL chose to break a deadlock again, and reacts once, to the run that committed', async () => {
    const written: Change[] = [];
    const reacted: Change[] = [];
    const recorder = new ChangeRecorder([
      { name: 'in', phase: 'inTransaction', handlers: collecting<Tx>('task.deleted', written) },
      { name: 'after', phase: 'afterCommit', handlers: collecting<void>('task.deleted', reacted) },
    ]);
    const { db, runs } = fakeDb(2);
    const result = await recorder.run(db, actor, async (_tx, record) => {
      await record(change);
      return 'done';
    });
    expect(result).toBe('done');
    expect(runs()).toBe(3);
    expect(written).toHaveLength(3); // written in each attempt's own transaction; two were rolled back
    expect(reacted).toEqual([change]);
  });

  it(`gives up after ${DEADLOCK_ATTEMPTS} attempts, and never retries another error`, async () => {
    const recorder = new ChangeRecorder([]);
    const always = fakeDb(DEADLOCK_ATTEMPTS);
    await expect(recorder.run(always.db, actor, async () => 'x')).rejects.toMatchObject({ code: '40P01' });
    expect(always.runs()).toBe(DEADLOCK_ATTEMPTS);

    const other = fakeDb(1, () => Object.assign(new Error('duplicate'), { code: '23505' }));
    await expect(recorder.run(other.db, actor, async () => 'x')).rejects.toMatchObject({ code: '23505' });
    expect(other.runs()).toBe(1);
  });

  it('knows a deadlock as the driver throws it and as Drizzle wraps it', () => {
    expect(isDeadlock(deadlock())).toBe(true);
    expect(isDeadlock(new Error('query failed', { cause: deadlock() }))).toBe(true);
    expect(isDeadlock(Object.assign(new Error('x'), { code: '40001' }))).toBe(false);
    expect(isDeadlock(undefined)).toBe(false);
  });
});
