import { useQuery } from '@tanstack/react-query';
import { teamsQueryOptions } from '../../../lib/queries/teams';

const personNamesOf = (teams: { members: { userId: string; user: { fullName: string } }[] }[]) =>
  new Map(teams.flatMap((t) => t.members.map((m) => [m.userId, m.user.fullName] as const)));

/**
 * Names of the people in the caller's teams by user id (the teams query the filters already load), for person fields.
 * A module of its own: code in the board's start-up script can import it without the value chips
 * (custom-field-value.tsx), which load lazily.
 */
export function usePersonNames(enabled = true): (userId: string) => string | null {
  const names = useQuery({ ...teamsQueryOptions(), select: personNamesOf, enabled }).data;
  return (userId) => names?.get(userId) ?? null;
}
