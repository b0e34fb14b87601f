import { useSyncExternalStore } from 'react';
import type { Awareness } from 'y-protocols/awareness';
import { Avatar } from '../../../components/ui/avatar';

export interface PresentUser {
  id: string;
  name: string;
  color: string;
}

const HEX = /^#[0-9a-f]{6}$/i;

/** The people in the note now (awareness states), each once, this browser's user first. */
export function presentUsers(states: Map<number, Record<string, unknown>>, selfId: string): PresentUser[] {
  const byId = new Map<string, PresentUser>();
  for (const state of states.values()) {
    const u = state.user as Partial<PresentUser> | undefined;
    if (!u || typeof u.id !== 'string' || typeof u.name !== 'string') continue;
    if (!byId.has(u.id)) {
      byId.set(u.id, {
        id: u.id,
        name: u.name.slice(0, 100),
        color: typeof u.color === 'string' && HEX.test(u.color) ? u.color : '#475569',
      });
    }
  }
  return [...byId.values()].sort((a, b) => (a.id === selfId ? -1 : b.id === selfId ? 1 : a.name.localeCompare(b.name)));
}

function useAwarenessStates(awareness: Awareness) {
  return useSyncExternalStore(
    (onChange) => {
      awareness.on('change', onChange);
      return () => awareness.off('change', onChange);
    },
    // The map is mutated in place: a new key per change (its size and clocks) makes React re-read it.
    () => awarenessKey(awareness),
  );
}

const awarenessKey = (awareness: Awareness) =>
  [...awareness.getStates().entries()].map(([client, s]) => `${client}:${JSON.stringify(s.user ?? null)}`).join('|');

/** Avatars (and, where there is room, names) of who is in the note, each ringed in their caret's colour. */
export function Presence({ awareness, selfId }: { awareness: Awareness; selfId: string }) {
  useAwarenessStates(awareness);
  const users = presentUsers(awareness.getStates() as Map<number, Record<string, unknown>>, selfId);
  return (
    <div className="flex items-center gap-2">
      <ul aria-label="People here" className="flex -space-x-1.5">
        {users.map((u) => {
          const label = u.id === selfId ? `${u.name} (you)` : u.name;
          return (
            <li key={u.id} className="rounded-full ring-2" style={{ ['--tw-ring-color' as string]: u.color }} title={label}>
              <Avatar name={u.name} label={label} />
            </li>
          );
        })}
      </ul>
    </div>
  );
}
