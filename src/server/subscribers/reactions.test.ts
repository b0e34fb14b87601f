import { describe, expect, it } from 'vitest';
import { EventBus } from '../lib/events';
import type { Subscriber } from '../lib/changes';
import { subscribers } from './index';
import { CHANGE_KINDS, inTransaction, REACTIONS, type ReactionTable, type SubscriberName } from './reactions';

const all = subscribers(
  { publicUrl: 'http://localhost', emailVerification: 'off', authSecret: 'x'.repeat(32), invitationTtlDays: 7 },
  new EventBus(),
);

/** The kinds a subscriber acts on (a handler, not null). */
const handled = (s: Subscriber) =>
  Object.entries(s.handlers)
    .filter(([, handler]) => handler !== null)
    .map(([kind]) => kind)
    .sort();

describe('the reaction table (issue 34)', () => {
  it('every subscriber has a decision for every kind, and acts on exactly the kinds its row names', () => {
    expect(all.map((s) => s.name)).toEqual(['audit', 'activity', 'webhooks', 'mail', 'realtime']);
    for (const s of all) {
      expect(Object.keys(s.handlers).sort()).toEqual([...CHANGE_KINDS].sort());
      const byTable = CHANGE_KINDS.filter((k) => (REACTIONS[k] as readonly string[]).includes(s.name)).sort();
      expect(handled(s), s.name).toEqual(byTable);
    }
  });

  it('a row names each subscriber once, in the order they run', () => {
    const order: SubscriberName[] = ['audit', 'activity', 'webhooks', 'mail', 'realtime'];
    for (const kind of CHANGE_KINDS) {
      const row: readonly SubscriberName[] = REACTIONS[kind];
      expect(row, kind).toEqual(order.filter((name) => row.includes(name)));
    }
  });

  it('a handler missing from a table, or one the row does not name, or a kind without its row fails the typecheck', () => {
    // Each probe below is a type error (`tsc --noEmit`, which npm run lint and CI run); at run time they build tables.
    // @ts-expect-error the activity subscriber's row names task.updated: its handler is missing
    const missing = inTransaction('activity', {});
    const extra = inTransaction('activity', {
      'task.updated': () => undefined,
      // @ts-expect-error the activity subscriber's row does not name task.deleted
      'task.deleted': () => undefined,
    });
    const { 'team.created': _dropped, ...withoutOne } = REACTIONS;
    // @ts-expect-error a table without a row for every kind is not a ReactionTable
    const incomplete: ReactionTable = withoutOne;
    expect(missing.handlers['task.updated']).toBeNull();
    expect(extra.handlers['task.deleted']).not.toBeNull();
    expect(Object.keys(incomplete)).not.toContain('team.created');
  });
});
