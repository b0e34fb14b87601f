import { useQuery } from '@tanstack/react-query';
import type { TeamDto } from '../../../../domain/schemas/team';
import { teamsQueryOptions } from '../../../lib/queries/teams';

/** What the team dropdowns need from a team: its id, name and the caller's role. */
export type TeamOption = Pick<TeamDto, 'id' | 'name' | 'myRole'>;

const toTeamOptions = (teams: TeamDto[]): TeamOption[] => teams.map(({ id, name, myRole }) => ({ id, name, myRole }));

/** The team dropdowns' view of my teams: the teams list's cache entry, narrowed with `select`. */
export const useTeamOptions = () => useQuery({ ...teamsQueryOptions(), select: toTeamOptions });
